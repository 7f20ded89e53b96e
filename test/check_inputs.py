#!/usr/bin/env python3
"""Runs one test input through one front door and FileCheck.

The expected diagnostics are written inline in clang-tidy's style:
    // CHECK-MESSAGES: :[[@LINE-1]]:12: warning: ... [cuda-...]
Both doors must print them: the clang-tidy plugin loaded into clang-tidy-19
(--door plugin) and the warpcheck binary (--door binary). Every warning or
error printed must be matched (FileCheck -implicit-check-not). Messages that
carry a register count are written twice: CHECK-PTXAS (ptxas's count, where
a CUDA toolkit is found) and CHECK-ESTIMATE (the estimate, where none is).
"""
import argparse
import os
import sys
import tempfile

from testsupport import plugin_nvcc, run, toolkit_nvcc


def registers_from_ptxas(door, warpcheck, extra):
    """Whether the door's cuda-occupancy counts registers with ptxas (a
    toolkit with nvcc is there) or estimates them: CHECK-PTXAS or
    CHECK-ESTIMATE lines apply. warpcheck says which toolkit each door uses
    (--print-toolkit): the binary the one it parses with (none with
    --no-cuda), the plugin the first of $CUDA_PATH, $CUDA_HOME and
    /usr/local/cuda with an nvcc (analysis/RegisterUsage.h)."""
    if door == "binary":
        return toolkit_nvcc(warpcheck, [a for a in extra if a == "--no-cuda"]) is not None
    return plugin_nvcc(warpcheck) is not None


def directives(text, name):
    """The values of `// <name>: ...` lines."""
    out = []
    for line in text.splitlines():
        at = line.find("// " + name + ":")
        if at >= 0:
            out.append(line[at + len(name) + 4:].strip())
    return out


def without_compiler_errors(out):
    """clang-tidy's output without the compiler's errors and their notes."""
    kept, in_error = [], False
    for line in out.splitlines(True):
        if ": error: " in line and "[clang-diagnostic-error]" in line:
            in_error = True
            continue
        if in_error and (": note: " in line or not (": warning: " in line or ": error: " in line)):
            continue
        in_error = False
        kept.append(line)
    return "".join(kept)


def check_status(warpcheck, name, cwd, extra, status, kernel_errors):
    """The binary door's JSON: the input's status and the kernels with errors."""
    import json
    rc, out, err = run([warpcheck, "--format=json", name] + extra, cwd)
    if rc != 3:
        return "expected exit code 3 for an input with errors, got %d\n%s" % (rc, err)
    doc = json.loads(out)
    statuses = [i["status"] for i in doc["inputs"]]
    if statuses != [status]:
        return "input status %s, expected %s" % (statuses, status)
    for spec in kernel_errors:
        kname, text = [x.strip() for x in spec.split("|", 1)]
        found = [k for k in doc["kernels"] if k["name"].split("<")[0] == kname]
        if not found or any(k["status"] != "error" or
                            not any(text in l for l in k["limitations"]) for k in found):
            return "kernel %s: expected status error with '%s', got %s" % (kname, text, found)
    return ""


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
    rc, printed_args, err = run([warpcheck, "--print-clang-args"] +
                                [a for a in args.extra if a == "--no-cuda"] + [name], cwd)
    register_prefix = ("CHECK-PTXAS" if registers_from_ptxas(args.door, warpcheck, args.extra)
                       else "CHECK-ESTIMATE")
    text = open(src).read()
    status = directives(text, "CHECK-STATUS")
    kernel_errors = directives(text, "CHECK-KERNEL-ERROR")
    if args.door == "binary":
        rc, out, err = run([warpcheck, name] + args.extra, cwd)
        if status:
            why = check_status(warpcheck, name, cwd, args.extra, status[0], kernel_errors)
            if why:
                sys.stderr.write(why + "\n")
                return 1
        elif rc not in (0, 1):
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
        if status:
            out = without_compiler_errors(out)
        elif rc != 0 or "error:" in err and "clang-diagnostic-error" in err:
            sys.stderr.write("clang-tidy failed (%d):\n%s%s" % (rc, out, err))
            return 1
    with tempfile.NamedTemporaryFile("w", suffix=".out", delete=False) as f:
        f.write(out)
        out_path = f.name
    try:
        rc, fc_out, fc_err = run([args.filecheck, src, "--input-file=" + out_path,
                                  "--check-prefixes=CHECK-MESSAGES," + register_prefix,
                                  "--allow-unused-prefixes",
                                  "--implicit-check-not={{warning|error}}:"], cwd)
    finally:
        os.unlink(out_path)
    if rc != 0:
        sys.stderr.write("FileCheck failed for the %s door:\n%s%s\n--- output ---\n%s"
                         % (args.door, fc_out, fc_err, out))
        return 1
    if "CHECK-FIXES" in text:
        rc = check_fixes(args, src, name, cwd, warpcheck)
        if rc:
            return rc
    print("%s: %s door matches its CHECK-MESSAGES (and %s)%s" % (
        name, args.door, register_prefix, " and CHECK-FIXES" if "CHECK-FIXES" in text else ""))
    return 0


