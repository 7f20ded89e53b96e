#!/usr/bin/env python3
"""Reliability of the run's report and exit code (issue "Reliability", its
list of defects, the second half), each a regression test through the
binary, and through clang-tidy with the plugin where it can see it:

- file names and source lines from the code under review are printed with
  their control characters escaped (terminal escapes, newlines);
- the summary never counts an input that failed as analysed (text, JSON,
  HTML);
- an error of the driver names its input;
- -o naming an input is refused and the input left as it was;
- a report that cannot be written (-o /dev/full) has exit code 4;
- the report is the same, byte for byte, whatever -j;
- a check option that is not a number (MinExtraWavefronts: nan) is said to
  be invalid, by name, through --config and .clang-tidy;
- nvcc runs with an environment of its own: no NVCC_* variable of the
  user's, a fixed PATH;
- a worker killed from outside is not reported as a crash;
- every launch has its FLOPs, DRAM bytes and roofline verdict in the JSON,
  and the summary line counts the verdicts;
- cuda-missed-data-reuse's options out of range are said, by name.

Runs as one ctest; prints 'N passed, M failed' and exits non-zero on failure.
"""
import json
import os
import sys
import textwrap

from testsupport import (Results, STRIDED_UNIT, door_arguments, print_toolkit, run, scratch_dir,
                         toolkit_with_fake_nvcc)
from testsupport import json_or_empty as json_report, write_in as write

RESULTS = Results()
check = RESULTS.check

GOOD = STRIDED_UNIT

# An escape sequence (clear the screen, a red colour) before the access
# the finding is about, and one in a comment after it.
HOSTILE_SOURCE = (
    "__global__ void strided(const float *in, float *out) {\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  /*\x1b[2J*/ out[i] = in[i * 32]; // \x1b[31mred\x1b]0;title\x07\n"
    "}\n"
    "int main() { strided<<<4, 128>>>(nullptr, nullptr); }\n")

# Two kernels of different patterns, one per file: -j order tests.
BANKS = textwrap.dedent("""\
    __global__ void transpose(float *out) {
      __shared__ float tile[32][32];
      tile[threadIdx.y][threadIdx.x] = out[threadIdx.x];
      __syncthreads();
      out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
    }
    int main() { transpose<<<1, dim3(32, 32)>>>(nullptr); }
    """)



def escaped_text(wc, tmp):
    """File names and source lines reach the terminal escaped (clang-tidy's
    <U+001B>), never raw: an escape sequence in a comment or a file name
    rewrote the user's terminal, a newline in a file name forged a line."""
    name = "evil\x1b[1m\nname.cu"
    write(tmp, name, HOSTILE_SOURCE)
    write(tmp, "broken\x1b[5m.cu", "__global__ void k( {\n")
    rc, out, err = run([wc, "--no-cuda", name, "broken\x1b[5m.cu"], cwd=tmp, timeout=300)
    lines = out.splitlines()
    head = ("evil<U+001B>[1m<U+000A>name.cu:3:21: warning: global load 'in[i * 32]' touches "
            "32 sectors")
    source = ("    3 |   /*<U+001B>[2J*/ out[i] = in[i * 32]; // <U+001B>[31mred<U+001B>]0;"
              "title<U+0007>")
    check("text: the file name escaped, on one line", any(head in l for l in lines),
          repr(out[-2000:]))
    check("text: the source line escaped", source in lines, repr(out[-2000:]))
    caret = [l for l in lines if l.startswith("      | ") and l.strip().endswith("^")]
    at = source.find("in[i * 32]")
    check("text: the caret under the access in the escaped line",
          caret and caret[0].index("^") == at, repr(caret) + " want column %d" % at)
    check("text and standard error: no raw escape or bell character",
          "\x1b" not in out and "\x07" not in out and "\x1b" not in err, repr(out[-800:] + err[-800:]))
    check("standard error: the broken file's error names it, escaped",
          "broken<U+001B>[5m.cu:1:17: variable has incomplete type 'void'" in err and
          "warpcheck: note: broken<U+001B>[5m.cu: analysed with errors" in err, repr(err[-1500:]))
    check("exit code 3 (an input with errors), the hostile file still reported", rc == 3,
          "exit %s" % rc)


