# lit configuration of warpcheck's test inputs (test/inputs/*.cu): each input
# says how it is run in its RUN lines, as clang-tidy's own tests do, e.g.
#
#   // RUN: %check_warpcheck %s 'cuda-*' %t
#
# ctest runs every input that has RUN lines through lit (test/CMakeLists.txt,
# section 4); by hand:
#
#   python3 /usr/lib/llvm-19/build/utils/lit/lit.py -v --param build=build \
#       test/inputs/cuda-shared-bank-conflict.cu
#
# Parameters: build (the build folder, required), clang_tidy, filecheck,
# clangxx (the programs, found on PATH by default), python (the interpreter
# that runs test/check_warpcheck.py; this one by default).
#
# RUN lines are run by lit's internal shell, which splits them into argument
# vectors and starts each program directly: no /bin/sh reads them.
import os
import sys

import lit.formats

config.name = "warpcheck"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cu"]
config.test_source_root = os.path.dirname(__file__)
# Folders of test/ that hold no RUN-line inputs: the unit tests, the H200
# records and scripts, and the inputs other scripts drive (robustness_tests.py,
# no-toolkit/check-parse.sh).
# The robustness inputs stay with robustness_tests.py because what they assert
# is in the JSON report and the exit code, not in diagnostics: an access's
# status and sectors or wavefronts per request (EXPECT-ACCESS), its
# assumptions, a kernel's simulated warps and limitations, an exit code of 0
# with no errors under both the toolkit and --no-cuda, and the same kernels
# from one -j2 run as from the runs one by one.
config.excludes = ["unit", "hw", "robustness", "no-toolkit"]
# Every input of test/inputs says how it is run: one without RUN lines is
# reported UNRESOLVED by lit (and fails its ctest) rather than left out.

params = lit_config.params
build = params.get("build")
if not build:
    lit_config.fatal("give the build folder: --param build=<folder> (ctest does)")
build = os.path.abspath(build)
# Output/<input>.tmp folders go into the build, never beside the sources.
config.test_exec_root = os.path.join(build, "test", "lit")

check_warpcheck = [
    params.get("python", sys.executable),
    os.path.join(config.test_source_root, "check_warpcheck.py"),
    "-build=" + build,
    "-clang-tidy=" + params.get("clang_tidy", "clang-tidy-19"),
    "-filecheck=" + params.get("filecheck", "FileCheck-19"),
    "-clangxx=" + params.get("clangxx", "clang++-19"),
]
config.substitutions.append(("%check_warpcheck", " ".join(check_warpcheck)))

# lit starts tests with a reduced environment: keep what decides which CUDA
# toolkit the doors find (CHECK-PTXAS or CHECK-ESTIMATE) and where the ptxas
# cache lives (analysis/registers/PtxasCache.cpp).
for var in ("CUDA_PATH", "CUDA_HOME", "HOME", "XDG_CACHE_HOME"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
