#!/usr/bin/env python3
"""How close is the register estimate to ptxas?

Runs the cuda-occupancy check through clang-tidy-19 and warpcheck's plugin
twice on every test input (test/inputs/*.cu and test/inputs/**/*.cu) and on
a small translation unit instantiating CUB and Thrust kernels (CCCL):

  RegisterMode=ptxas     registers from the CUDA toolkit's nvcc/ptxas (exact)
  RegisterMode=estimate  registers from the AST estimator (no program run)

MinOccupancy=101 makes the check report every kernel launch, and each report
carries a note "N registers per thread (ptxas|estimated, sm_XX)". Kernels
are matched by file, line and name. Kernels for which the ptxas run could
not produce a count (ptxas was not used, or reported no such kernel) are
listed and left out of the statistics.

Prints the error distribution of the estimate relative to ptxas and the
share of kernels within +-20% (the target is 90% of the test inputs and
CCCL together; with --extra-dir, the line `inputs+CCCL` gives that set).

Usage:
  bench/register_estimator.py --build <build dir> [--cuda-path DIR]
      [--arch sm_90] [--no-cccl] [--verbose] [--json out.json]
      [--extra-dir DIR [--extra-include DIR]...] [--write-records FILE]

--extra-dir adds every .cu file under DIR as a third group, "extra" (off by
default; CI has none). The numbers in docs/checks/cuda-occupancy.rst use a
copy of 61 sample programs of NVIDIA's cuda-samples (those of 0_Introduction,
2_Concepts_and_Techniques, 3_CUDA_Features, 5_Domain_Specific and
6_Performance that launch a kernel and parse with clang 19), with
--extra-include pointing at the copy's Common directory; none of them took
part in calibrating the estimate.

--write-records FILE writes ptxas's count of every test-input kernel to FILE
(test/hw/registers/ptxas_registers.json is made so); test/register_estimate.py
holds the no-toolkit estimate to that record in CI.

Needs: clang-tidy-19, a build of the plugin (<build>/lib/libwarpcheck.so)
and a CUDA toolkit (for the ptxas side). The ptxas results are cached by
the plugin ($XDG_CACHE_HOME/warpcheck); pass --no-cache to measure cold.
"""
import argparse
import glob
import json
import os
import re
import shutil
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# test/testsupport.py: running a command as the test scripts do.
sys.path.insert(0, os.path.join(ROOT, "test"))
import testsupport  # noqa: E402

CCCL_UNIT = r"""// Instantiates a few CUB and Thrust kernels (written by
// bench/register_estimator.py).
#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

int main() {
  const int n = 1 << 20;
  thrust::device_vector<float> v(n, 1.0f);
  thrust::device_vector<int> keys(n, 1);
  float total = thrust::reduce(v.begin(), v.end());
  thrust::inclusive_scan(v.begin(), v.end(), v.begin());
  thrust::transform(v.begin(), v.end(), v.begin(), thrust::negate<float>());
  thrust::sort(keys.begin(), keys.end());
  float *d_in = thrust::raw_pointer_cast(v.data());
  int *d_keys = thrust::raw_pointer_cast(keys.data());
  float *d_out = nullptr;
  cudaMalloc(&d_out, sizeof(float) * n);
  void *temp = nullptr;
  size_t temp_bytes = 0;
  cub::DeviceReduce::Sum(temp, temp_bytes, d_in, d_out, n);
  cub::DeviceReduce::Max(temp, temp_bytes, d_in, d_out, n);
  cub::DeviceScan::ExclusiveSum(temp, temp_bytes, d_in, d_out, n);
  cub::DeviceRadixSort::SortKeys(temp, temp_bytes, d_keys, d_keys, n);
  int *d_hist = nullptr;
  cub::DeviceHistogram::HistogramEven(temp, temp_bytes, d_in, d_hist, 65, 0.0f, 64.0f, n);
  cub::DeviceSelect::If(temp, temp_bytes, d_in, d_out, d_hist, n,
                        [] __host__ __device__(float x) { return x > 0; });
  return total > 0 ? 0 : 1;
}
"""

WARNING = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): warning: kernel '(?P<kernel>.*?)' with block")
NOTE = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): note: (?P<regs>\d+) registers per thread \((?P<source>ptxas|estimated), (?P<arch>sm_\w+)\)")


def run(cmd, cwd, env):
    return testsupport.run(cmd, cwd=cwd, env=env, timeout=1800)


