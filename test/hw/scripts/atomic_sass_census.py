#!/usr/bin/env python3
"""Which atomics nvcc aggregates per warp: a census of the SASS of test/hw/microbench/atomic_patterns.cu.

Usage:
  atomic_sass_census.py --list LIST.csv (--sass SASS.txt | --cubin FILE.cubin) [--ptx FILE.ptx]
                        [-o OUT.csv]
  atomic_sass_census.py --calibrate [--nvcc NVCC]
  atomic_sass_census.py --check-decoder SASS.txt
  atomic_sass_census.py --compare COMMITTED.csv OTHER.csv

LIST.csv is what `atomic_patterns LIST.csv --list` writes (the case fields of every kernel). The
instructions come from `cuobjdump -sass` of the program (--sass: cuobjdump's own spelling, the
authoritative source) or, where no disassembler is installed, straight from the cubin that
`nvcc -O3 -arch=sm_90 -cubin` writes (--cubin: decoded here, see below). --ptx adds each kernel's PTX
atomic instruction (what ptxas was given). One row per kernel:

  kernel, type, op, bytes, address, operand, result, active, scope   the case (from LIST.csv)
  ptx            the PTX atom/red instruction(s)
  sass_source    cuobjdump or cubin
  atomics        the SASS atomic instruction(s), each with its guard predicate
  warp_ops       the warp-wide instructions around them: VOTE/VOTEU, FLO/UFLO, POPC/UPOPC, REDUX,
                 MATCH, SHFL (in program order, each once)
  aggregated     yes        one atomic, issued under a predicate by one lane that a vote elected
                            (VOTE(U) + FLO(U)), for the sum of the active lanes' operands (POPC of the
                            vote times a warp-uniform operand, or REDUX of a per-lane one)
                 full_warp  the old value of a per-lane operand is used: when all 32 lanes are
                            active (a VOTE compared with 0xffffffff) an inclusive SHFL scan and one
                            atomic by lane 31; otherwise every lane issues its own (a second,
                            predicated atomic)
                 no         every active lane issues the atomic (a CAS loop, for __half, included)
  expected_requests, expected_sectors
                 what the GPU should count for the case's one launch (one warp, the lanes and
                 addresses of LIST.csv): an aggregated atomic is one lane's request (1 sector); any
                 other is served per address in rounds (test/hw/global_patterns.json: round k holds
                 the k-th lane of every address, each round costs its distinct 32-byte sectors);
                 empty for a CAS loop

Decoding a cubin (sm_90; no NVIDIA disassembler needed). Instructions are 16 bytes; the low 9 bits
are the opcode, bits 9-11 the operand form, bits 12-15 the guard predicate (7 = PT, bit 15
negates). The opcodes below were identified by differential compilation with ptxas 13.0 (a kernel
with one PTX instruction added, against the same kernel without it: `--calibrate` repeats that and
checks every entry) and, where a cuobjdump listing of the same binary was at hand (the records of
test/hw/raw/), against cuobjdump's spelling. For atomics the fields in the high word: operation
(bits 23-26: ADD MIN MAX INC DEC AND OR XOR EXCH; REDG's bit 26 is always set), type (bits 9-11
for integers: U32 (not spelled), S32, 64, S64; bits 9-12 for floating point: F16x2, BF16x2, F32,
F32x2, F32x4, F64) and scope (bits 13-16: GPU, SM (a block), SYS). Spellings follow cuobjdump's
(ATOMG.E.ADD.STRONG.GPU, REDG.E.ADD.F32.FTZ.RN.STRONG.GPU); cuobjdump may add rounding modifiers
to the other floating-point types.
"""
import argparse
import csv
import io
import os
import re
import shutil
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# test/testsupport.py: what warpcheck's test scripts share.
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

from check_microbench_sass import FUNC_LINE, PTX_ENTRY, lines_by_function  # noqa: E402
from cubin_census import kernel_instructions  # noqa: E402
from testsupport import run, scratch_dir  # noqa: E402

# ---------------------------------------------------------------------------------------------
# Instructions
# ---------------------------------------------------------------------------------------------
ATOMIC_BASES = {"ATOMG", "REDG", "RED", "ATOM", "ATOMS"}
WARP_BASES = ("VOTE", "VOTEU", "FLO", "UFLO", "POPC", "UPOPC", "REDUX", "MATCH", "SHFL")

