#!/usr/bin/env python3
"""Runs one test input through warpcheck's front doors and FileCheck: the
%check_warpcheck of a test input's RUN lines (test/lit.cfg.py).

    // RUN: %check_warpcheck [options] %s <checks> %t [-- <warpcheck options> [-- <clang args>]]

with the semantics of clang-tidy's own check_clang_tidy.py
(clang-tools-extra/test/clang-tidy/), for both doors: the clang-tidy plugin
loaded into clang-tidy-19 and the warpcheck binary (-door= picks one).

  CHECK-MESSAGES[-SUFFIX]  the warnings printed (notes may be matched too);
                           every warning or error must be matched
  CHECK-NOTES[-SUFFIX]     the same, notes included: every note must be
                           matched (not both in one suffix)
  CHECK-FIXES[-SUFFIX]     the input (and its own headers, <stem>*.cuh) after
                           the door's fix-its are applied, line by line
  none of these            no diagnostic at all may be printed
  -check-suffix(es)=A,B    use the prefixes CHECK-MESSAGES-A, ... instead

and warpcheck's own directives:

  CHECK-PTXAS / CHECK-ESTIMATE[-SUFFIX]  messages carrying a register count,
      written twice: ptxas's count (where a CUDA toolkit is found) and the
      estimate (where none is); the ones that apply join the messages
  CHECK-LISTING / CHECK-SOURCE[-SUFFIX]   messages whose numbers depend on
      whether the compiled kernel's memory instructions are read (a toolkit
      with nvdisasm is found: docs/hardware-model.md, "What the compiler
      changes") or the accesses are costed as written; the ones that apply
      join the messages
  CHECK-STATUS[-SUFFIX]: <status>         the input has errors on purpose:
      the binary must exit with 3 and its JSON give the input this status
      (the compiler's errors are then left out of the messages)
  CHECK-KERNEL-ERROR[-SUFFIX]: <kernel> | <text>  a kernel the binary reports
      with status error and a limitation containing <text>

Options between the first and the second -- are warpcheck's (--no-cuda,
--cuda-path=...): the binary gets them all; the plugin door, which has no
command line of its own, takes those that choose its clang arguments
(--no-cuda, --cuda-path, --arch; through warpcheck --print-clang-args) and
the check options (--config=<check>.<Option>=<value>, as clang-tidy's
CheckOptions). --fix-notes makes CHECK-FIXES apply the fix-its of notes
too, as check_clang_tidy.py's `-- --fix-notes` does: the plugin door runs
clang-tidy with -fix --fix-notes, the binary door warpcheck --fix
--fix-notes (without it, the binary door applies the fix-its its JSON gives
the findings).
Clang arguments after the second -- go to both doors.

As check_clang_tidy.py does, the input is analysed as a copy in the test's
temporary folder (%t, one sub-folder per door) with the text of its CHECK
lines removed (a diagnostic's source excerpt must not match its own CHECK
line); line numbers are kept. Nothing here goes through a shell: every
command is an argument vector (testsupport.run).
"""
import argparse
import json
import os
import re
import shutil
import sys

from testsupport import plugin_library, plugin_nvcc, run, toolkit_nvcc, warpcheck_binary

# The warpcheck options that choose clang arguments, which the plugin door
# passes to warpcheck --print-clang-args.
CLANG_ARG_OPTIONS = ("--no-cuda", "--cuda-path", "--arch")
# Chooses which fix-its CHECK-FIXES applies, in both doors.
FIX_NOTES = "--fix-notes"
CHECK_LINE = re.compile(r"// *CHECK-[A-Z0-9\-]*:[^\r\n]*")


def fail(why):
    sys.stderr.write(why.rstrip("\n") + "\n")
    sys.exit(1)


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


def diagnostic_lines(out):
    return [l for l in out.splitlines() if re.search(r": (warning|error|note): ", l)]


