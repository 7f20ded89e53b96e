#!/usr/bin/env python3
"""Turns what test/hw/scripts/measure_corpus.sh brings back (its tarball, or
the result/ folder inside it) into one record per measured executable:
test/hw/realcode/<executable>.json. Numbers and names only: source files
relative to their repository's root, lines, kernel names, opcodes, counts;
no source text.

Per (source file, line, kernel instance) and per memory access class seen
there (global load/store/atomic, shared load/store/atomic, from the SASS
opcode, and for generic LD/ST/ATOM from ncu's Address Space column) a record
sums, over the SASS instructions of that class on that line:
  instructions                  Instructions Executed (warp-level; warps whose
                                lanes are all predicated off count too)
  thread_instructions           Predicated-On Thread Instructions Executed
  sectors, ideal_sectors        L2 Theoretical Sectors Global (and _Ideal)
  l1_tag_requests               L1 Tag Requests Global
  wavefronts, ideal_wavefronts  L1 Wavefronts Shared (and _Ideal)
and lists the opcodes (mnemonic and modifiers, no operands). Derived:
sectors_per_request and wavefronts_per_request (over instructions), and
sector_ratio / wavefront_ratio (over the ideal), the comparison that
predicated-off warps do not dilute. full_warps says whether every executed
instruction had 32 lanes on (no guard, no partial warp).

Each kernel instance is kept once per executable: the first run that
profiled it (measure_corpus.sh profiles the first launch of every instance,
per run). Its launch shape comes from the details export. SASS the line
table places in toolkit headers (atomics, intrinsics) is summed per kernel
under 'outside'.

Also: --compact IN.csv OUT.csv rewrites one `ncu --page source --csv
--print-source cuda,sass` export into the same layout with only the line
rows and the memory instructions, each once, the source text and SASS
operands dropped (measure_corpus.sh runs it on the GPU machine).

Usage:
  corpus_to_records.py TARBALL|RESULT_DIR OUT_DIR
  corpus_to_records.py --compact IN.csv OUT.csv
"""
import csv
import glob
import gzip
import io
import json
import os
import re
import sys
import tarfile

# test/testsupport.py: running a command as the test scripts do.
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
from testsupport import run  # noqa: E402
from ncu_source_export import number, source_blocks  # noqa: E402

# Columns kept by --compact and read by the records.
METRICS = {
    "Instructions Executed": "instructions",
    "Predicated-On Thread Instructions Executed": "thread_instructions",
    "L1 Tag Requests Global": "l1_tag_requests",
    "L2 Theoretical Sectors Global": "sectors",
    "L2 Theoretical Sectors Global Ideal": "ideal_sectors",
    "L1 Wavefronts Shared": "wavefronts",
    "L1 Wavefronts Shared Ideal": "ideal_wavefronts",
}
KEPT = list(METRICS) + ["Thread Instructions Executed", "Address Space", "Access Operation",
                        "Access Size", "L1 Conflicts Shared N-Way", "L2 Theoretical Sectors Local"]

DEFAULT_FILTER = ("--clock-control none --section SourceCounters --section LaunchStats "
                  "--import-source yes --kernel-name-base demangled --kernel-id ::regex:.*:1 -f")

GLOBAL_OPS = {"LDG": "load", "STG": "store", "ATOMG": "atomic", "REDG": "atomic",
              "RED": "atomic", "LDGSTS": "load"}
SHARED_OPS = {"LDS": "load", "LDSM": "load", "STS": "store", "STSM": "store", "ATOMS": "atomic"}
GENERIC_OPS = {"LD": "load", "ST": "store", "ATOM": "atomic"}
COLUMN_OPS = {"Load": "load", "Store": "store", "Atomic": "atomic", "Reduction": "atomic"}


def opcode_of(sass):
    """'      @!P0 LDG.E.64 R2, desc[UR4][R2.64]' -> 'LDG.E.64'."""
    toks = sass.split()
    if toks and toks[0].startswith("@"):
        toks = toks[1:]
    return toks[0].rstrip(";") if toks else ""


def access_class(opcode, space_col, op_col):
    """(space, op) of a SASS instruction, or None when it is no global or
    shared access."""
    mnemonic = opcode.split(".")[0]
    space_col = (space_col or "").split("(")[0].strip()
    op = COLUMN_OPS.get((op_col or "").split("(")[0].strip())
    if mnemonic in GLOBAL_OPS:
        if mnemonic in ("RED", "ATOM") and space_col == "Shared":
            return ("shared", "atomic")
        return ("global", GLOBAL_OPS[mnemonic])
    if mnemonic in SHARED_OPS:
        return ("shared", SHARED_OPS[mnemonic])
    if mnemonic in GENERIC_OPS or (op and space_col in ("Global", "Shared")):
        if space_col == "Global":
            return ("global", GENERIC_OPS.get(mnemonic, op))
        if space_col == "Shared":
            return ("shared", GENERIC_OPS.get(mnemonic, op))
    return None


