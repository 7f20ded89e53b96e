#!/usr/bin/env python3
"""How much of the measured truth does the no-toolkit path claim?

warpcheck costs each access as the instructions the compiler emitted: read
from the cubin's listing when a toolkit with nvdisasm is there (or
--sass-listing gives one), predicted by the model otherwise (merges of
unrolled shared accesses, hoisting; docs/hardware-model.md, "What the
compiler changes"). Where the model cannot tell, the access is `assumed`
and the H200 comparison leaves it out.

This runs the H200 comparison of the test inputs (test/hw/compare_inputs.py)
both ways, side by side in one run, and prints per path the measured
(line, kernel, space, operation, launch) rows that are claimed and match,
claimed and do not, left assumed or unknown, and excused, with the share
claimed and matching:

  listing   each input given its recorded listing (test/hw/sass)
  model     no listing: the instruction model alone

Usage: bench/instruction_model.py --build <build dir> [--verbose]
(--verbose lists the rows the listing claims and the model leaves assumed).
"""
import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ROW = re.compile(r"^(PASS|FAIL|SKIP|EXCUSED) (\S+:\d+ \S+ \S+ \S+ \(launch \d+\))")


def classify(build, listings):
    """{row: 'match'|'mismatch'|'assumed'|'excused'} of one comparison run."""
    cmd = [sys.executable, os.path.join(ROOT, "test", "hw", "compare_inputs.py"),
           "--build", build, "--records", os.path.join(ROOT, "test", "hw", "inputs"),
           "--inputs", os.path.join(ROOT, "test", "inputs")]
    if listings:
        cmd += ["--listings", os.path.join(ROOT, "test", "hw", "sass")]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout
    rows = {}
    for line in out.splitlines():
        m = ROW.match(line)
        if not m:
            continue
        verdict, row = m.groups()
        kind = {"PASS": "match", "FAIL": "mismatch", "SKIP": "assumed",
                "EXCUSED": "excused"}[verdict]
        # A row is a mismatch if any of its checks failed.
        if rows.get(row) == "mismatch" or (rows.get(row) == "match" and kind == "match"):
            continue
        rows[row] = kind
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    runs = {"listing": classify(build, True), "model": classify(build, False)}
    print("%-8s %6s %8s %9s %8s %8s %8s" % ("path", "rows", "match", "mismatch", "assumed",
                                            "excused", "claimed"))
    for name, rows in runs.items():
        n = len(rows)
        count = {k: sum(1 for v in rows.values() if v == k)
                 for k in ("match", "mismatch", "assumed", "excused")}
        print("%-8s %6d %8d %9d %8d %8d %7.1f%%" % (
            name, n, count["match"], count["mismatch"], count["assumed"], count["excused"],
            100.0 * count["match"] / n if n else 0.0))
    listing, model = runs["listing"], runs["model"]
    only_listing = sorted(r for r, v in listing.items() if v == "match" and model.get(r) == "assumed")
    only_model = sorted(r for r, v in model.items() if v == "match" and listing.get(r) == "assumed")
    print("rows the listing claims and the model leaves assumed: %d" % len(only_listing))
    print("rows the model claims and the listing leaves assumed: %d" % len(only_model))
    if args.verbose:
        for r in only_listing:
            print("  listing only: " + r)
        for r in only_model:
            print("  model only:   " + r)
    mismatches = sum(1 for rows in runs.values() for v in rows.values() if v == "mismatch")
    return 1 if mismatches else 0


if __name__ == "__main__":
    sys.exit(main())
