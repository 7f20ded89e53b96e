#!/usr/bin/env python3
"""Opcode census of an sm_90 cubin, for machines without cuobjdump/nvdisasm (heuristic).

Reads the ELF cubin written by `nvcc -arch=sm_90 -cubin`, splits each `.text.<kernel>` section into
16-byte instructions and classifies them by their low 12 bits (the opcode field of the Volta-family
encodings, sm_70 to sm_90). Only the memory opcodes below are named; the table was inferred from
public Volta/Turing/Ampere encoding notes and checked differentially on these very kernels (lds_wN
and sts_wN differ in exactly one opcode, 0x984 vs 0x988; the 3-bit size field, bits 73-75, reads
0/2/4/5/6 for 1/2/4/8/16-byte accesses). An opcode missing from the table is not recognised as a
memory access, so this check can miss things that `cuobjdump -sass` would show: cuobjdump, run by
check_microbench_sass.py on the device machine, is the authoritative check. run_microbench.sh runs
both there, so the two can be compared.

Usage: cubin_census.py [--check] FILE.cubin ...
  --check  apply the microbenchmark rules (one measured access of the intended width per kernel,
           at most one guarded 32-bit STG in load/atomic kernels, nothing else) and exit 1 on failure.
"""
import re
import struct
import sys

# low 12 bits -> mnemonic (memory instructions only)
MEM_OPCODES = {
    0x984: "LDS", 0x988: "STS", 0x388: "STS",
    0x981: "LDG", 0x381: "LDG", 0x986: "STG", 0x386: "STG",
    0x980: "LD", 0x385: "ST",
    0x983: "LDL", 0x387: "STL",
    0x9a8: "ATOMG", 0x3a8: "ATOMG", 0x98e: "RED", 0x38c: "ATOMS", 0x98c: "ATOMS",
    0x83b: "LDSM", 0xfae: "LDGSTS", 0x9af: "LDGDEPBAR",
}
OTHER_OPCODES = {0xb82: "LDC", 0xab9: "ULDC", 0x94d: "EXIT", 0x947: "BRA", 0x918: "NOP", 0x919: "S2R"}
SIZE_NAMES = {0: "U8", 1: "S8", 2: "U16", 3: "S16", 4: "32", 5: "64", 6: "128"}
WIDTH_SIZE = {1: 0, 2: 2, 4: 4, 8: 5, 16: 6}


def elf_sections(data):
    if data[:4] != b"\x7fELF" or data[4] != 2:
        raise ValueError("not a 64-bit ELF file")
    shoff = struct.unpack_from("<Q", data, 0x28)[0]
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    hdrs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    stroff = hdrs[shstrndx][4]
    out = {}
    for h in hdrs:
        end = data.index(b"\0", stroff + h[0])
        out[data[stroff + h[0]:end].decode()] = data[h[4]:h[4] + h[5]]
    return out


def kernel_instructions(path):
    """{kernel: [(low 64 bits, high 64 bits), ...]}: the 16-byte instructions of each kernel."""
    with open(path, "rb") as f:
        secs = elf_sections(f.read())
    return {name[len(".text."):]: [struct.unpack_from("<QQ", text, i) for i in range(0, len(text) - 15, 16)]
            for name, text in secs.items() if name.startswith(".text.")}


def census(path):
    """{kernel: [(mnemonic, size_field), ...]} for the memory instructions of each kernel."""
    return {k: [(MEM_OPCODES[lo & 0xFFF], (hi >> 9) & 7) for lo, hi in ins if lo & 0xFFF in MEM_OPCODES]
            for k, ins in kernel_instructions(path).items()}


def check(kernel, mems):
    m = re.fullmatch(r"(lds|sts|ldg|stg)_w(\d+)", kernel)
    if m:
        want = m.group(1).upper()
        size = WIDTH_SIZE[int(m.group(2))]
        measured = [x for x in mems if x[0] == want]
        rest = [x for x in mems if x[0] != want]
        if len(measured) != 1 or measured[0][1] != size:
            return False
        if want in ("LDS", "LDG"):
            return all(x == ("STG", 4) for x in rest) and len(rest) <= 1
        return not rest
    if kernel == "atom_w4":
        return [x[0] for x in mems].count("ATOMG") == 1 and all(x[0] == "ATOMG" or x == ("STG", 4) for x in mems) \
            and len(mems) <= 2
    if kernel == "red_w4":
        return [x[0] for x in mems] == ["RED"]
    return None


def main(argv):
    do_check = "--check" in argv
    files = [a for a in argv if a != "--check"]
    if not files:
        print(__doc__)
        return 2
    bad = 0
    n = 0
    for path in files:
        for k, mems in sorted(census(path).items()):
            verdict = check(k, mems) if do_check else None
            if verdict is not None:
                n += 1
                bad += 0 if verdict else 1
            desc = " ".join("%s.%s" % (op, SIZE_NAMES.get(sz, sz)) if op in ("LDS", "STS", "LDG", "STG") else op
                            for op, sz in mems)
            print("%-10s %-5s %s" % (k, "" if verdict is None else ("OK" if verdict else "FAIL"), desc))
    if do_check:
        print("census: %d kernels checked, %d failed (heuristic; cuobjdump is authoritative)" % (n, bad))
        return 1 if bad or n == 0 else 0
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
