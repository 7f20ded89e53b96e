#!/usr/bin/env python3
"""The roofline's time bound against what the H200 measured, side by side.

For every record of test/hw/roofline/ (made on the GPU by
test/hw/scripts/measure_roofline.sh and roofline_to_records.py), runs
`warpcheck --format=json` on its input and prints, per measured launch: the
measured time (ncu's gpu__time_duration), the roofline's time bound on the
target architecture (max(FLOPs / peak, DRAM bytes / bandwidth), the
vendor's peaks), their ratio (bound / measured: the fraction of the
roofline's speed the kernel reached), the bound and the intensity. A
launch can never beat its bound; how far below it a kernel runs is what the
roofline does not model (latency, occupancy, the bandwidth a real copy
reaches: about 4.3 of the H200's 4.8 TB/s, NOTES.md).

Usage: bench/roofline.py [--build build] [--records test/hw/roofline] [--inputs test/inputs]
"""
import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test"))
sys.path.insert(0, os.path.join(ROOT, "test", "hw"))
from compare_inputs import base_name  # noqa: E402
from testsupport import run, warpcheck_binary  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--records", default=os.path.join(ROOT, "test", "hw", "roofline"))
    ap.add_argument("--inputs", default=os.path.join(ROOT, "test", "inputs"))
    args = ap.parse_args()
    records = sorted(n for n in os.listdir(args.records) if n.endswith(".json"))
    if not records:
        print("no records in %s yet (test/hw/roofline/README.md says how to measure)"
              % args.records)
        return 0
    print("%-28s %12s %12s %8s %8s %10s" % ("launch", "measured ms", "bound ms", "ratio",
                                            "bound", "FLOP/byte"))
    for name in records:
        with open(os.path.join(args.records, name)) as f:
            doc = json.load(f)
        stem = name[:-5]
        rc, out, err = run([warpcheck_binary(args.build), "--format=json", stem + ".cu"],
                           cwd=args.inputs)
        if rc not in (0, 1):
            print("%s: warpcheck exited %d: %s" % (stem, rc, err[-500:]))
            continue
        kernels = {}
        for k in json.loads(out)["kernels"]:
            kernels.setdefault(base_name(k["name"]), []).append(k)
        for rec in doc["kernels"]:
            ks = kernels.get(base_name(rec["function"]), [])
            time_ns = rec["metrics"].get("gpu__time_duration.sum")
            if not ks or not time_ns or not ks[min(rec["launch"], len(ks) - 1)].get("roofline"):
                continue
            k = ks[min(rec["launch"], len(ks) - 1)]
            verdict = k["roofline"][0]
            bound_ms = verdict["time_bound_seconds"] * 1e3
            print("%-28s %12.3f %12.3f %8.2f %8s %10s" % (
                "%s #%d" % (rec["function"], rec["launch"]), time_ns / 1e6, bound_ms,
                bound_ms / (time_ns / 1e6), verdict["bound"], k.get("intensity")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
