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
Instructions the source view puts in a toolkit header (the stores of an
inlined nvcuda::wmma::store_matrix_sync are in crt/mma.hpp) belong to the
input's line that the input's nvdisasm -gi listing (test/hw/sass, made from
the same build) gives them, when LISTINGS_DIR is given: the instruction is
found in the listing by its offset in the kernel (its address less the
kernel's first address) and must read the same there.
Usage: inputs_to_records.py RAW_DIR OUT_DIR [LISTINGS_DIR [INPUTS_DIR]] [--device=NAME]
  INPUTS_DIR: where the measured programs are, as the records name them
  (test/inputs; test/inputs/generated for the generated programs).
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


INSTRUCTION = re.compile(r"^\s*/\*([0-9a-f]+)\*/\s+(.*?)\s*;")
LINE_COMMENT = re.compile(r'//## File "([^"]*)", line (\d+)(?: inlined at "([^"]*)", line (\d+))?')
SECTION = re.compile(r"^\.text\.(\S+):")


def sass_text(text):
    return " ".join(text.replace(";", " ").split())


def without_reuse(text):
    return sass_text(text).replace(".reuse", "")


def sass_opcode(text):
    """The opcode with its predicate ('@!P0 BRA'): what the listing and the
    source view write alike (operands differ: .reuse flags, branch targets
    as labels or addresses)."""
    words = sass_text(text).split()
    return " ".join(words[:2] if words and words[0].startswith("@") else words[:1])


def listing_lines(path, input_name):
    """{kernel section: {offset: (instruction, the input's line or None)}}."""
    out, current, line = {}, None, None
    with open(path) as f:
        for text in f:
            m = SECTION.match(text)
            if m:
                current, line = out.setdefault(m.group(1), {}), None
                continue
            m = LINE_COMMENT.search(text)
            if m:
                if os.path.basename(m.group(1)) == input_name:
                    line = int(m.group(2))
                elif m.group(3) and os.path.basename(m.group(3)) == input_name:
                    line = int(m.group(4))
                continue
            m = INSTRUCTION.match(text)
            if m and current is not None:
                current[int(m.group(1), 16)] = (sass_text(m.group(2)), line)
    return out


def address_of(r, col):
    try:
        return int(r[col["Address"]], 16)
    except (KeyError, ValueError, IndexError):
        return None


def listing_lines_by_launch(blocks, listing):
    """(function, launch) -> {address: the input's line}, for the launches
    whose every instruction reads as the listing of one kernel does at the
    same offset from the kernel's first instruction (the padding NOPs after
    the last one are not in the listing)."""
    rows, texts = {}, {}
    for function, launch, col, items in blocks:
        for line, r, is_source_line in items:
            a = address_of(r, col)
            if not is_source_line and a is not None and len(r) > 3:
                rows.setdefault((function, launch), {})[a] = sass_opcode(r[3])
                texts.setdefault((function, launch), {})[a] = without_reuse(r[3])
    out = {}
    for key, by_address in rows.items():
        base = min(by_address)
        fits = [k for k, offsets in listing.items()
                if all(sass_opcode(offsets.get(a - base, ("",))[0]) == t
                       for a, t in by_address.items()
                       if t != "NOP" or a - base in offsets)]
        if len(fits) > 1:
            # Kernels of one shape (a template's instances): the one whose
            # operands agree most (immediates differ).
            def agreeing(k):
                return sum(1 for a, t in texts[key].items()
                           if without_reuse(listing[k].get(a - base, ("",))[0]) == t)
            best = max(agreeing(k) for k in fits)
            fits = [k for k in fits if agreeing(k) == best]
        if len(fits) > 1:
            # Kernels compiled to the same code: the one of the same name
            # (its mangled name holds the identifier with its length).
            ident = key[0].split("<")[0].split("::")[-1]
            fits = [k for k in fits if "%d%s" % (len(ident), ident) in k]
        if len(fits) == 1:
            out[key] = {a: listing[fits[0]][a - base][1] for a in by_address
                        if a - base in listing[fits[0]]}
    return out


def parse_source_csv(path, input_name, listing=None):
    records = {}
    launches = {}
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    blocks = []
    for file_path, function, header, items in source_blocks(rows):
        col = {name: k for k, name in enumerate(header)}
        key_fn = normalize_function(function)
        block_key = (file_path, key_fn)
        launch = launches.get(block_key, -1) + 1
        launches[block_key] = launch
        blocks.append((file_path, key_fn, launch, col, header, items))
    listed = listing_lines_by_launch([(b[1], b[2], b[3], b[5]) for b in blocks],
                                     listing) if listing else {}
    for file_path, key_fn, launch, col, header, items in blocks:
        in_input = os.path.basename(file_path) == input_name
        if not in_input and (key_fn, launch) not in listed:
            continue
        for line, r, is_source_line in items:
            if is_source_line or line is None or len(r) < len(header):
                continue
            if not in_input:
                # A toolkit header's instruction: at the input's line the
                # listing gives it, or not recorded.
                line = listed[(key_fn, launch)].get(address_of(r, col))
                if line is None:
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
    # --device=NAME: the GPU the raw exports come from, when it is not the
    # H200 (an H100 is sm_90 too: its 474 shared-pattern records are the
    # H200's, test/hw/README.md).
    device = "NVIDIA H200 (sm_90), driver 580.159.04"
    args = []
    for a in sys.argv[1:]:
        if a.startswith("--device="):
            device = a[len("--device="):]
        else:
            args.append(a)
    raw, dest = args[0], args[1]
    listings = args[2] if len(args) > 2 else None
    inputs_dir = args[3] if len(args) > 3 else "test/inputs"
    os.makedirs(dest, exist_ok=True)
    for name in sorted(os.listdir(raw)):
        if not name.endswith(".source.csv"):
            continue
        stem = name[: -len(".source.csv")]
        listing_path = os.path.join(listings, stem + ".nvdisasm.txt") if listings else None
        listing = (listing_lines(listing_path, stem + ".cu")
                   if listing_path and os.path.exists(listing_path) else None)
        records = parse_source_csv(os.path.join(raw, name), stem + ".cu", listing)
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
        doc = {"input": inputs_dir.rstrip("/") + "/" + stem + ".cu",
               "device": device,
               "tool": "ncu --section SourceCounters; nvcc -O3 -arch=sm_90 -lineinfo",
               "records": records,
               "kernels": kernels}
        with open(os.path.join(dest, stem + ".json"), "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        print("%s: %d records" % (stem, len(records)))


if __name__ == "__main__":
    main()