# opcode (low 9 bits) -> mnemonic, for the instructions the census names
OPCODES = {
    0x006: "VOTE", 0x086: "VOTEU", 0x100: "FLO", 0x0BD: "UFLO", 0x109: "POPC", 0x0BF: "UPOPC",
    0x1C4: "REDUX", 0x1A1: "MATCH", 0x189: "SHFL", 0x1AA: "QSPC", 0x147: "BRA", 0x14D: "EXIT",
}
# opcode -> (class, operand family): integer and EXCH, CAS, floating-point add
ATOMIC_OPCODES = {
    0x1A8: ("ATOMG", "int"), 0x1A9: ("ATOMG", "cas"), 0x1A3: ("ATOMG", "float"),
    0x18E: ("REDG", "int"), 0x1A6: ("REDG", "float"),
    0x18A: ("ATOM", "int"), 0x18B: ("ATOM", "cas"), 0x1A2: ("ATOM", "float"),
    0x18C: ("ATOMS", "int"), 0x18D: ("ATOMS", "cas"),
}
INT_OPS = ("ADD", "MIN", "MAX", "INC", "DEC", "AND", "OR", "XOR", "EXCH")
INT_TYPES = {0: "", 1: "S32", 2: "64", 3: "S64"}
FLOAT_TYPES = {0: "F16x2", 3: "BF16x2", 9: "F32.FTZ.RN", 10: "F32x2", 11: "F32x4", 15: "F64"}
SCOPES = {7: "GPU", 5: "SM", 10: "SYS"}


class Instr:
    """One SASS instruction: its guard ('' or '@P0', '@!P1', ...) and mnemonic."""

    def __init__(self, guard, name):
        self.guard = guard
        self.name = name
        self.base = name.split(".")[0]

    def __repr__(self):
        return (self.guard + " " if self.guard else "") + self.name


def decode_atomic(cls, family, lo, hi):
    """The mnemonic of an atomic instruction from its encoding (see the module comment)."""
    if cls == "ATOMS":
        return "ATOMS.CAS" if family == "cas" else "ATOMS"
    parts = [cls, "E"]
    if family == "cas":
        parts += ["CAS", INT_TYPES.get((hi >> 9) & 7, "?")]
    elif family == "float":
        parts += ["ADD", FLOAT_TYPES.get((hi >> 9) & 0xF, "F?%x" % ((hi >> 9) & 0xF))]
    else:
        op = (hi >> 23) & (0x7 if cls == "REDG" else 0xF)
        parts += [INT_OPS[op] if op < len(INT_OPS) else "OP%d" % op, INT_TYPES.get((hi >> 9) & 7, "?")]
    parts += ["STRONG", SCOPES.get((hi >> 13) & 0xF, "SCOPE%d" % ((hi >> 13) & 0xF))]
    return ".".join(p for p in parts if p)


def guard_of(lo):
    pred, neg = (lo >> 12) & 7, (lo >> 15) & 1
    if pred == 7 and not neg:
        return ""
    return "@%sP%s" % ("!" if neg else "", "T" if pred == 7 else pred)


def decode(lo, hi):
    """The Instr of one encoded instruction, or None for one the census does not name."""
    op = lo & 0x1FF
    if op in ATOMIC_OPCODES:
        cls, family = ATOMIC_OPCODES[op]
        return Instr(guard_of(lo), decode_atomic(cls, family, lo, hi))
    if op in OPCODES:
        return Instr(guard_of(lo), OPCODES[op])
    return None


def instructions_from_cubin(path):
    """{kernel: [Instr]} for the instructions the census names, decoded from an sm_90 cubin."""
    return {k: [d for d in map(decode, *zip(*ins)) if d] if ins else []
            for k, ins in kernel_instructions(path).items()}


SASS_INSTR = re.compile(r"/\*[0-9a-fA-F]{4,}\*/\s+(?:(@!?U?P[T0-9]+)\s+)?([A-Z][A-Z0-9_.]*)")


def instructions_from_sass(text):
    """{kernel: [Instr]} from `cuobjdump -sass` (every instruction, as cuobjdump spells it)."""
    return {k: [Instr(m.group(1) or "", m.group(2)) for m in map(SASS_INSTR.search, lines) if m]
            for k, lines in lines_by_function(text, FUNC_LINE).items()}


