#!/usr/bin/env python3
"""Compares warpcheck's FLOPs and DRAM bytes with what the H200 measured.

A roofline input is a test/inputs/*.cu holding a line "HW-ROOFLINE:
measured" or "HW-ROOFLINE: pending". For every measured one, its record
test/hw/roofline/<input>.json (test/hw/scripts/measure_roofline.sh +
roofline_to_records.py on the GPU) must exist; `warpcheck --format=json`
runs on the input, and for every launch ncu profiled:

- FLOPs: warpcheck's count must be exact, and its add, mul and fma
  instructions per precision must equal ncu's
  smsp__sass_thread_inst_executed_op_{hadd,hmul,hfma,fadd,fmul,ffma,dadd,
  dmul,dfma}_pred_on.sum exactly;
- DRAM bytes: dram__bytes_read.sum within READ_TOLERANCE of the model;
  dram__bytes_write.sum within WRITE_TOLERANCE above and WRITE_TOLERANCE
  plus L2_RESIDUE_BYTES below it: dirty lines still in L2 when the kernel
  ends are written back after ncu's measured range (docs/hardware-model.md,
  "DRAM traffic of a launch").

The launch's measured time is printed beside the roofline's time bound.
A measured input without its record, a record without its input or of an
input still marked pending are failures. When no input is measured yet
(all pending), the script says which and exits with 77: ctest reports the
test as skipped, not passed.

Prints one line per comparison and 'N passed, M failed'.
"""
import argparse
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from compare_inputs import base_name  # noqa: E402
from testsupport import Results, run, warpcheck_binary  # noqa: E402

# Narrowed to what the records show (test/hw/roofline/roofline.json, the
# H200, 8 launches moving 128 MiB to 3 GiB each): every read within 0.2% of
# the model (stencil5: +0.18%, the most); every write below it by 17 to 24
# MB, never above: the dirty lines still in L2 at the end (allowed up to
# the L2's size), plus 1% either way.
READ_TOLERANCE = 0.01
WRITE_TOLERANCE = 0.01
L2_RESIDUE_BYTES = 64 * 1024 * 1024
SKIPPED = 77
MARKER = re.compile(r"HW-ROOFLINE:\s*(measured|pending)")
OPS = {"fp16": ("hadd", "hmul", "hfma"), "fp32": ("fadd", "fmul", "ffma"),
       "fp64": ("dadd", "dmul", "dfma")}


def metric(name):
    return "smsp__sass_thread_inst_executed_op_%s_pred_on.sum" % name


def roofline_inputs(inputs_dir):
    """{stem: 'measured' | 'pending'} of the inputs that carry the marker."""
    out = {}
    for name in sorted(os.listdir(inputs_dir)):
        if not name.endswith(".cu"):
            continue
        with open(os.path.join(inputs_dir, name), encoding="utf-8", errors="replace") as f:
            m = MARKER.search(f.read())
        if m:
            out[name[:-3]] = m.group(1)
    return out


def dims_count(dims):
    """[256, 1, 1], '(256, 1, 1)' or 256 -> 256."""
    if isinstance(dims, (int, float)):
        return int(dims)
    parts = dims if isinstance(dims, (list, tuple)) else re.findall(r"\d+", dims or "")
    n = 1
    for d in parts:
        n *= int(d)
    return n


