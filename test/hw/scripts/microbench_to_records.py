#!/usr/bin/env python3
"""Convert the raw outputs of run_microbench.sh into warpcheck's committed hardware records.

Usage:
  microbench_to_records.py RAW [OUTDIR]

RAW is the folder microbench_raw/ written by test/hw/scripts/run_microbench.sh, or the
microbench_raw.tar.gz it packs; OUTDIR defaults to test/hw/ of this repository. Writes:

  shared_patterns.json    [{id, kernel, width, op, active_mask, offsets[32], wavefronts,
                            bank_conflicts, instructions, wavefronts_per_request, sass, clean}]
  global_patterns.json    [{id, kernel, width, op, active_mask, offsets[32], base_shift, requests,
                            sectors, sectors_per_request, sass, clean}]
  occupancy_runtime.json  {device, columns, rows}   (cudaOccupancyMaxActiveBlocksPerMultiprocessor)
  occupancy_ncu.json      [{launch, kernel, ..., ptxas, ncu_kernel_name, metrics{}}]

Each pattern row is joined to the ncu launch of the same rank (ncu numbers launches in launch
order), and the kernel names must agree; a mismatch is an error, not a guess. `clean` is false when
a counter of another operation kind is non-zero for that launch (for instance a load kernel's
guarded store executed), which would make the row unusable as ground truth.

Stdlib only. The ncu CSV parser accepts both of ncu's --csv layouts: the default "details" page
(one row per metric: ... "Kernel Name", ..., "Metric Name","Metric Unit","Metric Value") and the
"raw" page (one row per launch, a column per metric, an optional units row), repeated headers,
interleaved non-CSV lines (==PROF== messages, program output), and values with thousands
separators ("1,024").
"""
import csv
import io
import json
import os
import re
import sys
import tarfile

# ---------------------------------------------------------------------------------------------
# ncu CSV
# ---------------------------------------------------------------------------------------------
_NUM_RE = re.compile(r"^[+-]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?([eE][+-]?\d+)?$")


def parse_value(text):
    """'1,024' -> 1024, '3.5' -> 3.5, 'n/a' / '' -> None, anything else -> the stripped string."""
    if text is None:
        return None
    s = text.strip()
    if s == "" or s.lower() in ("n/a", "na", "nan", "-"):
        return None
    t = s.replace("\u202f", "").replace("\u00a0", "")
    if _NUM_RE.match(t):
        t = t.replace(",", "")
        if re.match(r"^[+-]?\d+$", t):
            return int(t)
        return float(t)
    return s


def _is_metric_column(name):
    return "__" in name


def parse_ncu_csv(text):
    """Parse ncu --csv output. Returns a list of launches ordered by ID:
    [{"id": int, "kernel": str, "fields": {col: str}, "metrics": {name: value}, "units": {name: unit}}]
    """
    launches = {}
    order = []
    header = None
    form = None
    raw_units = {}
    csv_lines = [ln for ln in text.splitlines() if ln.lstrip().startswith('"')]
    for row in csv.reader(io.StringIO("\n".join(csv_lines))):
        if not row:
            continue
        if row[0].strip() == "ID":
            header = [c.strip() for c in row]
            form = "details" if ("Metric Name" in header and "Metric Value" in header) else "raw"
            raw_units = {}
            continue
        if header is None:
            continue
        rec = dict(zip(header, row))
        rid = rec.get("ID", "").strip()
        if form == "raw" and rid == "":
            # units row of the raw page
            raw_units = {h: v for h, v in rec.items() if _is_metric_column(h)}
            continue
        try:
            lid = int(parse_value(rid))
        except (TypeError, ValueError):
            continue
        if lid not in launches:
            launches[lid] = {"id": lid, "kernel": rec.get("Kernel Name", "").strip(), "fields": {}, "metrics": {},
                             "units": {}}
            order.append(lid)
        L = launches[lid]
        for h, v in rec.items():
            if h in ("Metric Name", "Metric Unit", "Metric Value") or _is_metric_column(h):
                continue
            L["fields"].setdefault(h, v)
        if form == "details":
            name = rec.get("Metric Name", "").strip()
            if name:
                L["metrics"][name] = parse_value(rec.get("Metric Value"))
                L["units"][name] = rec.get("Metric Unit", "").strip()
        else:
            for h, v in rec.items():
                if _is_metric_column(h):
                    L["metrics"][h] = parse_value(v)
                    if h in raw_units:
                        L["units"][h] = raw_units[h].strip()
    return [launches[i] for i in sorted(order)]