def honest_counts(wc, tmp):
    """An input that fails is never counted as analysed: not in the summary
    line, not in the JSON summary, not in the HTML summary."""
    write(tmp, "broken.cu", "__global__ void k( {\n")
    write(tmp, "driver.cu", GOOD)
    files = ["good.cu", "broken.cu", "missing.cu"]
    want = "3 inputs: 1 analysed, 1 analysed with errors, 1 not analysed"
    rc, out, err = run([wc, "--no-cuda"] + files, cwd=tmp, timeout=300)
    check("text: " + want, rc == 3 and want in err.splitlines()[-1], err[-1500:])
    rc, out, err = run([wc, "--no-cuda", "--format=json"] + files, cwd=tmp, timeout=300)
    summary = json_report(out).get("summary", {})
    check("json: the summary counts 1 analysed, 1 with errors, 1 not analysed",
          rc == 3 and summary.get("inputs") == 3 and summary.get("inputs_analysed") == 1 and
          summary.get("inputs_analysed_with_errors") == 1 and
          summary.get("inputs_not_analysed") == 1 and want in summary.get("text", ""),
          json.dumps(summary))
    rc, out, err = run([wc, "--no-cuda", "--format=html"] + files, cwd=tmp, timeout=300)
    check("html: the summary counts 1 analysed, 1 with errors, 1 not analysed",
          rc == 3 and '<span class="n">3</span> inputs<br><span class="sub">1 analysed, 1 analysed '
          'with errors (kernels that compile still analysed), 1 not analysed</span>' in out,
          out[:5000])
    # A compile command the driver refuses: not analysed, and the error
    # names the file (it used to be "warpcheck: error: : unknown argument").
    rc, out, err = run([wc, "--no-cuda", "--format=json", "driver.cu", "good.cu", "--",
                        "-fno-such-flag-anywhere"], cwd=tmp, timeout=300)
    doc = json_report(out)
    inputs = {i["file"]: i["status"] for i in doc.get("inputs", [])}
    errors = [e for e in doc.get("errors", []) if "no-such-flag" in e.get("message", "")]
    check("json: a driver error is the input's, with its file name",
          errors and all(e.get("file") in ("driver.cu", "good.cu") for e in errors) and
          inputs.get("driver.cu") != "analysed", json.dumps(doc.get("errors"))[:1500])
    rc, out, err = run([wc, "--no-cuda", "driver.cu", "--", "-fno-such-flag-anywhere"],
                       cwd=tmp, timeout=300)
    check("text: a driver error names the file",
          "warpcheck: error: driver.cu: unknown argument: '-fno-such-flag-anywhere'" in err and
          "error: : " not in err and "1 input: 0 analysed" in err, err[-1500:])


def output_naming_an_input(wc, tmp):
    """-o naming an input (by any name) is refused: the source is kept."""
    write(tmp, "keep.cu", GOOD)
    os.symlink("keep.cu", os.path.join(tmp, "alias.cu"))
    for output in ("keep.cu", "./keep.cu", "alias.cu", os.path.join(tmp, "keep.cu")):
        rc, out, err = run([wc, "--no-cuda", "-o", output, "keep.cu"], cwd=tmp, timeout=300)
        with open(os.path.join(tmp, "keep.cu")) as f:
            kept = f.read() == GOOD
        check("-o %s keep.cu: refused with exit 2, the source unchanged" % output,
              rc == 2 and kept and "-o '%s' is the input 'keep.cu': refused, the report would "
              "overwrite the source" % output in err, "exit %s: %s" % (rc, err[-800:]))
    folder = os.path.join(tmp, "srcs")
    os.mkdir(folder)
    write(folder, "a.cu", GOOD)
    rc, out, err = run([wc, "--no-cuda", "-o", "srcs/a.cu", "srcs"], cwd=tmp, timeout=300)
    with open(os.path.join(folder, "a.cu")) as f:
        kept = f.read() == GOOD
    check("-o naming a file of a folder input: refused, the file unchanged",
          rc == 2 and kept and "is the input 'srcs/a.cu'" in err, "exit %s: %s" % (rc, err[-800:]))


