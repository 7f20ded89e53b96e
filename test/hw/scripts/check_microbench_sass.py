#!/usr/bin/env python3
"""Check that each microbenchmark kernel holds exactly the one memory instruction it measures.

Two inputs are understood:
  --sass FILE   output of `cuobjdump -sass BINARY` (the authoritative check; run on the device
                machine, where cuobjdump is installed)
  --ptx FILE    output of `nvcc -ptx` (a weaker check usable where no disassembler exists)

Rules, per kernel name:
  lds_wN / sts_wN   exactly one shared instruction, LDS / STS of width N bytes; no global
                    load, no generic or local access, no other shared access. lds_wN may hold
                    one guarded 32-bit STG (written only when the loaded value equals a magic
                    run-time parameter, never at run time).
  ldg_wN / stg_wN   exactly one LDG / STG of width N; no shared, generic, local or atomic access;
                    ldg_wN may hold one guarded 32-bit STG.
  atom_w4           exactly one ATOMG ... ADD (plus one guarded 32-bit STG).
  red_w4            exactly one RED/REDG ... ADD, nothing else.
Other kernels are listed but not checked.

Writes a human-readable table to stdout and, with --json, a machine-readable summary that
microbench_to_records.py attaches to the records (the exact SASS mnemonic of each kernel's
measured instruction). Exit status 1 if any checked kernel fails, 2 if no kernel was found.
"""
import argparse
import json
import re
import sys

WIDTH_TOKENS_SASS = {1: {"U8", "S8"}, 2: {"U16", "S16"}, 4: {"32", ""}, 8: {"64"}, 16: {"128"}}
SIZE_TOKENS = {"U8", "S8", "U16", "S16", "32", "64", "128"}

SHARED_OPS = {"LDS", "STS", "LDSM", "STSM", "ATOMS"}
GLOBAL_OPS = {"LDG", "STG", "ATOMG", "RED", "REDG", "LDGSTS"}
GENERIC_OPS = {"LD", "ST", "ATOM"}
LOCAL_OPS = {"LDL", "STL"}
OTHER_MEM_OPS = {"UBLKCP", "UTMALDG", "UTMASTG", "UBLKRED", "UTMAREDG", "UTMAPF", "CCTL", "LDGDEPBAR"}
MEM_OPS = SHARED_OPS | GLOBAL_OPS | GENERIC_OPS | LOCAL_OPS | OTHER_MEM_OPS

SASS_LINE = re.compile(r"/\*[0-9a-fA-F]{4,}\*/\s+(?:@!?U?P[T0-9]+\s+)?([A-Z][A-Z0-9_.]*)")
FUNC_LINE = re.compile(r"^\s*Function\s*:\s*(\S+)")


def lines_by_function(text, header):
    """{function: [line, ...]}: the lines of a listing after each line that the compiled regex header
    matches (its group 1 names the function), in order; lines before the first are dropped."""
    funcs = {}
    cur = None
    for line in text.splitlines():
        m = header.match(line)
        if m:
            cur = m.group(1)
            funcs.setdefault(cur, [])
        elif cur is not None:
            funcs[cur].append(line)
    return funcs


def parse_sass(text):
    """Return {kernel: [mnemonic, ...]} with the memory-access mnemonics of each function."""
    funcs = {}
    for cur, lines in lines_by_function(text, FUNC_LINE).items():
        mnems = [m.group(1) for m in map(SASS_LINE.search, lines) if m]
        funcs[cur] = [x for x in mnems if x.split(".")[0] in MEM_OPS]
    return funcs


def sass_size(mnem):
    toks = mnem.split(".")[1:]
    sizes = [t for t in toks if t in SIZE_TOKENS]
    return sizes[0] if sizes else ""


def check_sass_kernel(name, mems):
    """Return (checked, ok, measured_mnemonic, reason)."""
    m = re.fullmatch(r"(lds|sts|ldg|stg)_w(\d+)", name)
    bases = [x.split(".")[0] for x in mems]
    if m:
        kind, width = m.group(1), int(m.group(2))
        want = {"lds": "LDS", "sts": "STS", "ldg": "LDG", "stg": "STG"}[kind]
        measured = [x for x in mems if x.split(".")[0] == want]
        rest = [x for x in mems if x.split(".")[0] != want]
        if kind == "stg":
            measured = [x for x in mems if x.split(".")[0] == "STG"]
            rest = [x for x in mems if x.split(".")[0] != "STG"]
        if len(measured) != 1:
            return True, False, None, "expected exactly one %s, found %r" % (want, mems)
        mm = measured[0]
        if sass_size(mm) not in WIDTH_TOKENS_SASS.get(width, set()):
            return True, False, mm, "width token %r does not match %d bytes" % (sass_size(mm), width)
        if kind in ("lds", "ldg"):
            guard = [x for x in rest if x.split(".")[0] == "STG" and sass_size(x) in ("", "32")]
            if len(guard) > 1 or len(rest) != len(guard):
                return True, False, mm, "unexpected extra memory instructions %r" % rest
        elif rest:
            return True, False, mm, "unexpected extra memory instructions %r" % rest
        if "CONSTANT" in mm.split("."):
            return True, False, mm, "load went through the non-coherent path (.CONSTANT)"
        return True, True, mm, "ok"
    if name == "atom_w4":
        measured = [x for x in mems if x.split(".")[0] in ("ATOMG", "ATOM") and "ADD" in x.split(".")]
        rest = [x for x in mems if x not in measured]
        if len(measured) != 1 or measured[0].split(".")[0] != "ATOMG":
            return True, False, None, "expected exactly one ATOMG.ADD, found %r" % mems
        guard = [x for x in rest if x.split(".")[0] == "STG"]
        if len(guard) > 1 or len(rest) != len(guard):
            return True, False, measured[0], "unexpected extra memory instructions %r" % rest
        return True, True, measured[0], "ok"
    if name == "red_w4":
        measured = [x for x in mems if x.split(".")[0] in ("RED", "REDG") and "ADD" in x.split(".")]
        if len(measured) != 1 or len(mems) != 1:
            return True, False, None, "expected exactly one RED(G).ADD and nothing else, found %r" % mems
        return True, True, measured[0], "ok"
    del bases
    return False, True, None, "not checked"