ENCODING = re.compile(r"/\* (0x[0-9a-fA-F]{16}) \*/\s*$")


def decoder_mismatches(text):
    """Check decode() against a cuobjdump listing that prints the encodings: (instructions compared,
    [(kernel, cuobjdump's spelling, decoded)]) for the instructions the census names."""
    lines = text.splitlines()
    checked, bad, cur = 0, [], None
    for n, line in enumerate(lines):
        m = FUNC_LINE.match(line)
        if m:
            cur = m.group(1)
            continue
        ins, lo = SASS_INSTR.search(line), ENCODING.search(line)
        hi = ENCODING.search(lines[n + 1]) if n + 1 < len(lines) else None
        if not (ins and lo and hi) or SASS_INSTR.search(lines[n + 1]):
            continue
        d = decode(int(lo.group(1), 16), int(hi.group(1), 16))
        printed = Instr(ins.group(1) or "", ins.group(2))
        if d is None:
            if printed.base in ATOMIC_BASES or printed.base in WARP_BASES:
                bad.append((cur, repr(printed), "not named"))
            continue
        checked += 1
        same_name = d.name == printed.name if d.base in ATOMIC_BASES else d.base == printed.base
        if not same_name or d.guard != printed.guard:
            bad.append((cur, repr(printed), repr(d)))
    return checked, bad


PTX_ATOMIC = re.compile(r"\b((?:atom|red)\.[a-z0-9_.]+)")


def ptx_atomics(text):
    """{kernel: [PTX atom/red instruction]} (inline-asm braces included)."""
    return {k: [op for line in lines for op in PTX_ATOMIC.findall(line.split("//")[0])]
            for k, lines in lines_by_function(text, PTX_ENTRY).items()}


# ---------------------------------------------------------------------------------------------
# Classification
# ---------------------------------------------------------------------------------------------
def classify(instrs):
    """(atomics, warp_ops, aggregated) of one kernel's instructions."""
    atomics = [i for i in instrs if i.base in ATOMIC_BASES]
    warp = []
    for i in instrs:
        if i.base in WARP_BASES and i.base not in warp:
            warp.append(i.base)
    voted = "VOTE" in warp or "VOTEU" in warp
    elected = "FLO" in warp or "UFLO" in warp
    if len(atomics) == 1 and atomics[0].guard and voted and elected:
        return atomics, warp, "yes"
    if (len(atomics) == 2 and "VOTE" in warp and "SHFL" in warp and all(a.guard for a in atomics)
            and any(a.guard.startswith("@!") for a in atomics)
            and atomics[0].name == atomics[1].name):
        return atomics, warp, "full_warp"
    return atomics, warp, "no"


def lane_words(row):
    """{lane: word index} of the lanes that execute the case's call (one warp of one block)."""
    mask = int(row["active_mask"], 16)
    addr = row["address"]
    out = {}
    for lane in range(32):
        if (mask >> lane) & 1:
            out[lane] = lane if addr == "lane" else lane // 4 if addr == "grp4" else 0
    return out


