#!/usr/bin/env python3
"""The memory instructions of the compiled kernel, read through the toolkit
as a real run reads them, on a machine with no CUDA: a fake toolkit whose
bin/nvcc writes a cubin naming the unit it compiled, and whose bin/nvdisasm
prints that unit's listing recorded on the H200's machine (test/hw/sass).
The clang-tidy plugin finds it as it finds any toolkit ($CUDA_PATH) and
parses with warpcheck's bundled declarations (--no-cuda's clang arguments):
nvdisasm is started with -gi and the cubin only, its listing is cached with
the registers, and the findings say what the compiler emitted. A toolkit
without nvdisasm leaves the source-level numbers. The binary takes a
listing of the build's own cubin with --sass-listing, toolkit or not.

Usage: sass_toolkit_tests.py --build DIR --clang-tidy CLANG_TIDY --source DIR
Prints 'N passed, M failed'; exits non-zero on failure.
"""
import json
import os
import sys

from testsupport import Results, door_arguments, run, scratch_dir

RESULTS = Results()
check = RESULTS.check

# What the reduction of cuda-shared-bank-conflict.cu executes (its SASS:
# test/hw/sass/cuda-shared-bank-conflict.nvdisasm.txt, measured per
# instruction in test/hw/inputs/cuda-shared-bank-conflict.json).
MERGED_NOTE = ("cuda-shared-bank-conflict.cu:54:7: note: the compiler merges 'sdata[index]' and "
               "'sdata[index + s]' into one 64-bit load per lane (LDS.64, 2 wavefronts per "
               "request) in 16 of its 48 requests")

FAKE_NVCC = """#!/bin/sh
# The cubin names the unit the wrapper includes (its last argument).
out=""; prev=""; wrapper=""
for a; do
  if [ "$prev" = "-o" ]; then out="$a"; fi
  prev="$a"; wrapper="$a"
done
/bin/sed -n 's/^#include "\\(.*\\)"$/\\1/p' "$wrapper" > "$out"
echo "ptxas info    : Used 16 registers" >&2
"""

FAKE_NVDISASM = """#!/bin/sh
echo "$@" >> '%(log)s'
for a; do cubin="$a"; done
unit=$(/usr/bin/basename "$(/bin/cat "$cubin")" .cu)
exec /bin/cat '%(listings)s'/"$unit".nvdisasm.txt
"""


def fake_toolkit(root, listings, with_nvdisasm):
    """A toolkit folder of two scripts; returns the nvdisasm log's path."""
    os.makedirs(os.path.join(root, "bin"))
    log = os.path.join(root, "nvdisasm-arguments")
    programs = {"nvcc": FAKE_NVCC}
    if with_nvdisasm:
        programs["nvdisasm"] = FAKE_NVDISASM % {"log": log, "listings": listings}
    for name, text in programs.items():
        path = os.path.join(root, "bin", name)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o755)
    return log


