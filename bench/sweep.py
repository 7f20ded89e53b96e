#!/usr/bin/env python3
"""A sweep of warpcheck over many translation units: does anything crash,
hang or run out of memory? (issue "Reliability", "A sweep that anyone can
rerun".)

The units:
  - warpcheck's own test inputs (test/inputs, test/inputs/robustness);
  - --generated N units written by bench/sweep_units.py (our own code:
    random combinations of the constructs of the test inputs);
  - every .cu file under each --corpus folder (third-party programs, read
    and run only, never copied into this repository; Rodinia and
    PolyBench/GPU are refused by name).
A file with the same text as an earlier one is left out (said): a unit
counts once however many programs ship it.
Each folder's units run as batches through the warpcheck binary
(`warpcheck --format=json -j J --timeout T [--memory-limit M] files...`,
with -I for the folder's own include folders: Common, common, inc,
include; a copy of the build taken at the start), and with --plugin each unit also through clang-tidy-19 with the
plugin, with the clang arguments warpcheck parses it with.

Prints the units per second, the crashes (of warpcheck itself, of a unit's
analysis, contained crashes of one kernel, and clang-tidy's), time-outs,
runs out of memory and code nested too deeply, the units not analysed by
cause, and the kernels analysed, not compiling and failed. Exits 1 when
anything crashed or hung. Timing is wall clock on a shared machine.

Usage: bench/sweep.py [--build build] [--corpus DIR]... [--generated 700]
                      [-j 2] [--timeout 120] [--memory-limit MB] [--plugin]
                      [--batch 40] [--json FILE]
"""
import argparse
import collections
import concurrent.futures
import hashlib
import json
import os
import re
import shutil
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "test"))
import testsupport  # noqa: E402  (run, warpcheck_binary, plugin_library)
import sweep_units  # noqa: E402
from realcode import snapshot_build  # noqa: E402

RESERVED = re.compile(r"rodinia|polybench", re.IGNORECASE)
INCLUDE_DIR_NAMES = {"Common", "common", "inc", "include"}


def include_dirs(root):
    """The include folders of a program folder, two levels down at most."""
    found = []
    for path, dirs, _ in os.walk(root):
        depth = path[len(root):].count(os.sep)
        if depth >= 2:
            dirs[:] = []
        for d in sorted(dirs):
            if d in INCLUDE_DIR_NAMES:
                found.append(os.path.join(path, d))
        dirs.sort()
    return found


def corpus_groups(corpus):
    """(program folder, its .cu files) for each program under corpus."""
    groups = []
    for name in sorted(os.listdir(corpus)):
        root = os.path.join(corpus, name)
        if not os.path.isdir(root):
            continue
        if RESERVED.search(name):
            print("skipped %s: a reserved suite, never used" % root)
            continue
        files = []
        for path, dirs, names in os.walk(root):
            dirs[:] = sorted(d for d in dirs if not RESERVED.search(d))
            files += [os.path.join(path, n) for n in sorted(names) if n.endswith(".cu")]
        if files:
            groups.append((root, files))
    return groups


def distinct_units(groups):
    """The groups with every file whose text an earlier file has left out
    (cuda-samples ships some files in several samples: a unit counts once),
    and how many were left out."""
    seen = set()
    out, repeats = [], 0
    for root, files in groups:
        kept = []
        for f in files:
            with open(f, "rb") as fh:
                digest = hashlib.sha256(fh.read()).hexdigest()
            if digest in seen:
                repeats += 1
                continue
            seen.add(digest)
            kept.append(f)
        if kept:
            out.append((root, kept))
    return out, repeats


def cause_class(cause):
    """A not-analysed unit's cause, as a class: its words without paths and
    numbers."""
    c = cause.split("\n")[0]
    for pattern, name in ((r"crashed", "crash"), (r"timed out", "time-out"),
                          (r"ran out of memory", "out of memory"),
                          (r"nested too deeply", "nested too deeply"),
                          (r"killed|stopped from outside", "killed")):
        if re.search(pattern, c):
            return name
    c = re.sub(r"'[^']*'", "'...'", c)
    c = re.sub(r"/\S+", "<path>", c)
    return re.sub(r"\d+", "N", c)[:90]


def run_batch(wc, root, files, extra, args, scratch, index):
    out = os.path.join(scratch, "batch-%04d.json" % index)
    cmd = [wc, "--format=json", "-o", out, "-j", str(args.jobs),
           "--timeout=%d" % args.timeout]
    if args.memory_limit:
        cmd.append("--memory-limit=%d" % args.memory_limit)
    cmd += files + (["--"] + extra if extra else [])
    start = time.perf_counter()
    rc, _, err = testsupport.run(cmd, cwd=root, timeout=args.timeout * len(files) + 600)
    seconds = time.perf_counter() - start
    try:
        with open(out) as f:
            return rc, json.load(f), seconds, err
    except (OSError, ValueError):
        return rc, None, seconds, err