def unwritable_report(wc, tmp):
    """A report that cannot be written is exit code 4, said on standard
    error, never 1 (findings) and never an abort."""
    rc, out, err = run([wc, "--no-cuda", "-o", "/dev/full", "good.cu"], cwd=tmp, timeout=300)
    check("-o /dev/full: exit 4 and the cause, no crash",
          rc == 4 and "warpcheck: error: cannot write the report to '/dev/full': No space left "
          "on device" in err and "LLVM ERROR" not in err and "Stack dump" not in err,
          "exit %s: %s" % (rc, err[-1500:]))
    with open("/dev/full", "w") as full:
        try:
            import subprocess
            proc = subprocess.run([wc, "--no-cuda", "good.cu"], cwd=tmp, stdout=full,
                                  stderr=subprocess.PIPE, text=True, timeout=300)
            rc, err = proc.returncode, proc.stderr
        except subprocess.TimeoutExpired:
            rc, err = None, "timed out"
    check("standard output on /dev/full: exit 4 and the cause",
          rc == 4 and "cannot write the report to 'standard output'" in err and
          "LLVM ERROR" not in err, "exit %s: %s" % (rc, err[-1500:]))
    rc, out, err = run([wc, "--no-cuda", "-o", os.path.join(tmp, "no", "such", "dir.txt"),
                        "good.cu"], cwd=tmp, timeout=300)
    check("-o in a folder that does not exist: exit 4", rc == 4 and "cannot write the report"
          in err, "exit %s: %s" % (rc, err[-800:]))
    rc, out, err = run([wc, "--help"])
    check("--help documents exit code 4",
          "  4  the report could not be written" in out, out[-2500:])
    check("--help says where register counts are cached",
          "cached in $XDG_CACHE_HOME/warpcheck/ptxas,\nelse $HOME/.cache/warpcheck/ptxas" in out,
          out[-2500:])


def same_report_whatever_jobs(wc, tmp):
    """-j1 and -j8 give byte-identical text, JSON and SARIF reports (with
    eight workers for ten inputs of unequal cost, workers finish in an
    order of their own)."""
    folder = os.path.join(tmp, "order")
    os.mkdir(folder)
    for n in range(2):
        write(folder, "k%d.cu" % n, GOOD.replace("strided", "strided%d" % n)
              .replace("i * 32", "i * %d" % (8 << n)))
        write(folder, "b%d.cu" % n, BANKS.replace("transpose", "transpose%d" % n))
    write(folder, "broken.cu", "__global__ void k( {\n")
    # A kernel in a header two inputs include (kept once, from the first
    # input), and one defined in a unit and launched from another (the
    # defining unit runs again with that launch).
    write(folder, "shared.cuh", "__global__ void fromHeader(float *p) { p[threadIdx.x * 4] = 0; }\n")
    write(folder, "h1.cu", '#include "shared.cuh"\nint main() { fromHeader<<<1, 64>>>(0); }\n')
    write(folder, "h2.cu", '#include "shared.cuh"\nint main() { fromHeader<<<2, 64>>>(0); }\n')
    write(folder, "def.cu", "__global__ void defined(float *p) { p[threadIdx.x * 8] = 0; }\n")
    write(folder, "use.cu", "__global__ void defined(float *p);\n"
          "int main() { defined<<<2, 96>>>(0); }\n")
    for fmt in ("text", "json", "sarif"):
        reports = []
        for jobs in ("-j1", "-j8"):
            rc, out, err = run([wc, "--no-cuda", "--format=" + fmt, jobs, "order"], cwd=tmp,
                               timeout=600)
            reports.append((rc, out, err))
        check("%s: -j1 and -j8 give the same report, byte for byte" % fmt,
              reports[0][1] and all(r == reports[0] for r in reports) and reports[0][0] == 3,
              "\n----\n".join(r[1][-600:] + r[2][-300:] for r in reports))