def base_kernel_name(name):
    """'lds_w8(SharedPattern, unsigned int *)' -> 'lds_w8'; 'void foo<1>(int)' -> 'foo<1>'."""
    s = name.strip()
    if s.startswith("void "):
        s = s[5:]
    depth = 0
    for i, ch in enumerate(s):
        if ch == "<":
            depth += 1
        elif ch == ">":
            depth -= 1
        elif ch == "(" and depth == 0:
            return s[:i].strip()
    return s


def normalize_template_name(name):
    return re.sub(r"\s+", "", base_kernel_name(name))


# ---------------------------------------------------------------------------------------------
# ptxas -v
# ---------------------------------------------------------------------------------------------
def parse_ptxas_verbose(text):
    """{mangled: {registers, barriers, stack_frame, spill_stores, spill_loads, smem, cmem}}"""
    out = {}
    cur = None
    for line in text.splitlines():
        m = re.search(r"Compiling entry function '([^']+)' for '(\w+)'", line)
        if m:
            cur = m.group(1)
            out[cur] = {"arch": m.group(2)}
            continue
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            cur = m.group(1)
            out.setdefault(cur, {})
            continue
        if cur is None:
            continue
        m = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m:
            out[cur].update(stack_frame=int(m.group(1)), spill_stores=int(m.group(2)), spill_loads=int(m.group(3)))
            continue
        m = re.search(r"Used (\d+) registers", line)
        if m:
            out[cur]["registers"] = int(m.group(1))
            b = re.search(r"used (\d+) barriers", line)
            if b:
                out[cur]["barriers"] = int(b.group(1))
            s = re.search(r"(\d+) bytes smem", line)
            out[cur]["smem"] = int(s.group(1)) if s else 0
    return out


def demangle_occ(mangled):
    """Names of occupancy_grid.cu's kernels, as the program prints them."""
    m = re.fullmatch(r"_Z10occ_kernelILi(\d+)ELi(\d+)EEvPfii", mangled)
    if m:
        return "occ_kernel<%s,%s>" % (m.group(1), m.group(2))
    m = re.fullmatch(r"_Z10nat_kernelILi(\d+)EEvPfii", mangled)
    if m:
        return "nat_kernel<%s>" % m.group(1)
    if mangled == "_Z12empty_kernelPfii":
        return "empty_kernel"
    return mangled


# ---------------------------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------------------------
class RawDir:
    """Files of microbench_raw/, from a folder or a .tar.gz."""

    def __init__(self, path):
        self.files = {}
        if os.path.isdir(path):
            for root, _dirs, names in os.walk(path):
                for n in names:
                    p = os.path.join(root, n)
                    self.files[os.path.relpath(p, path)] = p
            self.tar = None
        else:
            self.tar = tarfile.open(path, "r:*")
            for m in self.tar.getmembers():
                if m.isfile():
                    rel = m.name.split("/", 1)[1] if m.name.startswith("microbench_raw/") else m.name
                    self.files[rel] = m

    def has(self, name):
        return name in self.files

    def read(self, name):
        if name not in self.files:
            return None
        if self.tar is None:
            with open(self.files[name], encoding="utf-8", errors="replace") as f:
                return f.read()
        return self.tar.extractfile(self.files[name]).read().decode("utf-8", errors="replace")


def read_csv_rows(text):
    return list(csv.DictReader(io.StringIO(text)))


def ncu_launches(raw, name):
    """ncu results: prefer the --log-file output, fall back to the step's stdout."""
    for cand in (name + ".csv", name + "_stdout.txt"):
        t = raw.read(cand)
        if t:
            ls = parse_ncu_csv(t)
            if ls:
                return ls, cand
    return [], None


class JoinError(Exception):
    pass