def read_csv_text(text):
    return list(csv.reader(io.StringIO(text)))


def compact(src, dst):
    with open(src, newline="", errors="replace") as f:
        rows = list(csv.reader(f))
    out = []
    kept_rows = 0
    for file_path, function, header, items in source_blocks(rows):
        col = {n: k for k, n in enumerate(header)}
        keep = [n for n in KEPT if n in col]
        out.append(["File Path", file_path])
        out.append(["Function Name", function])
        out.append(["Line No", "Source", "Address", "Source"] + keep)
        for line, r, is_line in items:
            vals = [r[col[n]] if col[n] < len(r) else "" for n in keep]
            if is_line:
                out.append([r[0], "", "", ""] + vals)
                continue
            opc = opcode_of(r[3])
            space = r[col["Address Space"]] if "Address Space" in col else ""
            op = r[col["Access Operation"]] if "Access Operation" in col else ""
            if access_class(opc, space, op) is None and space.split("(")[0] not in ("Global", "Shared", "Local", "Generic"):
                continue
            out.append(["", "", r[2], opc] + vals)
            kept_rows += 1
    with open(dst, "w", newline="") as f:
        csv.writer(f, quoting=csv.QUOTE_ALL).writerows(out)
    print("compact: %s -> %s (%d memory instructions)" % (os.path.basename(src), os.path.basename(dst), kept_rows))


# --------------------------------------------------------------------------
# Names

NV_STATIC = re.compile(r"^__nv_static_\d+__\w*?_(_Z\w+)$")


def demangle_static(name):
    """-rdc builds prefix internal-linkage kernels (__nv_static_..._Z...)."""
    m = NV_STATIC.match(name)
    if not m:
        return name
    rc, out, _ = run(["c++filt", m.group(1)], timeout=10)
    return (out.strip() if rc == 0 else "") or name


def kernel_name(signature):
    """'void k<(int)1>(const float *, int)' -> 'k<(int)1>' (template arguments
    verbatim; realcode.py normalises them)."""
    s = demangle_static(signature.strip())
    if s.startswith("void "):
        s = s[5:]
    depth = 0
    for i, c in enumerate(s):
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif c == "(" and depth == 0 and i > 0 and not s[:i].endswith("operator"):
            return s[:i].strip()
    return s


def parse_shape(text):
    nums = re.findall(r"\d+", text or "")
    return [int(n) for n in nums[:3]] if len(nums) >= 3 else None


def parse_details(text):
    """signature -> {'block', 'grid'}, and the signatures in profiling order."""
    lines = [l for l in text.splitlines() if l.startswith('"')]
    shapes, order = {}, []
    for row in csv.DictReader(io.StringIO("\n".join(lines))):
        if row.get("ID") in (None, "ID"):
            continue
        name = row.get("Kernel Name", "")
        if name not in shapes:
            shapes[name] = {"block": parse_shape(row.get("Block Size")),
                            "grid": parse_shape(row.get("Grid Size")), "id": row.get("ID")}
            order.append(name)
    return shapes, order


# --------------------------------------------------------------------------
# Records

def relative_file(path, root, cwd=None):
    """(dir, path relative to that repository's root), or (None, a toolkit
    or other label) for files outside the pack. A relative path is taken
    relative to cwd (the build's folder), as the compiler saw it."""
    if not os.path.isabs(path) and cwd:
        path = os.path.join(cwd, path)
    p = os.path.normpath(path)
    if root and p.startswith(root.rstrip("/") + "/"):
        rest = p[len(root.rstrip("/")) + 1:]
        parts = rest.split("/", 1)
        if len(parts) == 2 and not parts[0].startswith("_"):
            return parts[0], parts[1]
        return None, "pack:" + rest
    if "/include/" in p:
        return None, "toolkit:" + p.split("/include/", 1)[1]
    return None, "other:" + os.path.basename(p)


