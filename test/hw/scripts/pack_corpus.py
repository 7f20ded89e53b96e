#!/usr/bin/env python3
"""Packs the corpus programs that test/hw/scripts/measure_corpus.sh builds,
runs and profiles on the GPU machine into one folder of the repository root
(default .corpus/, ignored by git: the sources are third-party and are never
committed), with the plan of what to build and run.

What is packed, for every entry of test/hw/corpus_runs.json (an executable of
a program of bench/corpus.json):
  - its sources and every local header they include, found by following
    #include "..." and <...> through the including file's folder and the
    program's include directories (files of the program's repository only;
    the toolkit's headers are the GPU machine's own);
  - the data files and folders its runs read ('data'), and the contents of
    the archives named in 'unzip', unpacked next to the archive;
  - the build-only fix-up headers and generated headers of bench/realcode.py
    (FIXUPS, GENERATED) the program's manifest entry names, under _bench/.
No .git, nothing else of the repositories.

The plan, DEST/plan.json (and the same as plain files under DEST/_plan/, one
argument a line, for the shell script):
  {"version": 1, "entries": [{"id", "program", "dir", "bin", "priority",
    "build": [{"cwd", "argv"}...],          # compile each source, then link
    "runs": [{"cwd", "argv", "timeout", "env"}...], "sources": [...]}]}
Paths in it are relative to DEST. Placeholders the script fills in: @BIN@
(the executable), @OBJ@ (its object folder). Every compile is
  nvcc -O3 -arch=sm_90 -lineinfo <defines> <include dirs> <the program's
  nvcc flags, less architecture and optimisation flags> [-include fix-ups]
  -c <source> -o @OBJ@/<n>.o
(.cpp and .c sources as host code: no '-x cu', no device-only flags; .c
without -std=c++*), and the link
  nvcc -arch=sm_90 [-rdc=true] @OBJ@/*.o -o @BIN@ <libs>.

Usage: pack_corpus.py --corpus CORPUS [--dest .corpus]
           [--runs test/hw/corpus_runs.json] [--manifest bench/corpus.json]
           [--only GLOB ...] [--max-mib 60] [--list]
"""
import argparse
import fnmatch
import json
import os
import re
import shutil
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "bench"))
import realcode  # noqa: E402  (FIXUPS, GENERATED, load_manifest, safe_name)
from nvcc_args import nvcc_args_without  # noqa: E402

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]', re.M)
# Replaced by our own -O3 -lineinfo, or host-only debugging.
DROPPED = {"-c", "--compile", "-dc", "--device-c", "-g", "-G", "-lineinfo",
           "-O0", "-O1", "-O2", "-O3", "-Os"}
# Flags that only mean something when nvcc compiles CUDA.
DEVICE_ONLY = ("--extended-lambda", "--expt-extended-lambda", "--expt-relaxed-constexpr",
               "-rdc=true", "-rdc", "--relocatable-device-code=true", "--use_fast_math",
               "-use_fast_math", "-Xptxas", "--threads=0", "-t=0", "-Wno-deprecated-gpu-targets")


def filtered_flags(flags):
    """The program's nvcc flags less architecture, optimisation and -c."""
    return nvcc_args_without(flags, DROPPED)


def host_flags(flags, language):
    """Flags for a .cpp/.c source: no '-x cu', no device-only flags; C sources
    lose -std=c++*."""
    out, skip = [], False
    for i, a in enumerate(flags):
        if skip:
            skip = False
            continue
        if a == "-x":
            skip = True
            continue
        if a == "-Xptxas":
            skip = True
            continue
        if a in DEVICE_ONLY or a.startswith("-Xptxas="):
            continue
        if language == "c" and (a.startswith("-std=c++") or a.startswith("--std=c++")):
            continue
        out.append(a)
    return out


class Packer:
    def __init__(self, corpus, dest):
        self.corpus = os.path.abspath(corpus)
        self.dest = os.path.abspath(dest)
        self.files = {}        # dest-relative path -> source absolute path
        self.missing = []      # (entry, include) not found: reported only

    def add_file(self, src, rel):
        self.files[rel] = src

    def scan(self, repo_root, dir_name, start, include_dirs):
        """start and every local file it includes, transitively."""
        todo, seen = [start], set()
        while todo:
            path = todo.pop()
            if path in seen:
                continue
            seen.add(path)
            rel = os.path.relpath(path, repo_root)
            self.add_file(path, os.path.join(dir_name, rel))
            try:
                with open(path, errors="replace") as f:
                    text = f.read()
            except OSError:
                continue
            for kind, name in INCLUDE.findall(text):
                cands = ([os.path.dirname(path)] if kind == '"' else []) + include_dirs
                for c in cands:
                    p = os.path.normpath(os.path.join(c, name))
                    if p.startswith(repo_root + os.sep) and os.path.isfile(p):
                        todo.append(p)
                        break
        return seen