def check_contiguous(launches, what):
    """ncu numbers its results 0, 1, 2, ... in launch order. Refuse anything else: a gap would mean
    a launch without a result, and pairing by rank would then shift every later row."""
    ids = [L["id"] for L in launches]
    if not ids:
        return
    first = ids[0]
    if first not in (0, 1) or ids != list(range(first, first + len(ids))):
        raise JoinError("%s: ncu result IDs are not contiguous from 0: %s" % (what, ids[:10]))


def join_patterns(pattern_rows, launches, what):
    """Pair pattern row i (launch column i) with the i-th ncu result; the kernel names must agree."""
    check_contiguous(launches, what)
    if len(launches) > len(pattern_rows):
        raise JoinError("%s: ncu has %d launches but the program wrote %d pattern rows" %
                        (what, len(launches), len(pattern_rows)))
    pairs = []
    for i, L in enumerate(launches):
        row = pattern_rows[i]
        if int(row["launch"]) != i:
            raise JoinError("%s: pattern row %d has launch %s" % (what, i, row["launch"]))
        kn = base_kernel_name(L["kernel"])
        if kn != row["kernel"]:
            raise JoinError("%s: launch %d (ncu ID %d) is kernel %r but the pattern row says %r" %
                            (what, i, L["id"], kn, row["kernel"]))
        pairs.append((row, L))
    return pairs


def _sass_info(sass_json, kernel):
    if not sass_json or kernel not in sass_json:
        return None, None
    r = sass_json[kernel]
    return r.get("measured"), bool(r.get("ok"))


def _metric(L, name):
    v = L["metrics"].get(name)
    return v if isinstance(v, (int, float)) else None


SHARED_M = {
    "load": ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
             "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "smsp__inst_executed_op_shared_ld.sum"),
    "store": ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
              "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "smsp__inst_executed_op_shared_st.sum"),
}

GLOBAL_OPS = {"load": "ld", "store": "st", "atom": "atom", "red": "red"}


def build_shared(pattern_rows, launches, sass_json=None):
    recs = []
    for row, L in join_patterns(pattern_rows, launches, "shared"):
        op = row["op"]
        wm, bm, im = SHARED_M[op]
        other = SHARED_M["store" if op == "load" else "load"]
        wf, bc, ins = _metric(L, wm), _metric(L, bm), _metric(L, im)
        others = [_metric(L, m) for m in other]
        clean = all(v == 0 for v in others if v is not None)
        sass, sass_ok = _sass_info(sass_json, row["kernel"])
        recs.append({
            "id": row["pattern_id"],
            "kernel": row["kernel"],
            "width": int(row["width"]),
            "op": op,
            "active_mask": row["active_mask"],
            "offsets": [int(row["off%d" % i]) for i in range(32)],
            "wavefronts": wf,
            "bank_conflicts": bc,
            "instructions": ins,
            "wavefronts_per_request": (wf / ins) if (wf is not None and ins) else None,
            "sass": sass,
            "sass_ok": sass_ok,
            "clean": clean,
            "ncu_id": L["id"],
        })
    return recs


def build_global(pattern_rows, launches, sass_json=None):
    recs = []
    for row, L in join_patterns(pattern_rows, launches, "global"):
        op = row["op"]
        k = GLOBAL_OPS[op]
        req = _metric(L, "l1tex__t_requests_pipe_lsu_mem_global_op_%s.sum" % k)
        sec = _metric(L, "l1tex__t_sectors_pipe_lsu_mem_global_op_%s.sum" % k)
        others = [_metric(L, "l1tex__t_%s_pipe_lsu_mem_global_op_%s.sum" % (what, o))
                  for o in GLOBAL_OPS.values() if o != k for what in ("requests", "sectors")]
        clean = all(v == 0 for v in others if v is not None)
        sass, sass_ok = _sass_info(sass_json, row["kernel"])
        recs.append({
            "id": row["pattern_id"],
            "kernel": row["kernel"],
            "width": int(row["width"]),
            "op": op,
            "active_mask": row["active_mask"],
            "offsets": [int(row["off%d" % i]) for i in range(32)],
            "base_shift": int(row["base_shift"]),
            "requests": req,
            "sectors": sec,
            "sectors_per_request": (sec / req) if (sec is not None and req) else None,
            "sass": sass,
            "sass_ok": sass_ok,
            "clean": clean,
            "ncu_id": L["id"],
        })
    return recs


