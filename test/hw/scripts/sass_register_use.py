#!/usr/bin/env python3
"""How ptxas's reported register count relates to the registers the SASS uses.

Reads `cuobjdump -sass` listings (one .sass file per translation unit) and
the matching `nvcc -Xptxas -v` logs (<same name>.ptxas.log), and writes one
CSV row per kernel: the translation unit, the mangled kernel name, ptxas's
"Used N registers" and the highest general register index any instruction
of the kernel names (R0..R254; a 64-bit operand Rn.64 covers Rn+1, a
.64/.128 load or store covers its whole vector).

Usage: sass_register_use.py SASS_DIR LOG_DIR OUT.csv

The listings recorded in test/hw/registers/sass_register_use.csv were made
on the H200 (cuobjdump of sm_90 cubins built by nvcc 13.0 with -O3 from the
test inputs and bench/register_estimator.py's CCCL unit).
"""
import csv
import glob
import os
import re
import sys


def lines_by_function(path, header):
    """(function, line) for every line of path after the first match of the
    regex header, whose group 1 names the function the lines belong to."""
    current = None
    with open(path, errors="replace") as f:
        for line in f:
            m = re.search(header, line)
            if m:
                current = m.group(1)
                yield current, None
            elif current is not None:
                yield current, line


def ptxas_counts(log):
    counts = {}
    for function, line in lines_by_function(log, r"Function properties for (\S+)"):
        m = re.search(r"Used (\d+) registers", line or "")
        if m:
            counts[function] = int(m.group(1))
    return counts


def highest_register(sass):
    result = {}
    for function, line in lines_by_function(sass, r"Function : (\S+)"):
        if line is None:
            result[function] = -1
            continue
        m = re.match(r"\s+/\*[0-9a-f]{4}\*/\s+(.*?);", line)
        if not m:
            continue
        ins = m.group(1)
        words = ins.split()
        op = words[1] if words[0].startswith("@") else words[0]
        width = 4 if ".128" in op else 2 if ".64" in op else 1
        for r in re.finditer(r"\bR(\d+)(\.64)?\b", ins):
            n = int(r.group(1)) + (1 if r.group(2) else 0)
            result[function] = max(result[function], n)
        if width > 1 and (op.startswith("LD") or op.startswith("ST")):
            for r in re.finditer(r"\bR(\d+)\b", ins):
                result[function] = max(result[function], int(r.group(1)) + width - 1)
    return result


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    sass_dir, log_dir, out = sys.argv[1:]
    rows = []
    for sass in sorted(glob.glob(os.path.join(sass_dir, "*.sass"))):
        unit = os.path.basename(sass)[:-len(".sass")]
        log = os.path.join(log_dir, unit + ".ptxas.log")
        if not os.path.exists(log):
            continue
        counts = ptxas_counts(log)
        for kernel, top in sorted(highest_register(sass).items()):
            if kernel in counts:
                rows.append((unit, kernel, counts[kernel], top))
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["unit", "kernel", "ptxas_registers", "highest_register_index"])
        w.writerows(rows)
    plus3 = sum(1 for r in rows if r[2] == r[3] + 3)
    print("%d kernels; ptxas count = highest index + 3 for %d" % (len(rows), plus3))


if __name__ == "__main__":
    main()