def build_entry(entry, prog, packer, fixup_dir):
    """The plan of one executable."""
    dir_name = prog["dir"]
    repo_root = os.path.join(packer.corpus, dir_name)
    build_dir_rel = os.path.normpath(os.path.join(dir_name, prog["directory"]))
    build_dir_abs = os.path.join(packer.dest, build_dir_rel)
    safe_prog = realcode.safe_name(prog["name"])
    gen_rel = os.path.join("_bench", "gen", safe_prog)
    include_abs_src = []      # where the scan looks (corpus side)
    include_args = []         # as the compile passes them (relative to cwd)
    for inc in prog.get("include_dirs", []):
        if inc.startswith("$GEN"):
            dest_inc = os.path.normpath(os.path.join(packer.dest, gen_rel + inc[len("$GEN"):]))
        else:
            include_abs_src.append(os.path.normpath(os.path.join(repo_root, inc)))
            dest_inc = os.path.normpath(os.path.join(packer.dest, dir_name, inc))
        include_args.append("-I" + os.path.relpath(dest_inc, build_dir_abs))
    for rel, key in prog.get("generated", {}).items():
        packer.generated[os.path.join(gen_rel, rel)] = realcode.GENERATED[key]
    fix_args = []
    fixups = list(prog.get("fixups", []))
    fixups += [f for f in entry.get("fixups", []) if f not in fixups]
    for fx in fixups:
        if fx not in realcode.FIXUPS:
            sys.exit("pack_corpus: %s: unknown fix-up %r" % (entry["id"], fx))
        rel = os.path.join(fixup_dir, "fixup-%s.h" % fx)
        packer.generated[rel] = realcode.FIXUPS[fx][1]
        fix_args += ["-include", os.path.relpath(os.path.join(packer.dest, rel), build_dir_abs)]
    defines = ["-D" + d for d in prog.get("defines", [])]
    flags = filtered_flags(prog.get("flags", [])) + list(entry.get("extra_flags", []))
    host_only = list(entry.get("host_flags", []))
    for s in entry["sources"]:
        src = os.path.normpath(os.path.join(repo_root, s))
        if not os.path.isfile(src):
            sys.exit("pack_corpus: %s: no source %s" % (entry["id"], src))
        packer.scan(repo_root, dir_name, src, include_abs_src)
    for d in entry.get("data", []):
        src = os.path.join(repo_root, d)
        if os.path.isdir(src):
            for r, dirs, files in os.walk(src):
                dirs[:] = [x for x in dirs if x != ".git"]
                for f in files:
                    p = os.path.join(r, f)
                    packer.add_file(p, os.path.join(dir_name, os.path.relpath(p, repo_root)))
        elif os.path.isfile(src):
            packer.add_file(src, os.path.join(dir_name, d))
        else:
            sys.exit("pack_corpus: %s: no data %s" % (entry["id"], src))
    for z in entry.get("unzip", []):
        packer.unzip.append((os.path.join(repo_root, z),
                             os.path.join(dir_name, os.path.dirname(z))))
    build = []
    objs = []
    rdc = any(a in ("-rdc=true", "--relocatable-device-code=true") for a in flags)
    for i, s in enumerate(entry["sources"]):
        rel_src = os.path.relpath(os.path.join(packer.dest, dir_name, s), build_dir_abs)
        obj = "@OBJ@/%d_%s.o" % (i, realcode.safe_name(os.path.basename(s)))
        objs.append(obj)
        ext = os.path.splitext(s)[1]
        if ext in (".cu",):
            f = flags
            fx = fix_args
            lang_flags = host_only
        else:
            lang = "c" if ext == ".c" else "c++"
            f = host_flags(flags, lang)
            fx = fix_args if lang == "c++" else []
            lang_flags = host_only
        argv = (["nvcc", "-O3", "-arch=sm_90", "-lineinfo"] + defines + include_args + f
                + lang_flags + fx + ["-c", rel_src, "-o", obj])
        build.append({"cwd": build_dir_rel, "argv": argv})
    link = (["nvcc", "-arch=sm_90"] + (["-rdc=true"] if rdc else [])
            + [a for a in host_only] + objs + ["-o", "@BIN@"] + list(entry.get("libs", [])))
    build.append({"cwd": build_dir_rel, "argv": link})
    run_cwd = os.path.normpath(os.path.join(dir_name, entry["cwd"])) if entry.get("cwd") else build_dir_rel
    runs = [{"cwd": run_cwd, "argv": ["@BIN@"] + list(args),
             "timeout": entry.get("timeout", 60), "env": entry.get("env", {})}
            for args in entry.get("runs", [[]])]
    return {"id": entry["id"], "program": prog["name"], "dir": dir_name,
            "repo": prog.get("repo"), "commit": prog.get("commit"),
            "bin": realcode.safe_name(entry["id"]), "priority": entry.get("priority", 50),
            "sources": list(entry["sources"]), "build": build, "runs": runs}