def _num(s):
    v = parse_value(s)
    return v


def build_occupancy_runtime(grid_text, props_text):
    rows = read_csv_rows(grid_text) if grid_text else []
    cols = list(rows[0].keys()) if rows else []
    out_rows = [[_num(r[c]) if c not in ("phase", "kernel", "status") else r[c] for c in cols] for r in rows]
    device = json.loads(props_text) if props_text else None
    return {"device": device, "columns": cols, "rows": out_rows}


def build_occupancy_ncu(launch_text, launches, ptxas):
    rows = read_csv_rows(launch_text) if launch_text else []
    # rows with launch = -1 were refused by the runtime: they never reached ncu
    rows = [r for r in rows if str(r.get("launch", "")).strip() not in ("-1", "")]
    by_name = {demangle_occ(k): v for k, v in (ptxas or {}).items()}
    recs = []
    check_contiguous(launches, "occupancy")
    if len(launches) > len(rows):
        raise JoinError("occupancy: ncu has %d launches but the program listed %d" % (len(launches), len(rows)))
    for i, L in enumerate(launches):
        r = rows[i]
        if int(r["launch"]) != i:
            raise JoinError("occupancy: launch list row %d says launch %s" % (i, r["launch"]))
        ncu_name = normalize_template_name(L["kernel"])
        if ncu_name != re.sub(r"\s+", "", r["kernel"]):
            raise JoinError("occupancy: launch rank %d is %r in ncu but %r in the launch list" %
                            (i, L["kernel"], r["kernel"]))
        rec = {c: (_num(r[c]) if c not in ("kernel", "status") else r[c]) for c in r}
        rec["ptxas"] = by_name.get(r["kernel"])
        rec["ncu_kernel_name"] = L["kernel"]
        rec["ncu_id"] = L["id"]
        rec["metrics"] = dict(L["metrics"])
        recs.append(rec)
    return recs


# ---------------------------------------------------------------------------------------------
# Summary printing
# ---------------------------------------------------------------------------------------------
def print_stride_table(records, value, head_format, cell_format):
    """One row per access width, one column per lane stride of the stride
    patterns: value(record) of the load and of the store."""
    strides = ["stride_%d" % s for s in (1, 2, 4, 8, 16, 32, 33)]
    print("  width " + " ".join(head_format % s.replace("stride_", "s") for s in strides))
    for w in (1, 2, 4, 8, 16):
        cells = []
        for s in strides:
            v = {}
            for r in records:
                if r["width"] == w and r["id"].endswith("." + s):
                    v[r["op"]] = value(r)
            cells.append(cell_format % (v.get("load", "?"), v.get("store", "?")))
        print("  %5d " % w + " ".join(cells))


def print_summary(shared, glob, occ_ncu):
    if shared:
        print("shared wavefronts per instruction, stride patterns (ld / st):")
        print_stride_table(shared, lambda r: r["wavefronts"], "%9s", "%4s/%-4s")
        unclean = [r["id"] for r in shared if not r["clean"]]
        print("  %d shared records, %d not clean%s" % (len(shared), len(unclean),
                                                       (": " + ", ".join(unclean[:8])) if unclean else ""))
    if glob:
        print("global sectors/requests, stride patterns (ld / st):")
        print_stride_table(glob, lambda r: "%s/%s" % (r["sectors"], r["requests"]),
                           "%11s", "%5s %-5s")
        for r in glob:
            if r["op"] in ("atom", "red"):
                print("  %-32s requests=%s sectors=%s" % (r["id"], r["requests"], r["sectors"]))
        unclean = [r["id"] for r in glob if not r["clean"]]
        print("  %d global records, %d not clean%s" % (len(glob), len(unclean),
                                                       (": " + ", ".join(unclean[:8])) if unclean else ""))
    if occ_ncu:
        print("occupancy launches: kernel numRegs(runtime) ptxas ncu:registers_per_thread limit_regs limit_smem")
        for r in occ_ncu:
            m = r["metrics"]
            print("  %-24s %4s %6s %6s %4s %4s" % (
                r["kernel"], r.get("num_regs"), (r.get("ptxas") or {}).get("registers"),
                m.get("launch__registers_per_thread"), m.get("launch__occupancy_limit_registers"),
                m.get("launch__occupancy_limit_shared_mem")))