class Expectations:
    """Which FileCheck prefixes the input uses, per check suffix, with
    check_clang_tidy.py's rules."""

    def __init__(self, text, suffixes, registers_from_ptxas, listing_read):
        self.messages, self.notes, self.fixes = [], [], []
        self.registers = []
        self.statuses, self.kernel_errors = [], []
        self.no_diagnostics = False
        register_label = "CHECK-PTXAS" if registers_from_ptxas else "CHECK-ESTIMATE"
        instruction_label = "CHECK-LISTING" if listing_read else "CHECK-SOURCE"
        any_registers = False
        for suffix in suffixes:
            if suffix and not re.match(r"^[A-Z0-9\-]+$", suffix):
                fail('only A..Z, 0..9 and "-" are allowed in check suffixes, but "%s" was given'
                     % suffix)
            tail = "-" + suffix if suffix else ""
            found = {label: (label + tail + ":") in text
                     for label in ("CHECK-MESSAGES", "CHECK-NOTES", "CHECK-FIXES",
                                   "CHECK-PTXAS", "CHECK-ESTIMATE", "CHECK-LISTING",
                                   "CHECK-SOURCE")}
            if found["CHECK-MESSAGES"] and found["CHECK-NOTES"]:
                fail("use either CHECK-MESSAGES%s or CHECK-NOTES%s but not both" % (tail, tail))
            for label, into in (("CHECK-MESSAGES", self.messages), ("CHECK-NOTES", self.notes),
                                ("CHECK-FIXES", self.fixes)):
                if found[label]:
                    into.append(label + tail)
            if found["CHECK-PTXAS"] or found["CHECK-ESTIMATE"]:
                any_registers = True
                self.registers.append(register_label + tail)
            if found["CHECK-LISTING"] or found["CHECK-SOURCE"]:
                any_registers = True
                self.registers.append(instruction_label + tail)
            if not any(found.values()):
                self.no_diagnostics = True
            self.statuses += directives(text, "CHECK-STATUS" + tail)
            self.kernel_errors += directives(text, "CHECK-KERNEL-ERROR" + tail)
        if self.no_diagnostics and (self.messages or self.notes or self.fixes or any_registers):
            fail("CHECK-FIXES, CHECK-MESSAGES or CHECK-NOTES not found in the input for every "
                 "suffix of %s" % ",".join(suffixes))