def write_plan_files(dest, plan):
    """DEST/_plan/NNN.<bin>/: id, build.K.cwd/.argv, run.K.cwd/.argv/.timeout/.env."""
    base = os.path.join(dest, "_plan")
    shutil.rmtree(base, ignore_errors=True)
    os.makedirs(base)
    for n, e in enumerate(plan["entries"]):
        d = os.path.join(base, "%03d.%s" % (n, e["bin"]))
        os.makedirs(d)
        with open(os.path.join(d, "id"), "w") as f:
            f.write(e["id"] + "\n")
        for k, b in enumerate(e["build"]):
            with open(os.path.join(d, "build.%d.cwd" % k), "w") as f:
                f.write(b["cwd"] + "\n")
            with open(os.path.join(d, "build.%d.argv" % k), "w") as f:
                f.write("".join(a + "\n" for a in b["argv"]))
        for k, r in enumerate(e["runs"]):
            with open(os.path.join(d, "run.%d.cwd" % k), "w") as f:
                f.write(r["cwd"] + "\n")
            with open(os.path.join(d, "run.%d.argv" % k), "w") as f:
                f.write("".join(a + "\n" for a in r["argv"]))
            with open(os.path.join(d, "run.%d.timeout" % k), "w") as f:
                f.write("%d\n" % r["timeout"])
            with open(os.path.join(d, "run.%d.env" % k), "w") as f:
                f.write("".join("%s=%s\n" % kv for kv in sorted(r["env"].items())))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", required=True,
                    help="where the repositories are unpacked (bench/realcode.py --list-repos)")
    ap.add_argument("--dest", default=os.path.join(ROOT, ".corpus"))
    ap.add_argument("--runs", default=os.path.join(ROOT, "test", "hw", "corpus_runs.json"))
    ap.add_argument("--manifest", default=os.path.join(ROOT, "bench", "corpus.json"))
    ap.add_argument("--only", action="append", default=[], help="entry id or glob (repeatable)")
    ap.add_argument("--max-mib", type=float, default=60.0)
    ap.add_argument("--list", action="store_true", help="print what would be packed and stop")
    args = ap.parse_args()

    manifest = realcode.load_manifest(args.manifest)
    progs = {p["name"]: p for p in manifest["programs"]}
    with open(args.runs) as f:
        runs = json.load(f)
    entries = runs["programs"]
    if args.only:
        entries = [e for e in entries if any(fnmatch.fnmatchcase(e["id"], g) for g in args.only)]
    for e in entries:
        if e["program"] not in progs:
            sys.exit("pack_corpus: %s: no program %r in %s" % (e["id"], e["program"], args.manifest))
    packer = Packer(args.corpus, args.dest)
    packer.generated = {}
    packer.unzip = []
    plan = {"version": 1, "entries": []}
    for e in sorted(entries, key=lambda e: (e.get("priority", 50), e["id"])):
        plan["entries"].append(build_entry(e, progs[e["program"]], packer, "_bench"))
    size = sum(os.path.getsize(p) for p in packer.files.values())
    unz = 0
    for z, _ in packer.unzip:
        with zipfile.ZipFile(z) as zf:
            unz += sum(i.file_size for i in zf.infolist())
    total = size + unz + sum(len(t) for t in packer.generated.values())
    print("%d executables, %d runs, %d files, %.1f MiB (%.1f MiB unpacked from archives)" % (
        len(plan["entries"]), sum(len(e["runs"]) for e in plan["entries"]), len(packer.files),
        total / 2**20, unz / 2**20))
    if args.list:
        for e in plan["entries"]:
            print("%3d %-45s %d sources, %d runs" % (e["priority"], e["id"], len(e["sources"]), len(e["runs"])))
        return 0
    if total > args.max_mib * 2**20:
        sys.exit("pack_corpus: %.1f MiB is over --max-mib %.0f" % (total / 2**20, args.max_mib))
    if os.path.isdir(args.dest):
        if not os.path.exists(os.path.join(args.dest, "plan.json")):
            sys.exit("pack_corpus: %s exists and is not a pack (no plan.json); not touching it" % args.dest)
        shutil.rmtree(args.dest)
    os.makedirs(args.dest)
    for rel, src in sorted(packer.files.items()):
        out = os.path.join(args.dest, rel)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        shutil.copyfile(src, out)
    for rel, text in packer.generated.items():
        out = os.path.join(args.dest, rel)
        os.makedirs(os.path.dirname(out), exist_ok=True)
        with open(out, "w") as f:
            f.write(text)
    for z, where in packer.unzip:
        with zipfile.ZipFile(z) as zf:
            zf.extractall(os.path.join(args.dest, where))
    with open(os.path.join(args.dest, "plan.json"), "w") as f:
        json.dump(plan, f, indent=1)
    write_plan_files(args.dest, plan)
    print("packed into %s" % args.dest)
    return 0


if __name__ == "__main__":
    sys.exit(main())