def write_json(path, obj, rows_per_line=False):
    with open(path, "w", encoding="utf-8") as f:
        if isinstance(obj, list):
            f.write("[\n")
            for i, r in enumerate(obj):
                f.write("  " + json.dumps(r, sort_keys=False) + ("," if i + 1 < len(obj) else "") + "\n")
            f.write("]\n")
        elif rows_per_line and isinstance(obj, dict) and "rows" in obj:
            f.write("{\n")
            f.write('  "device": ' + json.dumps(obj["device"], indent=2).replace("\n", "\n  ") + ",\n")
            f.write('  "columns": ' + json.dumps(obj["columns"]) + ",\n")
            f.write('  "rows": [\n')
            for i, r in enumerate(obj["rows"]):
                f.write("    " + json.dumps(r) + ("," if i + 1 < len(obj["rows"]) else "") + "\n")
            f.write("  ]\n}\n")
        else:
            json.dump(obj, f, indent=1)
            f.write("\n")


def joined_records(what, table, table_name, ncu, unit, build, outdir, out_name=None):
    """The records of one measurement, written to OUT_DIR/<what>_patterns.json
    (or out_name): build(launches) joins its table (the pattern CSV, the
    launch list) with ncu's launches (ncu_launches' (launches, source)).
    None, said why, when either is missing or they do not join."""
    launches, src = ncu
    if not (table and launches):
        print("%s: missing %s" % (what, table_name if not table else "ncu results"))
        return None
    try:
        records = build(launches)
    except JoinError as e:
        print("ERROR", e)
        return None
    out_name = out_name or what + "_patterns.json"
    write_json(os.path.join(outdir, out_name), records)
    print("%s: %d %s (from %s)" % (out_name, len(records), unit, src))
    return records


def main(argv):
    if len(argv) < 2:
        print(__doc__)
        return 1
    raw = RawDir(argv[1])
    here = os.path.dirname(os.path.abspath(__file__))
    outdir = argv[2] if len(argv) > 2 else os.path.normpath(os.path.join(here, ".."))
    os.makedirs(outdir, exist_ok=True)
    status = 0

    sass_json = None
    t = raw.read("sass_check.json")
    if t:
        try:
            sass_json = json.loads(t)
        except ValueError:
            sass_json = None

    shared_table = raw.read("shared_patterns.csv")
    shared = joined_records(
        "shared", shared_table, "pattern CSV", ncu_launches(raw, "shared_ncu"), "records",
        lambda launches: build_shared(read_csv_rows(shared_table), launches, sass_json), outdir)
    global_table = raw.read("global_patterns.csv")
    glob = joined_records(
        "global", global_table, "pattern CSV", ncu_launches(raw, "global_ncu"), "records",
        lambda launches: build_global(read_csv_rows(global_table), launches, sass_json), outdir)
    if shared is None or glob is None:
        status = 1
    # occupancy (runtime)
    gt = raw.read("occupancy_grid.csv")
    pp = raw.read("device_props.json")
    if gt:
        occ = build_occupancy_runtime(gt, pp)
        write_json(os.path.join(outdir, "occupancy_runtime.json"), occ, rows_per_line=True)
        print("occupancy_runtime.json: %d rows" % len(occ["rows"]))
    else:
        print("occupancy: missing occupancy_grid.csv")
        status = 1
    # occupancy (ncu)
    lt = raw.read("occupancy_launches_ncu.csv") or raw.read("occupancy_launches.csv")
    ptxas = parse_ptxas_verbose(raw.read("ptxas_occupancy_grid.txt") or "")
    occ_ncu = joined_records(
        "occupancy ncu", lt, "launch list", ncu_launches(raw, "occupancy_ncu"), "launches",
        lambda launches: build_occupancy_ncu(lt, launches, ptxas), outdir,
        out_name="occupancy_ncu.json")
    if occ_ncu is None:
        status = 1
    print_summary(shared, glob, occ_ncu)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
