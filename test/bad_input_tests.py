#!/usr/bin/env python3
"""Reliability: inputs that crashed, hung or misled warpcheck, each a
regression test through the binary and, where the plugin can see it, through
clang-tidy with the plugin (issue "Reliability", its list of defects).

Each case states the exit code, the error naming the file and its cause, and
that the other inputs of the run are still reported. No case asserts a time:
a hang shows as the harness's own generous limit running out.

Runs as one ctest; prints 'N passed, M failed' and exits non-zero on failure.
"""
import json
import os
import sys
import textwrap

from testsupport import Results, STRIDED_UNIT, door_arguments, run, scratch_dir
from testsupport import json_or_empty as json_report, write_in as write

RESULTS = Results()
check = RESULTS.check

GOOD = STRIDED_UNIT
GOOD_FINDING = "good.cu:3:12: warning: global load 'in[i * 32]' touches 32 sectors"

# Recursion nvcc compiles through the ABI's call stack: direct (a tree walk
# that no optimisation turns into a loop) and mutual.
RECURSION = textwrap.dedent("""\
    __device__ int walk(const int *tree, int node, int depth) {
      if (depth == 0 || node < 0) return tree[node & 255];
      return walk(tree, tree[2 * node], depth - 1) + walk(tree, tree[2 * node + 1], depth - 1);
    }
    __device__ int odd(const int *t, int n);
    __device__ int even(const int *t, int n) { return n == 0 ? t[0] : t[n] * odd(t, t[n - 1]) + 3; }
    __device__ int odd(const int *t, int n) { return n == 0 ? t[1] : t[n] * even(t, t[n - 1]) + 5; }
    __global__ void rec(const int *in, int *out) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      out[i] = walk(in, in[i], 8) + even(in, in[i]);
    }
    int main() { rec<<<4, 128>>>(nullptr, nullptr); }
    """)


# Launches no sm_90 block can run, one kernel each (the line of each launch
# is the kernel's number plus 6).
INVALID_LAUNCHES = textwrap.dedent("""\
    __global__ void big(float *p) { p[threadIdx.x] = 1; }
    __global__ void zero(float *p) { p[threadIdx.x] = 1; }
    __global__ void negative(float *p) { p[threadIdx.x] = 1; }
    __global__ void deep(float *p) { p[threadIdx.x] = 1; }
    __global__ void shared(float *p) { extern __shared__ float s[]; s[threadIdx.x] = p[threadIdx.x]; }
    int main() {
      big<<<1, 2048>>>(nullptr);
      zero<<<0, 0>>>(nullptr);
      negative<<<-1, -1>>>(nullptr);
      deep<<<1, dim3(1024, 1024, 64)>>>(nullptr);
      shared<<<1, 128, (size_t)-1>>>(nullptr);
    }
    """)
INVALID_LAUNCH_WARNINGS = [
    "invalid.cu:7:3: warning: this launch of kernel 'big' cannot run on sm_90: the block "
    "(2048, 1, 1) has 2048 threads along x, over the 1024 a block may have along x on sm_90 "
    "(cudaErrorInvalidConfiguration) [cuda-occupancy]",
    "invalid.cu:8:3: warning: this launch of kernel 'zero' cannot run on sm_90: the block "
    "(0, 1, 1) has a zero extent (cudaErrorInvalidConfiguration) [cuda-occupancy]",
    "invalid.cu:9:3: warning: this launch of kernel 'negative' cannot run on sm_90: the block "
    "(4294967295, 1, 1) has 4294967295 threads along x, over the 1024 a block may have along x "
    "on sm_90 (cudaErrorInvalidConfiguration) [cuda-occupancy]",
    "invalid.cu:10:3: warning: this launch of kernel 'deep' cannot run on sm_90: the block "
    "(1024, 1024, 64) has 67108864 threads, over the 1024 a block may have on sm_90 "
    "(cudaErrorInvalidConfiguration) [cuda-occupancy]",
    "invalid.cu:11:3: warning: this launch of kernel 'shared' cannot run on sm_90: "
    "18446744073709551615 bytes of dynamic shared memory are over the 232448 a block may use "
    "on sm_90 (after opting in with cudaFuncSetAttribute) (cudaErrorInvalidConfiguration) "
    "[cuda-occupancy]",
]


# The first kernel's annotation must not reach the second; the third's is
# not understood and must be said so, not replaced by the first's.
ANNOTATIONS = textwrap.dedent("""\
    // warpcheck: block(16, 16)
    __global__ void first(float *p) { p[threadIdx.x * 16 + threadIdx.y] = 1; }
    __global__ void second(float *p) { p[threadIdx.x * 2] = 1; }
    // warpcheck: blok(32)
    __global__ void third(float *p) { p[threadIdx.x * 2] = 1; }
    """)
ANNOTATION_WARNING = (
    "annotations.cu:4:1: warning: kernel 'third': the annotation at annotations.cu:4 is not "
    "understood (unknown key 'blok'); expected block(x[, y[, z]]) [grid(x[, y[, z]])] "
    "[shared(bytes)] [cuda-occupancy]")



