"""What warpcheck's test scripts share."""
import subprocess


def run(cmd, cwd=None, timeout=600, env=None):
    """(exit code, stdout, stderr) of cmd, an argument vector: no shell ever
    sees it. The exit code is None when cmd ran past timeout seconds."""
    try:
        proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "", "timed out after %d s" % timeout
    return proc.returncode, proc.stdout, proc.stderr


def print_toolkit(warpcheck, options=(), env=None):
    """What `warpcheck --print-toolkit` found (its JSON object, a dict), with
    options such as --no-cuda or --cuda-path=DIR. The scripts ask warpcheck
    instead of searching for the CUDA toolkit themselves, so that they and
    warpcheck always agree (docs/cuda-environment.md). None when warpcheck
    gave no JSON."""
    import json
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
    import os
    found = print_toolkit(warpcheck, env=env)
    root = found.get("plugin_toolkit_root") if found else None
    return os.path.join(root, "bin", "nvcc") if root else None