def records_of_csv(text, root, run, cwd=None):
    """kernel signature -> {'records': {key: rec}, 'outside': {class: rec}}:
    the first launch of each kernel in the export."""
    kernels = {}
    blocks = set()
    for file_path, function, header, items in source_blocks(read_csv_text(text)):
        if (function, file_path) in blocks:
            continue        # another launch of the kernel: the first one is kept
        blocks.add((function, file_path))
        col = {n: k for k, n in enumerate(header)}
        k = kernels.setdefault(function, {"run": run, "records": {}, "outside": {}, "order": len(kernels)})
        d, rel = relative_file(file_path, root, cwd)
        for line, r, is_line in items:
            if is_line or line is None:
                continue
            opc = opcode_of(r[3])
            space = r[col["Address Space"]] if "Address Space" in col else ""
            op = r[col["Access Operation"]] if "Access Operation" in col else ""
            cls = access_class(opc, space, op)
            if cls is None:
                continue
            if d is None:
                key = (rel,) + cls
                rec = k["outside"].setdefault(key, {"file": rel, "space": cls[0], "op": cls[1],
                                                    "instructions": 0.0, "opcodes": []})
            else:
                key = (rel, line) + cls
                rec = k["records"].setdefault(key, {
                    "file": rel, "line": line, "space": cls[0], "op": cls[1],
                    "instructions": 0.0, "thread_instructions": 0.0, "sectors": 0.0,
                    "ideal_sectors": 0.0, "l1_tag_requests": 0.0, "wavefronts": 0.0,
                    "ideal_wavefronts": 0.0, "opcodes": [], "access_size_bits": []})
            for name, field in METRICS.items():
                if field in rec and name in col and col[name] < len(r):
                    rec[field] += number(r[col[name]]) or 0.0
            if opc and opc not in rec["opcodes"]:
                rec["opcodes"].append(opc)
            if "access_size_bits" in rec and "Access Size" in col:
                size = number(r[col["Access Size"]])
                if size is not None and int(size) not in rec["access_size_bits"]:
                    rec["access_size_bits"].append(int(size))
    return kernels


def finish(rec):
    inst = rec["instructions"]
    out = {k: v for k, v in rec.items()}
    for k in ("instructions", "thread_instructions", "sectors", "ideal_sectors", "l1_tag_requests",
              "wavefronts", "ideal_wavefronts"):
        if k in out:
            out[k] = int(round(out[k]))
    out["full_warps"] = bool(inst) and abs(rec["thread_instructions"] - 32 * inst) < 0.5
    if rec["space"] == "global":
        for k in ("wavefronts", "ideal_wavefronts"):
            if not out[k]:
                out[k] = None
        out["sectors_per_request"] = round(rec["sectors"] / inst, 4) if inst else None
        out["sector_ratio"] = round(rec["sectors"] / rec["ideal_sectors"], 4) if rec["ideal_sectors"] else None
    else:
        for k in ("sectors", "ideal_sectors", "l1_tag_requests"):
            if not out[k]:
                out[k] = None
        out["wavefronts_per_request"] = round(rec["wavefronts"] / inst, 4) if inst else None
        out["wavefront_ratio"] = (round(rec["wavefronts"] / rec["ideal_wavefronts"], 4)
                                  if rec["ideal_wavefronts"] else None)
    out["opcodes"] = sorted(rec["opcodes"])
    if "access_size_bits" in out:
        out["access_size_bits"] = sorted(rec["access_size_bits"])
    return out


class Result:
    """The files of a result/ folder, from a folder or a tarball (or its
    .partNN pieces)."""

    def __init__(self, source):
        self.files = {}
        if os.path.isdir(source):
            base = source
            for path in glob.glob(os.path.join(base, "**", "*"), recursive=True):
                if os.path.isfile(path):
                    with open(path, "rb") as f:
                        self.files[os.path.relpath(path, base)] = f.read()
            return
        data = b""
        if re.search(r"\.part\d+$", source):
            stem = re.sub(r"\.part\d+$", "", source)
            for part in sorted(glob.glob(stem + ".part*")):
                with open(part, "rb") as f:
                    data += f.read()
        else:
            with open(source, "rb") as f:
                data = f.read()
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:*") as tf:
            for m in tf.getmembers():
                if m.isfile():
                    name = m.name.split("/", 1)[1] if m.name.startswith("result/") else m.name
                    self.files[name] = tf.extractfile(m).read()

    def text(self, name):
        data = self.files.get(name)
        if data is None and name + ".gz" in self.files:
            data = gzip.decompress(self.files[name + ".gz"])
        return data.decode("utf-8", "replace") if data is not None else None


def parse_env(text):
    env = {}
    for line in (text or "").splitlines():
        m = re.match(r"^(\w+): (.*)$", line)
        if m:
            env[m.group(1)] = m.group(2).strip()
    gpu = re.search(r"^(NVIDIA [^,\n]+), ([\d.]+), ([\d.]+)$", text or "", re.M)
    if gpu:
        env["device"] = "%s (sm_%s), driver %s" % (gpu.group(1), gpu.group(3).replace(".", ""), gpu.group(2))
    ncu = re.search(r"^Version ([\d.]+).*$", text or "", re.M)
    if ncu:
        env["ncu"] = ncu.group(1)
    nvcc = re.search(r"release ([\d.]+), V([\d.]+)", text or "")
    if nvcc:
        env["nvcc"] = nvcc.group(2)
    return env