def main():
    args, wc, plugin = door_arguments("--source")
    inputs = os.path.join(os.path.abspath(args.source), "test", "inputs")
    unit = "cuda-shared-bank-conflict.cu"
    with scratch_dir() as tmp:
        # The recorded listings, with the inputs' folder put in.
        listings = os.path.join(tmp, "listings")
        os.makedirs(listings)
        sass = os.path.join(args.source, "test", "hw", "sass")
        for name in os.listdir(sass):
            with open(os.path.join(sass, name)) as f, open(os.path.join(listings, name), "w") as g:
                g.write(f.read().replace("@INPUTS@", inputs))
        rc, out, err = run([wc, "--no-cuda", "--print-clang-args", unit], cwd=inputs)
        clang_args = [a for a in out.split("\n") if a]
        check("warpcheck --no-cuda gives the clang arguments", rc == 0 and clang_args, err[-1000:])

        def tidy(toolkit, cache):
            env = dict(os.environ, CUDA_PATH=toolkit, XDG_CACHE_HOME=cache)
            env.pop("CUDA_HOME", None)
            return run([args.clang_tidy, "-load", plugin, "-checks=-*,cuda-shared-bank-conflict",
                        unit, "--"] + clang_args, cwd=inputs, env=env, timeout=600)

        toolkit = os.path.join(tmp, "toolkit")
        log = fake_toolkit(toolkit, listings, with_nvdisasm=True)
        cache = os.path.join(tmp, "cache")
        rc, out, err = tidy(toolkit, cache)
        check("the plugin reads the toolkit's listing: the merged LDS.64 is said",
              MERGED_NOTE in out, out[-3000:] + err[-2000:])
        # The numbers are the instructions': sdata[index + s]'s 32 4-byte
        # loads of s = 2 to 128 (4.875 wavefronts each; its s = 1 half is
        # counted with the LDS.64), not its 48 of the source (3.92).
        check("its numbers are the instructions'",
              "reading 'sdata[index + s]': lanes 0, 4, 8, 12, 16, 20, 24, 28 hit bank 4 with "
              "different words (4.88 wavefronts per request, ideal 1)" in out, out[-3000:])
        calls = open(log).read().split("\n") if os.path.exists(log) else []
        calls = [c for c in calls if c]
        check("nvdisasm started once, with -gi and the cubin of the run",
              len(calls) == 1 and calls[0].startswith("-gi /") and
              calls[0].endswith("/unit.cubin") and len(calls[0].split()) == 2, repr(calls))
        rc, out2, err2 = tidy(toolkit, cache)
        calls = [c for c in open(log).read().split("\n") if c] if os.path.exists(log) else []
        check("a second run reads the cache: nvdisasm is not started again",
              MERGED_NOTE in out2 and len(calls) == 1, repr(calls) + out2[-2000:])

        bare = os.path.join(tmp, "bare-toolkit")
        fake_toolkit(bare, listings, with_nvdisasm=False)
        rc, out, err = tidy(bare, os.path.join(tmp, "cache2"))
        check("a toolkit without nvdisasm: the accesses as written, no instruction said",
              "warning: 8-way bank conflict reading 'sdata[index]'" in out and
              "the compiler merges" not in out, out[-3000:] + err[-2000:])

        # The binary, given the build's listing (--sass-listing), with no
        # toolkit at all: the JSON lists the instructions.
        listing = os.path.join(listings, "cuda-shared-bank-conflict.nvdisasm.txt")
        rc, out, err = run([wc, "--no-cuda", "--format=json", "--sass-listing=" + listing, unit],
                           cwd=inputs, timeout=600)
        doc = json.loads(out) if out.strip().startswith("{") else {"kernels": []}
        reduction = [k for k in doc["kernels"] if k["name"] == "reduceInterleaved"]
        loads = [a for k in reduction for a in k["accesses"]
                 if a["line"] == 54 and a["op"] == "load"]
        shapes = sorted((a["expression"], i["opcode"], i["requests_simulated"],
                         i["wavefronts_per_request"], i["counted_with"], tuple(i["changes"]))
                        for a in loads for i in a["instructions"])
        check("--sass-listing: the reduction's loads as LDS.64 and LDS in the JSON",
              rc == 0 and all(a["instructions_from"] == "listing" for a in loads) and shapes == [
                  ("sdata[index + s]", "LDS", 32, 4.875, None, ()),
                  ("sdata[index + s]", "LDS.64", 0, None, "sdata[index]", ("merged",)),
                  ("sdata[index]", "LDS", 32, 4.875, None, ()),
                  ("sdata[index]", "LDS.64", 16, 2, None, ("merged",))],
              repr(shapes) + err[-1000:])
        rc, out, err = run([wc, "--no-cuda", "--sass-listing=" + os.path.join(tmp, "absent.txt"),
                            unit], cwd=inputs)
        check("--sass-listing naming no file: exit code 2, the option and the file named",
              rc == 2 and "--sass-listing '" in err and "absent.txt' is not a readable file" in err,
              "rc=%s %s" % (rc, err[-500:]))
    return RESULTS.summary()


if __name__ == "__main__":
    sys.exit(main())