def compare_input(stem, doc, report, result):
    launches = {}
    for k in report["kernels"]:
        if k.get("status", "analysed") == "analysed":
            launches.setdefault(base_name(k["name"]), []).append(k)
    for rec in doc["kernels"]:
        fn, m = base_name(rec["function"]), rec["metrics"]
        where = "%s %s (launch %d)" % (stem, rec["function"], rec["launch"])
        candidates = [k for k in launches.get(fn, [])
                      if dims_count(k["launch"]["block"]) == dims_count(rec.get("block")) and
                      (not k["launch"].get("grid") or
                       dims_count(k["launch"]["grid"]) == dims_count(rec.get("grid")))]
        if not candidates:
            result(False, where + ": measured, but warpcheck reports no launch of this shape")
            continue
        k = candidates[min(rec["launch"], len(candidates) - 1)]
        flops = k.get("flops") or {}
        if flops.get("status") != "exact":
            result(False, "%s: warpcheck's FLOPs are %s (%s)" % (
                where, flops.get("status"), "; ".join(flops.get("assumptions", [])) or
                flops.get("not_counted", "no count")))
        else:
            for precision, names in OPS.items():
                for field, name in zip(("add", "mul", "fma"), names):
                    predicted, measured = flops[precision][field], m.get(metric(name))
                    if predicted == 0 and measured in (0, None):
                        continue
                    result(predicted == measured, "%s: %s %s instructions predicted %d, measured %s"
                           % (where, precision, field, predicted, measured))
        dram = k.get("dram_bytes") or {}
        if dram.get("status") != "exact":
            result(False, "%s: warpcheck's DRAM bytes are %s (%s)" % (
                where, dram.get("status"), "; ".join(dram.get("assumptions", [])) or
                dram.get("not_counted", "no count")))
        else:
            read, written = m.get("dram__bytes_read.sum"), m.get("dram__bytes_write.sum")
            ok = read is not None and abs(read - dram["read"]) <= READ_TOLERANCE * dram["read"]
            result(ok, "%s: DRAM read predicted %d bytes, measured %s (tolerance %d%%)"
                   % (where, dram["read"], read, READ_TOLERANCE * 100))
            low = dram["write"] * (1 - WRITE_TOLERANCE) - L2_RESIDUE_BYTES
            high = dram["write"] * (1 + WRITE_TOLERANCE)
            ok = written is not None and low <= written <= high
            result(ok, "%s: DRAM write predicted %d bytes, measured %s (allowed %d to %d)"
                   % (where, dram["write"], written, max(0, low), high))
        bound = (k.get("roofline") or [{}])[0].get("time_bound_seconds")
        time_ns = m.get("gpu__time_duration.sum")
        if bound and time_ns:
            print("INFO %s: measured %.3f ms, roofline bound %.3f ms on %s (%.0f%% of the bound's "
                  "speed)" % (where, time_ns / 1e6, bound * 1e3, k["roofline"][0]["part"],
                              100 * bound * 1e9 / time_ns))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--records", required=True)
    ap.add_argument("--inputs", required=True)
    args = ap.parse_args()
    warpcheck = warpcheck_binary(args.build)
    results = Results()

    def result(ok, text):
        results.check(text, ok)

    marked = roofline_inputs(args.inputs)
    records = sorted(n[:-5] for n in os.listdir(args.records)
                     if n.endswith(".json") and not n.endswith(".exceptions.json")) \
        if os.path.isdir(args.records) else []
    for stem in records:
        if stem not in marked:
            result(False, "%s.json: record without a roofline input (no %s.cu with "
                          "'HW-ROOFLINE:' in %s)" % (stem, stem, args.inputs))
        elif marked[stem] == "pending":
            result(False, "%s.json: recorded, but %s.cu still says 'HW-ROOFLINE: pending': "
                          "mark it measured" % (stem, stem))
    measured = [s for s, state in marked.items() if state == "measured"]
    for stem, state in marked.items():
        if state == "pending" and stem not in records:
            print("NOT MEASURED %s.cu (HW-ROOFLINE: pending): on the H200 run "
                  "bash test/hw/scripts/measure_roofline.sh \"$OUT/roofline\" test/inputs/%s.cu, "
                  "then python3 test/hw/scripts/roofline_to_records.py \"$OUT/roofline\" "
                  "test/hw/roofline" % (stem, stem))
    for stem in measured:
        path = os.path.join(args.records, stem + ".json")
        if not os.path.exists(path):
            result(False, "%s.cu says 'HW-ROOFLINE: measured', but its record %s is missing"
                   % (stem, path))
            continue
        with open(path) as f:
            doc = json.load(f)
        rc, out, err = run([warpcheck, "--format=json", stem + ".cu"], cwd=args.inputs)
        if rc not in (0, 1) or not out.strip():
            result(False, "%s: warpcheck exited %s: %s" % (stem, rc, err[-2000:]))
            continue
        # <stem>.exceptions.json: comparisons the hardware's counters make
        # unlike the source's arithmetic, each with its reason (the SASS).
        exc_path = os.path.join(args.records, stem + ".exceptions.json")
        exceptions = json.load(open(exc_path)) if os.path.exists(exc_path) else []

        def excusable(ok, text, exceptions=exceptions):
            for e in exceptions:
                if not ok and (" %s " % e["function"]) in text and e["quantity"] in text:
                    print("EXCUSED %s (%s)" % (text, e["reason"]))
                    return
            result(ok, text)
        compare_input(stem, doc, json.loads(out), excusable)
    if not measured and all(ok for _, ok, _ in results.cases) and marked:
        print("skipped: no roofline input is measured yet (%s)" % ", ".join(sorted(marked)))
        return SKIPPED
    return results.summary()


if __name__ == "__main__":
    sys.exit(main())