class Door:
    """One front door's run over a copy of the input."""

    def __init__(self, name, args, warpcheck_options, clang_args):
        self.name = name
        self.args = args
        self.warpcheck = warpcheck_binary(args.build)
        self.plugin = plugin_library(args.build)
        self.fix_notes = FIX_NOTES in warpcheck_options
        self.warpcheck_options = [o for o in warpcheck_options if o != FIX_NOTES]
        self.clang_args = clang_args
        if name == "plugin":
            for o in self.warpcheck_options:
                if not o.startswith(CLANG_ARG_OPTIONS + ("--config=",)):
                    fail("the plugin door takes no warpcheck option '%s' (only %s and --config); "
                         "give -door=binary" % (o, ", ".join(CLANG_ARG_OPTIONS)))

    def printed_clang_args(self, cwd, file_name):
        """warpcheck's clang arguments for the file (what the plugin door
        gives clang-tidy after --), the RUN line's clang arguments last."""
        rc, out, err = run([self.warpcheck, "--print-clang-args"] + self.warpcheck_options +
                           [file_name], cwd)
        if rc != 0:
            fail("warpcheck --print-clang-args failed (%s):\n%s" % (rc, err))
        return [a for a in out.split("\n") if a] + self.clang_args

    def registers_from_ptxas(self, cwd, file_name):
        """Whether cuda-occupancy counts registers with ptxas (a toolkit with
        nvcc is there) or estimates them: CHECK-PTXAS or CHECK-ESTIMATE lines
        apply. warpcheck says which toolkit each door uses (--print-toolkit):
        the binary the one it parses with (none with --no-cuda), the plugin
        the first of $CUDA_PATH, $CUDA_HOME and /usr/local/cuda with an nvcc
        (analysis/RegisterUsage.h)."""
        if self.name == "plugin":
            return plugin_nvcc(self.warpcheck) is not None
        options = [a for a in self.warpcheck_options if a == "--no-cuda"]
        return toolkit_nvcc(self.warpcheck, options) is not None

    def listing_read(self, cwd, file_name):
        """Whether the memory instructions are read from the compiled kernel:
        the toolkit whose nvcc counts the registers (registers_from_ptxas)
        also has bin/nvdisasm."""
        if self.name == "plugin":
            nvcc = plugin_nvcc(self.warpcheck)
        else:
            options = [a for a in self.warpcheck_options if a == "--no-cuda"]
            nvcc = toolkit_nvcc(self.warpcheck, options)
        if not nvcc:
            return False
        nvdisasm = os.path.join(os.path.dirname(nvcc), "nvdisasm")
        return os.path.isfile(nvdisasm) and os.access(nvdisasm, os.X_OK)

    def check_options_config(self):
        """The binary's --config=<check>.<Option>=<value> options as the
        plugin door's clang-tidy --config (CheckOptions), so that both doors
        run the checks with the same options."""
        options = {}
        for a in self.warpcheck_options:
            m = re.match(r"--config=([^=]+)=(.*)$", a)
            if m:
                options[m.group(1)] = m.group(2)
        return json.dumps({"CheckOptions": options}) if options else "{}"

    def diagnose(self, cwd, file_name, checks, expect_errors, fix=False):
        """The door's diagnostics, as text clang-tidy prints them."""
        if self.name == "plugin":
            cmd = ([self.args.clang_tidy, "-load", self.plugin, "--checks=-*," + checks,
                    "--config=" + self.check_options_config(), "--quiet"] +
                   (["-fix"] if fix else []) + (["--fix-notes"] if fix and self.fix_notes else []) +
                   [file_name, "--"] + self.printed_clang_args(cwd, file_name))
            rc, out, err = run(cmd, cwd)
            if expect_errors:
                return without_compiler_errors(out)
            if rc != 0 or "error:" in err and "clang-diagnostic-error" in err:
                fail("clang-tidy failed (%s):\n%s%s" % (rc, out, err))
            return out
        cmd = ([self.warpcheck, "--checks=" + checks] + self.warpcheck_options + [file_name] +
               (["--"] + self.clang_args if self.clang_args else []))
        rc, out, err = run(cmd, cwd)
        if not expect_errors and rc not in (0, 1):
            fail("warpcheck exited with %s\n%s%s" % (rc, out, err))
        return out

    def report(self, cwd, file_name, checks):
        """The binary's JSON report of the file, and its exit code."""
        cmd = ([self.warpcheck, "--format=json", "--checks=" + checks] + self.warpcheck_options +
               [file_name] + (["--"] + self.clang_args if self.clang_args else []))
        rc, out, err = run(cmd, cwd)
        try:
            return rc, json.loads(out)
        except ValueError:
            fail("warpcheck --format=json exited with %s and no JSON:\n%s%s" % (rc, out, err))

    def apply_fixes(self, cwd, file_name, checks):
        """Applies the door's fix-its to the files in cwd."""
        if self.name == "plugin":
            self.diagnose(cwd, file_name, checks, False, fix=True)
            return
        if self.fix_notes:
            cmd = ([self.warpcheck, "--checks=" + checks, "--fix", FIX_NOTES] +
                   self.warpcheck_options + [file_name] +
                   (["--"] + self.clang_args if self.clang_args else []))
            rc, out, err = run(cmd, cwd)
            if rc not in (0, 1):
                fail("warpcheck --fix --fix-notes exited with %s\n%s%s" % (rc, out, err))
            return
        rc, doc = self.report(cwd, file_name, checks)
        edits = {}
        for f in doc["findings"]:
            for fx in f.get("fixes", []):
                target = os.path.join(cwd, os.path.basename(fx["file"]))
                edits.setdefault(target, []).append((fx["offset"], fx["length"], fx["replacement"]))
        for target, list_ in edits.items():
            with open(target, "rb") as f:
                data = f.read()
            for off, length, rep in sorted(list_, reverse=True):
                data = data[:off] + rep.encode() + data[off + length:]
            with open(target, "wb") as f:
                f.write(data)


