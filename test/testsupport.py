"""What warpcheck's test and bench scripts share: running a command (an
argument vector, never through a shell), where a build keeps its binaries,
the CUDA toolkit the tests may use, scratch folders, PASS/FAIL bookkeeping,
and the command line and CCCL unit of the scripts that test both doors."""
import argparse
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

# A unit that includes CCCL (cub, thrust) and the toolkit's device headers
# and launches a kernel built on cub::BlockReduce: the CCCL robustness check
# of cli_tests.py, and the CCCL-heavy unit of bench/analysis_overhead.py.
CCCL_UNIT = r'''
#include <cub/cub.cuh>
#include <thrust/device_vector.h>
#include <thrust/sort.h>
#include <cuda_fp16.h>
#include <cooperative_groups.h>
__global__ void blockSum(const int *in, int *out) {
  using BlockReduce = cub::BlockReduce<int, 128>;
  __shared__ typename BlockReduce::TempStorage temp;
  int v = in[blockIdx.x * 128 + threadIdx.x];
  int s = BlockReduce(temp).Sum(v);
  if (threadIdx.x == 0) out[blockIdx.x] = s;
}
int main() {
  thrust::device_vector<int> a(1 << 10, 1), b(8);
  thrust::sort(a.begin(), a.end());
  blockSum<<<8, 128>>>(thrust::raw_pointer_cast(a.data()), thrust::raw_pointer_cast(b.data()));
  return 0;
}
'''


def run(cmd, cwd=None, timeout=600, env=None, stdin=None):
    """(exit code, stdout, stderr) of cmd, an argument vector: no shell ever
    sees it. The exit code is None when cmd ran past timeout seconds (None:
    no limit), 127 when it could not be started (as a shell says of a
    missing program). Output that is not UTF-8 is kept, its bad bytes
    replaced."""
    started = time.monotonic()
    try:
        proc = subprocess.run(cmd, cwd=cwd, env=env, input=stdin, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, errors="replace",
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "", "timed out after %s s" % timeout
    except OSError as e:
        return 127, "", str(e)
    finally:
        note_command_time(cmd, time.monotonic() - started)
    return proc.returncode, proc.stdout, proc.stderr


def note_command_time(cmd, seconds):
    """With WARPCHECK_TEST_TIMES=FILE, each command's wall time is appended
    to FILE (seconds, the test script, the command): what keeping CI under
    its time budget starts from (`sort -rn FILE | head`)."""
    log = os.environ.get("WARPCHECK_TEST_TIMES")
    if not log:
        return
    with open(log, "a") as f:
        f.write("%.2f\t%s\t%s\n" % (seconds, os.path.basename(sys.argv[0]),
                                     " ".join(str(c) for c in cmd)[:300]))


def warpcheck_binary(build):
    """The warpcheck binary of a build folder."""
    return os.path.abspath(os.path.join(build, "bin", "warpcheck"))


def plugin_library(build):
    """The clang-tidy plugin of a build folder (clang-tidy -load)."""
    return os.path.abspath(os.path.join(build, "lib", "libwarpcheck.so"))


def door_arguments(*required):
    """The command line of a script that tests both front doors: --build
    (the build folder), the options named in required (each a required
    string) and --clang-tidy (the clang-tidy that loads the plugin). Returns
    (the parsed arguments, the warpcheck binary, the plugin library)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    for name in required:
        ap.add_argument(name, required=True)
    ap.add_argument("--clang-tidy", default="clang-tidy-19")
    args = ap.parse_args()
    return args, warpcheck_binary(args.build), plugin_library(args.build)


def print_toolkit(warpcheck, options=(), env=None):
    """What `warpcheck --print-toolkit` found (its JSON object, a dict), with
    options such as --no-cuda or --cuda-path=DIR. The scripts ask warpcheck
    instead of searching for the CUDA toolkit themselves, so that they and
    warpcheck always agree (docs/cuda-environment.md). None when warpcheck
    gave no JSON."""
    rc, out, err = run([warpcheck, "--print-toolkit"] + list(options), env=env, timeout=60)
    try:
        found = json.loads(out)
    except ValueError:
        return None
    return found if isinstance(found, dict) else None


def toolkit_nvcc(warpcheck, options=(), env=None):
    """The nvcc of the toolkit the warpcheck binary uses (and counts
    registers with), or None when it uses none or that toolkit has no nvcc."""
    found = print_toolkit(warpcheck, options, env)
    return found.get("nvcc") if found and found.get("found") else None


def plugin_nvcc(warpcheck, env=None):
    """The nvcc the clang-tidy plugin counts registers with (it takes no
    --cuda-path: the first of $CUDA_PATH, $CUDA_HOME, /usr/local/cuda that has
    one), or None."""
    found = print_toolkit(warpcheck, env=env)
    root = found.get("plugin_toolkit_root") if found else None
    return os.path.join(root, "bin", "nvcc") if root else None


@contextlib.contextmanager
def scratch_dir(prefix="warpcheck-test-"):
    """A fresh folder, removed with everything in it when the block ends."""
    path = tempfile.mkdtemp(prefix=prefix)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


class Results:
    """PASS/FAIL lines of a script with many named cases, and its exit code."""

    def __init__(self):
        self.cases = []

    def check(self, name, condition, detail=""):
        self.cases.append((name, bool(condition), detail))
        print(("PASS " if condition else "FAIL ") + name +
              (": " + detail if detail and not condition else ""))
        return bool(condition)

    def summary(self):
        """Prints the counts; 0 when every case passed, else 1."""
        failed = sum(1 for _, ok, _ in self.cases if not ok)
        print("%d passed, %d failed" % (len(self.cases) - failed, failed))
        return 1 if failed else 0


# A unit with one finding, for tests that need a good input beside a bad
# one: a load 32 sectors per request at 3:12 ("in[i * 32]").
STRIDED_UNIT = """\
__global__ void strided(const float *in, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = in[i * 32];
}
int main() { strided<<<4, 128>>>(nullptr, nullptr); }
"""


def toolkit_with_fake_nvcc(real, root):
    """A toolkit folder at root whose headers, NVVM and version are the real
    toolkit's (symbolic links) and whose bin/ is empty, for a test to put a
    fake nvcc in: warpcheck locates it as a toolkit and starts that nvcc."""
    os.makedirs(os.path.join(root, "bin"))
    for entry in ("include", "nvvm", "version.json", "lib64"):
        if os.path.exists(os.path.join(real, entry)):
            os.symlink(os.path.join(real, entry), os.path.join(root, entry))
    return root


def write_in(folder, name, text):
    """Writes text to folder/name; returns the path."""
    path = os.path.join(folder, name)
    with open(path, "w", newline="") as f:
        f.write(text)
    return path


def json_or_empty(out):
    """A JSON report's text as an object; {} when it is not a JSON object."""
    try:
        doc = json.loads(out)
        return doc if isinstance(doc, dict) else {}
    except ValueError:
        return {}
