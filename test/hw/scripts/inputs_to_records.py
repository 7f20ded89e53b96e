#!/usr/bin/env python3
"""Turns the raw Nsight Compute exports of test/hw/scripts/measure_inputs.sh
into per-access records: test/hw/inputs/<input>.json.

Source: `ncu -i REP --page source --csv --print-source cuda,sass`, read by
ncu_source_export.source_blocks (one block per (file, function) of each
profiled launch, each SASS instruction once). Per (function, launch, line,
space, op) we sum, over the SASS instructions of that kind:
  global: L2 Theoretical Sectors Global (32-byte sectors requested) over
          Instructions Executed (one warp-wide request each; "L1 Tag
          Requests Global" counts tag look-ups, one per 128-byte line, and is
          kept as l1_tag_requests): sectors_per_request = S / I.
  shared: L1 Wavefronts Shared (and _Ideal) over Instructions Executed.
Each record also keeps its SASS instructions one by one (sass_rows: the
instruction, the times it was executed and its own sectors or wavefronts),
for the comparison per instruction of what warpcheck reads from the cubin.
Usage: inputs_to_records.py RAW_DIR OUT_DIR
"""
import csv
import json
import os
import re
import sys

from ncu_source_export import number, source_blocks

OPS = {"Load": "load", "Store": "store", "Atomic": "atomic", "Reduction": "atomic"}


def normalize_function(name):
    """'void templated<(int)1>(const float *, float *)' -> 'templated<1>'."""
    name = name.strip()
    if name.startswith("void "):
        name = name[5:]
    depth = 0
    for i, c in enumerate(name):
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == "(" and depth == 0:
            name = name[:i]
            break
    name = re.sub(r"\((?:unsigned |signed )?(?:int|long|short|char|bool|long long)\)", "", name)
    return name.strip()


def parse_source_csv(path, input_name):
    records = {}
    launches = {}
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    for file_path, function, header, items in source_blocks(rows):
        col = {name: k for k, name in enumerate(header)}
        key_fn = normalize_function(function)
        block_key = (file_path, key_fn)
        launch = launches.get(block_key, -1) + 1
        launches[block_key] = launch
        if os.path.basename(file_path) != input_name:
            continue
        for line, r, is_source_line in items:
            if is_source_line or line is None or len(r) < len(header):
                continue
            space = r[col["Address Space"]] if "Address Space" in col else "-"
            op = OPS.get(r[col["Access Operation"]] if "Access Operation" in col else "-")
            if space not in ("Global", "Shared") or op is None:
                continue
            key = (key_fn, launch, line, space.lower(), op)
            rec = records.setdefault(key, {
                "function": key_fn, "launch": launch, "line": line,
                "space": space.lower(), "op": op, "sass": [],
                "instructions": 0.0, "l1_tag_requests": 0.0, "sectors": 0.0,
                "ideal_sectors": 0.0, "wavefronts": 0.0, "ideal_wavefronts": 0.0,
                "sass_rows": []})
            rec["sass"].append(r[3].strip())
            executed = number(r[col["Instructions Executed"]]) or 0
            rec["instructions"] += executed
            row = {"sass": r[3].strip(), "executed": executed}
            if space == "Global":
                rec["l1_tag_requests"] += number(r[col.get("L1 Tag Requests Global", -1)]) or 0
                row["sectors"] = number(r[col.get("L2 Theoretical Sectors Global", -1)]) or 0
                row["ideal_sectors"] = number(r[col.get("L2 Theoretical Sectors Global Ideal", -1)]) or 0
                rec["sectors"] += row["sectors"]
                rec["ideal_sectors"] += row["ideal_sectors"]
            else:
                row["wavefronts"] = number(r[col.get("L1 Wavefronts Shared", -1)]) or 0
                row["ideal_wavefronts"] = number(r[col.get("L1 Wavefronts Shared Ideal", -1)]) or 0
                rec["wavefronts"] += row["wavefronts"]
                rec["ideal_wavefronts"] += row["ideal_wavefronts"]
            rec["sass_rows"].append(row)
    out = []
    for rec in records.values():
        if rec["space"] == "global":
            rec["sectors_per_request"] = (round(rec["sectors"] / rec["instructions"], 4)
                                          if rec["instructions"] else None)
        else:
            rec["wavefronts_per_request"] = (round(rec["wavefronts"] / rec["instructions"], 4)
                                             if rec["instructions"] else None)
        out.append(rec)
    out.sort(key=lambda r: (r["line"], r["function"], r["launch"], r["space"], r["op"]))
    return out


def parse_metrics_csv(path):
    """Per-launch metrics: `ncu --metrics ... --csv`, one row per metric."""
    launches = {}
    order = []
    with open(path, newline="") as f:
        lines = [l for l in f if l.startswith('"')]
    for row in csv.DictReader(lines):
        if "ID" not in row or row.get("ID") in (None, "ID"):
            continue
        lid = int(row["ID"])
        if lid not in launches:
            launches[lid] = {"id": lid, "function": normalize_function(row["Kernel Name"]),
                             "block": row.get("Block Size"), "grid": row.get("Grid Size"),
                             "metrics": {}}
            order.append(lid)
        value = number(row.get("Metric Value"))
        launches[lid]["metrics"][row["Metric Name"]] = value
    counts = {}
    out = []
    for lid in order:
        k = launches[lid]
        k["launch"] = counts.get(k["function"], -1) + 1
        counts[k["function"]] = k["launch"]
        out.append(k)
    return out


def main():
    raw, dest = sys.argv[1], sys.argv[2]
    os.makedirs(dest, exist_ok=True)
    for name in sorted(os.listdir(raw)):
        if not name.endswith(".source.csv"):
            continue
        stem = name[: -len(".source.csv")]
        records = parse_source_csv(os.path.join(raw, name), stem + ".cu")
        metrics_path = os.path.join(raw, stem + ".metrics.csv")
        kernels = parse_metrics_csv(metrics_path) if os.path.exists(metrics_path) else []
        # The shared-atomic and the DRAM/L2 metrics, each from a run of its own.
        for extra_name in (".metrics2.csv", ".dram.csv"):
            extra_path = os.path.join(raw, stem + extra_name)
            if not (os.path.exists(extra_path) and kernels):
                continue
            extra = parse_metrics_csv(extra_path)
            if len(extra) == len(kernels):
                for k, e in zip(kernels, extra):
                    if k["function"] == e["function"]:
                        k["metrics"].update(e["metrics"])
        doc = {"input": "test/inputs/" + stem + ".cu",
               "device": "NVIDIA H200 (sm_90), driver 580.159.04",
               "tool": "ncu --section SourceCounters; nvcc -O3 -arch=sm_90 -lineinfo",
               "records": records,
               "kernels": kernels}
        with open(os.path.join(dest, stem + ".json"), "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        print("%s: %d records" % (stem, len(records)))


if __name__ == "__main__":
    main()