def copy_input(src, files, dest):
    """Copies the input and its own headers into dest with their CHECK lines
    emptied (line numbers kept); returns the copies' texts."""
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)
    folder = os.path.dirname(src)
    texts = {}
    for f in files:
        with open(os.path.join(folder, f)) as fh:
            text = CHECK_LINE.sub("//", fh.read())
        with open(os.path.join(dest, f), "w") as fh:
            fh.write(text)
        texts[f] = text
    return texts


def filecheck(args, check_file, input_text, out_path, prefixes, extra):
    with open(out_path, "w") as f:
        f.write(input_text)
    rc, out, err = run([args.filecheck, check_file, "--input-file=" + out_path,
                        "--check-prefixes=" + ",".join(prefixes)] + extra)
    return rc == 0, out + err


def work_folder(args):
    """The one folder both doors analyse the input in, one after the other
    (copy_input makes it afresh each time): the same path and contents give
    the same ptxas cache key (analysis/registers/PtxasCache.cpp), so nvcc
    compiles the input once per test, not once per door and step."""
    return os.path.join(args.temp, "work")


def check_door(door, args, src, files, text):
    name = os.path.basename(src)
    work = work_folder(args)
    copy_input(src, files, work)
    exp = Expectations(text, args.check_suffix, door.registers_from_ptxas(work, name),
                       door.listing_read(work, name))
    expect_errors = bool(exp.statuses)
    if expect_errors and door.name == "binary":
        rc, doc = door.report(work, name, args.check_name)
        if rc != 3:
            fail("expected exit code 3 for an input with errors, got %s" % rc)
        statuses = [i["status"] for i in doc["inputs"]]
        if statuses != exp.statuses[:1]:
            fail("input status %s, expected %s" % (statuses, exp.statuses[0]))
        for spec in exp.kernel_errors:
            kname, want = [x.strip() for x in spec.split("|", 1)]
            found = [k for k in doc["kernels"] if k["name"].split("<")[0] == kname]
            if not found or any(k["status"] != "error" or
                                not any(want in l for l in k["limitations"]) for k in found):
                fail("kernel %s: expected status error with '%s', got %s" % (kname, want, found))
    out = door.diagnose(work, name, args.check_name, expect_errors)
    if exp.no_diagnostics:
        if diagnostic_lines(out):
            fail("no diagnostics were expected from the %s door, but found:\n%s" % (door.name, out))
        return "no diagnostics"
    done = []
    if exp.messages or (exp.registers and not exp.notes):
        ok, log = filecheck(args, src, out, os.path.join(args.temp, door.name + ".msg"),
                            exp.messages + exp.registers,
                            ["--allow-unused-prefixes", "--implicit-check-not={{warning|error}}:"])
        if not ok:
            fail("FileCheck of the messages failed for the %s door:\n%s\n--- output ---\n%s"
                 % (door.name, log, out))
        done.append(",".join(exp.messages + exp.registers))
    if exp.notes:
        notes = "\n".join(l for l in out.splitlines() if "note: FIX-IT applied" not in l)
        ok, log = filecheck(args, src, notes, os.path.join(args.temp, door.name + ".notes"),
                            exp.notes + exp.registers,
                            ["--allow-unused-prefixes",
                             "--implicit-check-not={{note|warning|error}}:"])
        if not ok:
            fail("FileCheck of the notes failed for the %s door:\n%s\n--- output ---\n%s"
                 % (door.name, log, out))
        done.append(",".join(exp.notes + exp.registers))
    if exp.fixes:
        check_fixes(door, args, src, files, exp)
        done.append(",".join(exp.fixes))
    return " and ".join(done)


# The fixed files (their texts) a door's fix-its made that have been parsed,
# compiled and re-analysed in this run.
FIXED_FILES_CHECKED = set()


