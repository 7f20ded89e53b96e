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
