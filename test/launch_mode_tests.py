#!/usr/bin/env python3
"""warpcheck launch: warpcheck as the build's compiler launcher
(CMAKE_CUDA_COMPILER_LAUNCHER). Each compile command's CUDA sources are
analysed with the command's own arguments, the report goes to standard
error (nothing for a clean unit), and then the compiler runs exactly as the
build asked: the same arguments, byte for byte, the same environment, its
exit code. Nothing the analysis does (a finding, a broken unit, a crash)
changes the build's outcome.

A fake compiler (bin/nvcc, a script) records its arguments and environment
and exits with the code the test gives it.
"""
import os
import sys

from testsupport import STRIDED_UNIT, Results, door_arguments, run, scratch_dir

RESULTS = Results()
check = RESULTS.check

FAKE_NVCC = """#!/bin/sh
for a in "$@"; do printf '%s\\n' "$a"; done > "$LAUNCH_TEST_DIR/argv.txt"
printf '%s\\n' "$LAUNCH_TEST_VALUE" > "$LAUNCH_TEST_DIR/env.txt"
echo "fake nvcc ran" >&2
exit "${LAUNCH_TEST_EXIT:-0}"
"""

CLEAN = """\
__global__ void copy(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i];
}
int main() { copy<<<4, 128>>>(nullptr, nullptr); }
"""

# The stride comes from the compile command: only its -DSTRIDE=32 makes
# this unit parse, and the finding's 32 sectors prove the arguments reached
# the analysis.
FROM_COMMAND = """\
__global__ void scaled(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * STRIDE];
}
int main() { scaled<<<4, 128>>>(nullptr, nullptr); }
"""

STRIDED_WARNING = ("strided.cu:3:12: warning: global load 'in[i * 32]' touches 32 sectors per "
                   "warp request (ideal 4, 12.5% efficiency)")


def recorded(tmp, name):
    path = os.path.join(tmp, name)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return f.read().splitlines()


def launch(wc, tmp, options, command, exit_code=0, extra_env=None):
    for name in ("argv.txt", "env.txt"):
        if os.path.exists(os.path.join(tmp, name)):
            os.remove(os.path.join(tmp, name))
    env = dict(os.environ, LAUNCH_TEST_DIR=tmp, LAUNCH_TEST_EXIT=str(exit_code),
               **(extra_env or {}))
    return run([wc, "launch"] + options + command, cwd=tmp, env=env, timeout=300)