def check_fixes(door, args, src, files, exp):
    """Applies the door's fix-its to a fresh copy of the input and its own
    headers, then: CHECK-FIXES must match in each file that has them, the
    fixed input must parse (clang -fsyntax-only with warpcheck's arguments)
    and, where a toolkit is there, compile with nvcc, and re-analysing it
    must offer no fix-it."""
    name = os.path.basename(src)
    work = work_folder(args)
    before = copy_input(src, files, work)
    door.apply_fixes(work, name, args.check_name)
    changed = False
    for f in files:
        with open(os.path.join(work, f)) as fh:
            after = fh.read()
        changed |= before[f] != after
        with open(os.path.join(os.path.dirname(src), f)) as fh:
            original = fh.read()
        prefixes = [p for p in exp.fixes if p + ":" in original]
        if not prefixes:
            continue
        extra = ["--strict-whitespace"] if args.match_partial_fixes else ["--match-full-lines"]
        ok, log = filecheck(args, os.path.join(os.path.dirname(src), f), after,
                            os.path.join(work, f + ".fixed"), prefixes, extra)
        if not ok:
            fail("CHECK-FIXES failed for the %s door in %s:\n%s" % (door.name, f, log))
    if not changed:
        fail("no fix-it was applied by the %s door" % door.name)
    fixed = (door.fix_notes,) + tuple(open(os.path.join(work, f)).read() for f in files)
    if fixed in FIXED_FILES_CHECKED:
        # The other door made the very same files, already parsed, compiled
        # and re-analysed below.
        return
    FIXED_FILES_CHECKED.add(fixed)
    clang_args = door.printed_clang_args(work, name)
    rc, out, err = run([args.clangxx, "-fsyntax-only"] + clang_args + [name], work)
    if rc != 0:
        fail("the fixed file does not parse:\n" + err)
    nvcc = plugin_nvcc(door.warpcheck)
    if nvcc:
        rc, out, err = run([nvcc, "-arch=sm_90", "-c", name,
                            "-o", os.path.join(args.temp, "fixed.o")], work)
        if rc != 0:
            fail("the fixed file does not compile with nvcc:\n" + out + err)
    rc, doc = Door("binary", args, door.warpcheck_options, door.clang_args).report(
        work, name, args.check_name)
    fixes_left = [f for f in doc["findings"]
                  if f.get("fixes") or
                  (door.fix_notes and any(n.get("fixes") for n in f.get("notes", [])))]
    if fixes_left:
        fail("re-analysing the fixed file still offers fixes: %s" % fixes_left)


def csv(text):
    return text.split(",")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-build", required=True, help="the build folder (bin/warpcheck, lib/)")
    ap.add_argument("-clang-tidy", default="clang-tidy-19")
    ap.add_argument("-filecheck", default="FileCheck-19")
    ap.add_argument("-clangxx", default="clang++-19")
    ap.add_argument("-door", choices=["both", "plugin", "binary"], default="both")
    ap.add_argument("-check-suffix", "-check-suffixes", default=[""], type=csv,
                    help="comma-separated list of FileCheck suffixes")
    ap.add_argument("-match-partial-fixes", "--match-partial-fixes", action="store_true",
                    help="CHECK-FIXES may match part of a line")
    ap.add_argument("input")
    ap.add_argument("check_name", help="the checks to run, a clang-tidy glob list")
    ap.add_argument("temp", help="the test's temporary path (%%t)")
    # What follows the first -- is the doors', not this script's: split it
    # off before argparse, which would take it for positional arguments.
    argv = sys.argv[1:]
    at = argv.index("--") if "--" in argv else len(argv)
    args = ap.parse_args(argv[:at])
    rest = argv[at + 1:]
    if "--" in rest:
        at = rest.index("--")
        warpcheck_options, clang_args = rest[:at], rest[at + 1:]
    else:
        warpcheck_options, clang_args = rest, []

    src = os.path.abspath(args.input)
    args.temp = os.path.abspath(args.temp)
    os.makedirs(args.temp, exist_ok=True)
    name = os.path.basename(src)
    stem = os.path.splitext(name)[0]
    folder = os.path.dirname(src)
    files = [name] + sorted(f for f in os.listdir(folder)
                            if f.startswith(stem) and f.endswith(".cuh"))
    with open(src) as f:
        text = f.read()
    doors = ["plugin", "binary"] if args.door == "both" else [args.door]
    for d in doors:
        what = check_door(Door(d, args, warpcheck_options, clang_args), args, src, files, text)
        print("%s: %s door matches its %s" % (name, d, what))
    return 0


if __name__ == "__main__":
    sys.exit(main())
