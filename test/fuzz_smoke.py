#!/usr/bin/env python3
"""A fuzz target built with libFuzzer and run for a minute on a copy of its
corpus (docs/reliability.md, "Fuzzing"): CI's smoke run of the targets that
need no LLVM (model_invariants).

The target's source and every .cpp of each --library folder (its include/
on the include path) are compiled straight into the build folder
(fuzz-smoke/<target>_fuzzer) with clang++-19 -O1 -g
-fsanitize=fuzzer,address,undefined, whatever compiler the build itself
uses, then run for --seconds on a copy of test/fuzz/corpus/<target>/. A
crash, a sanitizer report or a broken invariant fails the test; the input
that caused it is kept in the build folder under
test-artifacts/fuzz-smoke/<target>/ and printed in hex (fix the fault, then
commit the input to the target's corpus).

Exits 77 (ctest: skipped) only when clang++-19 is missing or cannot link a
libFuzzer program with the address and undefined-behaviour sanitizers
(Debian: clang-19 and libclang-rt-19-dev; scripts/setup.sh --tests
installs both).
"""
import argparse
import glob
import os
import re
import shutil
import sys

from testsupport import run, scratch_dir

SKIPPED = 77
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FLAGS = ["-std=c++17", "-O1", "-g", "-fsanitize=fuzzer,address,undefined",
         "-fno-sanitize-recover=all"]
PROBE = ('#include <cstddef>\n#include <cstdint>\n'
         'extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *, std::size_t) '
         '{ return 0; }\n')


def find_clang():
    for candidate in ("/usr/bin/clang++-19", shutil.which("clang++-19")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def cannot_link(clang):
    """Why clang cannot link a libFuzzer program with the sanitizers; None
    when it can."""
    with scratch_dir("warpcheck-fuzz-probe-") as tmp:
        source = os.path.join(tmp, "probe.cpp")
        with open(source, "w") as f:
            f.write(PROBE)
        rc, out, err = run([clang] + FLAGS + [source, "-o", os.path.join(tmp, "probe")],
                           timeout=300)
        if rc == 0:
            return None
        return (err or out).strip().splitlines()[-1:] or ["exit code %s" % rc]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", required=True, help="the build folder")
    parser.add_argument("--target", required=True, help="the fuzz target's name")
    parser.add_argument("--source", required=True, help="the target's .cpp")
    parser.add_argument("--library", action="append", default=[],
                        help="a folder whose .cpp files the target needs (its include/ too)")
    parser.add_argument("--seconds", type=int, default=60)
    args = parser.parse_args()

    clang = find_clang()
    if not clang:
        print("SKIP: no clang++-19 (/usr/bin or PATH): the libFuzzer smoke run needs it")
        return SKIPPED
    why = cannot_link(clang)
    if why:
        print("SKIP: %s cannot link -fsanitize=fuzzer,address,undefined (Debian: "
              "libclang-rt-19-dev): %s" % (clang, " ".join(why)))
        return SKIPPED

    build = os.path.abspath(args.build)
    out_dir = os.path.join(build, "fuzz-smoke")
    os.makedirs(out_dir, exist_ok=True)
    binary = os.path.join(out_dir, args.target + "_fuzzer")
    sources = [os.path.abspath(args.source)]
    includes = ["-I" + os.path.dirname(sources[0])]
    for library in args.library:
        sources += sorted(glob.glob(os.path.join(os.path.abspath(library), "*.cpp")))
        includes.append("-I" + os.path.join(os.path.abspath(library), "include"))
    rc, out, err = run([clang] + FLAGS + includes + sources + ["-o", binary], timeout=900)
    if rc != 0:
        print("FAIL %s: clang++-19 could not build the fuzzer (exit %s):\n%s"
              % (args.target, rc, (err or out)[-4000:]))
        return 1

    artifacts = os.path.join(build, "test-artifacts", "fuzz-smoke", args.target)
    shutil.rmtree(artifacts, ignore_errors=True)
    os.makedirs(artifacts)
    committed = os.path.join(ROOT, "test", "fuzz", "corpus", args.target)
    with scratch_dir("warpcheck-fuzz-smoke-") as tmp:
        # libFuzzer adds the inputs it finds to the first corpus folder: a
        # copy, so that the committed corpus stays as it is.
        corpus = os.path.join(tmp, "corpus")
        shutil.copytree(committed, corpus)
        env = dict(os.environ, UBSAN_OPTIONS="print_stacktrace=1")
        rc, out, err = run([binary, corpus, "-max_total_time=%d" % args.seconds, "-timeout=20",
                            "-rss_limit_mb=2048", "-print_final_stats=1",
                            "-artifact_prefix=" + artifacts + os.sep],
                           env=env, timeout=args.seconds + 300)
    stats = dict(re.findall(r"^stat::(\w+):\s+(\d+)", err, re.M))
    found = sorted(os.listdir(artifacts))
    if rc != 0 or found:
        print("FAIL %s: the fuzzer exited %s after %s executions" %
              (args.target, rc, stats.get("number_of_executed_units", "?")))
        print("\n".join(err.splitlines()[-60:]))
        for name in found:
            with open(os.path.join(artifacts, name), "rb") as f:
                print("%s (%s): %s" % (name, os.path.join(artifacts, name), f.read().hex()))
        return 1
    print("PASS %s: %s executions in %d s from %d corpus inputs, %s new inputs, no crash "
          "and no broken invariant" % (args.target, stats.get("number_of_executed_units", "?"),
                                       args.seconds, len(os.listdir(committed)),
                                       stats.get("new_units_added", "?")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
