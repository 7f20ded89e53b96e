#!/usr/bin/env python3
"""Runs warpcheck's tests that fit a sanitizer build through one: a build
configured with -DWARPCHECK_SANITIZE=address,undefined (docs/reliability.md,
"Sanitizers"):

  - the unit tests (the gtest executables of the build);
  - the fuzz targets' corpus replays (test/fuzz/corpus);
  - the warpcheck binary over every test input (test/inputs/*.cu and
    test/inputs/robustness/*.cu), with the located CUDA toolkit and with
    --no-cuda, and over the containment cases (a crash in one kernel through
    the test-only WARPCHECK_TEST_CRASH_KERNEL, code nested 100,000 deep).

A run fails when a sanitizer reports (AddressSanitizer, UndefinedBehavior-
Sanitizer's "runtime error:"; each aborts the program, -fno-sanitize-
recover) or a program crashes. The clang-tidy plugin is not run: a
sanitized plugin needs the sanitizer's runtime loaded before clang-tidy, and
the plugin runs the same code as the binary. Neither is --memory-limit: the
address sanitizer reserves terabytes of address space.

Prints one line per program run that failed and 'N runs, M failed'.

Usage: scripts/sanitizer-run.py --build build-asan [-j 2]
"""
import argparse
import concurrent.futures
import glob
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "test"))
import testsupport  # noqa: E402

SANITIZER_REPORTS = ("ERROR: AddressSanitizer", "runtime error:", "ERROR: LeakSanitizer")
ENV = dict(os.environ,
           # The analysis abandons what a contained failure allocated, and
           # LLVM frees little at exit by design: leaks are not reported.
           ASAN_OPTIONS="detect_leaks=0:abort_on_error=1:allow_user_segv_handler=1",
           UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")


def verdict(rc, out, err, ok_codes):
    if rc is None:
        return "timed out"
    for r in SANITIZER_REPORTS:
        if r in err or r in out:
            line = next(l for l in (err + out).splitlines() if r in l)
            return "sanitizer: " + line.strip()[:300]
    if rc < 0 or rc not in ok_codes:
        return "exit %d: %s" % (rc, err.strip()[-300:])
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    args = ap.parse_args()
    build = os.path.abspath(args.build)
    wc = testsupport.warpcheck_binary(build)
    runs = []  # (name, command, cwd, env, exit codes that pass)
    for exe in sorted(glob.glob(os.path.join(build, "test", "warpcheck_*_tests"))):
        # Its ClangTidy.* cases load the plugin into clang-tidy (see above).
        runs.append((os.path.basename(exe), [exe, "--gtest_filter=-ClangTidy.*"], build, ENV,
                     (0,)))
    for replay in sorted(glob.glob(os.path.join(build, "fuzz", "*_replay"))):
        name = os.path.basename(replay)[:-len("_replay")]
        runs.append((name + " corpus", [replay, os.path.join(ROOT, "test", "fuzz", "corpus", name)],
                     build, ENV, (0,)))
    inputs = sorted(glob.glob(os.path.join(ROOT, "test", "inputs", "*.cu")) +
                    glob.glob(os.path.join(ROOT, "test", "inputs", "robustness", "*.cu")))
    for path in inputs:
        for mode in ([], ["--no-cuda"]):
            runs.append(("%s %s" % (os.path.relpath(path, ROOT), " ".join(mode)),
                         [wc, "--format=json", "--isolate"] + mode + [os.path.basename(path)],
                         os.path.dirname(path), ENV, (0, 1, 3)))
    with testsupport.scratch_dir("warpcheck-sanitizer-") as tmp:
        two = os.path.join(tmp, "two.cu")
        with open(two, "w") as f:
            f.write("__global__ void fine(float *p) { p[threadIdx.x * 32] = 1; }\n"
                    "__global__ void broken(float *p) { p[threadIdx.x] = 1; }\n"
                    "int main() { fine<<<1, 128>>>(nullptr); broken<<<1, 128>>>(nullptr); }\n")
        deep = os.path.join(tmp, "deep.cu")
        with open(deep, "w") as f:
            f.write("__global__ void deep(const int *in, int *out) { out[threadIdx.x] = %s "
                    "in[threadIdx.x]; }\n" % ("- " * 100000))
        crash_env = dict(ENV, WARPCHECK_TEST_CRASH_KERNEL="broken")
        runs.append(("a crash in one kernel (in process)", [wc, "--no-cuda", "two.cu"], tmp,
                     crash_env, (3,)))
        runs.append(("a crash in one kernel (worker)", [wc, "--no-cuda", "--isolate", "two.cu"],
                     tmp, crash_env, (3,)))
        runs.append(("code nested 100,000 deep", [wc, "--no-cuda", "deep.cu", "two.cu"], tmp,
                     ENV, (3,)))

        def one(run):
            name, cmd, cwd, env, ok = run
            rc, out, err = testsupport.run(cmd, cwd=cwd, env=env, timeout=1800)
            return name, verdict(rc, out, err, ok)

        failed = 0
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            for name, why in pool.map(one, runs):
                if why:
                    failed += 1
                    print("FAIL %s: %s" % (name, why), flush=True)
    print("%d runs, %d failed" % (len(runs), failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
