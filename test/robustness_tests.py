#!/usr/bin/env python3
"""Robustness inputs: reduced from real-world CUDA that crashed, hung or
silently mis-analysed warpcheck (test/inputs/robustness/*.cu).

Every file is analysed with `warpcheck --format=json`, with the CUDA toolkit
and with the bundled declarations (--no-cuda; skipped for files marked
`// ROBUSTNESS: toolkit-only`, and the toolkit run is skipped where no
toolkit is installed). Each run must exit with 0, list no errors, and report
at least one kernel with at least one access. A file may state more, one
line each:

    // EXPECT-ACCESS: <expression> | <op> | <space> [| key=value ...]
        some access with that expression, op and space has these values
        (status, bytes_per_lane, sectors_per_request, wavefronts_per_request,
        ...; numbers within 0.001)
    // EXPECT-ASSUMPTION: <expression> | <text>
        one of the assumptions of an access with that expression contains text
    // EXPECT-KERNEL: <name> | <key><op><value>
        every launch of that kernel satisfies it: op is =, <, <=, > or >= for
        numbers (simulated_warps, total_warps); launch=<description>;
        limitation=<text> (one of its limitations contains text)
    // EXPECT-NO-KERNEL: <name>
        no launch of that kernel is reported
    // EXPECT-NO-WARNING-IN: <file name>
        (files marked `// ROBUSTNESS: plugin-system-headers`) clang-tidy with
        the plugin, --system-headers and --header-filter=.* prints no warning
        in that file

Finally all files are analysed in one run (-j2, one worker process per
file), which must report the same kernels as the runs one by one.

Prints one line per check and 'N passed, M failed'.
"""
import json
import os
import re
import sys

from testsupport import Results, door_arguments, run


def close(a, b):
    try:
        return abs(float(a) - float(b)) <= 1e-3
    except (TypeError, ValueError):
        return str(a) == str(b)


def kernel_matches(kernel, name):
    full = kernel["name"]
    return full == name or full.split("<")[0] == name or full.split("::")[-1] == name


def check_kernel_condition(kernel, cond):
    m = re.match(r"^(\w+)\s*(<=|>=|=|<|>)\s*(.*)$", cond)
    if not m:
        return False, "malformed condition %r" % cond
    key, op, value = m.groups()
    if key == "limitation":
        ok = any(value in l for l in kernel.get("limitations", []))
        return ok, "limitations %s" % kernel.get("limitations")
    if key == "launch":
        desc = kernel["launch"]["description"]
        return desc == value, "launch %r" % desc
    actual = kernel.get(key)
    if actual is None:
        return False, "no field %r" % key
    v = float(value)
    ok = {"=": actual == v, "<": actual < v, "<=": actual <= v,
          ">": actual > v, ">=": actual >= v}[op]
    return ok, "%s = %s" % (key, actual)


def check_file(path, mode_args, warpcheck, report):
    name = os.path.basename(path)
    tag = "%s%s" % (name, " " + " ".join(mode_args) if mode_args else "")
    rc, out, err = run([warpcheck, "--format=json"] + mode_args + [name],
                       os.path.dirname(path))
    if rc is None:
        report(False, "%s: %s" % (tag, err))
        return None
    try:
        doc = json.loads(out)
    except ValueError:
        report(False, "%s: exit %s, no JSON report: %s" % (tag, rc, err[-1500:]))
        return None
    ok = rc == 0 and not doc.get("errors")
    report(ok, "%s: exit code %s, %d error(s)%s" % (
        tag, rc, len(doc.get("errors", [])),
        "" if ok else ": " + json.dumps(doc.get("errors"))[:1500] + err[-500:]))
    kernels = doc.get("kernels", [])
    with_access = [k for k in kernels if k.get("accesses")]
    report(bool(with_access), "%s: %d kernel launch(es), %d with accesses" % (
        tag, len(kernels), len(with_access)))
    accesses = [a for k in kernels for a in k.get("accesses", [])]

    for line in open(path):
        m = re.match(r"^\s*//\s*EXPECT-(ACCESS|ASSUMPTION|KERNEL|NO-KERNEL):\s*(.*?)\s*$",
                     line)
        if not m:
            continue
        kind, spec = m.groups()
        parts = [p.strip() for p in spec.split("|")]
        if kind == "ACCESS":
            expr, op, space = parts[0], parts[1], parts[2]
            wanted = {}
            for kv in parts[3:]:
                k, _, v = kv.partition("=")
                wanted[k.strip()] = v.strip()
            candidates = [a for a in accesses if a["expression"] == expr and
                          a["op"] == op and a["space"] == space]
            good = [a for a in candidates
                    if all(close(a.get(k), v) for k, v in wanted.items())]
            seen = "; ".join("%s %s %s" % (a["status"], a.get("sectors_per_request"),
                                           a.get("wavefronts_per_request"))
                             for a in candidates) or "no such access"
            report(bool(good), "%s: access %r %s %s %s (found: %s)" % (
                tag, expr, op, space, " ".join(parts[3:]), seen))
        elif kind == "NO-KERNEL":
            matching = [k["name"] for k in kernels if kernel_matches(k, parts[0])]
            report(not matching, "%s: kernel %r not reported (found: %s)" % (
                tag, parts[0], matching))
        elif kind == "ASSUMPTION":
            expr, text = parts[0], parts[1]
            good = [a for a in accesses if a["expression"] == expr and
                    any(text in s for s in a.get("assumptions", []))]
            report(bool(good), "%s: assumption of %r contains %r" % (tag, expr, text))
        else:
            kname, cond = parts[0], parts[1]
            matching = [k for k in kernels if kernel_matches(k, kname)]
            if not matching:
                report(False, "%s: kernel %r: not reported" % (tag, kname))
                continue
            results = [check_kernel_condition(k, cond) for k in matching]
            report(all(r[0] for r in results), "%s: kernel %r: %s (%s)" % (
                tag, kname, cond, ", ".join(r[1] for r in results)))
    return kernels


