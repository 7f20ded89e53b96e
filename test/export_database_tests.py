#!/usr/bin/env python3
"""warpcheck --export-compile-commands: the compile database of a CMake nvcc
project, which clang-tidy cannot parse, rewritten with the clang commands
warpcheck parses with, so that clang-tidy -p reads it and the plugin reports
what the binary reports.

Runs as one ctest; prints 'N passed, M failed' and exits non-zero on failure.
"""
import json
import os
import sys

from testsupport import Results, door_arguments, run, scratch_dir

RESULTS = Results()
check = RESULTS.check

# The stride and the header folder come from the compile command: the unit
# parses, and the finding says 32 sectors, only if both reach clang.
KERNEL = """\
#include "stride.h"
__global__ void scaled(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * STRIDE];
}
int main() { scaled<<<4, 128>>>(nullptr, nullptr); }
"""

FINDING = ("k.cu:4:12: warning: global load 'in[i * STRIDE]' touches 32 sectors per warp "
           "request (ideal 4, 12.5% efficiency)")


def nvcc_command(tmp, source, obj):
    """An entry as CMake 3.25 writes it for nvcc (CMAKE_CUDA_ARCHITECTURES=90)."""
    return ["/usr/local/cuda/bin/nvcc", "-forward-unknown-to-host-compiler", "-DSTRIDE=32",
            "-I" + os.path.join(tmp, "inc"), "-O3",
            "--generate-code=arch=compute_90,code=[compute_90,sm_90]", "-Xcompiler=-fPIC",
            "-x", "cu", "-c", source, "-o", obj]


def main():
    args, wc, plugin = door_arguments()
    with scratch_dir("warpcheck-export-db-") as tmp:
        for folder in ("src", "inc", "build", "tidy-db"):
            os.mkdir(os.path.join(tmp, folder))
        with open(os.path.join(tmp, "inc", "stride.h"), "w") as f:
            f.write("#define STRIDE_HEADER_SEEN 1\n")
        source = os.path.join(tmp, "src", "k.cu")
        with open(source, "w") as f:
            f.write(KERNEL)
        build = os.path.join(tmp, "build")
        entries = [{"directory": build, "file": source,
                    "arguments": nvcc_command(tmp, source, "CMakeFiles/k.dir/src/k.cu.o")}]
        with open(os.path.join(build, "compile_commands.json"), "w") as f:
            json.dump(entries, f)
        tidy = [args.clang_tidy, "-load", plugin, "-checks=-*,cuda-*"]

        rc, out, err = run(tidy + ["-p", build, source], cwd=tmp)
        check("clang-tidy on nvcc's database as CMake writes it: nvcc's flags are errors",
              rc != 0 and "unknown argument: '-forward-unknown-to-host-compiler'" in out + err
              and "unknown argument: '--generate-code=" in out + err, out[-800:] + err[-800:])

        exported = os.path.join(tmp, "tidy-db", "compile_commands.json")
        rc, out, err = run([wc, "-p", build, "--export-compile-commands=" + exported], cwd=tmp)
        try:
            db = json.load(open(exported))
        except (OSError, ValueError):
            db = []
        check("--export-compile-commands writes one entry and says so (exit 0)",
              rc == 0 and len(db) == 1 and db[0].get("file") == source and
              "1 entry" in err, "rc %s: %s" % (rc, err[-800:]))
        arguments = db[0].get("arguments", []) if db else []
        check("the entry is a clang command: clang++-19, -x cuda, the device side for sm_90, "
              "the file last",
              arguments[:1] == ["clang++-19"] and "--cuda-device-only" in arguments and
              "--cuda-gpu-arch=sm_90" in arguments and arguments[-1:] == [source],
              json.dumps(arguments))
        check("nvcc's defines and include folders are kept, its own flags are not",
              "-DSTRIDE=32" in arguments and any(os.path.join(tmp, "inc") in a for a in arguments)
              and not any(a.startswith(("--generate-code", "-forward-unknown", "-Xcompiler"))
                          for a in arguments), json.dumps(arguments))

        rc, out, err = run(tidy + ["-p", os.path.dirname(exported), source], cwd=tmp)
        check("clang-tidy -p on the exported database: no error, the plugin's finding",
              rc == 0 and FINDING in out and "[cuda-uncoalesced-global-access]" in out and
              "error" not in out + err, out[-800:] + err[-800:])
        rc, out, err = run([wc, "-p", build, source], cwd=tmp)
        check("... and the binary on the nvcc database reports the same finding",
              FINDING in out, out[-800:] + err[-800:])

        # An entry whose file is missing: left out, said, exit 3; the rest
        # is written.
        entries.append({"directory": build, "file": os.path.join(tmp, "src", "gone.cu"),
                        "arguments": nvcc_command(tmp, os.path.join(tmp, "src", "gone.cu"),
                                                  "gone.o")})
        with open(os.path.join(build, "compile_commands.json"), "w") as f:
            json.dump(entries, f)
        rc, out, err = run([wc, "-p", build, "--export-compile-commands=" + exported], cwd=tmp)
        db = json.load(open(exported)) if os.path.exists(exported) else []
        check("an entry that cannot be planned: named, left out, exit 3, the others written",
              rc == 3 and "gone.cu" in err and len(db) == 1 and "1 input left out" in err,
              "rc %s: %s" % (rc, err[-800:]))

        rc, out, err = run([wc, "-p", build, "--export-compile-commands=" + source, source],
                           cwd=tmp)
        check("--export-compile-commands naming an input: refused (exit 2), the source kept",
              rc == 2 and "refused" in err and open(source).read() == KERNEL, err[-800:])
        rc, out, err = run([wc, "-p", build, "--shard=1/2",
                            "--export-compile-commands=" + exported], cwd=tmp)
        check("--export-compile-commands with --shard: a usage error",
              rc == 2 and "--export-compile-commands" in err, err[-800:])
    return RESULTS.summary()


if __name__ == "__main__":
    sys.exit(main())
