#!/usr/bin/env python3
"""Generated CUDA programs (kernel_generator.py) through both front doors,
with what must hold of any report checked, and warpcheck's exact numbers
checked against a reference computed here from the generator's own record
of each access.

    kernel_fuzz.py --build BUILD [--seeds 1-8] [--kernels 24] [--clang-tidy clang-tidy-19]
                   [--keep DIR] [--timeout 120]

Per program:
 - the binary (--format=json) exits 0 or 1 within the time limit with a
   JSON report; the plugin, loaded into clang-tidy, exits without a crash
   and prints the same warnings (line, column, check) as the binary;
 - every kernel is analysed with the block and grid written at its launch,
   every access the generator wrote is reported, and no access assumes a
   value: every value an address depends on is written at the launch
   (what the model predicts of the compiler, e.g. a load kept in a
   register, is allowed; analysis/RegisterPromotion.h);
 - every access: sectors >= ideal sectors >= 1, wavefronts >= ideal >= 1,
   efficiency in (0, 1], conflict degree in [1, 32];
 - every exact global load or store, and every exact __shared__ one, has
   the sectors (wavefronts) per request the reference computes: each warp
   of every block, each iteration of the access's loop, the lanes its
   guard lets through (a request of no lane is not one), the addresses
   evaluated as C evaluates unsigned arithmetic; a global request costs
   the distinct 32-byte sectors its lanes touch (buffers 256-byte aligned,
   as cudaMalloc's are), a 4-byte __shared__ one the most distinct words
   any bank is asked for, an 8- or 16-byte one that per pass of the 16 or
   8 consecutive lanes that request 128 bytes (a wide load two lanes 2k,
   2k+1 of which share an address is left out). These are the rules the H200 records of
   test/hw/ confirm (docs/hardware-model.md) (a launch warpcheck simulates
   on a sample of its warps must have a number between the lowest and the
   highest average of one of its warps; how far the sample's average is
   from the launch's is printed); the reference is a second
   implementation of them, written apart from model/ and analysis/, so a
   disagreement is a defect of one of the two. Atomics are checked for
   the invariants only (their aggregation is a compiler fact: model/).

A failing program is kept (--keep) with the reason. Prints one line per
check and 'N passed, M failed'; exits 1 on a failure.
"""
import argparse
import itertools
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

import kernel_generator  # noqa: E402
from testsupport import Results, plugin_library, run, scratch_dir, warpcheck_binary  # noqa: E402

MASK32 = 0xFFFFFFFF
# What warpcheck may say of an access whose values are all known: its
# predictions of what the compiler does (analysis/RegisterPromotion.h,
# analysis/UnrolledMerges.h).
COMPILER_ASSUMPTIONS = {"kept_in_register", "split_copy", "merged_instruction", "scheduled_line"}
TOLERANCE = 1e-3