def kernels_of(output):
    """{(file, line, kernel): (registers, source)} from clang-tidy's output."""
    result = {}
    pending = None
    for line in output.splitlines():
        m = WARNING.match(line)
        if m:
            pending = (os.path.basename(m.group("file")), int(m.group("line")), m.group("kernel"))
            continue
        m = NOTE.match(line)
        if m and pending:
            result.setdefault(pending, (int(m.group("regs")), m.group("source")))
            pending = None
    return result


def analyse(path, mode, args, env, extra_includes=()):
    plugin = os.path.join(args.build, "lib", "libwarpcheck.so")
    config = ("{CheckOptions: {cuda-occupancy.MinOccupancy: 101, "
              "cuda-occupancy.RegisterMode: %s}}" % mode)
    cmd = [args.clang_tidy, "-load", plugin, "-checks=-*,cuda-occupancy",
           "-config=" + config, "--system-headers", "-header-filter=.*",
           os.path.basename(path), "--",
           "--cuda-device-only", "--cuda-gpu-arch=" + args.arch,
           "--cuda-path=" + args.cuda_path,
           "-isystem", os.path.join(ROOT, "tool", "include", "cuda-shim"),
           # CCCL as a user include path, its implicit system-header pragmas
           # off: the checks leave kernels of system headers out, and CUB's
           # and Thrust's are the ones measured here.
           "-I", os.path.join(args.cuda_path, "include", "cccl"), "-D_CCCL_NO_SYSTEM_HEADER",
           "-Wno-unknown-cuda-version", "-w"]
    for inc in extra_includes:
        cmd += ["-I", inc]
    rc, out, err = run(cmd, os.path.dirname(os.path.abspath(path)), env)
    if rc != 0 and not out:
        sys.stderr.write("clang-tidy failed on %s:\n%s" % (path, err[-2000:]))
    return kernels_of(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--cuda-path", help="the toolkit of the ptxas side (default: the one "
                    "`warpcheck --print-toolkit` names)")
    ap.add_argument("--clang-tidy", default="clang-tidy-19")
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--no-cccl", action="store_true")
    ap.add_argument("--no-cache", action="store_true")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("--json", help="write every kernel's numbers here")
    ap.add_argument("--write-records", metavar="FILE",
                    help="write ptxas's counts for the test inputs to FILE, the record "
                    "test/register_estimate.py holds the estimate to in CI "
                    "(test/hw/registers/ptxas_registers.json)")
    ap.add_argument("--extra-dir", help="also compare the kernels of every .cu file under "
                    "this directory (group 'extra')")
    ap.add_argument("--extra-include", action="append", default=[],
                    help="include directory for the --extra-dir files (repeatable)")
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    if not args.cuda_path:
        found = testsupport.print_toolkit(testsupport.warpcheck_binary(args.build)) or {}
        args.cuda_path = found.get("root") if found.get("found") else ""
    args.cuda_path = os.path.abspath(args.cuda_path)

    if not os.path.exists(os.path.join(args.build, "lib", "libwarpcheck.so")):
        sys.exit("no plugin at %s/lib/libwarpcheck.so" % args.build)
    if not os.path.exists(os.path.join(args.cuda_path, "bin", "nvcc")):
        sys.exit("no CUDA toolkit at %s (the ptxas side needs one)" % args.cuda_path)

    inputs = sorted(set(glob.glob(os.path.join(ROOT, "test", "inputs", "*.cu")) +
                        glob.glob(os.path.join(ROOT, "test", "inputs", "**", "*.cu"),
                                  recursive=True)))
    tmp = tempfile.mkdtemp(prefix="warpcheck-bench-")
    env = dict(os.environ)
    # The plugin finds its toolkit in the environment, never in options.
    env["CUDA_PATH"] = args.cuda_path
    if args.no_cache:
        env["XDG_CACHE_HOME"] = os.path.join(tmp, "cache")
    groups = [("test inputs", p) for p in inputs]
    if not args.no_cccl:
        unit = os.path.join(tmp, "cccl_kernels.cu")
        with open(unit, "w") as f:
            f.write(CCCL_UNIT)
        groups.append(("CCCL", unit))

    if args.extra_dir:
        groups += [("extra", p) for p in sorted(glob.glob(
            os.path.join(os.path.abspath(args.extra_dir), "**", "*.cu"), recursive=True))]
    extra_includes = [os.path.abspath(d) for d in args.extra_include]

    rows, unmatched = [], []
    try:
        for group, path in groups:
            incs = extra_includes if group == "extra" else ()
            exact = analyse(path, "ptxas", args, env, incs)
            est = analyse(path, "estimate", args, env, incs)
            for key in sorted(set(exact) | set(est)):
                p, e = exact.get(key), est.get(key)
                name = "%s:%d %s" % key
                if not p or p[1] != "ptxas":
                    unmatched.append((group, name, "no ptxas count (ptxas not used or no such kernel)"))
                    continue
                if not e:
                    unmatched.append((group, name, "no estimate"))
                    continue
                rows.append({"group": group, "kernel": name, "ptxas": p[0], "estimate": e[0],
                             "error": (e[0] - p[0]) / p[0]})
            if args.verbose:
                print("%-40s %3d kernels" % (os.path.relpath(path, ROOT) if path.startswith(ROOT)
                                             else os.path.basename(path), len(exact)))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    if not rows:
        sys.exit("no kernel could be compared")

    def summary(label, subset):
        n = len(subset)
        if n == 0:
            return
        within = sum(1 for r in subset if abs(r["error"]) <= 0.2 + 1e-9)
        errs = sorted(r["error"] for r in subset)
        abs_errs = sorted(abs(e) for e in errs)
        print("%-12s %4d kernels  within +-20%%: %4d (%5.1f%%)  median error %+6.1f%%  "
              "median |error| %5.1f%%  90th pct |error| %5.1f%%" % (
                  label, n, within, 100.0 * within / n, 100 * statistics.median(errs),
                  100 * statistics.median(abs_errs),
                  100 * abs_errs[min(n - 1, int(0.9 * n))]))

    print("Register estimate vs ptxas (%s), per kernel:" % args.arch)
    summary("all", rows)
    if any(r["group"] == "extra" for r in rows):
        # The set the target (90% within +-20%) is stated for.
        summary("inputs+CCCL", [r for r in rows if r["group"] != "extra"])
    for group in ("test inputs", "CCCL", "extra"):
        summary(group, [r for r in rows if r["group"] == group])

    print("\nError distribution (estimate - ptxas) / ptxas:")
    buckets = [
        ("< -50%", lambda e: e < -0.5),
        ("-50..-30%", lambda e: -0.5 <= e < -0.3),
        ("-30..-20%", lambda e: -0.3 <= e < -0.2),
        ("-20..-10%", lambda e: -0.2 <= e < -0.1),
        ("-10..0%", lambda e: -0.1 <= e < 0),
        ("exact", lambda e: e == 0),
        ("0..10%", lambda e: 0 < e <= 0.1),
        ("10..20%", lambda e: 0.1 < e <= 0.2),
        ("20..30%", lambda e: 0.2 < e <= 0.3),
        ("30..50%", lambda e: 0.3 < e <= 0.5),
        ("50..100%", lambda e: 0.5 < e <= 1.0),
        ("> 100%", lambda e: e > 1.0),
    ]
    for label, inside in buckets:
        count = sum(1 for r in rows if inside(r["error"]))
        print("  %-10s %4d %s" % (label, count, "#" * count))

    misses = [r for r in rows if abs(r["error"]) > 0.2 + 1e-9]
    if misses:
        print("\nOutside +-20%:")
        for r in sorted(misses, key=lambda r: r["error"]):
            print("  %-12s %-70s ptxas %3d  estimate %3d  (%+.0f%%)" % (
                r["group"], r["kernel"][:70], r["ptxas"], r["estimate"], 100 * r["error"]))
    if unmatched:
        print("\nNot compared (%d):" % len(unmatched))
        for group, name, why in unmatched:
            print("  %-12s %-70s %s" % (group, name[:70], why))
    if args.write_records:
        records = {r["kernel"]: r["ptxas"] for r in rows if r["group"] == "test inputs"}
        version = testsupport.run([os.path.join(args.cuda_path, "bin", "nvcc"), "--version"])[1]
        release = re.search(r"release ([\d.]+)", version)
        with open(args.write_records, "w") as f:
            json.dump({"arch": args.arch,
                       "toolkit": "CUDA %s" % (release.group(1) if release else "unknown"),
                       "how": "bench/register_estimator.py --write-records: ptxas's "
                              "'Used N registers' for every test-input kernel, keyed "
                              "'file:line kernel'",
                       "kernels": dict(sorted(records.items()))}, f, indent=1)
            f.write("\n")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"arch": args.arch, "kernels": rows,
                       "not_compared": [{"group": g, "kernel": k, "why": w}
                                        for g, k, w in unmatched]}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