def check_plugin(path, warpcheck, plugin, clang_tidy, report):
    """clang-tidy with the plugin and --system-headers: no warning in the
    files named by EXPECT-NO-WARNING-IN lines."""
    name = os.path.basename(path)
    cwd = os.path.dirname(path)
    rc, clang_args, err = run([warpcheck, "--print-clang-args", name], cwd)
    if rc != 0:
        report(False, "%s: warpcheck --print-clang-args failed: %s" % (name, err[-500:]))
        return
    rc, out, err = run([clang_tidy, "-load", plugin, "-checks=-*,cuda-*", "--system-headers",
                        "--header-filter=.*",
                        "--quiet", name, "--"] + [a for a in clang_args.split("\n") if a], cwd)
    report(rc == 0, "%s: clang-tidy with the plugin and --system-headers: exit code %s%s" % (
        name, rc, "" if rc == 0 else ": " + (out + err)[-1500:]))
    for line in open(path):
        m = re.match(r"^\s*//\s*EXPECT-NO-WARNING-IN:\s*(.*?)\s*$", line)
        if not m:
            continue
        bad = [l for l in out.splitlines() if "warning:" in l and
               os.path.basename(l.split(":")[0]) == m.group(1)]
        report(not bad, "%s (plugin): no warning in %s%s" % (
            name, m.group(1), "" if not bad else ": " + "; ".join(bad)[:1500]))


def main():
    args, warpcheck, plugin = door_arguments("--inputs")
    inputs = os.path.abspath(args.inputs)
    results = Results()

    def report(ok, text):
        results.check(text, ok)

    files = sorted(os.path.join(inputs, f) for f in os.listdir(inputs) if f.endswith(".cu"))
    if not files:
        report(False, "no .cu file in %s" % inputs)
    rc, clang_args, _ = run([warpcheck, "--print-clang-args", os.path.basename(files[0])],
                            inputs) if files else (1, "", "")
    have_toolkit = rc == 0 and "-nocudainc" not in clang_args.split("\n")
    if not have_toolkit:
        print("NOTE no CUDA toolkit found: toolkit runs are skipped")

    single_kernels = {}
    for path in files:
        toolkit_only = "// ROBUSTNESS: toolkit-only" in open(path).read()
        if have_toolkit:
            kernels = check_file(path, [], warpcheck, report)
            if kernels is not None:
                single_kernels[os.path.basename(path)] = len(kernels)
        else:
            print("SKIP %s (no CUDA toolkit)" % os.path.basename(path))
        if toolkit_only:
            print("SKIP %s --no-cuda (toolkit-only)" % os.path.basename(path))
        else:
            check_file(path, ["--no-cuda"], warpcheck, report)
        if "// ROBUSTNESS: plugin-system-headers" in open(path).read():
            check_plugin(path, warpcheck, plugin, args.clang_tidy, report)

    # All at once: one worker process per file, in parallel.
    if have_toolkit and files:
        names = [os.path.basename(p) for p in files]
        rc, out, err = run([warpcheck, "--format=json", "-j2"] + names, inputs)
        try:
            doc = json.loads(out)
            count = len(doc.get("kernels", []))
            ok = rc == 0 and not doc.get("errors") and count == sum(single_kernels.values())
            report(ok, "all %d files in one run (-j2): exit code %s, %d error(s), %d kernel "
                   "launches (one by one: %d)" % (len(names), rc, len(doc.get("errors", [])),
                                                  count, sum(single_kernels.values())))
        except ValueError:
            report(False, "all files in one run: exit %s, no JSON report: %s" % (rc, err[-1500:]))

    return results.summary()


if __name__ == "__main__":
    sys.exit(main())