def convert(result, dest):
    plan = json.loads(result.text("plan.json") or '{"entries": []}')
    env = parse_env(result.text("env.txt"))
    root = env.get("root")
    os.makedirs(dest, exist_ok=True)
    written = []
    for e in plan["entries"]:
        b = e["bin"]
        runs, kernels = [], {}
        shapes = {}
        for k, r in enumerate(e["runs"]):
            st = (result.text("status/%s.run.%d" % (b, k)) or "").split()
            run = {"args": r["argv"][1:], "rc": int(st[0]) if st and st[0].lstrip("-").isdigit() else None,
                   "seconds": int(st[1]) if len(st) > 1 and st[1].isdigit() else None,
                   "status": st[2] if len(st) > 2 else "not run",
                   "kernels_profiled": int(st[3]) if len(st) > 3 and st[3].isdigit() else None}
            runs.append(run)
            text = result.text("csv/%s.%d.source.csv" % (b, k))
            if text is None:
                continue
            det = result.text("csv/%s.%d.details.csv" % (b, k))
            sh, _ = parse_details(det) if det else ({}, [])
            by_name = {}
            for d in sh:
                by_name.setdefault(kernel_name(d), []).append(d)
            used = set()
            cwd = os.path.join(root, e["build"][0]["cwd"]) if root and e.get("build") else None
            for sig, kd in records_of_csv(text, root, k, cwd).items():
                # the details export names the kernel as the source page
                # does, or (another name base) without its parameters
                d = sig if sig in sh else next((x for x in by_name.get(kernel_name(sig), [])
                                                if x not in used), None)
                if d is not None:
                    used.add(d)
                if sig not in kernels:          # the first run that profiled it
                    kd["order"] = len(kernels)
                    kernels[sig] = kd
                    shapes[sig] = sh.get(d) or {}
            # kernels profiled that have no line table (library kernels)
            for d in sh:
                if d not in used and d not in kernels:
                    kernels[d] = {"run": k, "records": {}, "outside": {}, "order": len(kernels)}
                    shapes[d] = sh[d]
        if not any(r["status"] == "exported" for r in runs):
            continue
        klist, recs, outside = [], [], []
        for sig, kd in sorted(kernels.items(), key=lambda kv: (kv[1]["run"], kv[1]["order"])):
            name = kernel_name(sig)
            klist.append({"kernel": name, "signature": demangle_static(sig), "run": kd["run"],
                          "block": shapes.get(sig, {}).get("block"), "grid": shapes.get(sig, {}).get("grid"),
                          "lines": len({(r["file"], r["line"]) for r in kd["records"].values()})})
            for rec in kd["records"].values():
                rr = finish(rec)
                rr["kernel"] = name
                recs.append(rr)
            for rec in kd["outside"].values():
                outside.append({"kernel": name, "file": rec["file"], "space": rec["space"], "op": rec["op"],
                                "instructions": int(round(rec["instructions"])), "opcodes": sorted(rec["opcodes"])})
        recs.sort(key=lambda r: (r["file"], r["line"], r["kernel"], r["space"], r["op"]))
        units = [s for s in e.get("sources", []) if s.endswith(".cu")]
        doc = {"version": 1, "id": e["id"], "program": e["program"], "repo": e.get("repo"),
               "commit": e.get("commit"), "units": units,
               "device": env.get("device"), "ncu": env.get("ncu"), "nvcc": env.get("nvcc"),
               "measured": "ncu %s; the first launch of every kernel instance; nvcc -O3 -arch=sm_90 "
                           "-lineinfo" % env.get("kernel_filter", DEFAULT_FILTER),
               "runs": runs, "kernels": klist, "records": recs, "outside": outside}
        path = os.path.join(dest, b + ".json")
        with open(path, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        written.append((e["id"], len(klist), len(recs)))
    for id_, nk, nr in written:
        print("%-50s %3d kernels %5d records" % (id_, nk, nr))
    print("%d executables, %d kernels, %d records" % (
        len(written), sum(w[1] for w in written), sum(w[2] for w in written)))
    return written


def main(argv):
    if len(argv) == 4 and argv[1] == "--compact":
        compact(argv[2], argv[3])
        return 0
    if len(argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    convert(Result(argv[1]), argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
