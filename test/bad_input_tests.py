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

from testsupport import Results, door_arguments, run, scratch_dir

RESULTS = Results()
check = RESULTS.check

GOOD = textwrap.dedent("""\
    __global__ void strided(const float *in, float *out) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      out[i] = in[i * 32];
    }
    int main() { strided<<<4, 128>>>(nullptr, nullptr); }
    """)
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


def write(folder, name, text):
    path = os.path.join(folder, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def json_report(out):
    try:
        return json.loads(out)
    except ValueError:
        return {}


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


def main():
    args, wc, plugin = door_arguments()
    with scratch_dir("warpcheck-bad-input-") as tmp:
        write(tmp, "good.cu", GOOD)
        recursion(wc, plugin, args.clang_tidy, tmp)
        timeout_with_several_inputs(wc, tmp)
        not_regular_files(wc, tmp)
    return RESULTS.summary()


if __name__ == "__main__":
    sys.exit(main())
