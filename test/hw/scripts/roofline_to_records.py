#!/usr/bin/env python3
"""Turns the exports of test/hw/scripts/measure_roofline.sh into records:
test/hw/roofline/<input>.json.

Per kernel launch (in launch order, numbered per kernel from 0): the
function, its block and grid sizes, and ncu's metrics: the floating-point
instructions per precision (smsp__sass_thread_inst_executed_op_*_pred_on.sum,
one per thread with its predicate on), dram__bytes_read.sum and
dram__bytes_write.sum in bytes, gpu__time_duration.sum in nanoseconds
(measure_roofline.sh asks for base units; others, Kbyte, usecond, ..., are
converted).
Usage: roofline_to_records.py RAW_DIR OUT_DIR
"""
import csv
import json
import os
import sys

from inputs_to_records import normalize_function
from ncu_source_export import number

# ncu prints sizes and times in the unit it finds readable.
UNITS = {"byte": 1, "Kbyte": 1e3, "Mbyte": 1e6, "Gbyte": 1e9, "Tbyte": 1e12,
         "KB": 1024, "MB": 1024 ** 2, "GB": 1024 ** 3,
         "nsecond": 1, "usecond": 1e3, "msecond": 1e6, "second": 1e9,
         "ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}


def metric_value(row):
    value = number(row.get("Metric Value"))
    if value is None:
        return None
    scaled = value * UNITS.get((row.get("Metric Unit") or "").strip(), 1)
    return int(round(scaled)) if abs(scaled - round(scaled)) < 1e-6 * max(1.0, abs(scaled)) else scaled


def parse_roofline_csv(path):
    """One entry per profiled launch, in ncu's order."""
    launches, order = {}, []
    with open(path, newline="") as f:
        lines = [line for line in f if line.startswith('"')]
    for row in csv.DictReader(lines):
        if row.get("ID") in (None, "ID"):
            continue
        lid = int(row["ID"])
        if lid not in launches:
            launches[lid] = {"function": normalize_function(row["Kernel Name"]),
                             "block": row.get("Block Size"), "grid": row.get("Grid Size"),
                             "metrics": {}}
            order.append(lid)
        launches[lid]["metrics"][row["Metric Name"]] = metric_value(row)
    counts, out = {}, []
    for lid in order:
        k = launches[lid]
        k["launch"] = counts.get(k["function"], -1) + 1
        counts[k["function"]] = k["launch"]
        out.append(k)
    return out


def read_text(path):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return ""


def main():
    raw, dest = sys.argv[1], sys.argv[2]
    os.makedirs(dest, exist_ok=True)
    for name in sorted(os.listdir(raw)):
        if not name.endswith(".roofline.csv"):
            continue
        stem = name[: -len(".roofline.csv")]
        kernels = parse_roofline_csv(os.path.join(raw, name))
        device = read_text(os.path.join(raw, stem + ".device.txt")).splitlines()
        doc = {"input": "test/inputs/" + stem + ".cu",
               "device": device[-1] if device else "NVIDIA H200 (sm_90)",
               "tool": "ncu --metrics (caches flushed before each pass, --clock-control none); "
                       "nvcc -O3 -arch=sm_90 -lineinfo",
               "kernels": kernels}
        with open(os.path.join(dest, stem + ".json"), "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        print("%s: %d launches" % (stem, len(kernels)))


if __name__ == "__main__":
    main()
