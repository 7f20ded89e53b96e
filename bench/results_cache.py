#!/usr/bin/env python3
"""What the results cache (--cache-dir) saves on a second run.

Over the test inputs and the examples (or the files given), each round
runs, one after the other, with a fresh $XDG_CACHE_HOME (so nvcc's register
counts are not cached either) and a fresh results cache:
  cold:   warpcheck --cache-dir=C ...   (every unit analysed; C filled)
  ptxas:  warpcheck ...                 (no results cache; nvcc's counts
                                          cached, as any second run today)
  warm:   warpcheck --cache-dir=C ...   (every unit reused)
and prints the median wall time of each and the ratios warm/cold and
warm/ptxas, side by side. It also checks that the warm run's JSON is the
cold run's, byte for byte. Timing is wall clock on a shared machine: read
the ratios, not the absolute times.

Usage: bench/results_cache.py [--build build] [--runs 3] [-j N] [--no-cuda] [files...]
"""
import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

# test/testsupport.py: where a build keeps its binary.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "test"))
import testsupport  # noqa: E402


def timed(cmd, env, out):
    t = time.perf_counter()
    p = subprocess.run(cmd + ["-o", out], env=env, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True)
    dt = time.perf_counter() - t
    # 3: inputs with errors on purpose (host-errors.cu) are still analysed.
    if p.returncode not in (0, 1, 3):
        raise RuntimeError("%s failed (%d): %s" % (" ".join(cmd), p.returncode, p.stderr[-500:]))
    return dt


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default="build")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("-j", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--no-cuda", action="store_true", help="parse with the bundled declarations")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    wc = testsupport.warpcheck_binary(args.build)
    files = [os.path.abspath(f) for f in args.files]
    if not files:
        inputs = os.path.join(root, "test", "inputs")
        files = sorted(os.path.join(inputs, f) for f in os.listdir(inputs) if f.endswith(".cu"))
        examples = os.path.join(root, "examples")
        files += sorted(os.path.join(examples, f) for f in os.listdir(examples)
                        if f.endswith(".cu"))
    cmd = [wc, "--format=json", "-j", str(args.j)] + (["--no-cuda"] if args.no_cuda else [])
    times = {"cold": [], "ptxas": [], "warm": []}
    identical = True
    for _ in range(args.runs):
        tmp = tempfile.mkdtemp(prefix="warpcheck-bench-cache-")
        try:
            env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "xdg"))
            cache = ["--cache-dir", os.path.join(tmp, "results")]
            cold, warm = os.path.join(tmp, "cold.json"), os.path.join(tmp, "warm.json")
            times["cold"].append(timed(cmd + cache + files, env, cold))
            times["ptxas"].append(timed(cmd + files, env, os.path.join(tmp, "ptxas.json")))
            times["warm"].append(timed(cmd + cache + files, env, warm))
            with open(cold, "rb") as a, open(warm, "rb") as b:
                identical &= a.read() == b.read()
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    med = {k: statistics.median(v) for k, v in times.items()}
    print("%d units, -j %d, %d rounds, %s" % (len(files), args.j, args.runs,
                                               "--no-cuda" if args.no_cuda else "toolkit"))
    print("%-34s %10s" % ("run", "median s"))
    print("%-34s %10.2f" % ("cold (nothing cached)", med["cold"]))
    print("%-34s %10.2f" % ("second run, ptxas counts cached", med["ptxas"]))
    print("%-34s %10.2f" % ("second run, --cache-dir", med["warm"]))
    print("warm / cold:  %.3f  (%.1fx faster)" % (med["warm"] / med["cold"],
                                                   med["cold"] / med["warm"]))
    print("warm / ptxas: %.3f  (%.1fx faster)" % (med["warm"] / med["ptxas"],
                                                   med["ptxas"] / med["warm"]))
    print("warm JSON identical to cold JSON: %s" % ("yes" if identical else "NO"))
    return 0 if identical else 1


if __name__ == "__main__":
    sys.exit(main())
