#!/usr/bin/env python3
"""Turn measure_atomics.sh's raw outputs into test/hw/atomic_patterns.json.

Usage:
  atomics_to_records.py RAWDIR [OUT.json]      (OUT.json defaults to test/hw/atomic_patterns.json)
  atomics_to_records.py --metrics-known QUERY.txt METRIC[,METRIC...]

RAWDIR holds what test/hw/scripts/measure_atomics.sh leaves: atomic_patterns.csv (the case of each
launch, in launch order, as the program wrote it while ncu ran it), atomic_ncu.csv (ncu --csv, one
row per metric or one per launch) and, when cuobjdump ran, census_cuobjdump.csv; without that
census the committed test/hw/atomics/sass_census.csv supplies the SASS facts. One record per launch:

  kernel, type, op, bytes, address, operand, result, active, scope, active_mask  the case
  requests, sectors      l1tex__t_{requests,sectors}_pipe_lsu_mem_global_op_{atom,red}, summed
  instructions           the ATOM/ATOMG and REDG warp instructions executed (a predicated-off one,
                         such as the per-lane fallback of a full_warp case, counts)
  atom, red              the same three numbers for each of the two kinds
  aggregated, atomics    from the SASS census
  expected_requests, expected_sectors, as_expected
                         the census's prediction, and whether requests and sectors equal it
  clean                  no global load or store was counted (ncu measured the call alone)
  metrics                every metric ncu reported, as it reported it

Launches are paired with ncu's results by rank, the kernel names must agree (as for the other
microbenchmarks: microbench_to_records.join_patterns).

--metrics-known prints those of the metrics that `ncu --query-metrics` (QUERY.txt) lists, comma
separated: the retry list when ncu refused a run for a metric it does not have.
"""
import csv
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from microbench_to_records import join_patterns, parse_ncu_csv, read_csv_rows, write_json  # noqa: E402

CASE_FIELDS = ["kernel", "type", "op", "bytes", "address", "operand", "result", "active", "scope",
               "active_mask"]
KINDS = {
    "atom": ("l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
             "smsp__sass_inst_executed_op_global_atom.sum"),
    "red": ("l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
            "smsp__inst_executed_op_global_red.sum"),
}
OTHER_GLOBAL = ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum")


def number(metrics, name):
    v = metrics.get(name)
    return v if isinstance(v, (int, float)) else None


def total(values):
    known = [v for v in values if v is not None]
    return sum(known) if known else None


def as_int(text):
    return int(text) if str(text).strip() not in ("", "None") else None


def build_records(case_rows, launches, census=None):
    """One record per launch (see the module comment); census: {kernel: census row}."""
    records = []
    for row, launch in join_patterns(case_rows, launches, "atomics"):
        m = launch["metrics"]
        rec = {f: (int(row[f]) if f == "bytes" else row[f]) for f in CASE_FIELDS}
        per_kind = {k: dict(zip(("requests", "sectors", "instructions"), (number(m, n) for n in names)))
                    for k, names in KINDS.items()}
        for what in ("requests", "sectors", "instructions"):
            rec[what] = total(per_kind[k][what] for k in KINDS)
        rec.update(per_kind)
        c = (census or {}).get(row["kernel"])
        rec["aggregated"] = c["aggregated"] if c else None
        rec["atomics"] = c["atomics"] if c else None
        rec["expected_requests"] = as_int(c["expected_requests"]) if c else None
        rec["expected_sectors"] = as_int(c["expected_sectors"]) if c else None
        rec["as_expected"] = (None if rec["expected_sectors"] is None else
                              (rec["requests"], rec["sectors"]) == (rec["expected_requests"], rec["expected_sectors"]))
        rec["clean"] = all(number(m, n) in (0, None) for n in OTHER_GLOBAL)
        rec["ncu_id"] = launch["id"]
        rec["metrics"] = dict(m)
        records.append(rec)
    return records


def read_census(path):
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        return {r["kernel"]: r for r in csv.DictReader(f)}


def known_metrics(query_text, metrics):
    """The metrics (name.sum ...) whose base name `ncu --query-metrics` lists."""
    listed = set(re.findall(r"^\s*([a-z0-9_]+__[A-Za-z0-9_]+)\s", query_text, re.M))
    return [m for m in metrics if m.rsplit(".", 1)[0] in listed]


def main(argv):
    if len(argv) >= 3 and argv[1] == "--metrics-known":
        with open(argv[2], encoding="utf-8", errors="replace") as f:
            print(",".join(known_metrics(f.read(), argv[3].split(","))))
        return 0
    if len(argv) < 2:
        print(__doc__)
        return 2
    raw = argv[1]
    out = argv[2] if len(argv) > 2 else os.path.join(HERE, "..", "atomic_patterns.json")
    with open(os.path.join(raw, "atomic_patterns.csv"), encoding="utf-8") as f:
        case_rows = read_csv_rows(f.read())
    with open(os.path.join(raw, "atomic_ncu.csv"), encoding="utf-8", errors="replace") as f:
        launches = parse_ncu_csv(f.read())
    census = read_census(os.path.join(raw, "census_cuobjdump.csv")) or \
        read_census(os.path.join(HERE, "..", "atomics", "sass_census.csv"))
    records = build_records(case_rows, launches, census)
    write_json(out, records)
    judged = [r for r in records if r["as_expected"] is not None]
    print("%s: %d records of %d launches; %d as the census expects, %d not, %d without an expectation; "
          "%d unclean" % (out, len(records), len(case_rows), sum(r["as_expected"] for r in judged),
                          sum(not r["as_expected"] for r in judged), len(records) - len(judged),
                          sum(not r["clean"] for r in records)))
    for r in judged:
        if not r["as_expected"]:
            print("  %-30s measured %s requests, %s sectors; expected %s, %s (%s)" % (
                r["kernel"], r["requests"], r["sectors"], r["expected_requests"], r["expected_sectors"],
                r["aggregated"]))
    return 0 if len(records) == len(case_rows) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