def check_fixes(args, src, name, cwd, warpcheck):
    """Applies the door's fix-its to a copy of the input and of its own
    headers (the files beside it named <input stem>*.cuh), then: CHECK-FIXES
    must match in each file that has them, the fixed input must parse
    (clang -fsyntax-only with warpcheck's arguments) and, where a toolkit is
    there, compile with nvcc, and re-analysing it must offer no fix-it."""
    import json
    import shutil
    tmp = tempfile.mkdtemp(prefix="warpcheck-fix-")
    try:
        stem = os.path.splitext(name)[0]
        files = [name] + sorted(f for f in os.listdir(cwd)
                                if f.startswith(stem) and f.endswith(".cuh"))
        for f in files:
            shutil.copy(os.path.join(cwd, f), os.path.join(tmp, f))
        rc, clang_args, err = run([warpcheck, "--print-clang-args", name], cwd)
        clang_args = [a for a in clang_args.split("\n") if a]
        if args.door == "plugin":
            plugin = os.path.abspath(os.path.join(args.build, "lib", "libwarpcheck.so"))
            rc, out, err = run([args.clang_tidy, "-load", plugin, "-checks=-*,cuda-*", "-fix",
                                "--quiet", name, "--"] + clang_args, tmp)
        else:
            rc, out, err = run([warpcheck, "--format=json", name], tmp)
            doc = json.loads(out)
            edits = {}
            for f in doc["findings"]:
                for fx in f.get("fixes", []):
                    target = os.path.join(tmp, os.path.basename(fx["file"]))
                    edits.setdefault(target, []).append(
                        (fx["offset"], fx["length"], fx["replacement"]))
            for target, list_ in edits.items():
                data = open(target, "rb").read()
                for off, length, rep in sorted(list_, reverse=True):
                    data = data[:off] + rep.encode() + data[off + length:]
                open(target, "wb").write(data)
        changed = False
        for f in files:
            before = open(os.path.join(cwd, f)).read()
            after = open(os.path.join(tmp, f)).read()
            changed |= before != after
            if "CHECK-FIXES" not in before:
                continue
            rc, fc_out, fc_err = run([args.filecheck, os.path.join(cwd, f),
                                      "--input-file=" + os.path.join(tmp, f),
                                      "--check-prefix=CHECK-FIXES"], cwd)
            if rc != 0:
                sys.stderr.write("CHECK-FIXES failed for the %s door in %s:\n%s%s"
                                 % (args.door, f, fc_out, fc_err))
                return 1
        if not changed:
            sys.stderr.write("no fix-it was applied by the %s door\n" % args.door)
            return 1
        rc, out, err = run(["clang++-19", "-fsyntax-only"] + clang_args + [name], tmp)
        if rc != 0:
            sys.stderr.write("the fixed file does not parse:\n" + err)
            return 1
        nvcc = plugin_nvcc(warpcheck)
        if nvcc:
            rc, out, err = run([nvcc, "-arch=sm_90", "-c", name,
                                "-o", os.path.join(tmp, "fixed.o")], tmp)
            if rc != 0:
                sys.stderr.write("the fixed file does not compile with nvcc:\n" + out + err)
                return 1
        rc, out, err = run([warpcheck, "--format=json", name], tmp)
        doc = json.loads(out)
        fixes_left = [f for f in doc["findings"] if f.get("fixes")]
        if fixes_left:
            sys.stderr.write("re-analysing the fixed file still offers fixes: %s\n" % fixes_left)
            return 1
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