def recursion(wc, plugin, clang_tidy, tmp):
    """Recursive __device__ functions: the register estimate charges a
    recursive call as a call through the stack instead of recursing itself
    until the stack overflows (SIGSEGV in both doors)."""
    write(tmp, "recursion.cu", RECURSION)
    rc, out, err = run([wc, "--no-cuda", "--format=json", "recursion.cu"], cwd=tmp, timeout=300)
    doc = json_report(out)
    kernels = doc.get("kernels", [])
    check("recursion (binary, estimate): exit 0, kernel 'rec' with its estimated registers",
          rc == 0 and len(kernels) == 1 and kernels[0]["name"] == "rec" and
          kernels[0]["registers_source"] == "estimate" and kernels[0]["registers"] == 32,
          "exit %s: %s %s" % (rc, out[-1500:], err[-1500:]))
    rc, args, err = run([wc, "--print-clang-args", "--no-cuda", "recursion.cu"], cwd=tmp)
    rc, out, err = run([clang_tidy, "-load", plugin, "-checks=-*,cuda-*",
                        "-config={CheckOptions: {cuda-occupancy.RegisterMode: estimate}}",
                        "recursion.cu", "--"] + [a for a in args.split("\n") if a],
                       cwd=tmp, timeout=300)
    check("recursion (plugin, estimate): clang-tidy exits 0, no crash",
          rc == 0 and "Stack dump" not in err, "exit %s: %s" % (rc, (out + err)[-1500:]))


def timeout_with_several_inputs(wc, tmp):
    """--timeout holds for each of several inputs (it used to be the
    process-wide alarm(), lost with two or more): a unit that hangs (it
    includes a FIFO nobody writes, so its parse blocks) is reported as timed
    out by name, and the other input is still reported."""
    fifo = os.path.join(tmp, "pipe.h")
    os.mkfifo(fifo)
    write(tmp, "hangs.cu", '#include "pipe.h"\n' + GOOD.replace("strided", "other"))
    rc, out, err = run([wc, "--no-cuda", "--timeout=3", "-j2", "hangs.cu", "good.cu"],
                       cwd=tmp, timeout=300)
    check("--timeout with two inputs: the hung one timed out by name, the other reported",
          rc == 3 and "warpcheck: error: hangs.cu: the analysis timed out after 3 s" in err and
          GOOD_FINDING in out and "2 inputs: 1 analysed, 1 not analysed" in err,
          "exit %s: %s %s" % (rc, out[-1500:], err[-1500:]))
    os.remove(fifo)


def not_regular_files(wc, tmp):
    """Inputs that are not regular files are refused by name, never read:
    a symbolic link to /dev/zero (git can commit one) was read to the end
    (4 GB, then out of memory), a FIFO blocked the run. On the command
    line, in a folder and through a compile database."""
    os.symlink("/dev/zero", os.path.join(tmp, "zero.cu"))
    os.mkfifo(os.path.join(tmp, "fifo.cu"))
    device = "zero.cu: is a device, not a regular file: refused, it could be read without end"
    fifo = "fifo.cu: is a FIFO (named pipe), not a regular file: refused, it could block the run"

    rc, out, err = run([wc, "--no-cuda", "zero.cu", "fifo.cu", "good.cu"], cwd=tmp, timeout=300)
    check("command line: a link to /dev/zero and a FIFO refused by name, the good file reported",
          rc == 3 and "warpcheck: error: " + device in err and "warpcheck: error: " + fifo in err
          and GOOD_FINDING in out and "3 inputs: 1 analysed, 2 not analysed" in err,
          "exit %s: %s %s" % (rc, out[-1500:], err[-1500:]))

    folder = os.path.join(tmp, "folder")
    os.mkdir(folder)
    write(folder, "good.cu", GOOD)
    os.symlink("/dev/zero", os.path.join(folder, "zero.cu"))
    os.mkfifo(os.path.join(folder, "fifo.cu"))
    rc, out, err = run([wc, "--no-cuda", "folder"], cwd=tmp, timeout=300)
    check("folder: a link to /dev/zero and a FIFO in it refused by name, the good file reported",
          rc == 3 and "warpcheck: error: folder/" + device in err and
          "warpcheck: error: folder/" + fifo in err and GOOD_FINDING in out and
          "3 inputs: 1 analysed, 2 not analysed" in err,
          "exit %s: %s %s" % (rc, out[-1500:], err[-1500:]))

    db = os.path.join(tmp, "db")
    os.mkdir(db)
    with open(os.path.join(db, "compile_commands.json"), "w") as f:
        json.dump([{"directory": tmp, "file": name, "arguments": ["nvcc", "-c", name]}
                   for name in ("zero.cu", "fifo.cu", "good.cu")], f)
    rc, out, err = run([wc, "--no-cuda", "-p", db], cwd=tmp, timeout=300)
    check("compile database: a link to /dev/zero and a FIFO refused by name, the good file reported",
          rc == 3 and os.path.join(tmp, device) in err and os.path.join(tmp, fifo) in err
          and GOOD_FINDING in out and "3 inputs: 1 analysed, 2 not analysed" in err,
          "exit %s: %s %s" % (rc, out[-1500:], err[-1500:]))

    zero_db = os.path.join(tmp, "zero-db")
    os.mkdir(zero_db)
    os.symlink("/dev/zero", os.path.join(zero_db, "compile_commands.json"))
    rc, out, err = run([wc, "--no-cuda", "-p", zero_db], cwd=tmp, timeout=300)
    check("a compile database that is a link to /dev/zero: a usage error naming it",
          rc == 2 and "zero-db/compile_commands.json: the compile database is not a regular file"
          in err, "exit %s: %s" % (rc, err[-1500:]))