# ---------------------------------------------------------------------------------------------
# PTX (weaker) check
# ---------------------------------------------------------------------------------------------
PTX_ENTRY = re.compile(r"^\s*\.(?:visible\s+)?\.entry\s+([A-Za-z_$][\w$]*)\s*\(")
PTX_MEM = re.compile(r"^\s*(?:@!?%\w+\s+)?((?:ld|st|atom|red)\.[\w.]+)")
PTX_WIDTH = {1: ("u8", "s8", "b8"), 2: ("u16", "s16", "b16"), 4: ("u32", "s32", "b32", "f32"),
             8: ("v2.u32", "v2.b32", "u64", "b64", "f64", "v2.f32"),
             16: ("v4.u32", "v4.b32", "v2.u64", "v4.f32", "v2.f64")}


def parse_ptx(text):
    funcs = {}
    for cur, lines in lines_by_function(text, PTX_ENTRY).items():
        ops = [m.group(1) for m in map(PTX_MEM.match, lines) if m]
        funcs[cur] = [op for op in ops if not op.startswith("ld.param")]
    return funcs


def ptx_space(op):
    parts = op.split(".")
    for s in ("shared", "global", "local", "const", "param"):
        if s in parts:
            return s
    return "generic"


def ptx_width_ok(op, width):
    return any(op.endswith("." + w) for w in PTX_WIDTH[width])


def check_ptx_kernel(name, ops):
    m = re.fullmatch(r"(lds|sts|ldg|stg)_w(\d+)", name)
    if m:
        kind, width = m.group(1), int(m.group(2))
        want_op = "ld" if kind in ("lds", "ldg") else "st"
        want_space = "shared" if kind in ("lds", "sts") else "global"
        measured = [o for o in ops if o.split(".")[0] == want_op and ptx_space(o) == want_space]
        rest = [o for o in ops if o not in measured]
        if len(measured) != 1:
            return True, False, None, "expected one %s.%s, found %r" % (want_op, want_space, ops)
        if not ptx_width_ok(measured[0], width):
            return True, False, measured[0], "width mismatch"
        if kind in ("lds", "ldg"):
            ok = all(o.startswith("st.global") for o in rest) and len(rest) <= 1
        else:
            ok = not rest
        return True, ok, measured[0], "ok" if ok else "extra memory operations %r" % rest
    if name in ("atom_w4", "red_w4"):
        head = "atom" if name == "atom_w4" else "red"
        measured = [o for o in ops if o.startswith(head + ".global") and ".add" in o]
        rest = [o for o in ops if o not in measured]
        ok = len(measured) == 1 and all(o.startswith("st.global") for o in rest) and len(rest) <= (
            1 if head == "atom" else 0)
        return True, ok, measured[0] if measured else None, "ok" if ok else "found %r" % ops
    return False, True, None, "not checked"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sass", action="append", default=[], help="cuobjdump -sass output file")
    ap.add_argument("--ptx", action="append", default=[], help="nvcc -ptx output file")
    ap.add_argument("--json", help="write a JSON summary here")
    args = ap.parse_args(argv)

    results = {}
    for path in args.sass:
        with open(path, encoding="utf-8", errors="replace") as f:
            for k, mems in parse_sass(f.read()).items():
                checked, ok, mm, why = check_sass_kernel(k, mems)
                results[k] = {"source": "sass", "file": path, "memory_instructions": mems, "checked": checked,
                              "ok": ok, "measured": mm, "reason": why}
    for path in args.ptx:
        with open(path, encoding="utf-8", errors="replace") as f:
            for k, ops in parse_ptx(f.read()).items():
                checked, ok, mm, why = check_ptx_kernel(k, ops)
                key = k if k not in results else k + "@ptx"
                results[key] = {"source": "ptx", "file": path, "memory_instructions": ops, "checked": checked,
                                "ok": ok, "measured": mm, "reason": why}
    if not results:
        print("no kernels found in the given files")
        return 2
    bad = 0
    print("%-10s %-5s %-6s %-28s %s" % ("kernel", "src", "ok", "measured", "memory instructions / reason"))
    for k in sorted(results):
        r = results[k]
        if not r["checked"]:
            continue
        if not r["ok"]:
            bad += 1
        print("%-10s %-5s %-6s %-28s %s%s" % (k, r["source"], "OK" if r["ok"] else "FAIL", r["measured"] or "-",
                                             " ".join(r["memory_instructions"]),
                                             "" if r["ok"] else "   <-- " + r["reason"]))
    n_checked = sum(1 for r in results.values() if r["checked"])
    print("%d kernels checked, %d failed" % (n_checked, bad))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1, sort_keys=True)
    if n_checked == 0:
        return 2
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