def invalid_option_values(wc, plugin, clang_tidy, tmp):
    """MinExtraWavefronts: nan (or inf, or not a number) is said to be
    invalid, by option name, through --config, .clang-tidy and the plugin;
    the default is used instead of a threshold no access meets."""
    write(tmp, "banks.cu", BANKS)
    want = ("invalid configuration value 'nan' for option "
            "'cuda-shared-bank-conflict.MinExtraWavefronts'")
    rc, out, err = run([wc, "--no-cuda", "--config=cuda-shared-bank-conflict.MinExtraWavefronts=nan",
                        "banks.cu"], cwd=tmp, timeout=300)
    check("--config MinExtraWavefronts=nan: said, by name; the default still reports the conflict",
          want in out + err and "32-way bank conflict" in out, out[-1500:] + err[-800:])
    for value in ("inf", "-1", "many"):
        rc, out, err = run([wc, "--no-cuda", "--config=cuda-shared-bank-conflict."
                            "MinExtraWavefronts=" + value, "banks.cu"], cwd=tmp, timeout=300)
        check("--config MinExtraWavefronts=%s: said, by name" % value,
              want.replace("'nan'", "'%s'" % value) in out + err, out[-1500:] + err[-800:])
    project = os.path.join(tmp, "project")
    os.mkdir(project)
    write(project, "banks.cu", BANKS)
    write(project, ".clang-tidy", "CheckOptions:\n"
          "  cuda-shared-bank-conflict.MinExtraWavefronts: nan\n")
    rc, out, err = run([wc, "--no-cuda", "banks.cu"], cwd=project, timeout=300)
    check(".clang-tidy MinExtraWavefronts: nan: said, by name",
          want in out + err and "32-way bank conflict" in out, out[-1500:] + err[-800:])
    rc, args, err = run([wc, "--print-clang-args", "--no-cuda", "banks.cu"], cwd=project)
    rc, out, err = run([clang_tidy, "-load", plugin, "-checks=-*,cuda-shared-bank-conflict",
                        "banks.cu", "--"] + [a for a in args.split("\n") if a],
                       cwd=project, timeout=300)
    check("plugin: .clang-tidy MinExtraWavefronts: nan said, by name",
          want in out + err and "32-way bank conflict" in out, out[-1500:] + err[-800:])


