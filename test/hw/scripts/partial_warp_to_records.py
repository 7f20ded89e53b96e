#!/usr/bin/env python3
"""Records of test/hw/microbench/partial_warp_shared.cu: absent lanes against lanes switched off.

Usage:
  partial_warp_to_records.py LAUNCHES.csv NCU.csv DEVICE [OUT.json]

LAUNCHES.csv is what the program writes (launch, pattern, width, op, threads, active_mask), NCU.csv
ncu's --csv output of the same run (launch IDs in launch order). Each record is one launch of one
block of `threads` threads: the lanes that run the access are those of `active_mask` below
`threads` (the others do not exist or are switched off), at the byte offsets of the pattern, which
are computed here as the program computes them. OUT.json defaults to
test/hw/partial_warp_shared.json. Stdlib only.
"""
import csv
import io
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import microbench_to_records as m2r  # noqa: E402

# Element index of each lane, as partial_warp_shared.cu's patterns compute it.
PATTERNS = {
    "same_addr_p8": lambda i: i % 8,
    "same_addr_p4": lambda i: i % 4,
    "stride_1": lambda i: i,
    "quads_same_addr": lambda i: i // 4,
    "pairs_same_addr": lambda i: i // 2,
}
KERNELS = {("load", 4): "access<4, 1>", ("load", 8): "access<8, 1>", ("load", 16): "access<16, 1>",
           ("store", 4): "access<4, 0>", ("store", 8): "access<8, 0>", ("store", 16): "access<16, 0>"}


def build(launch_text, ncu_text, device):
    launches = m2r.parse_ncu_csv(ncu_text)
    by_id = {L["id"]: L for L in launches}
    records = []
    for row in csv.DictReader(io.StringIO(launch_text)):
        n = int(row["launch"])
        L = by_id.get(n)
        width, op = int(row["width"]), row["op"]
        if L is None:
            raise m2r.JoinError("launch %d: no ncu result" % n)
        if KERNELS[(op, width)] not in L["kernel"]:
            raise m2r.JoinError("launch %d: ncu names %r, the program %s of %d bytes"
                                % (n, L["kernel"], op, width))
        wm, bm, im = m2r.SHARED_M[op]
        wf, bc, ins = m2r._metric(L, wm), m2r._metric(L, bm), m2r._metric(L, im)
        threads = int(row["threads"])
        f = PATTERNS[row["pattern"]]
        records.append({
            "id": "%s.w%d.%s.t%d.%s" % (op, width, row["pattern"], threads, row["active_mask"]),
            "width": width,
            "op": op,
            "threads": threads,
            "active_mask": row["active_mask"],
            "offsets": [width * f(i) for i in range(32)],
            "wavefronts": wf,
            "bank_conflicts": bc,
            "instructions": ins,
            "wavefronts_per_request": (wf / ins) if (wf is not None and ins) else None,
            "device": device,
            "ncu_id": n,
        })
    return records


def main(argv):
    if len(argv) not in (4, 5):
        sys.stderr.write(__doc__)
        return 2
    with open(argv[1], encoding="utf-8") as f:
        launch_text = f.read()
    with open(argv[2], encoding="utf-8") as f:
        ncu_text = f.read()
    out = argv[4] if len(argv) == 5 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "partial_warp_shared.json")
    try:
        records = build(launch_text, ncu_text, argv[3])
    except m2r.JoinError as e:
        sys.stderr.write("partial_warp_to_records: %s\n" % e)
        return 1
    m2r.write_json(out, records)
    print("%d records -> %s" % (len(records), out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
