#!/usr/bin/env python3
"""Runs one test input through one front door and FileCheck.

The expected diagnostics are written inline in clang-tidy's style:
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: ... [cuda-...]
Both doors must print them: the clang-tidy plugin loaded into clang-tidy-19
(--door plugin) and the warpcheck binary (--door binary). Every warning or
error printed must be matched (FileCheck -implicit-check-not).
"""
import argparse
import os
import subprocess
import sys
import tempfile


def run(cmd, cwd):
    # Arguments are passed as a vector: no shell ever sees them.
    proc = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True, timeout=600)
    return proc.returncode, proc.stdout, proc.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--door", choices=["plugin", "binary"], required=True)
    ap.add_argument("--input", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--clang-tidy", default="clang-tidy-19")
    ap.add_argument("--filecheck", default="FileCheck-19")
    ap.add_argument("--extra", action="append", default=[],
                    help="extra warpcheck option (binary) / clang-tidy option (plugin)")
    args = ap.parse_args()

    src = os.path.abspath(args.input)
    cwd = os.path.dirname(src)
    name = os.path.basename(src)
    warpcheck = os.path.abspath(os.path.join(args.build, "bin", "warpcheck"))
    if args.door == "binary":
        rc, out, err = run([warpcheck, name] + args.extra, cwd)
        if rc not in (0, 1):
            sys.stderr.write("warpcheck exited with %d\n%s%s" % (rc, out, err))
            return 1
    else:
        rc, clang_args, err = run([warpcheck, "--print-clang-args", name], cwd)
        if rc != 0:
            sys.stderr.write("warpcheck --print-clang-args failed:\n" + err)
            return 1
        plugin = os.path.abspath(os.path.join(args.build, "lib", "libwarpcheck.so"))
        cmd = [args.clang_tidy, "-load", plugin, "-checks=-*,cuda-*",
               "--quiet"] + args.extra + [name, "--"] + clang_args.split("\n")
        cmd = [c for c in cmd if c != ""]
        rc, out, err = run(cmd, cwd)
        if rc != 0 or "error:" in err and "clang-diagnostic-error" in err:
            sys.stderr.write("clang-tidy failed (%d):\n%s%s" % (rc, out, err))
            return 1
    with tempfile.NamedTemporaryFile("w", suffix=".out", delete=False) as f:
        f.write(out)
        out_path = f.name
    try:
        rc, fc_out, fc_err = run([args.filecheck, src, "--input-file=" + out_path,
                                  "--check-prefix=CHECK-MESSAGES",
                                  "--implicit-check-not={{warning|error}}:"], cwd)
    finally:
        os.unlink(out_path)
    if rc != 0:
        sys.stderr.write("FileCheck failed for the %s door:\n%s%s\n--- output ---\n%s"
                         % (args.door, fc_out, fc_err, out))
        return 1
    print("%s: %s door matches its CHECK-MESSAGES" % (name, args.door))
    return 0


if __name__ == "__main__":
    sys.exit(main())