class U32:
    """An unsigned int of CUDA C++: every operation modulo 2^32."""

    def __init__(self, v):
        self.v = v & MASK32

    @staticmethod
    def _of(x):
        return x.v if isinstance(x, U32) else x

    def __add__(self, o):
        return U32(self.v + U32._of(o))

    __radd__ = __add__

    def __mul__(self, o):
        return U32(self.v * U32._of(o))

    __rmul__ = __mul__

    def __floordiv__(self, o):
        return U32(self.v // U32._of(o))

    def __rfloordiv__(self, o):
        return U32(U32._of(o) // self.v)

    def __mod__(self, o):
        return U32(self.v % U32._of(o))

    def __rmod__(self, o):
        return U32(U32._of(o) % self.v)

    def __and__(self, o):
        return U32(self.v & U32._of(o))

    __rand__ = __and__

    def __xor__(self, o):
        return U32(self.v ^ U32._of(o))

    __rxor__ = __xor__

    def __rshift__(self, o):
        return U32(self.v >> U32._of(o))

    def __lshift__(self, o):
        return U32(self.v << U32._of(o))

    def __lt__(self, o):
        return self.v < U32._of(o)


def compile_expression(c_text):
    """A C index expression of the generator as a Python code object over
    U32 values: Python orders * / % + << >> & ^ as C does; C's / on
    unsigned is //, and the literals lose their 'u'."""
    text = re.sub(r"\b(\d+)u\b", r"\1", c_text).replace("/", "//")
    return compile(text, "<generated>", "eval")


def reference(kernel, access):
    """(requests, per request, (lowest, highest) of a warp's own average)
    of a global or __shared__ access: sectors or wavefronts, by the rules
    in the module's docstring. Per request None: a wide __shared__ load
    whose lanes share addresses within their quads, which the reference
    leaves out."""
    element = compile_expression(access.element)
    guard = compile_expression(access.guard) if access.guard else None
    functions = {}
    if kernel.helper:
        body = compile_expression(kernel.helper[1])
        functions[kernel.helper[0]] = lambda a, b: eval(body, {}, {"a": a, "b": b})
    bdx, bdy = kernel.block
    threads = bdx * bdy
    requests = total = 0
    warp_range = [None, None]
    for by, bx in ((y, x) for y in range(kernel.grid_y) for x in range(kernel.grid)):
        for warp_start in range(0, threads, 32):
            warp_requests, warp_total = requests, total
            trips = list(access.loop_trips or [1]) + [1]
            for i, j in itertools.product(range(trips[0]), range(trips[1])):
                addresses = []
                for tid in range(warp_start, min(warp_start + 32, threads)):
                    env = {"tx": U32(tid % bdx), "ty": U32(tid // bdx), "bx": U32(bx),
                           "by": U32(by), "nx": U32(bdx), "p": U32(kernel.p),
                           "S": U32(kernel.template or 0), "i": U32(i), "j": U32(j)}
                    if guard is not None and not eval(guard, functions, env):
                        continue
                    addresses.append((tid - warp_start, eval(element, functions, env).v *
                                      access.stride + access.offset))
                if not addresses:
                    continue
                requests += 1
                size = access.bytes_per_lane
                if access.space == "global":
                    sectors = set()
                    for _, a in addresses:
                        sectors.update(range(a // 32, (a + size - 1) // 32 + 1))
                    total += len(sectors)
                    continue
                # Wider than a bank word: passes of the consecutive lanes
                # that request 128 bytes (8 bytes: half warps, 16: quarter
                # warps). A load whose lanes share addresses within their
                # quads (lane k with k ^ 1 or k ^ 2) may be served in longer
                # passes (model/SharedMemory.h): not this reference's to say.
                at = dict(addresses)
                if size > 4 and access.op == "load" and any(
                        k ^ d in at and at[k] == at[k ^ d] for k in at for d in (1, 2)):
                    return requests, None, (None, None)
                lanes_per_pass = 32 if size <= 4 else 128 // size
                for start in range(0, 32, lanes_per_pass):
                    words_of_bank = {}
                    for lane in range(start, start + lanes_per_pass):
                        if lane in at:
                            for word in range(at[lane] // 4, (at[lane] + size - 1) // 4 + 1):
                                words_of_bank.setdefault(word % 32, set()).add(word)
                    if words_of_bank:
                        total += max(len(w) for w in words_of_bank.values())
            if requests > warp_requests:
                average = (total - warp_total) / (requests - warp_requests)
                warp_range = [average if warp_range[0] is None else min(warp_range[0], average),
                              average if warp_range[1] is None else max(warp_range[1], average)]
    return requests, (total / requests if requests else None), tuple(warp_range)


def invariants(a):
    """What must hold of any access of a report: a list of failures."""
    bad = []
    for metric in ("sectors_per_request", "wavefronts_per_request"):
        value, ideal = a.get(metric), a.get("ideal_" + metric)
        if value is not None and ideal is not None and not (value + TOLERANCE >= ideal >= 1 - TOLERANCE):
            bad.append("%s %s below its ideal %s (or the ideal below 1)" % (metric, value, ideal))
    eff = a.get("efficiency")
    if eff is not None and not (0 < eff <= 1 + TOLERANCE):
        bad.append("efficiency %s outside (0, 1]" % eff)
    degree = a.get("conflict_degree")
    if degree is not None and not (1 <= degree <= 32):
        bad.append("conflict degree %s outside [1, 32]" % degree)
    return bad


def plugin_warnings(args, plugin, warpcheck, cwd, name):
    """(exit code, {(line, column, check)}) of the plugin door."""
    rc, out, err = run([warpcheck, "--print-clang-args", name], cwd=cwd, timeout=60)
    clang_args = [a for a in out.split("\n") if a]
    rc, out, err = run([args.clang_tidy, "-load", plugin, "--checks=-*,cuda-*", "--quiet",
                        name, "--"] + clang_args, cwd=cwd, timeout=args.timeout)
    warnings = set()
    for m in re.finditer(r"^[^\n]*?:(\d+):(\d+): warning: [^\n]*\[([\w,.-]+)\]$", out, re.M):
        warnings.add((int(m.group(1)), int(m.group(2)), m.group(3)))
    return rc, warnings, err


def check_program(args, warpcheck, plugin, seed, scratch, results, stats):
    """Checks one generated program; adds to stats['compared'] (exact
    numbers compared) and stats['deviations'] (of a sampled launch's
    number from the whole launch's average, relative)."""
    text, kernels = kernel_generator.program(seed, args.kernels)
    name = "gen-%d.cu" % seed
    with open(os.path.join(scratch, name), "w") as f:
        f.write(text)
    failures = []

    def check(what, ok, detail=""):
        if not results.check("seed %d: %s" % (seed, what), ok, detail):
            failures.append("%s %s" % (what, detail))
            return False
        return True

    rc, out, err = run([warpcheck, "--format=json", name], cwd=scratch, timeout=args.timeout)
    try:
        report = json.loads(out)
    except ValueError:
        report = None
    if not check("the binary exits 0 or 1 with a JSON report", rc in (0, 1) and report,
                 "exit %s: %s" % (rc, err[-1500:])):
        keep(args, seed, text, failures)
        return
    # A template's instance is named with its arguments ('k<4>').
    by_name = {k["name"].split("<")[0]: k for k in report["kernels"]}
    deviations = stats["deviations"]
    for k in kernels:
        entry = by_name.get(k.name)
        if not check("%s is analysed" % k.name, entry and entry.get("status") == "analysed",
                     json.dumps(entry)[:400] if entry else "not in the report"):
            continue
        launch = entry.get("launch") or {}
        check("%s: the launch's shape" % k.name,
              launch.get("source") == "launch" and launch.get("block") == [k.block[0], k.block[1], 1]
              and launch.get("grid") == [k.grid, k.grid_y, 1], json.dumps(launch)[:400])
        reported = {}
        for a in entry["accesses"]:
            reported.setdefault((a["line"], a["space"], a["op"]), []).append(a)
            for bad in invariants(a):
                check("%s:%d %s" % (k.name, a["line"], bad), False)
        for g in k.accesses:
            found = reported.get((g.line, g.space, g.op), [])
            where = "%s:%d %s %s" % (k.name, g.line, g.space, g.op)
            # An arm no lane takes makes no request: reported or not.
            requests, expected, (lowest, highest) = reference(k, g)
            if not requests and not found:
                continue
            if not check("%s is reported" % where, found):
                continue
            a = found[0]
            kinds = set(a.get("assumption_kinds") or [])
            check("%s assumes no value" % where, kinds <= COMPILER_ASSUMPTIONS,
                  "; ".join(a.get("assumptions") or []))
            if a["status"] != "exact" or g.op == "atomic" or not requests:
                continue
            if expected is None:
                stats["left_out"] += 1
                continue
            metric = "sectors_per_request" if g.space == "global" else "wavefronts_per_request"
            got = a.get(metric)
            stats["compared"] += 1
            # A launch of more warps than the simulation budget allows is
            # averaged over a sample of them (simulated_warps of
            # total_warps: the first and the last block and blocks spread
            # between, analysis/Simulation.cpp), stated, as the issue of
            # representative warps asks: its number must lie between the
            # lowest and the highest average of one warp of the launch
            # (any average over whole warps does), not on the launch's.
            sampled = entry["simulated_warps"] < entry["total_warps"]
            if sampled:
                ok = got is not None and lowest is not None and \
                    lowest - TOLERANCE <= got <= highest + TOLERANCE
            else:
                ok = expected is not None and got is not None and abs(got - expected) <= TOLERANCE
            check("%s: %s" % (where, metric), ok,
                  "warpcheck %s, reference %s (%d requests%s; %s)" % (
                      got, expected, requests,
                      ", %d of %d warps simulated, one warp's average %s to %s" % (
                          entry["simulated_warps"], entry["total_warps"], lowest, highest)
                      if sampled else "", a.get("expression")))
            if sampled and expected and got is not None:
                deviations.append((abs(got - expected) / expected, "seed %d %s (%s of %s blocks)" % (
                    seed, where, entry.get("simulated_blocks"), entry.get("total_blocks"))))
    if plugin:
        prc, warnings, perr = plugin_warnings(args, plugin, warpcheck, scratch, name)
        binary = {(f["line"], f["column"], f["check"]) for f in report.get("findings", [])
                  if f.get("severity") == "warning"}
        check("the plugin exits without a crash", prc in (0, 1), "exit %s: %s" % (prc, perr[-1500:]))
        check("the plugin warns where the binary does", warnings == binary,
              "plugin only %s; binary only %s" % (sorted(warnings - binary)[:5],
                                                   sorted(binary - warnings)[:5]))
    # Last: it makes the fix-its in the program's own file.
    check_fixes(args, warpcheck, scratch, name, report, check, stats)
    if failures:
        keep(args, seed, text, failures)


def worst_cost(report, line, space):
    """The most wavefronts (shared) or sectors (global) per request any
    launch reports for the accesses of a line, or None."""
    metric = "wavefronts_per_request" if space == "shared" else "sectors_per_request"
    values = [a[metric] for k in report["kernels"] for a in k.get("accesses", [])
              if a["line"] == line and a["space"] == space and a.get(metric) is not None]
    return max(values) if values else None


def check_fixes(args, warpcheck, scratch, name, report, check, stats):
    """Fix-its that never hurt: the program with the binary's fix-its made
    (--fix) is still analysed without an error, and every line a fixed
    finding was on costs no more than before, its finding gone."""
    fixed = [f for f in report.get("findings", []) if f.get("fixes")]
    if not fixed:
        return
    stats["fixed"] += len(fixed)
    # In the program's own file (its text is kept by check_program): the
    # path and contents the report came from, so that --fix finds the ptxas
    # results of that run in the cache instead of starting nvcc again.
    rc, out, err = run([warpcheck, "--fix", name], cwd=scratch, timeout=args.timeout)
    rc, out, err = run([warpcheck, "--format=json", name], cwd=scratch, timeout=args.timeout)
    try:
        after = json.loads(out)
    except ValueError:
        after = None
    if not check("the program with its fix-its made is analysed without an error",
                 rc in (0, 1) and after is not None and not after.get("errors"),
                 "exit %s: %s" % (rc, (json.dumps(after.get("errors"))[:800] if after else err[-800:]))):
        return
    remaining = {(f["line"], f["check"]) for f in after.get("findings", [])}
    for f in fixed:
        space = "shared" if "bank" in f["check"] else "global"
        before, now = worst_cost(report, f["line"], space), worst_cost(after, f["line"], space)
        check("line %d: the fix-it of %s removes its finding and costs no more" % (
                  f["line"], f["check"]),
              (f["line"], f["check"]) not in remaining and (before is None or now is None or
                                                          now <= before + TOLERANCE),
              "before %s, after %s; %s" % (before, now, f["message"][:300]))


def keep(args, seed, text, failures):
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
        with open(os.path.join(args.keep, "gen-%d.cu" % seed), "w") as f:
            f.write(text)
        with open(os.path.join(args.keep, "gen-%d.txt" % seed), "w") as f:
            f.write("\n".join(failures) + "\n")


def seed_range(text):
    first, _, last = text.partition("-")
    return range(int(first), int(last or first) + 1)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--seeds", default="1-8", help="a seed or a range FIRST-LAST")
    ap.add_argument("--kernels", type=int, default=24)
    ap.add_argument("--clang-tidy", default="clang-tidy-19")
    ap.add_argument("--no-plugin", action="store_true", help="the binary only")
    ap.add_argument("--keep", help="folder for the programs that fail, with their failures")
    ap.add_argument("--timeout", type=int, default=120)
    args = ap.parse_args()
    warpcheck = warpcheck_binary(args.build)
    plugin = None if args.no_plugin else plugin_library(args.build)
    results = Results()
    stats = {"compared": 0, "deviations": [], "left_out": 0, "fixed": 0}
    with scratch_dir("warpcheck-kernel-fuzz-") as scratch:
        for seed in seed_range(args.seeds):
            check_program(args, warpcheck, plugin, seed, scratch, results, stats)
    print("%d exact global and __shared__ numbers compared with the reference (%d wide "
          "__shared__ loads whose lanes share addresses within quads left out)" % (
              stats["compared"], stats["left_out"]))
    print("%d findings with a fix-it made and checked" % stats["fixed"])
    worst = sorted(stats["deviations"], reverse=True)
    d = sorted(x for x, _ in worst)
    if d:
        print("%d of them from a sample of the launch's warps: the sample's average off the "
              "launch's by %.1f%% on average, %.1f%% at the median, %.1f%% at the 90th "
              "percentile, %.1f%% at the most" % (
                  len(d), 100 * sum(d) / len(d), 100 * d[len(d) // 2],
                  100 * d[(9 * len(d)) // 10], 100 * d[-1]))
        print("%d off by more than 2%%; the farthest: %s" % (
            sum(1 for x in d if x > 0.02),
            "; ".join("%s by %.1f%%" % (w, 100 * x) for x, w in worst[:3])))
    return results.summary()


if __name__ == "__main__":
    sys.exit(main())