def serialised_sectors(words, width):
    """Sectors of an atomic served in rounds: round k holds the k-th lane of every address."""
    seen, rounds = {}, []
    for lane in sorted(words):
        k = seen.get(words[lane], 0)
        seen[words[lane]] = k + 1
        if k == len(rounds):
            rounds.append(set())
        first = words[lane] * width
        rounds[k].update(range(first // 32, (first + width - 1) // 32 + 1))
    return sum(len(r) for r in rounds)


def expected(row, aggregated, atomics):
    """(requests, sectors) the GPU should count for the case's launch, or ('', '')."""
    words = lane_words(row)
    if not words:
        return 0, 0
    # The global path: a generic atomic (__half2) also has a shared-memory CAS loop, not taken.
    global_path = [a for a in atomics if a.base != "ATOMS"]
    if any(".CAS" in a.name for a in global_path) and row["op"] != "cas":
        return "", ""  # a CAS loop (__half): as many rounds as the loop takes
    one_lane = aggregated == "yes" or (aggregated == "full_warp" and len(words) == 32)
    if one_lane:
        return 1, 1
    return 1, serialised_sectors(words, int(row["bytes"]))


CASE_FIELDS = ["kernel", "type", "op", "bytes", "address", "operand", "result", "active", "scope"]
COLUMNS = CASE_FIELDS + ["ptx", "sass_source", "atomics", "warp_ops", "aggregated", "expected_requests",
                         "expected_sectors"]


def census_rows(list_rows, instrs, source, ptx=None):
    rows = []
    for r in list_rows:
        k = r["kernel"]
        if k not in instrs:
            raise KeyError("kernel %s is not in the SASS" % k)
        atomics, warp, agg = classify(instrs[k])
        req, sec = expected(r, agg, atomics)
        row = {f: r[f] for f in CASE_FIELDS}
        row.update(ptx=" ".join((ptx or {}).get(k, [])), sass_source=source,
                   atomics=" ; ".join(repr(a) for a in atomics), warp_ops=" ".join(warp), aggregated=agg,
                   expected_requests=req, expected_sectors=sec)
        rows.append(row)
    return rows


def write_csv(rows, f):
    w = csv.DictWriter(f, fieldnames=COLUMNS, lineterminator="\n")
    w.writeheader()
    for r in rows:
        w.writerow(r)


# ---------------------------------------------------------------------------------------------
# Calibration: one PTX instruction per kernel, compiled by ptxas, decoded, compared
# ---------------------------------------------------------------------------------------------
CALIBRATION_SOURCE = r"""
#define K extern "C" __global__ void
#define G (o + threadIdx.x)
K vote(unsigned* o, unsigned u) { unsigned r; asm volatile("{.reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, 0xffffffff;}" : "=r"(r) : "r"(threadIdx.x ^ u)); o[threadIdx.x] = r ^ threadIdx.x; }
K voteu(unsigned* o, unsigned u) { unsigned r; asm volatile("activemask.b32 %0;" : "=r"(r)); o[threadIdx.x] = r ^ threadIdx.x; }
K popc(unsigned* o, unsigned u) { unsigned r; asm volatile("popc.b32 %0, %1;" : "=r"(r) : "r"(threadIdx.x ^ u)); o[threadIdx.x] = r; }
K upopc(unsigned* o, unsigned u) { unsigned r; asm volatile("popc.b32 %0, %1;" : "=r"(r) : "r"(u * 3 + blockIdx.x)); o[threadIdx.x] = r ^ threadIdx.x; }
K flo(unsigned* o, unsigned u) { unsigned r; asm volatile("bfind.u32 %0, %1;" : "=r"(r) : "r"(threadIdx.x ^ u)); o[threadIdx.x] = r; }
K uflo(unsigned* o, unsigned u) { unsigned r; asm volatile("bfind.u32 %0, %1;" : "=r"(r) : "r"(u * 3 + blockIdx.x)); o[threadIdx.x] = r ^ threadIdx.x; }
K redux(unsigned* o, unsigned u) { unsigned r; asm volatile("redux.sync.add.u32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(threadIdx.x ^ u)); o[threadIdx.x] = r ^ threadIdx.x; }
K match(unsigned* o, unsigned u) { unsigned r; asm volatile("match.any.sync.b32 %0, %1, 0xffffffff;" : "=r"(r) : "r"(threadIdx.x ^ u)); o[threadIdx.x] = r ^ threadIdx.x; }
K shfl(unsigned* o, unsigned u) { unsigned r; asm volatile("shfl.sync.idx.b32 %0, %1, %2, 31, 0xffffffff;" : "=r"(r) : "r"(threadIdx.x ^ u), "r"(u)); o[threadIdx.x] = r; }
K qspc(unsigned* o, unsigned u) { unsigned r; asm volatile("{.reg .pred p; isspacep.shared p, %1; selp.u32 %0, 1, 0, p;}" : "=r"(r) : "l"(G)); o[threadIdx.x] = r ^ u; }
K atomg_add(unsigned* o, unsigned u) { unsigned r; asm volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(r) : "l"(G), "r"(u)); o[threadIdx.x + 64] = r; }
K atomg_min_s32(int* o, int u) { int r; asm volatile("atom.global.min.s32 %0, [%1], %2;" : "=r"(r) : "l"(o + threadIdx.x), "r"(u)); o[threadIdx.x + 64] = r; }
K atomg_exch(unsigned* o, unsigned u) { unsigned r; asm volatile("atom.global.exch.b32 %0, [%1], %2;" : "=r"(r) : "l"(G), "r"(u)); o[threadIdx.x + 64] = r; }
K atomg_inc(unsigned* o, unsigned u) { unsigned r; asm volatile("atom.global.inc.u32 %0, [%1], %2;" : "=r"(r) : "l"(G), "r"(u)); o[threadIdx.x + 64] = r; }
K atomg_add_64(unsigned long long* o, unsigned u) { unsigned long long r; asm volatile("atom.global.add.u64 %0, [%1], %2;" : "=l"(r) : "l"(o + threadIdx.x), "l"((unsigned long long)u)); o[threadIdx.x + 64] = r; }
K atomg_cas(unsigned* o, unsigned u) { unsigned r; asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(r) : "l"(G), "r"(u), "r"(u + 1)); o[threadIdx.x + 64] = r; }
K atomg_cas_64(unsigned long long* o, unsigned u) { unsigned long long r; asm volatile("atom.global.cas.b64 %0, [%1], %2, %3;" : "=l"(r) : "l"(o + threadIdx.x), "l"((unsigned long long)u), "l"((unsigned long long)u + 1)); o[threadIdx.x + 64] = r; }
K atomg_add_f32(float* o, float u) { float r; asm volatile("atom.global.add.f32 %0, [%1], %2;" : "=f"(r) : "l"(o + threadIdx.x), "f"(u)); o[threadIdx.x + 64] = r; }
K atomg_add_f64(double* o, double u) { double r; asm volatile("atom.global.add.f64 %0, [%1], %2;" : "=d"(r) : "l"(o + threadIdx.x), "d"(u)); o[threadIdx.x + 64] = r; }
K atomg_add_f16x2(unsigned* o, unsigned u) { unsigned r; asm volatile("atom.global.add.noftz.f16x2 %0, [%1], %2;" : "=r"(r) : "l"(G), "r"(u)); o[threadIdx.x + 64] = r; }
K atomg_add_bf16x2(unsigned* o, unsigned u) { unsigned r; asm volatile("atom.global.add.noftz.bf16x2 %0, [%1], %2;" : "=r"(r) : "l"(G), "r"(u)); o[threadIdx.x + 64] = r; }
K redg_add(unsigned* o, unsigned u) { asm volatile("red.global.add.u32 [%0], %1;" :: "l"(G), "r"(u)); }
K redg_add_s32(int* o, int u) { asm volatile("red.global.add.s32 [%0], %1;" :: "l"(o + threadIdx.x), "r"(u)); }
K redg_min(unsigned* o, unsigned u) { asm volatile("red.global.min.u32 [%0], %1;" :: "l"(G), "r"(u)); }
K redg_xor(unsigned* o, unsigned u) { asm volatile("red.global.xor.b32 [%0], %1;" :: "l"(G), "r"(u)); }
K redg_add_64(unsigned long long* o, unsigned u) { asm volatile("red.global.add.u64 [%0], %1;" :: "l"(o + threadIdx.x), "l"((unsigned long long)u)); }
K redg_max_s64(long long* o, long long u) { asm volatile("red.global.max.s64 [%0], %1;" :: "l"(o + threadIdx.x), "l"(u)); }
K redg_add_cta(unsigned* o, unsigned u) { asm volatile("red.relaxed.cta.global.add.u32 [%0], %1;" :: "l"(G), "r"(u)); }
K redg_add_sys(unsigned* o, unsigned u) { asm volatile("red.relaxed.sys.global.add.u32 [%0], %1;" :: "l"(G), "r"(u)); }
K redg_add_f32(float* o, float u) { asm volatile("red.global.add.f32 [%0], %1;" :: "l"(o + threadIdx.x), "f"(u)); }
K redg_add_f64(double* o, double u) { asm volatile("red.global.add.f64 [%0], %1;" :: "l"(o + threadIdx.x), "d"(u)); }
K redg_add_f32x2(float* o, float u) { asm volatile("red.global.v2.f32.add [%0], {%1, %1};" :: "l"(o + 2 * threadIdx.x), "f"(u)); }
K redg_add_f32x4(float* o, float u) { asm volatile("red.global.v4.f32.add [%0], {%1, %1, %1, %1};" :: "l"(o + 4 * threadIdx.x), "f"(u)); }
K atom_add(unsigned* o, unsigned u) { unsigned r; asm volatile("atom.add.u32 %0, [%1], %2;" : "=r"(r) : "l"(G), "r"(u)); o[threadIdx.x + 64] = r; }
K atom_cas(unsigned* o, unsigned u) { unsigned r; asm volatile("atom.cas.b32 %0, [%1], %2, %3;" : "=r"(r) : "l"(G), "r"(u), "r"(u + 1)); o[threadIdx.x + 64] = r; }
K atoms_add(unsigned* o, unsigned u) { __shared__ unsigned s[64]; unsigned r; asm volatile("atom.shared.add.u32 %0, [%1], %2;" : "=r"(r) : "r"((unsigned)__cvta_generic_to_shared(s + threadIdx.x)), "r"(u)); o[threadIdx.x] = r; }
K atoms_cas(unsigned* o, unsigned u) { __shared__ unsigned s[64]; unsigned r; asm volatile("atom.shared.cas.b32 %0, [%1], %2, %3;" : "=r"(r) : "r"((unsigned)__cvta_generic_to_shared(s + threadIdx.x)), "r"(u), "r"(u + 1)); o[threadIdx.x] = r; }
"""

# kernel -> the mnemonic it must add (the rest of each kernel: LDC, S2R, IMAD, STG, EXIT, BRA)
CALIBRATION = {
    "vote": "VOTE", "voteu": "VOTEU", "popc": "POPC", "upopc": "UPOPC", "flo": "FLO", "uflo": "UFLO",
    "redux": "REDUX", "match": "MATCH", "shfl": "SHFL", "qspc": "QSPC",
    "atomg_add": "ATOMG.E.ADD.STRONG.GPU", "atomg_min_s32": "ATOMG.E.MIN.S32.STRONG.GPU",
    "atomg_exch": "ATOMG.E.EXCH.STRONG.GPU", "atomg_inc": "ATOMG.E.INC.STRONG.GPU",
    "atomg_add_64": "ATOMG.E.ADD.64.STRONG.GPU", "atomg_cas": "ATOMG.E.CAS.STRONG.GPU",
    "atomg_cas_64": "ATOMG.E.CAS.64.STRONG.GPU", "atomg_add_f32": "ATOMG.E.ADD.F32.FTZ.RN.STRONG.GPU",
    "atomg_add_f64": "ATOMG.E.ADD.F64.STRONG.GPU", "atomg_add_f16x2": "ATOMG.E.ADD.F16x2.STRONG.GPU",
    "atomg_add_bf16x2": "ATOMG.E.ADD.BF16x2.STRONG.GPU", "redg_add": "REDG.E.ADD.STRONG.GPU",
    "redg_add_s32": "REDG.E.ADD.S32.STRONG.GPU", "redg_min": "REDG.E.MIN.STRONG.GPU",
    "redg_xor": "REDG.E.XOR.STRONG.GPU", "redg_add_64": "REDG.E.ADD.64.STRONG.GPU",
    "redg_max_s64": "REDG.E.MAX.S64.STRONG.GPU", "redg_add_cta": "REDG.E.ADD.STRONG.SM",
    "redg_add_sys": "REDG.E.ADD.STRONG.SYS", "redg_add_f32": "REDG.E.ADD.F32.FTZ.RN.STRONG.GPU",
    "redg_add_f64": "REDG.E.ADD.F64.STRONG.GPU", "redg_add_f32x2": "REDG.E.ADD.F32x2.STRONG.GPU",
    "redg_add_f32x4": "REDG.E.ADD.F32x4.STRONG.GPU", "atom_add": "ATOM.E.ADD.STRONG.GPU",
    "atom_cas": "ATOM.E.CAS.STRONG.GPU", "atoms_add": "ATOMS", "atoms_cas": "ATOMS.CAS",
}


def calibrate(nvcc):
    """Compile CALIBRATION_SOURCE, decode it; return the list of mismatches (empty: the tables hold)."""
    with scratch_dir() as tmp:
        src, cubin = os.path.join(tmp, "calibration.cu"), os.path.join(tmp, "calibration.cubin")
        with open(src, "w") as f:
            f.write(CALIBRATION_SOURCE)
        rc, out, err = run([nvcc, "-O3", "-arch=sm_90", "-cubin", "-o", cubin, src])
        if rc != 0:
            raise RuntimeError("nvcc failed on the calibration source (%s): %s" % (rc, out + err))
        decoded = instructions_from_cubin(cubin)
    bad = []
    for kernel, want in CALIBRATION.items():
        names = [i.name for i in decoded.get(kernel, []) if i.base not in ("BRA", "EXIT")]
        if names != [want]:
            bad.append("%s: decoded %s, expected [%s]" % (kernel, names, want))
    return bad


def compare(committed, other):
    """Lines saying where two censuses of the same program differ: the verdicts and expectations
    (which must agree), the spelling of the atomic instructions (which may: cuobjdump can spell
    floating-point modifiers that the decoder does not), and a count."""
    a, b = ({r["kernel"]: r for r in csv.DictReader(io.StringIO(t))} for t in (committed, other))
    keys = ("aggregated", "warp_ops", "expected_requests", "expected_sectors")
    lines, differ = [], 0
    for k in a:
        theirs = b.get(k, {})
        if any(a[k][f] != theirs.get(f) for f in keys):
            differ += 1
            lines.append("DIFFERS %s: %s against %s" % (k, [a[k][f] for f in keys], [theirs.get(f) for f in keys]))
        elif a[k]["atomics"] != theirs["atomics"]:
            lines.append("spelling %s: %r against %r" % (k, a[k]["atomics"], theirs["atomics"]))
    lines.append("census against census: %d kernels, %d verdicts differ, %d spellings differ"
                 % (len(a), differ, sum(x.startswith("spelling") for x in lines)))
    return differ, lines


def find_nvcc(given=None):
    for c in (given, shutil.which("nvcc"), "/usr/local/cuda/bin/nvcc"):
        if c and os.access(c, os.X_OK):
            return c
    return None


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--list", help="the program's --list CSV")
    ap.add_argument("--sass", help="cuobjdump -sass of the program")
    ap.add_argument("--cubin", help="the program's sm_90 cubin")
    ap.add_argument("--ptx", help="the program's PTX")
    ap.add_argument("-o", "--output", help="write the census here (default: standard output)")
    ap.add_argument("--calibrate", action="store_true", help="check the opcode tables with nvcc")
    ap.add_argument("--check-decoder", metavar="SASS", help="check the cubin decoder against a cuobjdump "
                    "listing of the same binary (its encodings)")
    ap.add_argument("--nvcc", help="nvcc for --calibrate")
    ap.add_argument("--compare", nargs=2, metavar=("COMMITTED", "OTHER"), help="where two censuses differ")
    args = ap.parse_args(argv)
    if args.calibrate:
        nvcc = find_nvcc(args.nvcc)
        if not nvcc:
            print("no nvcc: cannot calibrate")
            return 2
        bad = calibrate(nvcc)
        for b in bad:
            print("MISMATCH", b)
        print("calibration: %d kernels, %d mismatches" % (len(CALIBRATION), len(bad)))
        return 1 if bad else 0
    if args.compare:
        texts = []
        for path in args.compare:
            with open(path, encoding="utf-8") as f:
                texts.append(f.read())
        differ, lines = compare(*texts)
        print("\n".join(lines))
        return 1 if differ else 0
    if args.check_decoder:
        with open(args.check_decoder, encoding="utf-8", errors="replace") as f:
            checked, bad = decoder_mismatches(f.read())
        for b in bad:
            print("MISMATCH %s: cuobjdump %s, decoded %s" % b)
        print("decoder: %d instructions compared with cuobjdump, %d mismatches" % (checked, len(bad)))
        return 1 if bad or not checked else 0
    if not args.list or bool(args.sass) == bool(args.cubin):
        ap.error("give --list and one of --sass, --cubin")
    with open(args.list, encoding="utf-8") as f:
        list_rows = list(csv.DictReader(f))
    if args.sass:
        with open(args.sass, encoding="utf-8", errors="replace") as f:
            instrs, source = instructions_from_sass(f.read()), "cuobjdump"
    else:
        instrs, source = instructions_from_cubin(args.cubin), "cubin"
    ptx = None
    if args.ptx:
        with open(args.ptx, encoding="utf-8", errors="replace") as f:
            ptx = ptx_atomics(f.read())
    rows = census_rows(list_rows, instrs, source, ptx)
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            write_csv(rows, f)
    else:
        out = io.StringIO()
        write_csv(rows, out)
        sys.stdout.write(out.getvalue())
    counts = {}
    for r in rows:
        counts[r["aggregated"]] = counts.get(r["aggregated"], 0) + 1
    print("census: %d kernels from %s; aggregated: %s" % (
        len(rows), source, ", ".join("%s %d" % kv for kv in sorted(counts.items()))), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