def main():
    args, wc, _ = door_arguments()
    with scratch_dir("warpcheck-launch-") as tmp:
        os.mkdir(os.path.join(tmp, "bin"))
        nvcc = os.path.join(tmp, "bin", "nvcc")
        with open(nvcc, "w") as f:
            f.write(FAKE_NVCC)
        os.chmod(nvcc, 0o755)
        for name, text in (("strided.cu", STRIDED_UNIT), ("clean.cu", CLEAN),
                           ("from_command.cu", FROM_COMMAND),
                           ("broken.cu", "__global__ void k(float *p) { p[threadIdx.x] = ; }\n")):
            with open(os.path.join(tmp, name), "w") as f:
                f.write(text)

        # Arguments a shell would change: spaces, quotes, $(...), globs.
        odd = ["-DNAME=\"a b\"", "-DCMD=$(touch pwned)", "-Xcompiler", "-Wall,-O2", "-I*"]
        command = [nvcc, "-arch=sm_90"] + odd + ["-c", "strided.cu", "-o", "strided.o"]
        rc, out, err = launch(wc, tmp, ["--no-cuda"], command, exit_code=7,
                              extra_env={"LAUNCH_TEST_VALUE": "kept as given"})
        check("a finding: reported on standard error before the compiler's own output",
              STRIDED_WARNING in err and err.index(STRIDED_WARNING) < err.index("fake nvcc ran"),
              err[-2000:])
        check("a finding: the exit code is the compiler's (7), standard output is the compiler's",
              rc == 7 and out == "", "rc %s, out %r" % (rc, out))
        check("the compiler gets its arguments byte for byte, and no shell sees them",
              recorded(tmp, "argv.txt") == command[1:] and
              not os.path.exists(os.path.join(tmp, "pwned")), repr(recorded(tmp, "argv.txt")))
        check("the compiler gets the build's environment",
              recorded(tmp, "env.txt") == ["kept as given"], repr(recorded(tmp, "env.txt")))

        # Launchers chained (CMAKE_CUDA_COMPILER_LAUNCHER="warpcheck;launch;--;ccache"):
        # the compile command is the one after the next launcher, whose
        # arguments reach it unchanged.
        ccache = os.path.join(tmp, "bin", "ccache")
        with open(ccache, "w") as f:
            f.write('#!/bin/sh\necho "fake ccache ran" >&2\nexec "$@"\n')
        os.chmod(ccache, 0o755)
        command = [ccache, nvcc, "-arch=sm_90", "-DSTRIDE=32", "-c", "from_command.cu", "-o",
                   "from_command.o"]
        rc, out, err = launch(wc, tmp, ["--no-cuda"], command)
        check("a launcher chained after warpcheck (ccache): the unit analysed with the "
              "compiler's arguments, then the launcher started with them, the compiler after it",
              rc == 0 and "from_command.cu:3:12: warning: global load 'in[i * STRIDE]' touches 32 "
              "sectors" in err and err.endswith("fake ccache ran\nfake nvcc ran\n") and
              recorded(tmp, "argv.txt") == command[2:], "rc %s: %r" % (rc, err[-1500:]))

        rc, out, err = launch(wc, tmp, ["--no-cuda"], [nvcc, "-c", "clean.cu", "-o", "clean.o"])
        check("a clean unit: nothing from warpcheck, the compiler's exit code (0)",
              rc == 0 and err == "fake nvcc ran\n" and out == "", "rc %s: %r" % (rc, err))

        rc, out, err = launch(wc, tmp, ["--no-cuda"],
                              [nvcc, "-DSTRIDE=32", "-c", "from_command.cu", "-o", "f.o"])
        check("the compile command's -D reaches the analysis (32 sectors with -DSTRIDE=32)",
              rc == 0 and "from_command.cu:3:12: warning: global load 'in[i * STRIDE]' touches "
              "32 sectors" in err, err[-2000:])

        rc, out, err = launch(wc, tmp, ["--no-cuda", "--"], [nvcc, "strided.o", "-o", "app"],
                              exit_code=3)
        check("a link step (no .cu source): not analysed, the compiler runs ('--' form)",
              rc == 3 and err == "fake nvcc ran\n" and
              recorded(tmp, "argv.txt") == ["strided.o", "-o", "app"], "rc %s: %r" % (rc, err))

        rc, out, err = launch(wc, tmp, ["--no-cuda"], [nvcc, "-c", "broken.cu", "-o", "b.o"])
        check("a unit that does not parse: the error names it, the build goes on (exit 0)",
              rc == 0 and "broken.cu:1:48: expected expression" in err and
              err.endswith("fake nvcc ran\n"),
              "rc %s: %r" % (rc, err[-2000:]))

        rc, out, err = launch(wc, tmp, ["--no-cuda"], [nvcc, "-c", "strided.cu", "-o", "s.o"],
                              extra_env={"WARPCHECK_TEST_CRASH_KERNEL": "strided"})
        check("a crash in the analysis is contained: a warning, then the compiler (exit 0)",
              rc == 0 and "warpcheck could not analyse kernel 'strided'" in err and
              err.endswith("fake nvcc ran\n"), "rc %s: %r" % (rc, err[-2000:]))

        rc, out, err = launch(wc, tmp, ["--no-cuda"], ["no-such-compiler-here", "-c", "clean.cu"])
        check("a compiler that cannot be started: exit 127, named",
              rc == 127 and "cannot start the compiler 'no-such-compiler-here'" in err,
              "rc %s: %r" % (rc, err))

        for options, what in ((["--format=json"], "--format=json"), (["-o", "r.txt"], "-o"),
                              (["--fix"], "--fix")):
            rc, out, err = launch(wc, tmp, options + ["--"], [nvcc, "-c", "clean.cu"])
            check("launch %s: a usage error, and nothing is compiled" % what,
                  rc == 2 and "cannot be used in launch mode" in err and
                  recorded(tmp, "argv.txt") is None, "rc %s: %r" % (rc, err))
        rc, out, err = launch(wc, tmp, [], [])
        check("launch with no compiler: a usage error",
              rc == 2 and "no compiler command" in err, "rc %s: %r" % (rc, err))
    return RESULTS.summary()


if __name__ == "__main__":
    sys.exit(main())