def invalid_launches(wc, plugin, clang_tidy, tmp):
    """Launches no block of the architecture can run are said to be so, with
    the limit they break, at the launch, through both doors: they used to
    become the default block at 100% occupancy without a word."""
    write(tmp, "invalid.cu", INVALID_LAUNCHES)
    rc, out, err = run([wc, "--no-cuda", "invalid.cu"], cwd=tmp, timeout=300)
    for w in INVALID_LAUNCH_WARNINGS:
        check("binary: " + w.split(": warning: ")[1][:60], w in out, out[-3000:] + err[-1500:])
    rc, out, err = run([wc, "--no-cuda", "--format=json", "invalid.cu"], cwd=tmp, timeout=300)
    doc = json_report(out)
    big = [k for k in doc.get("kernels", []) if k["name"] == "big"]
    check("json: the launch that cannot run is listed with why, beside the shape analysed instead",
          big and "the launch at invalid.cu:7 cannot run: the block (2048, 1, 1) has 2048 threads "
          "along x, over the 1024 a block may have along x on sm_90" in
          big[0]["launch"]["unevaluated_launches"], out[-3000:])
    rc, args, err = run([wc, "--print-clang-args", "--no-cuda", "invalid.cu"], cwd=tmp)
    rc, out, err = run([clang_tidy, "-load", plugin, "-checks=-*,cuda-occupancy", "invalid.cu",
                        "--"] + [a for a in args.split("\n") if a], cwd=tmp, timeout=300)
    for w in INVALID_LAUNCH_WARNINGS:
        check("plugin: " + w.split(": warning: ")[1][:60],
              any(line.endswith(w) for line in out.splitlines()), out[-3000:] + err[-1500:])


def annotations(wc, plugin, clang_tidy, tmp):
    """A `// warpcheck:` annotation is its own kernel's only; one that is not
    understood is a warning naming file:line (it used to be skipped, and the
    previous kernel's annotation used instead)."""
    write(tmp, "annotations.cu", ANNOTATIONS)
    rc, out, err = run([wc, "--no-cuda", "--format=json", "annotations.cu"], cwd=tmp, timeout=300)
    doc = json_report(out)
    launch = {k["name"]: k["launch"] for k in doc.get("kernels", [])}
    check("annotation: the first kernel's block is its own",
          launch.get("first", {}).get("source") == "annotation" and
          launch["first"]["block"] == [16, 16, 1], json.dumps(launch))
    check("annotation: it does not spill onto the next kernel, nor replace one not understood",
          launch.get("second", {}).get("source") not in (None, "annotation") and
          launch.get("third", {}).get("source") not in (None, "annotation"), json.dumps(launch))
    rc, out, err = run([wc, "--no-cuda", "annotations.cu"], cwd=tmp, timeout=300)
    check("annotation not understood: a warning naming file:line (binary)",
          ANNOTATION_WARNING in out, out[-3000:] + err[-1000:])
    rc, args, err = run([wc, "--print-clang-args", "--no-cuda", "annotations.cu"], cwd=tmp)
    rc, out, err = run([clang_tidy, "-load", plugin, "-checks=-*,cuda-occupancy",
                        "annotations.cu", "--"] + [a for a in args.split("\n") if a],
                       cwd=tmp, timeout=300)
    check("annotation not understood: a warning naming file:line (plugin)",
          any(line.endswith(ANNOTATION_WARNING) for line in out.splitlines()),
          out[-3000:] + err[-1000:])


def main():
    args, wc, plugin = door_arguments()
    with scratch_dir("warpcheck-bad-input-") as tmp:
        write(tmp, "good.cu", GOOD)
        recursion(wc, plugin, args.clang_tidy, tmp)
        timeout_with_several_inputs(wc, tmp)
        not_regular_files(wc, tmp)
        invalid_launches(wc, plugin, args.clang_tidy, tmp)
        annotations(wc, plugin, args.clang_tidy, tmp)
    return RESULTS.summary()


if __name__ == "__main__":
    sys.exit(main())