def nvcc_environment(wc, tmp):
    """nvcc (for the register counts) runs with an environment of its own:
    none of the user's NVCC_* variables (NVCC_PREPEND_FLAGS would add flags,
    NVCC_CCBIN choose the host compiler) and a fixed PATH (the toolkit's bin,
    then the system's folders), whatever PATH warpcheck was started with."""
    found = print_toolkit(wc)
    real = found.get("root") if found and found.get("found") else None
    if not real:
        print("SKIP nvcc environment: no CUDA toolkit (warpcheck --print-toolkit)")
        return
    fake = toolkit_with_fake_nvcc(real, os.path.join(tmp, "env-toolkit"))
    dump = os.path.join(tmp, "nvcc-environment.txt")
    with open(os.path.join(fake, "bin", "nvcc"), "w") as f:
        f.write("#!/bin/sh\n/usr/bin/env > '%s'\n"
                "/usr/bin/tr '\\000' '\\n' < /proc/$PPID/environ > '%s'\nexit 1\n"
                % (dump, dump + ".worker"))
    os.chmod(os.path.join(fake, "bin", "nvcc"), 0o755)
    env = dict(os.environ, NVCC_PREPEND_FLAGS="--no-such-nvcc-flag", NVCC_APPEND_FLAGS="-Xbad",
               NVCC_CCBIN="/nonexistent/gcc", PATH=os.path.join(tmp, "evil-bin") + ":" +
               os.environ.get("PATH", "/usr/bin:/bin"),
               XDG_CACHE_HOME=os.path.join(tmp, "env-cache"))
    # --isolate: nvcc's parent is a worker process, whose environment the
    # main process gave it.
    rc, out, err = run([wc, "--isolate", "--cuda-path=" + fake, "--config=RegisterMode=ptxas",
                        "good.cu"], cwd=tmp, env=env, timeout=300)
    seen = {}
    if os.path.exists(dump):
        for line in open(dump):
            name, _, value = line.rstrip("\n").partition("=")
            seen[name] = value
    check("nvcc started, with no NVCC_* variable of the user's",
          seen and not [n for n in seen if n.startswith("NVCC_")], json.dumps(seen)[:1500])
    check("nvcc's PATH is the toolkit's bin and the system's folders only",
          seen.get("PATH") == os.path.join(fake, "bin") +
          ":/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
          seen.get("PATH", "(no PATH)"))
    check("nvcc's temporary folder is private, and removed after the run",
          seen.get("TMPDIR", "").startswith("/") and "warpcheck-ptxas" in seen.get("TMPDIR", "")
          and not os.path.exists(seen.get("TMPDIR", "/")), seen.get("TMPDIR", "(no TMPDIR)"))
    worker = []
    if os.path.exists(dump + ".worker"):
        worker = open(dump + ".worker").read().splitlines()
    check("LLVM's symbolizer is disabled in the worker (LLVM_DISABLE_SYMBOLIZATION=1)",
          "LLVM_DISABLE_SYMBOLIZATION=1" in worker, repr(worker)[:1500])
    check("the worker's temporary folder is its own (nvcc's folder is removed with it)",
          any(l.startswith("TMPDIR=") and "warpcheck-worker" in l for l in worker) and
          "warpcheck-worker" in seen.get("TMPDIR", ""), repr(worker)[:1500])
    # The real nvcc: NVCC_PREPEND_FLAGS that would break it change nothing.
    nvcc = found.get("nvcc")
    if nvcc and os.path.exists(nvcc):
        results = []
        for extra in ({}, {"NVCC_PREPEND_FLAGS": "--no-such-nvcc-flag"}):
            env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "real-cache-%d" % len(results)),
                       **extra)
            rc, out, err = run([wc, "--format=json", "--config=RegisterMode=ptxas", "good.cu"],
                               cwd=tmp, env=env, timeout=600)
            kernels = json_report(out).get("kernels", [])
            results.append([(k.get("registers_source"), k.get("registers")) for k in kernels])
        check("real nvcc: NVCC_PREPEND_FLAGS=--no-such-nvcc-flag does not change the registers",
              results[0] and results[0][0][0] == "ptxas" and results[0] == results[1],
              repr(results))


