#!/usr/bin/env python3
"""Containment: a failure inside the analysis of one kernel or one unit
stays there (issue "Reliability", "Limits that hold").

- A crash in one kernel's analysis, provoked through the test-only
  environment variable WARPCHECK_TEST_CRASH_KERNEL (docs/reliability.md),
  becomes a warning at that kernel; clang-tidy exits normally with the other
  kernels' findings, and the binary reports the kernel as failed and the
  others as usual, in a worker and in its own process.
- Code nested deeper than the analysis's stack (generated here, never
  committed) gives a clear "nested too deeply" error for its unit, or for
  the register count of its unit, never a SIGSEGV.
- --memory-limit: a unit over the limit is reported as out of memory by
  name, the other units are analysed.

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

GOOD_FINDING = "good.cu:3:12: warning: global load 'in[i * 32]' touches 32 sectors"

TWO_KERNELS = textwrap.dedent("""\
    __global__ void fine(const float *in, float *out) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      out[i] = in[i * 32];
    }
    __global__ void broken(const float *in, float *out) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      out[i] = in[i * 32];
    }
    int main() { fine<<<8, 128>>>(nullptr, nullptr); broken<<<8, 128>>>(nullptr, nullptr); }
    """)
FINE_FINDING = "two.cu:3:12: warning: global load 'in[i * 32]' touches 32 sectors"
CRASH_WARNING = ("two.cu:5:17: warning: warpcheck could not analyse kernel 'broken': internal "
                 "error: a segmentation fault (SIGSEGV); please report it with this file [cuda-")



def clang_args(wc, name, tmp):
    rc, args, err = run([wc, "--print-clang-args", "--no-cuda", name], cwd=tmp)
    return [a for a in args.split("\n") if a]


def crash_in_one_kernel(wc, plugin, clang_tidy, tmp):
    """WARPCHECK_TEST_CRASH_KERNEL=broken: the analysis of 'broken' writes
    through a null pointer. Only that kernel is lost, through both doors."""
    write(tmp, "two.cu", TWO_KERNELS)
    env = dict(os.environ, WARPCHECK_TEST_CRASH_KERNEL="broken")
    rc, out, err = run([clang_tidy, "-load", plugin, "-checks=-*,cuda-*", "two.cu", "--"] +
                       clang_args(wc, "two.cu", tmp), cwd=tmp, env=env, timeout=300)
    check("plugin: clang-tidy exits 0, the crash is a warning at the kernel, the other "
          "kernel's finding is reported",
          rc == 0 and any(CRASH_WARNING in l for l in out.splitlines()) and FINE_FINDING in out
          and "Stack dump" not in err and out.count("could not analyse kernel") == 1,
          "exit %s: %s %s" % (rc, out[-2000:], err[-1500:]))

    for mode in ([], ["--isolate"]):
        tag = "binary%s" % (" " + mode[0] if mode else " (in its own process)")
        rc, out, err = run([wc, "--no-cuda"] + mode + ["two.cu"], cwd=tmp, env=env, timeout=300)
        check(tag + ": exit 3, the crash a warning at the kernel, the other kernel reported",
              rc == 3 and CRASH_WARNING in out and FINE_FINDING in out and
              "1 kernel analysed (1 launch shape), 1 kernel could not be analysed; "
              "1 input: 0 analysed, 1 analysed with errors" in err,
              "exit %s: %s %s" % (rc, out[-2000:], err[-1500:]))
    rc, out, err = run([wc, "--no-cuda", "--format=json", "two.cu"], cwd=tmp, env=env, timeout=300)
    doc = json_report(out)
    status = {k["name"]: k["status"] for k in doc.get("kernels", [])}
    broken = [k for k in doc.get("kernels", []) if k["name"] == "broken"]
    check("json: 'broken' is failed with its cause, 'fine' analysed; summary counts it",
          status == {"fine": "analysed", "broken": "failed"} and
          broken[0]["error"]["line"] == 5 and
          "internal error: a segmentation fault (SIGSEGV)" in broken[0]["error"]["message"] and
          doc["summary"]["kernels_failed"] == 1 and doc["summary"]["kernels_analysed"] == 1 and
          "warpcheck could not analyse kernel 'broken'" in doc["inputs"][0].get("cause", ""),
          json.dumps(doc)[-2000:])
    rc, out, err = run([wc, "--no-cuda", "-j2", "two.cu", "good.cu"], cwd=tmp, env=env,
                       timeout=300)
    check("binary -j2: the other unit is reported as usual",
          rc == 3 and CRASH_WARNING in out and GOOD_FINDING in out and
          "2 inputs: 1 analysed, 1 analysed with errors" in err,
          "exit %s: %s %s" % (rc, out[-2000:], err[-1500:]))


def deep_unit(levels):
    """`- - - ... in[threadIdx.x]`: clang's parser recurses once per unary
    operator, some 4 KB of stack each (2,000 levels kill clang itself)."""
    return ("__global__ void deep(const int *in, int *out) { out[threadIdx.x] = %s in[threadIdx.x]; }\n"
            "int main() { deep<<<1, 128>>>(nullptr, nullptr); }\n" % ("- " * levels))


def deep_assignments(levels):
    """`a0 = a1 = ... = in[...]`: parsed within the unit's stack, but clang's
    code generator (the register estimate) recurses deeper per level."""
    names = ["a%d" % i for i in range(levels)]
    return ("__global__ void deep(const int *in, int *out) { int %s; %s = in[threadIdx.x]; "
            "out[a0] = 1; }\n"
            "int main() { deep<<<1, 128>>>(nullptr, nullptr); }\n" %
            (", ".join(names), " = ".join(names)))


def nested_too_deeply(wc, plugin, clang_tidy, tmp):
    """Generated code nested deeper than any stack: a clear error for its
    unit (the binary; clang-tidy's own parser dies on it without warpcheck,
    docs/reliability.md), or for its register count; never a SIGSEGV."""
    write(tmp, "deep.cu", deep_unit(100000))
    too_deep = ("warpcheck: error: deep.cu: the code is nested too deeply (it used up the "
                "256 MB of stack the analysis has)")
    for files in (["deep.cu"], ["deep.cu", "good.cu"]):
        rc, out, err = run([wc, "--no-cuda"] + files, cwd=tmp, timeout=300)
        check("binary, %d input(s): 100,000 nested operators are 'nested too deeply', by name"
              % len(files),
              rc == 3 and too_deep in err and
              ("1 not analysed" in err) and (len(files) == 1 or GOOD_FINDING in out),
              "exit %s: %s %s" % (rc, out[-1500:], err[-1500:]))

    write(tmp, "assignments.cu", deep_assignments(50000))
    rc, out, err = run([wc, "--no-cuda", "--format=json", "assignments.cu"], cwd=tmp, timeout=300)
    doc = json_report(out)
    deep = [k for k in doc.get("kernels", []) if k["name"] == "deep"]
    check("binary: 50,000 nested assignments: the kernel is analysed, its register estimate "
          "says it is nested too deeply",
          rc == 0 and deep and deep[0]["status"] == "analysed" and deep[0]["registers"] is None
          and any("the register estimate failed: the code is nested too deeply (it used up the "
                  "64 MB of stack the analysis has)" in l for l in deep[0]["limitations"]),
          "exit %s: %s %s" % (rc, out[-1500:], err[-1500:]))

    # 5,000 levels: clang-tidy parses them; the estimate's code generator
    # died in clang-tidy's 8 MB stack before it had one of its own.
    write(tmp, "assignments5k.cu", deep_assignments(5000))
    rc, out, err = run([clang_tidy, "-load", plugin, "-checks=-*,cuda-occupancy",
                        "-config={CheckOptions: {cuda-occupancy.RegisterMode: estimate, "
                        "cuda-occupancy.MinOccupancy: 101}}",
                        "assignments5k.cu", "--"] + clang_args(wc, "assignments5k.cu", tmp),
                       cwd=tmp, timeout=300)
    check("plugin: 5,000 nested assignments get their estimated registers, no crash",
          rc == 0 and "registers per thread (estimated" in out and "Stack dump" not in err,
          "exit %s: %s %s" % (rc, out[-1500:], err[-1500:]))


def big_unit(elements):
    """A table of integers in host code: clang keeps a node per element."""
    return ("static const int table[] = {%s};\n"
            "__global__ void k(const int *in, int *out) { out[threadIdx.x] = in[threadIdx.x]; }\n"
            "int main() { k<<<1, 128>>>(nullptr, nullptr); }\n" %
            ",".join(str(i % 1000) for i in range(elements)))


def memory_limit(wc, tmp):
    """--memory-limit=MB: each worker's address space. A unit over it is
    'out of memory' by name; the others are analysed."""
    rc, out, err = run([wc, "--no-cuda", "--memory-limit=1", "two.cu", "good.cu"], cwd=tmp,
                       timeout=300)
    check("--memory-limit=1: both units out of memory, by name; the run still reports",
          rc == 3 and
          "warpcheck: error: two.cu: the analysis ran out of memory (limit 1 MB, --memory-limit)"
          in err and
          "warpcheck: error: good.cu: the analysis ran out of memory (limit 1 MB, --memory-limit)"
          in err and "2 inputs: 0 analysed, 2 not analysed" in err,
          "exit %s: %s %s" % (rc, out[-1500:], err[-1500:]))

    # A larger limit never fails a unit a smaller one lets through: the
    # stacks reserved for nested code are mapped before the limit, above
    # it, and the analysis does not grow unchecked into a thread's malloc
    # arena (600 MB once failed the unit that 400 let through).
    for limit in ("400", "600", "800"):
        rc, out, err = run([wc, "--no-cuda", "--memory-limit=" + limit, "good.cu"], cwd=tmp,
                           timeout=300)
        check("--memory-limit=%s: a small unit is analysed" % limit,
              rc == 0 and GOOD_FINDING in out, "exit %s: %s %s" % (rc, out[-500:], err[-500:]))

    # Some 870 MB of resident memory without a limit; a small unit needs
    # less than 300 MB of address space.
    write(tmp, "big.cu", big_unit(2000000))
    for files in (["big.cu", "good.cu"], ["big.cu"]):
        rc, out, err = run([wc, "--no-cuda", "--memory-limit=400"] + files, cwd=tmp, timeout=300)
        check("--memory-limit=400, %d input(s): the big unit out of memory, the other reported"
              % len(files),
              rc == 3 and "warpcheck: error: big.cu: the analysis ran out of memory (limit 400 MB,"
              " --memory-limit)" in err and (len(files) == 1 or GOOD_FINDING in out),
              "exit %s: %s %s" % (rc, out[-1500:], err[-1500:]))

    for bad in ("0", "abc", "-5", "2000000"):
        rc, out, err = run([wc, "--no-cuda", "--memory-limit=" + bad, "good.cu"], cwd=tmp)
        check("--memory-limit=%s is a usage error" % bad,
              rc == 2 and "--memory-limit needs a positive number of megabytes" in err,
              "exit %s: %s" % (rc, err[-500:]))


def main():
    args, wc, plugin = door_arguments()
    with scratch_dir("warpcheck-containment-") as tmp:
        write(tmp, "good.cu", STRIDED_UNIT)
        crash_in_one_kernel(wc, plugin, args.clang_tidy, tmp)
        nested_too_deeply(wc, plugin, args.clang_tidy, tmp)
        memory_limit(wc, tmp)
    return RESULTS.summary()


if __name__ == "__main__":
    sys.exit(main())
