"""What warpcheck's test and bench scripts share: running a command (an
argument vector, never through a shell), where a build keeps its binaries,
the CUDA toolkit the tests may use, scratch folders, and PASS/FAIL
bookkeeping."""
import contextlib
import os
import shutil
import subprocess
import tempfile


def run(cmd, cwd=None, timeout=600, env=None, stdin=None):
    """(exit code, stdout, stderr) of cmd, an argument vector: no shell ever
    sees it. The exit code is None when cmd ran past timeout seconds (None:
    no limit), 127 when it could not be started (as a shell says of a
    missing program). Output that is not UTF-8 is kept, its bad bytes
    replaced."""
    try:
        proc = subprocess.run(cmd, cwd=cwd, env=env, input=stdin, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, errors="replace",
                              timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "", "timed out after %s s" % timeout
    except OSError as e:
        return 127, "", str(e)
    return proc.returncode, proc.stdout, proc.stderr


def warpcheck_binary(build):
    """The warpcheck binary of a build folder."""
    return os.path.abspath(os.path.join(build, "bin", "warpcheck"))


def plugin_library(build):
    """The clang-tidy plugin of a build folder (clang-tidy -load)."""
    return os.path.abspath(os.path.join(build, "lib", "libwarpcheck.so"))


def nvcc_root(root):
    """root when it holds an executable bin/nvcc (a toolkit ptxas can run from)."""
    if root and os.access(os.path.join(root, "bin", "nvcc"), os.X_OK):
        return root
    return None


def toolkit_root(env=None):
    """The CUDA toolkit the plugin would find, or None: $CUDA_PATH, then
    $CUDA_HOME, then /usr/local/cuda (analysis/registers/Guards.cpp)."""
    env = os.environ if env is None else env
    for root in (env.get("CUDA_PATH"), env.get("CUDA_HOME"), "/usr/local/cuda"):
        if nvcc_root(root):
            return root
    return None


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