def plugin_unit(wc, plugin, clang_tidy, root, unit, extra, timeout):
    """'crash', 'time-out' or 'ok' for one unit through clang-tidy."""
    rc, out, _ = testsupport.run([wc, "--print-clang-args", unit] + (["--"] + extra if extra else []),
                                 cwd=root, timeout=120)
    clang_args = [a for a in out.split("\n") if a]
    rc, out, err = testsupport.run([clang_tidy, "-load", plugin, "-checks=-*,cuda-*", unit, "--"] +
                                   clang_args, cwd=root, timeout=timeout)
    if rc is None:
        return "time-out"
    if rc < 0 or "Stack dump" in err or "PLEASE submit a bug report" in err:
        return "crash"
    return "ok"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--corpus", action="append", default=[])
    ap.add_argument("--generated", type=int, default=700)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=120)
    ap.add_argument("--memory-limit", type=int, default=0)
    ap.add_argument("--batch", type=int, default=40)
    ap.add_argument("--plugin", action="store_true")
    ap.add_argument("--clang-tidy", default="clang-tidy-19")
    ap.add_argument("--json")
    args = ap.parse_args()
    with testsupport.scratch_dir("warpcheck-sweep-") as scratch:
        # A copy of the build taken now: a rebuild during the sweep changes
        # nothing.
        wc = snapshot_build(os.path.abspath(args.build), os.path.join(scratch, "warpcheck"))
        plugin = os.path.join(scratch, "libwarpcheck.so")
        if args.plugin:
            shutil.copy2(testsupport.plugin_library(args.build), plugin)
        return sweep(args, wc, plugin, scratch)


def sweep(args, wc, plugin, scratch):
    gen = os.path.join(scratch, "generated")
    os.makedirs(gen)
    generated = []
    for i in range(args.generated):
        path = os.path.join(gen, "unit_%05d.cu" % (args.seed * 100000 + i))
        with open(path, "w") as f:
            f.write(sweep_units.unit(args.seed * 100000 + i))
        generated.append(path)
    inputs = os.path.join(ROOT, "test", "inputs")
    groups = [(inputs, sorted(os.path.join(inputs, n) for n in os.listdir(inputs)
                              if n.endswith(".cu"))),
              (os.path.join(inputs, "robustness"),
               sorted(os.path.join(inputs, "robustness", n)
                      for n in os.listdir(os.path.join(inputs, "robustness")) if n.endswith(".cu"))),
              (gen, generated)]
    for c in args.corpus:
        groups += corpus_groups(os.path.abspath(c))
    groups, repeats = distinct_units(groups)
    if repeats:
        print("%d units left out: the same text as an earlier unit (programs that ship copies "
              "of one file)" % repeats)

    units = 0
    seconds = 0.0
    status = collections.Counter()
    causes = collections.Counter()
    kernels = collections.Counter()
    problems = collections.defaultdict(list)  # class -> files
    plugin_results = collections.Counter()
    batch = 0
    for root, files in groups:
        extra = ["-I" + d for d in include_dirs(root)] if root not in (inputs, gen) else []
        for start in range(0, len(files), args.batch):
            chunk = files[start:start + args.batch]
            batch += 1
            rc, doc, took, err = run_batch(wc, root, chunk, extra, args, scratch, batch)
            units += len(chunk)
            seconds += took
            if doc is None or rc is None or rc < 0:
                problems["warpcheck itself failed"].append("%s (exit %s): %s" %
                                                           (root, rc, err[-300:]))
                continue
            for i in doc.get("inputs", []):
                status[i["status"]] += 1
                if i["status"] == "not_analysed":
                    cls = cause_class(i.get("cause", ""))
                    causes[cls] += 1
                    if cls in ("crash", "time-out", "out of memory", "nested too deeply", "killed"):
                        problems[cls].append(i["file"])
            for k in doc.get("kernels", []):
                kernels[k.get("status", "?")] += 1
                if k.get("status") == "failed":
                    problems["kernel failed (contained)"].append(
                        "%s: %s" % (k["name"], k["error"]["message"][:200]))
            label = "generated" if root == gen else (
                os.path.relpath(root, ROOT) if root.startswith(ROOT) else root)
            print("%-48s %4d units %7.1f s  %s" % (label[-48:], len(chunk), took,
                                                   doc["summary"]["text"][:110]), flush=True)
        if args.plugin:
            with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
                results = pool.map(lambda u: (u, plugin_unit(wc, plugin, args.clang_tidy, root, u,
                                                             extra, args.timeout)), files)
                for unit, verdict in results:
                    plugin_results[verdict] += 1
                    if verdict != "ok":
                        problems["plugin " + verdict].append(unit)

    print("\nunits: %d (%d generated), in %d batches" % (units, len(generated), batch))
    print("binary: %.1f s, %.2f units/s with -j%d" % (seconds, units / seconds if seconds else 0,
                                                     args.jobs))
    print("  inputs: %s" % ", ".join("%d %s" % (n, s) for s, n in sorted(status.items())))
    print("  kernel entries (one per launch shape): %s" %
          ", ".join("%d %s" % (n, s) for s, n in sorted(kernels.items())))
    for cls in ("crash", "time-out", "out of memory", "nested too deeply", "killed"):
        print("  %s: %d" % (cls, causes.get(cls, 0)))
    print("  not analysed, by cause:")
    for cls, n in causes.most_common():
        print("    %5d  %s" % (n, cls))
    if args.plugin:
        print("plugin: %s" % ", ".join("%d %s" % (n, v) for v, n in sorted(plugin_results.items())))
    for cls, files in sorted(problems.items()):
        print("%s (%d):" % (cls, len(files)))
        for f in files[:20]:
            print("    " + f)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"units": units, "repeats_left_out": repeats, "seconds": seconds,
                       "status": status, "causes": causes,
                       "kernels": kernels, "plugin": plugin_results, "problems": problems},
                      f, indent=1)
    bad = any(problems.get(c) for c in ("warpcheck itself failed", "crash", "time-out",
                                        "kernel failed (contained)", "plugin crash",
                                        "plugin time-out"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