def worker_of(parent, name):
    """The pid of parent's worker process analysing name, or None."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % entry) as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            with open("/proc/%s/cmdline" % entry, "rb") as f:
                argv = f.read().split(b"\0")
        except (OSError, ValueError, IndexError):
            continue
        if ppid == parent and b"--worker" in argv and \
                any(a.startswith(b"--worker-file=") and a.endswith(name.encode()) for a in argv):
            return int(entry)
    return None


def killed_worker_is_no_crash(wc, tmp):
    """A worker killed from outside (SIGKILL, as the out-of-memory killer
    sends) is said to be killed, not "crashed; please report it"; the other
    input is still reported."""
    import signal
    import subprocess
    import time
    fifo = os.path.join(tmp, "blocks.h")
    os.mkfifo(fifo)
    write(tmp, "killed.cu", '#include "blocks.h"\n' + GOOD.replace("strided", "other"))
    proc = subprocess.Popen([wc, "--no-cuda", "-j2", "killed.cu", "good.cu"], cwd=tmp,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    pid = None
    for _ in range(600):  # the worker blocks on the FIFO until killed
        pid = worker_of(proc.pid, "killed.cu")
        if pid or proc.poll() is not None:
            break
        time.sleep(0.1)
    if pid:
        os.kill(pid, signal.SIGKILL)
    try:
        out, err = proc.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
    os.remove(fifo)
    check("a worker killed with SIGKILL: said so by name, not a crash; the other input reported",
          pid and proc.returncode == 3 and
          "warpcheck: error: killed.cu: the analysis was killed (signal 9, SIGKILL" in err and
          "crashed" not in err and "good.cu:3:12: warning: global load" in out and
          "2 inputs: 1 analysed, 1 not analysed" in err,
          "worker %s, exit %s: %s %s" % (pid, proc.returncode, out[-800:], err[-1500:]))


# A streaming kernel (memory-bound) and one that does 4096 FMAs per element
# it loads (compute-bound on any part).
ROOFLINE = textwrap.dedent("""\
    __global__ void saxpy(int n, float a, const float *x, float *y) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) y[i] = a * x[i] + y[i];
    }
    __global__ void polynomial(const float *in, float *out) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      float v = in[i];
      for (int k = 0; k < 4096; ++k) v = v * 1.0001f + 0.5f;
      out[i] = v;
    }
    int main() {
      saxpy<<<16, 256>>>(4096, 2.0f, nullptr, nullptr);
      polynomial<<<2, 128>>>(nullptr, nullptr);
    }
    """)


def roofline_in_the_report(wc, tmp):
    """Each launch's FLOPs and DRAM bytes as counted by hand, its verdict on
    the H200, and the summary line's count of them."""
    write(tmp, "roofline.cu", ROOFLINE)
    rc, out, err = run([wc, "--no-cuda", "--format=json", "roofline.cu"], cwd=tmp, timeout=300)
    doc = json_report(out)
    kernels = {k["name"]: k for k in doc.get("kernels", [])}
    saxpy, poly = kernels.get("saxpy", {}), kernels.get("polynomial", {})
    check("json: saxpy does 4096 FFMAs and moves 32 KiB in, 16 KiB out: memory-bound",
          saxpy.get("flops", {}).get("fp32") == {"add": 0, "mul": 0, "fma": 4096, "flops": 8192}
          and saxpy["flops"]["status"] == "exact"
          and saxpy.get("dram_bytes", {}).get("read") == 32768
          and saxpy["dram_bytes"]["write"] == 16384 and saxpy.get("intensity") == 0.1667
          and saxpy["roofline"][0]["bound"] == "memory"
          and saxpy["roofline"][0]["part"] == "H200 SXM", json.dumps(saxpy)[-1500:])
    check("json: 256 threads x 4096 FFMAs over 2 KiB: intensity 1024, compute-bound",
          poly.get("flops", {}).get("total") == 2 * 256 * 4096
          and poly.get("dram_bytes", {}).get("total") == 2048 and poly.get("intensity") == 1024
          and poly["roofline"][0]["bound"] == "compute", json.dumps(poly)[-1500:])
    summary = doc.get("summary", {})
    check("summary: 1 launch shape memory-bound, 1 compute-bound, in the text too",
          summary.get("memory_bound") == 1 and summary.get("compute_bound") == 1 and
          "roofline on sm_90: 1 launch shape memory-bound, 1 compute-bound" in err,
          json.dumps(summary) + err[-500:])


def missed_reuse_option_values(wc, tmp):
    """MinReuse below 2 and TileSize 1 or over 32 are said, by name."""
    for option, value, want in (("MinReuse", "1", "MinReuse 1 is below 2"),
                                ("TileSize", "64", "TileSize 64 is not 0"),
                                ("TileSize", "1", "TileSize 1 is not 0")):
        rc, out, err = run([wc, "--no-cuda", "--config=cuda-missed-data-reuse.%s=%s" % (option, value),
                            "good.cu"], cwd=tmp, timeout=300)
        check("--config cuda-missed-data-reuse.%s=%s: said, by name" % (option, value),
              "cuda-missed-data-reuse" in out + err and want in out + err,
              out[-1000:] + err[-800:])


def main():
    args, wc, plugin = door_arguments()
    with scratch_dir("warpcheck-report-output-") as tmp:
        write(tmp, "good.cu", GOOD)
        escaped_text(wc, tmp)
        honest_counts(wc, tmp)
        output_naming_an_input(wc, tmp)
        unwritable_report(wc, tmp)
        same_report_whatever_jobs(wc, tmp)
        invalid_option_values(wc, plugin, args.clang_tidy, tmp)
        nvcc_environment(wc, tmp)
        killed_worker_is_no_crash(wc, tmp)
        roofline_in_the_report(wc, tmp)
        missed_reuse_option_values(wc, tmp)
    return RESULTS.summary()


if __name__ == "__main__":
    sys.exit(main())
