#!/usr/bin/env python3
"""Records of test/hw/microbench/potential_block_size.cu: what the runtime's
cudaOccupancyMaxPotentialBlockSize(VariableSMem) chose.

Usage:
  potential_block_size_to_records.py RAW.csv DEVICE SM_COUNT [OUT.json]

RAW.csv is the program's output. Kernel names hold a comma (pbs_kernel<24,0>):
quoted by the program now, unquoted by its first run, which this reads too (a
row of 14 cells joins its first two). OUT.json defaults to
test/hw/potential_block_size.json: {device, columns, rows}. Stdlib only.
"""
import csv
import io
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import microbench_to_records as m2r  # noqa: E402

COLUMNS = ["kernel", "num_regs", "static_smem", "max_threads_per_block", "mode", "dyn_smem",
           "per_thread", "block_limit", "status", "min_grid", "block"]


def build(text):
    rows = []
    for cells in list(csv.reader(io.StringIO(text)))[1:]:
        if len(cells) == 14:
            cells = [cells[0] + "," + cells[1]] + cells[2:]
        if len(cells) != 13:
            raise ValueError("expected 13 cells: %r" % cells)
        (kernel, _cap, _req, regs, static, max_tpb, mode, dyn, per_thread, limit, status, grid,
         block) = cells
        rows.append([kernel, int(regs), int(static), int(max_tpb), mode, int(dyn),
                     int(per_thread), int(limit), status, int(grid), int(block)])
    return rows


def main(argv):
    if len(argv) not in (4, 5):
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        rows = build(f.read())
    out = argv[4] if len(argv) == 5 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "potential_block_size.json")
    doc = {"device": {"name": argv[2], "multiProcessorCount": int(argv[3]),
                      "program": "test/hw/microbench/potential_block_size.cu"},
           "columns": COLUMNS, "rows": rows}
    m2r.write_json(out, doc, rows_per_line=True)
    print("%d rows -> %s" % (len(rows), out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
