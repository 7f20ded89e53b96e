#!/usr/bin/env python3
"""`cmake --install` into a clean prefix gives a warpcheck that works from
there alone: <prefix>/bin/warpcheck finds its bundled declarations under
<prefix>/share/warpcheck/include (not the source tree's), analyses a unit
with and without a CUDA toolkit, and clang-tidy loads
<prefix>/lib/libwarpcheck.so and reports the same finding.

Runs as one ctest; prints 'N passed, M failed' and exits non-zero on failure.
"""
import argparse
import json
import os
import sys

from testsupport import STRIDED_UNIT, Results, run, scratch_dir, toolkit_nvcc

RESULTS = Results()
check = RESULTS.check


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--cmake", default="cmake")
    ap.add_argument("--clang-tidy", default="clang-tidy-19")
    args = ap.parse_args()
    with scratch_dir("warpcheck-install-") as tmp:
        prefix = os.path.join(tmp, "prefix")
        rc, out, err = run([args.cmake, "--install", os.path.abspath(args.build),
                            "--prefix", prefix])
        check("cmake --install into a clean prefix", rc == 0, out[-800:] + err[-800:])
        wc = os.path.join(prefix, "bin", "warpcheck")
        plugin = os.path.join(prefix, "lib", "libwarpcheck.so")
        bundled = os.path.join(prefix, "share", "warpcheck", "include")
        check("the prefix holds bin/warpcheck, lib/libwarpcheck.so and the bundled headers",
              os.access(wc, os.X_OK) and os.path.isfile(plugin) and os.path.isfile(
                  os.path.join(bundled, "cuda-minimal", "warpcheck_cuda_minimal.h")))

        work = os.path.join(tmp, "work")
        os.makedirs(work)
        with open(os.path.join(work, "a.cu"), "w") as f:
            f.write(STRIDED_UNIT)
        rc, args_out, err = run([wc, "--no-cuda", "--print-clang-args", "a.cu"], cwd=work)
        includes = [a for a in args_out.splitlines() if "warpcheck" in a and "include" in a]
        check("the installed binary parses with the prefix's bundled declarations",
              rc == 0 and includes and all(a.startswith(bundled) for a in includes),
              "\n".join(includes) + err)
        for options, what in ((["--no-cuda"], "bundled declarations"),
                              ([], "the CUDA toolkit")):
            if not options and not toolkit_nvcc(wc):
                print("SKIP installed binary with a toolkit: none found")
                continue
            rc, out, err = run([wc, "--format=json"] + options + ["a.cu"], cwd=work)
            try:
                doc = json.loads(out)
            except ValueError:
                doc = None
            finding = doc["findings"][0] if doc and doc["findings"] else {}
            check("the installed binary (%s): the finding at 3:12, 32 sectors per request" % what,
                  rc == 0 and finding.get("line") == 3 and finding.get("column") == 12 and
                  "32 sectors per warp request" in finding.get("message", ""), err[-800:])

        clang_args = [a for a in args_out.splitlines() if a]
        rc, out, err = run([args.clang_tidy, "-load", plugin, "-checks=-*,cuda-*", "a.cu", "--"] +
                           clang_args, cwd=work)
        check("clang-tidy loads the installed plugin and reports the same finding",
              "a.cu:3:12: warning: global load 'in[i * 32]' touches 32 sectors per warp request"
              in out and "[cuda-uncoalesced-global-access]" in out, out[-800:] + err[-800:])
    return RESULTS.summary()


if __name__ == "__main__":
    sys.exit(main())
