#!/usr/bin/env python3
"""How much warpcheck's analysis adds to parsing.

For each translation unit, runs side by side, interleaved, N times:
  A: clang++-19 -fsyntax-only <the clang arguments warpcheck uses>
  B: warpcheck <file>        (parse + all cuda-* checks + the JSON-level analysis)
and prints the median wall time of each and the ratio B/A (the median of
the ratios of back-to-back pairs; also the ratio of the medians and of the
fastest runs). The budget is
B/A <= 1.25 on a CCCL-heavy unit and on the test inputs. Timing is wall
clock on a shared machine: read the ratios, not the absolute times.

--cold: each warpcheck run starts with an empty cache ($XDG_CACHE_HOME a
fresh folder), so that with a CUDA toolkit the register count's nvcc run
is part of every run: the first run over a code base. The median and the
90th percentile of the units' ratios are printed (aim: a median of 1.3).

With --baseline DIR (another warpcheck build, e.g. of an earlier commit)
the baseline runs in the same pairs, third, and its ratio over clang and
the ratio of the two builds (this one over the baseline) are printed too:
a change's cost measured side by side, not across runs.

Usage: bench/analysis_overhead.py [--build build] [--baseline DIR] [--runs 7] [files...]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# test/testsupport.py: running a command as the test scripts do.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "test"))
import testsupport  # noqa: E402  (run, CCCL_UNIT)


def timed(cmd, cwd, cold_root=None):
    env = None
    if cold_root:
        env = dict(os.environ, XDG_CACHE_HOME=tempfile.mkdtemp(dir=cold_root))
    t = time.perf_counter()
    p = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       text=True)
    dt = time.perf_counter() - t
    # 3: an input with errors on purpose (host-errors.cu) is still analysed.
    if p.returncode not in (0, 1, 3):
        raise RuntimeError("%s failed (%d): %s" % (cmd[0], p.returncode, p.stderr[-500:]))
    return dt


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--baseline", help="another warpcheck build to run side by side")
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--cold", action="store_true",
                    help="every warpcheck run with an empty cache (the first run)")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    wc = testsupport.warpcheck_binary(args.build)
    base = testsupport.warpcheck_binary(args.baseline) if args.baseline else None
    files = [os.path.abspath(f) for f in args.files]
    tmp = tempfile.mkdtemp(prefix="warpcheck-bench-")
    if not files:
        inputs = os.path.join(root, "test", "inputs")
        files = sorted(os.path.join(inputs, f) for f in os.listdir(inputs) if f.endswith(".cu"))
        # The CCCL unit where the toolkit warpcheck uses has CCCL.
        found = testsupport.print_toolkit(wc) or {}
        root = found.get("root") if found.get("found") else None
        if root and (found.get("cccl_include_dir") or os.path.isdir(os.path.join(root, "include", "cub"))):
            cccl = os.path.join(tmp, "cccl_heavy.cu")
            open(cccl, "w").write(testsupport.CCCL_UNIT)
            files.insert(0, cccl)
    # Each run is a pair, clang then warpcheck, back to back: a pair shares
    # the machine's state, so the median of the pairs' ratios is the figure
    # least moved by the slow spells of a shared machine. The ratio of the
    # medians and that of the fastest runs are printed beside it.
    print("%-34s %10s %10s %7s %9s %8s" % ("translation unit", "clang (s)", "warpcheck",
                                          "ratio", "med/med", "min/min") +
          ("  %9s %7s %9s" % ("baseline", "ratio", "this/base") if base else ""))
    worst = 0.0
    ratios = []
    cold = tmp if args.cold else None
    for f in files:
        cwd, name = os.path.dirname(f), os.path.basename(f)
        rc, out, err = testsupport.run([wc, "--print-clang-args", name], cwd=cwd)
        if rc != 0:
            raise RuntimeError("warpcheck --print-clang-args %s failed (%s): %s" % (name, rc, err))
        clang = ["clang++-19", "-fsyntax-only"] + [a for a in out.split("\n") if a] + [name]
        a, b, c = [], [], []
        timed(clang, cwd), timed([wc, name], cwd)  # warm the file cache
        for _ in range(args.runs):
            a.append(timed(clang, cwd))
            b.append(timed([wc, name], cwd, cold))
            if base:
                c.append(timed([base, name], cwd, cold))
        ma, mb = statistics.median(a), statistics.median(b)
        paired = statistics.median(y / x for x, y in zip(a, b))
        worst = max(worst, paired)
        ratios.append(paired)
        line = "%-34s %10.3f %10.3f %7.3f %9.3f %8.3f" % (name[:34], ma, mb, paired, mb / ma,
                                                          min(b) / min(a))
        if base:
            line += "  %9.3f %7.3f %9.3f" % (statistics.median(c),
                                             statistics.median(z / x for x, z in zip(a, c)),
                                             statistics.median(y / z for y, z in zip(b, c)))
        print(line)
    ratios.sort()
    print("units' ratios: median %.3f, 90th percentile %.3f%s" % (
        statistics.median(ratios), ratios[min(len(ratios) - 1, (9 * len(ratios)) // 10)],
        " (cold: every run's cache empty)" if args.cold else ""))
    print("worst ratio %.3f (median of paired ratios; budget 1.25)" % worst)
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
