#!/usr/bin/env python3
"""warpcheck's `aggregated` against what nvcc does, kernel by kernel.

Compiles test/inputs/atomics.cu with nvcc 13.0 (-O3, sm_90, as the SASS census
of test/hw/atomics/ was made), reads which atomics the SASS aggregates per
warp (test/hw/scripts/atomic_sass_census.py: a vote-elected lane issues the
one atomic), and checks that warpcheck's JSON says `aggregated` for exactly
those: for every kernel with one global atomic, aggregated is true when the
SASS aggregates it (every warp of atomics.cu's launches is full, so an
aggregation for full warps only counts). Without nvcc 13.0 there is nothing
to compare and the test says so.
"""
import argparse
import json
import os
import re
import sys

from testsupport import run, scratch_dir, toolkit_nvcc, warpcheck_binary

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "hw", "scripts"))

import atomic_sass_census as census  # noqa: E402


def demangled(names):
    """{mangled: plain kernel name} through c++filt (the name before '(')."""
    rc, out, _ = run(["c++filt"] + list(names))
    plain = out.splitlines() if rc == 0 else list(names)
    return {m: p.split("(")[0] for m, p in zip(names, plain)}


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--build", required=True)
    ap.add_argument("--input", default=os.path.join(HERE, "inputs", "atomics.cu"))
    args = ap.parse_args()
    args.build, args.input = os.path.abspath(args.build), os.path.abspath(args.input)
    nvcc = toolkit_nvcc(warpcheck_binary(args.build))
    version = run([nvcc, "--version"])[1] if nvcc else ""
    if not re.search(r"release 13\.0\b", version):
        print("SKIP: no nvcc 13.0 (the census's compiler) to compare with")
        return 0
    with scratch_dir() as tmp:
        cubin = os.path.join(tmp, "atomics.cubin")
        rc, out, err = run([nvcc, "-O3", "-arch=sm_90", "-cubin", "-o", cubin, args.input])
        if rc != 0:
            print("FAIL: nvcc: " + err)
            return 1
        sass = census.instructions_from_cubin(cubin)
    names = demangled(sorted(sass))
    verdicts = {}
    for mangled, instrs in sass.items():
        atomics, _, aggregated = census.classify(instrs)
        if len(atomics) == 1 or aggregated == "full_warp":
            verdicts[names[mangled]] = aggregated in ("yes", "full_warp")
    rc, out, err = run([warpcheck_binary(args.build), "--format=json", args.input],
                       cwd=os.path.dirname(args.input))
    if rc != 0:
        print("FAIL: warpcheck exited %s: %s" % (rc, err))
        return 1
    atomics = {}
    for k in json.loads(out)["kernels"]:
        found = [a for a in k["accesses"] if a["op"] == "atomic" and a["space"] == "global"]
        if len(found) == 1:
            atomics[k["name"]] = found[0]["aggregated"]
    failed = compared = 0
    for kernel, sass_aggregates in sorted(verdicts.items()):
        if kernel not in atomics:
            continue
        compared += 1
        ok = atomics[kernel] is sass_aggregates
        failed += not ok
        print("%s %-14s nvcc %s, warpcheck %s" % ("ok  " if ok else "FAIL", kernel,
                                                   "aggregates" if sass_aggregates else "does not",
                                                   "aggregated" if atomics[kernel] else "not"))
    print("%d passed, %d failed" % (compared - failed, failed))
    return 1 if failed or compared < 10 else 0


if __name__ == "__main__":
    sys.exit(main())
