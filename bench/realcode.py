#!/usr/bin/env python3
"""How many kernels of real, third-party CUDA programs does warpcheck reach?

bench/corpus.json names public CUDA programs (repository, commit, the
translation units a build compiles, their include directories, defines and
nvcc flags). The sources themselves are not part of this repository: fetch
each repository at the commit named and unpack it under --corpus/<dir>.

For every translation unit of every program the bench measures:

  ground truth  nvcc compiles the unit's device code for sm_90
                (nvcc -cubin -arch=sm_90 -Xptxas=-v, with the unit's flags
                and, where the manifest names one, a build-only fix-up
                header given with -include; see FIXUPS). The entry functions
                ptxas reports ("Compiling entry function ...") are the
                unit's kernels, demangled with cu++filt (c++filt if the
                toolkit has none). A unit nvcc cannot compile is reported
                and left out of the goal. nvcc's answers are cached under
                --cache-dir, keyed by the unit's content, the command and
                nvcc's version.
  warpcheck     a compile_commands.json for the program is written to a
                scratch directory, as CMake or bear write one for CUDA: the
                nvcc path, the unit's flags, relative -I paths, "-c unit -o
                obj", "directory" the program's build directory (relative
                paths are relative to it) and "file" absolute (relative with
                --relative-file). The program's host units ("host_units":
                the C and C++ files its build compiles beside the CUDA
                units, e.g. a main.cpp calling an extern "C" wrapper that
                launches) are in the database with a host compiler's
                command (the program's -D and -I, the toolkit's include
                directory). warpcheck runs on each CUDA unit of it
                (warpcheck -p <scratch> --launches-from=database
                --format=json -o <unit>.json <unit>), one CUDA unit a run
                so that every kernel and every error belongs to one unit;
                the database's other units (CUDA and host) are parsed for
                their launches and calls, which bind the unit's kernels and
                launching functions as in a whole-program run. Never with the fix-ups: warpcheck has to cope
                with the code as it is. The bench runs a copy of
                <build>/bin/warpcheck and <build>/share taken at its start
                (--in-place: the build itself), so a rebuild meanwhile
                does not mix two builds.
  match         warpcheck's "kernels" (one entry per kernel and launch
                shape) against nvcc's list, by qualified name with template
                arguments (spaces and integer-literal suffixes ignored),
                then, for what is left, by the name without template
                arguments, instance for instance. warpcheck's entries are
                one kernel per (name, file, line): launch shapes share one,
                overloads do not. A kernel is "reached" when warpcheck
                reports it analysed; one listed with "status": "error" (it
                does not compile) is missed, its error the reason, and
                counted as "listed, not compiling". Kernels of the toolkit's
                libraries (namespaces cub, thrust, cuda, ...) are counted
                apart and are not part of the goal.

A unit is "clean", "with errors" or "not analysed" as the JSON's "inputs"
entry for it says (analysed, analysed_with_errors, not_analysed). Builds
without "inputs": "clean" when the JSON has no error, "with errors" when its
"errors" array names a file, "not analysed" when no JSON came back, the run
crashed or timed out, or every error is a driver error that names no file.
The first error naming a file is the reason given for the unit's missed
kernels.

Headers a real build tree would hold (configure's config.h; CL/cl.h of a
toolkit's OpenCL component) are generated under the scratch directory
(GENERATED) and given to nvcc and warpcheck alike. A kernel defined in a
header counts once for every unit that compiles it, as nvcc lists it.

With --records DIR (test/hw/realcode: what an H200 measured per source
line, made by test/hw/scripts/corpus_to_records.py) the bench also compares
warpcheck with the hardware, per measured line (file, line, kernel instance,
access class): the kernel instance matched by name (ncu's
'k<int, (unsigned int)256, (bool)1>' and clang's 'k<int, 256U, true>' are one
name), the launch shape with the measured block if warpcheck has it; a line
is "claimed" when warpcheck reports every access of that class there (or,
with none there, on a multi-line expression that spans the line: its
"end_line") with
numbers (an access costed with the cubin's listing, when warpcheck is given
a toolkit with nvdisasm, counts on the lines the listing puts its
instructions on: --warpcheck-arg=--cuda-path=DIR), and "matches the H200" when its cost over the ideal (sectors per
request over the ideal for global accesses, wavefronts for shared) is within
5% of the measured sectors (wavefronts) over their ideal: the ratio, which
warps whose lanes are all predicated off (counted as executed instructions)
do not dilute, so guarded lines compare too. A wrong exact claim is an
"exact" access that does not match; the exact claims of a kernel warpcheck
says launches kernels from device code, or is launched from there (dynamic
parallelism), count as assumed ones: ncu's profile of its launch counts the
grids it launches on its lines too, so the record is not of the one launch
a claim is about. A line is a hardware positive when its
sector efficiency is below 50% (global) or it takes at least twice the ideal
wavefronts (shared); warpcheck's findings of the matching check and
operation on that line are its positives: recall and precision. Warpcheck
runs with ReportDataDependent=true (cuda-uncoalesced-global-access and
cuda-shared-bank-conflict), and the findings that option adds (a gather or
scatter from data read at run time, no number claimed) are scored apart: "with ReportDataDependent" gives recall and
precision counting them too. One "hw:"
line per program and a TOTAL one; --json adds each line's verdict. Without
--program, only the programs with records are run.

Prints one line per program and a TOTAL line; --json writes the same numbers
and the per-unit detail (nvcc's verdict, warpcheck's exit code, summary
line, status and errors, each kernel with its match or the reason it was
missed). --list-repos prints what to fetch and where to unpack it. It is a bench, not a test: the exit status is 0
whatever warpcheck does (2 for a usage error of the bench itself).

Usage:
  bench/realcode.py --corpus /work/corpus --build <warpcheck build dir>
      [--program NAME|GLOB ...] [--json OUT] [--verbose] [--jobs N]
      [--cache-dir DIR] [--scratch DIR] [--nvcc PATH] [--relative-file]
      [--timeout S] [--warpcheck-arg ARG ...] [--manifest FILE] [--in-place]
      [--records test/hw/realcode] [--reuse-reports]
  bench/realcode.py --list-repos
With --reuse-reports (and the --scratch of an earlier run) warpcheck is not
run: the reports that run left are scored again, in seconds, after a change
to the scoring. warpcheck's toolkit path (the memory instructions of the
compiled kernel, docs/hardware-model.md "What the compiler changes") needs
a toolkit with nvdisasm: --warpcheck-arg=--cuda-path=DIR names one.
"""
import argparse
import concurrent.futures
import fnmatch
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# test/testsupport.py: running a command as the test scripts do.
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "test"))
import testsupport  # noqa: E402
from nvcc_args import nvcc_args_without  # noqa: E402
CACHE_VERSION = 1
ARCH = "sm_90"

# Build-only fix-ups, passed to nvcc (never to warpcheck) with -include, for
# old code that uses what CUDA 12 and 13 removed. Our own declarations: each
# maps a removed name onto what replaced it, or onto something of the same
# type where only compiling matters (the kernels' list does not depend on
# it).
FIXUPS = {
    "thread-api": (
        "the cudaThread* runtime calls (removed in CUDA 12) as their "
        "cudaDevice* successors",
        """// warpcheck bench fix-up: cudaThread* calls removed in CUDA 12.
#pragma once
#include <cuda_runtime_api.h>
static inline cudaError_t cudaThreadSynchronize(void) { return cudaDeviceSynchronize(); }
static inline cudaError_t cudaThreadExit(void) { return cudaDeviceReset(); }
static inline cudaError_t cudaThreadSetCacheConfig(cudaFuncCache c) { return cudaDeviceSetCacheConfig(c); }
static inline cudaError_t cudaThreadGetCacheConfig(cudaFuncCache *c) { return cudaDeviceGetCacheConfig(c); }
static inline cudaError_t cudaThreadSetLimit(cudaLimit l, size_t v) { return cudaDeviceSetLimit(l, v); }
static inline cudaError_t cudaThreadGetLimit(size_t *v, cudaLimit l) { return cudaDeviceGetLimit(v, l); }
"""),
    "device-prop-13": (
        "cudaDeviceProp fields removed in CUDA 13 read as another int field "
        "(compiling only; the value is wrong)",
        """// warpcheck bench fix-up: cudaDeviceProp fields removed in CUDA 13.
#pragma once
#define clockRate major
#define memoryClockRate major
#define deviceOverlap major
#define kernelExecTimeoutEnabled major
#define computeMode major
#define maxTexture1DLinear major
#define cooperativeMultiDeviceLaunch major
"""),
    "mem-advise-13": (
        "cudaMemAdvise and cudaMemPrefetchAsync with a device number (CUDA 13 "
        "takes a cudaMemLocation)",
        """// warpcheck bench fix-up: the device-number forms CUDA 13 removed.
#pragma once
#include <cuda_runtime_api.h>
static inline struct cudaMemLocation warpcheck_bench_location(int device) {
  struct cudaMemLocation l;
  l.type = device == cudaCpuDeviceId ? cudaMemLocationTypeHost : cudaMemLocationTypeDevice;
  l.id = device;
  return l;
}
static inline cudaError_t cudaMemAdvise(const void *p, size_t n, enum cudaMemoryAdvise a, int device) {
  return cudaMemAdvise(p, n, a, warpcheck_bench_location(device));
}
static inline cudaError_t cudaMemPrefetchAsync(const void *p, size_t n, int device, cudaStream_t s = 0) {
  return cudaMemPrefetchAsync(p, n, warpcheck_bench_location(device), 0, s);
}
"""),
    "texture-references": (
        "texture<T, dim, mode> references (removed in CUDA 12): a plain "
        "struct, the fetches a value of the texel type, the bind calls "
        "no-ops (compiling only)",
        """// warpcheck bench fix-up: texture references, removed in CUDA 12.
// Enough to compile: a fetch yields a default texel, binding does nothing.
#pragma once
#include <cuda_runtime.h>
#include <type_traits>
template <class T, int dim = 1, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct texture {
  typedef T value_type;
  int normalized;
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureAddressMode addressMode[3];
  struct cudaChannelFormatDesc channelDesc;
};
#define WARPCHECK_BENCH_TEXEL(t) (typename std::remove_reference<decltype(t)>::type::value_type{})
#define tex1Dfetch(t, ...) WARPCHECK_BENCH_TEXEL(t)
#define tex1D(t, ...) WARPCHECK_BENCH_TEXEL(t)
#define tex2D(t, ...) WARPCHECK_BENCH_TEXEL(t)
#define tex3D(t, ...) WARPCHECK_BENCH_TEXEL(t)
#define WARPCHECK_BENCH_TEXREF template <class T, int d, enum cudaTextureReadMode m> static inline cudaError_t
WARPCHECK_BENCH_TEXREF cudaBindTexture(size_t *, const texture<T, d, m> &, const void *, size_t = ~(size_t)0) { return cudaSuccess; }
WARPCHECK_BENCH_TEXREF cudaBindTexture(size_t *, const texture<T, d, m> &, const void *, const struct cudaChannelFormatDesc &, size_t = ~(size_t)0) { return cudaSuccess; }
WARPCHECK_BENCH_TEXREF cudaBindTexture2D(size_t *, const texture<T, d, m> &, const void *, const struct cudaChannelFormatDesc &, size_t, size_t, size_t) { return cudaSuccess; }
WARPCHECK_BENCH_TEXREF cudaBindTexture2D(size_t *, const texture<T, d, m> &, const void *, size_t, size_t, size_t) { return cudaSuccess; }
WARPCHECK_BENCH_TEXREF cudaBindTextureToArray(const texture<T, d, m> &, cudaArray_const_t) { return cudaSuccess; }
WARPCHECK_BENCH_TEXREF cudaBindTextureToArray(const texture<T, d, m> &, cudaArray_const_t, const struct cudaChannelFormatDesc &) { return cudaSuccess; }
WARPCHECK_BENCH_TEXREF cudaUnbindTexture(const texture<T, d, m> &) { return cudaSuccess; }
"""),
}

# Headers a real build generates (configure's config.h): written to
# <scratch>/<program>/gen/ and found through a "$GEN/..." include directory,
# for nvcc and warpcheck alike, as a build tree would hold them.
GENERATED = {
    "shoc-config": """/* config.h as configure finds a Linux system (warpcheck bench) */
#define HAVE_CLOCK_GETTIME 1
#define HAVE_CLOCK_PROCESS_CPUTIME_ID 1
#define HAVE_GETTIMEOFDAY 1
#define HAVE_SYS_TIME_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STRING_H 1
#define HAVE_UNISTD_H 1
#define restrict __restrict
""",
    # Parboil's parboil.h includes <CL/cl.h> (a toolkit with its OpenCL
    # component has one); this toolkit has none. The few types it names.
    "opencl-types": """/* CL/cl.h: the types parboil.h names (warpcheck bench stand-in) */
#ifndef WARPCHECK_BENCH_CL_H
#define WARPCHECK_BENCH_CL_H
#include <stdint.h>
typedef int32_t cl_int;
typedef uint32_t cl_uint;
typedef struct _cl_command_queue *cl_command_queue;
typedef struct _cl_kernel *cl_kernel;
typedef struct _cl_event *cl_event;
typedef struct _cl_mem *cl_mem;
#endif
""",
}

# Top-level namespaces of the toolkit's libraries: kernels there are counted
# apart (instantiated by a Thrust or CUB call, not written by the program).
LIBRARY_NAMESPACES = {"cub", "thrust", "cuda", "cooperative_groups", "nvcuda",
                      "cutlass", "cute", "cudnn_frontend", "curand"}


def run(cmd, cwd=None, timeout=None, stdin=None):
    """(exit code, stdout, stderr, seconds) of testsupport.run."""
    start = time.time()
    rc, out, err = testsupport.run(cmd, cwd=cwd, timeout=timeout, stdin=stdin)
    return rc, out, err, time.time() - start


# --------------------------------------------------------------------------
# Names

def _matching_open(s, end, open_c, close_c):
    """Index of the bracket opening the one that closes at s[end]."""
    depth = 0
    for i in range(end, -1, -1):
        if s[i] == close_c:
            depth += 1
        elif s[i] == open_c:
            depth -= 1
            if depth == 0:
                return i
    return -1


def strip_template_args(name):
    """ns::k<8, float> -> ns::k (every balanced <...>, operator names aside)."""
    out, depth = [], 0
    for i, c in enumerate(name):
        if c == "<" and not name[:i].endswith("operator"):
            depth += 1
        elif c == ">" and depth:
            depth -= 1
        elif depth == 0:
            out.append(c)
    return "".join(out)


def qualified_name(demangled):
    """The qualified name with template arguments of a demangled function
    signature: 'void ns::k<8, int>(int*)' -> 'ns::k<8, int>'."""
    s = demangled.strip()
    if s.endswith(")"):
        i = _matching_open(s, len(s) - 1, "(", ")")
        if i > 0:
            s = s[:i]
    depth, cut = 0, 0
    for j, c in enumerate(s):
        if c in "<(":
            depth += 1
        elif c in ">)":
            depth -= 1
        elif c == " " and depth == 0:
            cut = j + 1
    return s[cut:]


def normalise(name):
    """Spaces and integer-literal suffixes (8u, 8U, 8ul) do not count."""
    name = re.sub(r"\b(\d+)(?:[uU]|[lL]{1,2}|[uU][lL]{1,2}|[lL]{1,2}[uU])\b", r"\1", name)
    return name.replace(" ", "")


def is_library(qname):
    top = strip_template_args(qname).split("::")[0]
    return top in LIBRARY_NAMESPACES


# With -rdc=true nvcc gives a kernel of internal linkage (static, or in an
# anonymous namespace) a unit-unique prefix:
# __nv_static_25__a78ce3ac_8_clock_cu_main__Z14timedReductionPKfPfPl.
NV_STATIC = re.compile(r"^__nv_static_\d+__.*?_(_Z.*)$")


def demangle(names, tool):
    """Demangled forms of names, one call of the demangler for all."""
    names = sorted(names)
    if not names:
        return {}
    plain = [NV_STATIC.sub(r"\1", n) for n in names]
    rc, out, _, _ = run([tool], stdin="\n".join(plain) + "\n")
    lines = out.splitlines() if rc == 0 else []
    if len(lines) != len(names):
        lines = plain
    return dict(zip(names, lines))


# --------------------------------------------------------------------------
# Manifest and compile commands

def load_manifest(path):
    with open(path) as f:
        manifest = json.load(f)
    for p in manifest["programs"]:
        for fx in p.get("fixups", []):
            if fx not in FIXUPS:
                sys.exit("realcode: %s: unknown fix-up %r" % (p["name"], fx))
        for gen in p.get("generated", {}).values():
            if gen not in GENERATED:
                sys.exit("realcode: %s: unknown generated header %r" % (p["name"], gen))
    return manifest


def safe_name(name):
    return re.sub(r"[^A-Za-z0-9_.-]", "_", name)


class Program:
    """One manifest entry, resolved against the corpus and a scratch dir."""

    def __init__(self, entry, corpus, scratch):
        self.entry = entry
        self.name = entry["name"]
        self.root = os.path.join(corpus, entry["dir"])
        self.directory = os.path.normpath(os.path.join(self.root, entry["directory"]))
        self.scratch = os.path.join(scratch, safe_name(self.name))
        self.gen = os.path.join(self.scratch, "gen")

    def include_dir(self, inc):
        """An include directory as the build passes it: relative to the
        build directory, or absolute inside the scratch tree ($GEN)."""
        if inc.startswith("$GEN"):
            return os.path.normpath(self.gen + inc[len("$GEN"):])
        return os.path.relpath(os.path.join(self.root, inc), self.directory)

    def unit_path(self, unit):
        return os.path.normpath(os.path.join(self.root, unit))

    def object_path(self, unit):
        return os.path.join("obj", safe_name(unit) + ".o")

    def arguments(self, unit, nvcc):
        """nvcc's arguments for unit, as the build runs it."""
        e = self.entry
        args = [nvcc]
        args += ["-D" + d for d in e.get("defines", [])]
        args += ["-I" + self.include_dir(i) for i in e.get("include_dirs", [])]
        args += list(e.get("flags", []))
        args += ["-c", os.path.relpath(self.unit_path(unit), self.directory),
                 "-o", self.object_path(unit)]
        return args

    def host_arguments(self, unit, nvcc):
        """The host compiler's arguments for a host unit: the program's
        defines and include directories, and the toolkit's headers, as a build
        linking the CUDA runtime adds them. Nothing runs this command; it only
        tells warpcheck how the unit is compiled."""
        e = self.entry
        is_c = unit.endswith(".c")
        toolkit_include = os.path.join(os.path.dirname(os.path.dirname(nvcc)), "include")
        args = ["cc" if is_c else "c++"]
        args += ["-D" + d for d in e.get("defines", [])]
        args += ["-I" + self.include_dir(i) for i in e.get("include_dirs", [])]
        args += ["-I" + toolkit_include] + ([] if is_c else ["-std=c++17"])
        args += ["-c", os.path.relpath(self.unit_path(unit), self.directory),
                 "-o", self.object_path(unit)]
        return args

    def write_generated(self):
        for rel, key in self.entry.get("generated", {}).items():
            path = os.path.join(self.gen, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(GENERATED[key])

    def write_database(self, nvcc, relative_file):
        os.makedirs(self.scratch, exist_ok=True)
        db = []
        for unit in self.entry["units"] + self.entry.get("host_units", []):
            path = self.unit_path(unit)
            host = unit not in self.entry["units"]
            db.append({"directory": self.directory,
                       "arguments": (self.host_arguments if host else self.arguments)(unit, nvcc),
                       "file": os.path.relpath(path, self.directory) if relative_file else path,
                       "output": self.object_path(unit)})
        with open(os.path.join(self.scratch, "compile_commands.json"), "w") as f:
            json.dump(db, f, indent=2)


# --------------------------------------------------------------------------
# Ground truth: nvcc

DROPPED = {"-c", "--compile", "-dc", "--device-c", "-cubin", "--cubin"}


def ground_truth_command(prog, unit, nvcc, cubin):
    """nvcc -cubin for sm_90 with the unit's own flags and the fix-ups."""
    out = nvcc_args_without(prog.arguments(unit, nvcc)[1:], DROPPED)
    fix = []
    for f in prog.entry.get("fixups", []):
        fix += ["-include", os.path.join(prog.scratch, "fixup-%s.h" % f)]
    return [nvcc, "-cubin", "-arch=" + ARCH, "-Xptxas=-v"] + fix + out + ["-o", cubin]


ENTRY = re.compile(r"Compiling entry function '([^']+)' for '%s'" % ARCH)


def nvcc_version(nvcc):
    rc, out, _, _ = run([nvcc, "--version"])
    return out.strip().splitlines()[-1] if rc == 0 and out.strip() else "unknown"


def compile_unit(prog, unit, nvcc, version, cache_dir):
    """{'ok', 'kernels' (mangled), 'error', 'seconds', 'cached'}."""
    path = prog.unit_path(unit)
    try:
        with open(path, "rb") as f:
            content = f.read()
    except OSError as e:
        return {"ok": False, "kernels": [], "error": "cannot read: %s" % e,
                "seconds": 0, "cached": False}
    cubin = os.path.join(prog.scratch, "obj", safe_name(unit) + ".cubin")
    cmd = ground_truth_command(prog, unit, nvcc, cubin)
    key_cmd = [a.replace(prog.scratch, "$SCRATCH") for a in cmd]
    h = hashlib.sha256()
    for part in [str(CACHE_VERSION), version, prog.directory.replace(prog.root, "$ROOT"),
                 json.dumps(key_cmd)]:
        h.update(part.encode() + b"\0")
    h.update(content)
    for fx in prog.entry.get("fixups", []):
        h.update(FIXUPS[fx][1].encode())
    for key in sorted(prog.entry.get("generated", {}).values()):
        h.update(GENERATED[key].encode())
    cache_file = os.path.join(cache_dir, h.hexdigest() + ".json")
    if os.path.exists(cache_file):
        try:
            with open(cache_file) as f:
                result = json.load(f)
            result["cached"] = True
            return result
        except (OSError, ValueError):
            pass
    os.makedirs(os.path.dirname(cubin), exist_ok=True)
    rc, out, err, seconds = run(cmd, cwd=prog.directory, timeout=1800)
    text = out + err
    kernels = ENTRY.findall(text)
    errors = [l.strip() for l in text.splitlines() if re.search(r"\berror\b", l)]
    result = {"ok": rc == 0, "kernels": sorted(set(kernels)),
              "error": None if rc == 0 else (errors[0] if errors else
                                             "nvcc exit code %s" % rc),
              "errors": errors[:20] if rc else [],
              "seconds": round(seconds, 2)}
    if os.path.exists(cubin):
        os.remove(cubin)
    if rc is not None:
        os.makedirs(cache_dir, exist_ok=True)
        tmp = cache_file + ".tmp%d" % os.getpid()
        with open(tmp, "w") as f:
            json.dump(result, f)
        os.replace(tmp, cache_file)
    result["cached"] = False
    return result


# --------------------------------------------------------------------------
# warpcheck

# The message of a ReportDataDependent finding (checks/UncoalescedGlobalAccessCheck.cpp,
# checks/SharedBankConflictCheck.cpp).
DATA_DEPENDENT = "has a data-dependent address"

NOT_ANALYSED = ("the analysis crashed", "the analysis timed out",
                "the analysis produced", "no such file or directory",
                "cannot create a temporary file")


# Newer builds state each input's outcome in the JSON's "inputs".
INPUT_STATUS = {"analysed": "clean", "analysed_with_errors": "with errors",
                "not_analysed": "not analysed"}


def run_warpcheck(prog, unit, warpcheck, timeout, extra, reuse=False):
    """{'status', 'rc', 'summary', 'errors', 'kernels' (JSON entries)}.
    reuse: read the report (and its run's exit code and summary line) an
    earlier run left in the scratch directory instead of running warpcheck."""
    out_json = os.path.join(prog.scratch, "out", safe_name(unit) + ".json")
    run_json = out_json[:-len(".json")] + ".run"
    os.makedirs(os.path.dirname(out_json), exist_ok=True)
    if reuse:
        try:
            with open(run_json) as f:
                ran = json.load(f)
        except (OSError, ValueError):
            ran = {"rc": 0, "summary": "", "seconds": 0}
        return read_report(prog, unit, out_json, ran["rc"], ran["summary"], ran["seconds"])
    for old in (out_json, run_json):
        if os.path.exists(old):
            os.remove(old)
    # With ReportDataDependent: its findings (gathers whose address comes
    # from memory, no number claimed) are scored apart from the default
    # findings (compare_hardware), so one run gives both figures.
    cmd = [warpcheck, "-p", prog.scratch, "--launches-from=database", "--format=json",
           "-o", out_json, "--timeout=%d" % timeout,
           "--config=cuda-uncoalesced-global-access.ReportDataDependent=true",
           "--config=cuda-shared-bank-conflict.ReportDataDependent=true"] + \
        list(extra) + [prog.unit_path(unit)]
    rc, _, err, seconds = run(cmd, timeout=timeout + 60)
    lines = [l for l in err.splitlines() if l.strip()]
    summary = lines[-1].strip() if lines else ""
    with open(run_json, "w") as f:
        json.dump({"rc": rc, "summary": summary, "seconds": round(seconds, 2)}, f)
    return read_report(prog, unit, out_json, rc, summary, seconds)


def read_report(prog, unit, out_json, rc, summary, seconds):
    """run_warpcheck's result from the report warpcheck wrote."""
    res = {"rc": rc, "summary": summary, "seconds": round(seconds, 2),
           "errors": [], "kernels": []}
    try:
        with open(out_json) as f:
            report = json.load(f)
    except (OSError, ValueError):
        res["status"] = "not analysed"
        res["errors"] = [{"file": None, "message": summary or "no JSON report (exit code %s)" % rc}]
        return res
    res["errors"] = report.get("errors", [])
    res["kernels"] = report.get("kernels", [])
    res["findings"] = report.get("findings", [])
    unit_path = prog.unit_path(unit)
    stated = [i.get("status") for i in report.get("inputs", [])
              if i.get("file") and os.path.normpath(i["file"]) == unit_path]
    if stated and stated[0] in INPUT_STATUS:
        res["status"] = INPUT_STATUS[stated[0]]
    elif not res["errors"] and rc in (0, 1):
        res["status"] = "clean"
    elif rc == 2 or any(str(e.get("message", "")).lower().startswith(NOT_ANALYSED)
                        for e in res["errors"]) \
            or (res["errors"] and all(not e.get("file") for e in res["errors"])):
        res["status"] = "not analysed"
    else:
        res["status"] = "with errors"
    return res


def first_error(errors):
    for e in errors:
        if e.get("file"):
            loc = "%s:%s" % (os.path.basename(e["file"]), e.get("line") or "?")
            return "%s: %s" % (loc, e.get("message", ""))
    for e in errors:
        return e.get("message", "")
    return ""


# --------------------------------------------------------------------------
# Matching

def kernel_identities(wc_kernels):
    """warpcheck's entries, one per kernel (name, file, line): launch shapes
    of a kernel share one, overloads of a name do not. 'error' is the
    message when every entry of the kernel has "status": "error" (listed,
    but it does not compile)."""
    ids = {}
    for k in wc_kernels:
        key = (k.get("name", ""), k.get("file"), k.get("line"))
        d = ids.setdefault(key, {"name": key[0], "file": key[1], "line": key[2],
                                 "analysed": False, "error": None})
        if k.get("status") == "error":
            err = k.get("error") or {}
            d["error"] = d["error"] or "%s:%s: %s" % (
                os.path.basename(err.get("file") or "?"), err.get("line") or "?",
                err.get("message", "does not compile"))
        else:
            d["analysed"] = True
    for d in ids.values():
        if d["analysed"]:
            d["error"] = None
    return list(ids.values())


def match_unit(nvcc_kernels, wc_kernels):
    """nvcc_kernels: [(mangled, demangled)]; wc_kernels: warpcheck's entries.
    Returns ([kernel rows], [warpcheck's kernels that match none of nvcc's])."""
    left = kernel_identities(wc_kernels)
    rows = []
    for mangled, dem in nvcc_kernels:
        q = qualified_name(dem)
        rows.append({"name": q, "mangled": mangled, "demangled": dem,
                     "library": is_library(q), "reached": False, "match": None})
    keys = [lambda n: normalise(n), lambda n: normalise(strip_template_args(n))]
    for key in keys:
        for r in rows:
            if r["match"] is not None:
                continue
            for d in left:
                if key(d["name"]) == key(r["name"]):
                    r["match"] = d["name"]
                    r["reached"] = d["analysed"]
                    if d["error"]:
                        r["listed_with_error"] = d["error"]
                    left.remove(d)
                    break
    extra = sorted(d["name"] for d in left)
    return rows, extra


# --------------------------------------------------------------------------

def measure_program(prog, args, version, demangler, pool):
    prog.write_generated()
    for fx in prog.entry.get("fixups", []):
        os.makedirs(prog.scratch, exist_ok=True)
        with open(os.path.join(prog.scratch, "fixup-%s.h" % fx), "w") as f:
            f.write(FIXUPS[fx][1])
    prog.write_database(args.nvcc, args.relative_file)
    units = prog.entry["units"]
    truth = list(pool.map(lambda u: compile_unit(prog, u, args.nvcc, version,
                                                 args.cache_dir), units))
    compiled = [u for u, t in zip(units, truth) if t["ok"]]
    wc = dict(zip(compiled, pool.map(
        lambda u: run_warpcheck(prog, u, args.warpcheck, args.timeout,
                                args.warpcheck_arg, args.reuse_reports), compiled)))
    names = demangle({k for t in truth for k in t["kernels"]}, demangler)
    out_units = []
    for unit, t in zip(units, truth):
        entry = {"path": unit, "nvcc": {"ok": t["ok"], "error": t["error"],
                                        "cached": t["cached"], "seconds": t["seconds"]}}
        if not t["ok"]:
            entry["nvcc"]["errors"] = t.get("errors", [])
            out_units.append(entry)
            continue
        w = wc[unit]
        rows, extra = match_unit([(k, names.get(k, k)) for k in t["kernels"]],
                                 w["kernels"])
        reason = None
        if w["status"] != "clean":
            reason = "%s: %s" % (w["status"], first_error(w["errors"]))
        else:
            reason = "not in warpcheck's kernels (its JSON gives no reason)"
        for r in rows:
            if r.get("listed_with_error"):
                r["reason"] = "listed, does not compile: " + r["listed_with_error"]
            elif not r["reached"]:
                r["reason"] = reason
        entry["warpcheck"] = {"status": w["status"], "rc": w["rc"],
                              "summary": w["summary"], "seconds": w["seconds"],
                              "errors": w["errors"][:50],
                              "errors_total": len(w["errors"]),
                              "kernel_entries": len(w["kernels"])}
        entry["kernels"] = rows
        entry["extra"] = extra
        out_units.append(entry)
    s = summarise(prog.name, prog.entry, out_units)
    if getattr(args, "hw_records", None) is not None:
        docs = args.hw_records.get(prog.name, [])
        if docs:
            s["hw"] = compare_hardware(prog, docs, wc)
    return s


# --------------------------------------------------------------------------
# Against the hardware: --records (test/hw/realcode/*.json, made by
# test/hw/scripts/corpus_to_records.py from Nsight Compute's per-line source
# counters on an H200).

MATCH_TOLERANCE = 0.05          # relative, on the cost over the ideal
HW_GLOBAL_EFFICIENCY = 0.5      # a hardware positive below this sector efficiency
HW_SHARED_FACTOR = 2.0          # ... or at this many times the ideal wavefronts
CHECK_OF_SPACE = {"global": "cuda-uncoalesced-global-access",
                  "shared": "cuda-shared-bank-conflict"}
FINDING_OP = [(re.compile(r"^(?:global|shared) (load|store|atomic)\b"), None),
              (re.compile(r"(?:bank conflict|phase split) (reading|writing|atomically updating)\b"),
               {"reading": "load", "writing": "store", "atomically updating": "atomic"})]


def load_hw_records(folder):
    """program name -> [record documents]."""
    out = {}
    for name in sorted(os.listdir(folder)):
        if name.endswith(".json"):
            with open(os.path.join(folder, name)) as f:
                doc = json.load(f)
            out.setdefault(doc["program"], []).append(doc)
    return out


CAST = re.compile(r"\((?:const\s+)?(?:unsigned\s+|signed\s+)?(?:char|short|int|long\s+long|long|bool|"
                  r"__int128)(?:\s+int)?\)\s*")


def hw_kernel_key(name):
    """One spelling for ncu's and clang's names of a kernel instance:
    'reduce6<int, (unsigned int)256, (bool)1>' and 'reduce6<int, 256U, true>'
    are both 'reduce6<int,256,1>'."""
    name = name.strip()
    if name.startswith("void "):
        name = name[5:]
    name = CAST.sub("", name)
    name = re.sub(r"\btrue\b", "1", name)
    name = re.sub(r"\bfalse\b", "0", name)
    return normalise(name)


def unqualified(key):
    """'ns::k<a::b>' -> 'k<a::b>' (the last '::' outside template arguments)."""
    depth, cut = 0, 0
    for i, c in enumerate(key):
        if c == "<":
            depth += 1
        elif c == ">":
            depth -= 1
        elif depth == 0 and key.startswith("::", i):
            cut = i + 2
    return key[cut:]


def finding_op(finding):
    msg = finding.get("message", "")
    for rx, table in FINDING_OP:
        m = rx.search(msg)
        if m:
            return table[m.group(1)] if table else m.group(1)
    return None


FINDING_INSTANCE = re.compile(r"\bin '([^']+)' with block \(")


def finding_is_for(finding, kernel):
    """Whether a finding is about this kernel entry (one kernel instance and
    launch shape): its message ends with the launch its numbers are for
    ("with block (256, 1, 1) from the launch at a.cu:12") and, in an
    instance of a kernel template, names the instance ("in 'k<float>' with
    block ..."). A finding of another launch of the kernel, or of another
    instance sharing the line, is not the measured launch's."""
    if not kernel:
        return False
    launch = kernel.get("launch") or {}
    msg = finding.get("message", "")
    block = launch.get("block")
    if block and "with block (%s) from %s" % (", ".join(map(str, block)),
                                               launch.get("description", "")) not in msg:
        return False
    m = FINDING_INSTANCE.search(msg)
    if m and hw_kernel_key(m.group(1)) != unqualified(hw_kernel_key(kernel.get("name", ""))):
        return False
    return True


def hw_positive(rec):
    """The hardware's verdict on a measured line, or None when it has no
    ideal to compare with (every lane predicated off), or when the line is a
    global atomic: the source counters count an atomic's distinct sectors
    (one for 32 lanes on one word), not the requests the L2 serves one lane
    at a time (l1tex__t_sectors_pipe_lsu_mem_global_op_atom counts 32 for
    them: test/hw/atomic_patterns.json), so they are no measure of its
    cost; the atomics are held to the per-kernel counters of
    test/hw/atomic_patterns.json and the test inputs instead."""
    if rec["space"] == "global" and rec["op"] == "atomic":
        return None
    if rec["space"] == "global":
        if not rec.get("ideal_sectors") or not rec.get("sectors"):
            return None
        return rec["ideal_sectors"] / rec["sectors"] < HW_GLOBAL_EFFICIENCY
    if not rec.get("ideal_wavefronts") or not rec.get("wavefronts"):
        return None
    return rec["wavefronts"] >= HW_SHARED_FACTOR * rec["ideal_wavefronts"]


def measured_ratio(rec):
    if rec["space"] == "global":
        return rec["sectors"] / rec["ideal_sectors"] if rec.get("ideal_sectors") else None
    return rec["wavefronts"] / rec["ideal_wavefronts"] if rec.get("ideal_wavefronts") else None


def launches_grids(kernel):
    """Whether warpcheck says the kernel launches kernels from device code."""
    return any("from device code (dynamic parallelism)" in l
               for l in kernel.get("limitations") or [])


def predicted(accesses, space):
    """(ratio over the ideal, per request, all exact) of warpcheck's accesses
    of one class on one line, or None when any of them has no numbers."""
    # An access that makes no request of its own has no cost on the line:
    # one of the line's other accesses' instructions serves it (the second
    # word of an LDS.64: "counted_with" names the other), or its value is
    # still in a register from an earlier load (predicted without a listing:
    # "kept_in_register", no instruction). The line's cost is that of the
    # accesses that make requests.
    accesses = [a for a in accesses if a.get("requests_simulated") != 0] or accesses
    if not accesses:
        return None
    cost, ideal = ("sectors_per_request", "ideal_sectors_per_request") if space == "global" \
        else ("wavefronts_per_request", "ideal_wavefronts_per_request")
    if any(a.get(cost) is None or not a.get(ideal) for a in accesses):
        return None
    c = sum(a[cost] for a in accesses)
    i = sum(a[ideal] for a in accesses)
    return {"ratio": c / i, "per_request": c / len(accesses),
            "exact": all(a.get("status") == "exact" for a in accesses)}


def hw_stats():
    return {"kernels_measured": 0, "kernels_matched": 0, "shape_differs": 0,
            "shape_not_recorded": 0, "lines": 0,
            "lines_guarded": 0, "lines_not_seen": 0, "lines_unknown": 0, "claimed": 0,
            "match": 0, "exact": 0, "wrong_exact": 0, "hw_positive": 0, "findings": 0,
            "true_positive": 0, "false_positive": 0, "false_negative": 0,
            "global_hw_positive": 0, "global_findings": 0, "global_true_positive": 0,
            "global_false_positive": 0, "global_false_negative": 0,
            "shared_hw_positive": 0, "shared_findings": 0, "shared_true_positive": 0,
            "shared_false_positive": 0, "shared_false_negative": 0,
            # the findings ReportDataDependent adds
            "dd_findings": 0, "dd_true_positive": 0}


def compare_hardware(prog, docs, wc):
    """Per measured line (file, line, kernel instance, access class) of the
    program's records: does warpcheck claim numbers there, do they match the
    H200 (cost over the ideal within MATCH_TOLERANCE: sectors for global,
    wavefronts for shared; the ratio, since warps whose lanes are all
    predicated off count as executed instructions), and do its findings
    agree with the hardware's verdict (hw_positive)?"""
    st = hw_stats()
    st["lines_detail"] = []
    st["kernels_detail"] = []
    for doc in docs:
        units = [u for u in doc.get("units", []) if u in wc]
        reports = [wc[u] for u in units]
        # warpcheck's kernel entries and findings of these units
        entries = [k for w in reports for k in w["kernels"] if k.get("status") != "error"]
        by_key, by_base = {}, {}
        for k in entries:
            key = hw_kernel_key(k.get("name", ""))
            by_key.setdefault(key, []).append(k)
            by_key.setdefault(unqualified(key), []).append(k)
            by_base.setdefault(strip_template_args(unqualified(key)), set()).add(key)
        findings, data_dependent = {}, {}
        for w in reports:
            for f in w.get("findings", []):
                # A misaligned contiguous access (80% efficiency, say) is
                # reported for its alignment, not as below the 50% the
                # hardware verdict is about: not a finding here.
                if "is misaligned" in f.get("message", ""):
                    continue
                if f.get("file") and f.get("check") in CHECK_OF_SPACE.values():
                    rel = os.path.relpath(os.path.normpath(f["file"]), prog.root)
                    table = data_dependent if DATA_DEPENDENT in f.get("message", "") else findings
                    table.setdefault((rel, f.get("line"), f["check"], finding_op(f)), []).append(f)
        recs_by_kernel = {}
        for r in doc["records"]:
            recs_by_kernel.setdefault(r["kernel"], []).append(r)
        # ncu names one kernel instance two ways in one run: the source
        # counters' 'MatrixMulCUDA<(int)32>' (the lines, no shape) and the
        # launch statistics' 'MatrixMulCUDA<32>' (the shape, no lines). The
        # launch the lines are of has the shape of its twin of the same run.
        shape_of = {}
        for k in doc["kernels"]:
            if k.get("block"):
                shape_of.setdefault((hw_kernel_key(k["kernel"]), k.get("run")),
                                    (k["block"], k.get("grid")))
        for mk in doc["kernels"]:
            recs = recs_by_kernel.get(mk["kernel"], [])
            if not recs:
                continue        # no global or shared access in the program's files
            if not mk.get("block") and (hw_kernel_key(mk["kernel"]), mk.get("run")) in shape_of:
                mk = dict(mk)
                mk["block"], mk["grid"] = shape_of[(hw_kernel_key(mk["kernel"]), mk.get("run"))]
            st["kernels_measured"] += 1
            key = hw_kernel_key(mk["kernel"])
            cands = by_key.get(key) or by_key.get(unqualified(key))
            if not cands:
                base = strip_template_args(unqualified(key))
                keys = by_base.get(base, set())
                if len(keys) == 1:
                    cands = by_key[next(iter(keys))]
            chosen, shape = None, None
            if cands:
                st["kernels_matched"] += 1
                same = [k for k in cands if mk.get("block") and (k.get("launch") or {}).get("block") == mk["block"]]
                # Of the launches with the measured block, the one with the
                # measured grid too (a loop over sizes launches one shape
                # per size, and ncu measured the first launch).
                same_grid = [k for k in same if mk.get("grid") and
                             (k.get("launch") or {}).get("grid") == mk["grid"]]
                # A program run without command-line arguments was
                # measured on the launches a run without options makes:
                # not one on a way only an option takes ("the branch at
                # transpose.cu:316 taken", -dimX= given); and, where
                # warpcheck says which launches such a run makes, those
                # (FDTD3d's edge from the device's memory, where the
                # launch of every option's way knows no more than the
                # edge is some integer).
                if not any(r.get("args") for r in doc.get("runs", [])):
                    plain = lambda k: (k.get("launch") or {}).get("without_arguments")
                    same = [k for k in same if plain(k) is True] or \
                        [k for k in same if plain(k) is not False] or same
                chosen = (same_grid or same or cands)[0]
                shape = (chosen.get("launch") or {}).get("block")
                # A record made before blocks were recorded says nothing of
                # the shape: counted apart, not as another shape.
                if not mk.get("block"):
                    st["shape_not_recorded"] += 1
                elif not same:
                    st["shape_differs"] += 1
            st["kernels_detail"].append({"id": doc["id"], "kernel": mk["kernel"],
                                         "warpcheck": chosen.get("name") if chosen else None,
                                         "measured_block": mk.get("block"), "warpcheck_block": shape})
            acc, spanning, called = {}, {}, {}
            if chosen:
                for a in chosen.get("accesses", []):
                    rel = os.path.relpath(os.path.normpath(a["file"]), prog.root)
                    # Costed with the cubin's listing (a toolkit with
                    # nvdisasm: --warpcheck-arg=--cuda-path=DIR): the
                    # access is where the line table puts its instructions
                    # (a load nvcc moved to the line of its use).
                    # (copies of one unrolled instruction the line table
                    # spreads over several lines: other_lines).
                    listed = sorted({ln for i in a.get("instructions") or []
                                     for ln in [i.get("line")] + (i.get("other_lines") or [])
                                     if ln}) \
                        if a.get("instructions_from") == "listing" else []
                    # Without a listing, an instruction the model moves (a
                    # branch's two loads as one on the line of the use),
                    # when it makes every request of the access.
                    own = [i for i in a.get("instructions") or []
                           if i.get("counted_with") is None and i.get("requests_simulated")]
                    if a.get("instructions_from") == "model" and len(own) == 1 and \
                            "moved" in (own[0].get("changes") or []) and \
                            own[0]["requests_simulated"] == a.get("requests_simulated"):
                        listed = [own[0]["line"]]
                    for ln in listed or [a["line"]]:
                        acc.setdefault((rel, ln, a["space"], a["op"]), []).append(a)
                    if listed:
                        continue
                    # nvcc's line table may put a multi-line expression's
                    # instruction on any of its lines: such a line, with no
                    # access of its own, is the expression's.
                    for ln in range(a["line"] + 1, (a.get("end_line") or a["line"]) + 1):
                        spanning.setdefault((rel, ln, a["space"], a["op"]), []).append(a)
                # An access in a device function run inline, at each call on
                # the way to it (nvcc's line table may put an inlined
                # instruction on the call's line, and ncu counts it there):
                # the requests made through that call, where the line has
                # a record, no access of the class itself and
                # the call makes one access of the class (llm.c's load128):
                # the instructions of several (sortingNetworks' Comparator's
                # loads of four references) the line table shares between
                # the callee's lines and the call's, as it will.
                for a in chosen.get("accesses", []):
                    for cs in a.get("call_sites") or []:
                        if not cs.get("file"):
                            continue
                        crel = os.path.relpath(os.path.normpath(cs["file"]), prog.root)
                        through = dict(a, line=cs["line"], instructions=None,
                                       requests_simulated=cs.get("requests_simulated"))
                        for m in ("sectors_per_request", "ideal_sectors_per_request",
                                  "wavefronts_per_request", "ideal_wavefronts_per_request"):
                            through[m] = cs.get(m)
                        called.setdefault((crel, cs["line"], a["space"], a["op"]), []).append(through)
            for r in recs:
                hwp = hw_positive(r)
                if hwp is None:
                    continue
                st["lines"] += 1
                st["lines_guarded"] += not r.get("full_warps", False)
                st["hw_positive"] += hwp
                key = (r["file"], r["line"], r["space"], r["op"])
                through_call = called.get(key, [])
                mine = acc.get(key) or spanning.get(key) or \
                    (through_call if len(through_call) == 1 else [])
                pred = predicted(mine, r["space"]) if chosen else None
                # A kernel that launches kernels from device code (dynamic
                # parallelism): ncu profiles its launch with the grids it
                # launches, whose accesses it counts on the kernel's lines
                # (cdpAdvancedQuicksort's qsort_warp: 449,681 executions of
                # a once-per-warp load in a launch of 31,264 warps). The
                # record is not of the one launch an exact claim is about:
                # such claims are compared as assumed ones.
                if pred and pred["exact"] and launches_grids(chosen):
                    pred["exact"] = False
                # The findings on the line, or on the first line of the
                # multi-line expressions the line was matched to.
                fkeys = {(r["file"], r["line"], CHECK_OF_SPACE[r["space"]], r["op"])} | \
                    {(r["file"], a["line"], CHECK_OF_SPACE[r["space"]], r["op"]) for a in mine}
                fnd = any(finding_is_for(f, chosen) for k in fkeys for f in findings.get(k, []))
                dd = not fnd and any(finding_is_for(f, chosen)
                                     for k in fkeys for f in data_dependent.get(k, []))
                st["dd_findings"] += dd
                st["dd_true_positive"] += dd and hwp
                d = {"id": doc["id"], "kernel": mk["kernel"], "file": r["file"], "line": r["line"],
                     "space": r["space"], "op": r["op"], "measured_ratio": round(measured_ratio(r), 4),
                     "guarded": not r.get("full_warps", False), "hw_positive": hwp, "finding": fnd,
                     "data_dependent_finding": dd}
                if not mine:
                    st["lines_not_seen"] += 1
                    d["claim"] = "none"
                elif pred is None:
                    st["lines_unknown"] += 1
                    d["claim"] = "unknown"
                else:
                    st["claimed"] += 1
                    ok = abs(pred["ratio"] - measured_ratio(r)) <= MATCH_TOLERANCE * measured_ratio(r)
                    st["match"] += ok
                    st["exact"] += pred["exact"]
                    st["wrong_exact"] += pred["exact"] and not ok
                    d.update({"claim": "exact" if pred["exact"] else "assumed",
                              "predicted_ratio": round(pred["ratio"], 4), "match": ok})
                for prefix in ("", r["space"] + "_"):     # in total, and per check
                    st[prefix + "findings"] += fnd
                    st[prefix + "true_positive"] += fnd and hwp
                    st[prefix + "false_positive"] += fnd and not hwp
                    st[prefix + "false_negative"] += hwp and not fnd
                st[r["space"] + "_hw_positive"] += hwp
                st["lines_detail"].append(d)
    return st


def add_hw(total, st):
    for k, v in st.items():
        if isinstance(v, int):
            total[k] = total.get(k, 0) + v


def frac(a, b):
    return "%d/%d" % (a, b) if b else "-"


def hw_line(st):
    return ("    hw: %d kernels measured (%d matched, %d with another launch shape, %d whose "
            "record has no shape), %d lines "
            "(%d guarded): %d claimed, %d match the H200 (%s), %d exact claims, %d wrong; "
            "%d not seen, %d unknown; findings %d: recall %s, precision %s" % (
                st["kernels_measured"], st["kernels_matched"], st["shape_differs"],
                st.get("shape_not_recorded", 0), st["lines"],
                st["lines_guarded"], st["claimed"], st["match"], pct(st["match"], st["claimed"]),
                st["exact"], st["wrong_exact"], st["lines_not_seen"], st["lines_unknown"],
                st["findings"], frac(st["true_positive"], st["hw_positive"]),
                frac(st["true_positive"], st["findings"])) +
            "".join("; %s: recall %s, precision %s" % (
                CHECK_OF_SPACE[sp], frac(st[sp + "_true_positive"], st[sp + "_hw_positive"]),
                frac(st[sp + "_true_positive"], st[sp + "_findings"]))
                for sp in ("global", "shared") if st[sp + "_hw_positive"] or st[sp + "_findings"]) +
            ("; with ReportDataDependent (%d more): recall %s, precision %s" % (
                st["dd_findings"], frac(st["true_positive"] + st["dd_true_positive"], st["hw_positive"]),
                frac(st["true_positive"] + st["dd_true_positive"], st["findings"] + st["dd_findings"]))
             if st["dd_findings"] else ""))


def summarise(name, entry, units):
    s = {"name": name, "repo": entry["repo"], "commit": entry["commit"],
         "units_listed": len(units),
         "units_compiled": sum(1 for u in units if u["nvcc"]["ok"]),
         "files_clean": 0, "files_with_errors": 0, "files_not_analysed": 0,
         "kernels": 0, "reached": 0, "listed_with_error": 0, "library_kernels": 0, "library_reached": 0,
         "extra": 0, "units": units}
    key = {"clean": "files_clean", "with errors": "files_with_errors",
           "not analysed": "files_not_analysed"}
    for u in units:
        if "warpcheck" not in u:
            continue
        s[key[u["warpcheck"]["status"]]] += 1
        s["extra"] += len(u["extra"])
        for k in u["kernels"]:
            if k["library"]:
                s["library_kernels"] += 1
                s["library_reached"] += k["reached"]
            else:
                s["kernels"] += 1
                s["reached"] += k["reached"]
                s["listed_with_error"] += bool(k.get("listed_with_error"))
    return s


def pct(a, b):
    return "%d%%" % round(100.0 * a / b) if b else "-"


def line(s, width):
    text = "%-*s  units %d/%d  kernels reached %d of %d (%s)  files: %d clean, %d with errors, %d not analysed" % (
        width, s["name"], s["units_compiled"], s["units_listed"], s["reached"],
        s["kernels"], pct(s["reached"], s["kernels"]), s["files_clean"],
        s["files_with_errors"], s["files_not_analysed"])
    if s["listed_with_error"]:
        text += "  (%d more listed, not compiling)" % s["listed_with_error"]
    if s["library_kernels"]:
        text += "  (+%d library kernels, %d reached)" % (s["library_kernels"],
                                                         s["library_reached"])
    return text


def binary_stamp(warpcheck):
    """What identifies the warpcheck build: path, --version, modification time."""
    rc, out, _, _ = run([warpcheck, "--version"])
    try:
        mtime = os.stat(warpcheck).st_mtime
    except OSError:
        mtime = None
    stamp = {"path": warpcheck, "version": out.strip() if rc == 0 else None,
             "mtime": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(mtime)) if mtime else None}
    # The source tree the build came from, and its commit (uncommitted
    # changes may be in the build too: "dirty").
    cache = os.path.join(os.path.dirname(os.path.dirname(warpcheck)), "CMakeCache.txt")
    try:
        with open(cache) as f:
            src = next((l.split("=", 1)[1].strip() for l in f
                        if l.startswith("CMAKE_HOME_DIRECTORY:")), None)
    except OSError:
        src = None
    if src:
        rc, out, _, _ = run(["git", "-C", src, "rev-parse", "HEAD"])
        rc2, out2, _, _ = run(["git", "-C", src, "status", "--porcelain", "--untracked-files=no"])
        if rc == 0:
            stamp["source"] = src
            stamp["commit"] = out.strip()
            stamp["dirty"] = rc2 == 0 and bool(out2.strip())
    return stamp


def snapshot_build(build, dest):
    """A copy of warpcheck's binary and its share/ (the headers it finds next
    to itself), so that a rebuild during the run changes nothing. Retries
    while the build is being relinked."""
    for attempt in range(30):
        try:
            before = os.stat(os.path.join(build, "bin", "warpcheck")).st_mtime
            shutil.rmtree(dest, ignore_errors=True)
            os.makedirs(os.path.join(dest, "bin"))
            shutil.copy2(os.path.join(build, "bin", "warpcheck"), os.path.join(dest, "bin"))
            if os.path.isdir(os.path.join(build, "share")):
                shutil.copytree(os.path.join(build, "share"), os.path.join(dest, "share"))
            if os.stat(os.path.join(build, "bin", "warpcheck")).st_mtime == before:
                return os.path.join(dest, "bin", "warpcheck")
        except OSError:
            pass
        time.sleep(10)
    sys.exit("realcode: cannot copy a stable warpcheck from %s" % build)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", help="where the repositories are unpacked")
    ap.add_argument("--build", help="warpcheck's build directory")
    ap.add_argument("--list-repos", action="store_true",
                    help="print repository, commit and --corpus subdirectory, and exit")
    ap.add_argument("--manifest", default=os.path.join(HERE, "corpus.json"))
    ap.add_argument("--program", action="append", default=[],
                    help="a program's name or a glob (repeatable); default all")
    ap.add_argument("--json", help="write the numbers and the detail here")
    ap.add_argument("--verbose", action="store_true",
                    help="list the missed kernels and the units nvcc rejects")
    ap.add_argument("--jobs", type=int, default=1, help="nvcc/warpcheck runs at once (1)")
    ap.add_argument("--cache-dir", default=os.path.join(
        os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")),
        "warpcheck-realcode"))
    ap.add_argument("--scratch", help="keep the compile databases and reports here")
    ap.add_argument("--nvcc", help="the ground truth's nvcc (default: the one of the toolkit "
                    "warpcheck uses, as `warpcheck --print-toolkit` says)")
    ap.add_argument("--relative-file", action="store_true",
                    help='write "file" relative to "directory" in the database')
    ap.add_argument("--timeout", type=int, default=300,
                    help="warpcheck's --timeout for one unit (300)")
    ap.add_argument("--in-place", action="store_true",
                    help="run <build>/bin/warpcheck itself, not a copy taken at the start")
    ap.add_argument("--reuse-reports", action="store_true",
                    help="score the reports an earlier run left in --scratch instead of running "
                    "warpcheck (a change to the scoring, re-scored in seconds; the nvcc side "
                    "still runs, from its cache)")
    ap.add_argument("--warpcheck-arg", action="append", default=[],
                    help="an extra warpcheck argument (repeatable)")
    ap.add_argument("--records", help="compare with the H200's per-line measurements in this "
                    "folder (test/hw/realcode); only the programs measured are run")
    args = ap.parse_args()
    if args.list_repos:
        seen = []
        for e in load_manifest(args.manifest)["programs"]:
            if (e["repo"], e["commit"], e["dir"]) not in seen:
                seen.append((e["repo"], e["commit"], e["dir"]))
        for repo, commit, d in seen:
            print("%s %s %s" % (repo, commit, d))
        return 0
    if not args.corpus or not args.build:
        ap.error("--corpus and --build are required")

    args.warpcheck = os.path.join(args.build, "bin", "warpcheck")
    if not os.access(args.warpcheck, os.X_OK):
        ap.error("no warpcheck at %s" % args.warpcheck)
    if not args.nvcc:
        # warpcheck says which toolkit it uses; the ground truth uses the same.
        found = testsupport.print_toolkit(args.warpcheck) or {}
        args.nvcc = found.get("nvcc") if found.get("found") else None
        if not args.nvcc:
            ap.error("warpcheck --print-toolkit found no toolkit with nvcc (%s); give --nvcc"
                     % (found.get("error") or "none found"))
    if not os.access(args.nvcc, os.X_OK):
        ap.error("no nvcc at %s" % args.nvcc)
    demangler = next((t for t in [os.path.join(os.path.dirname(args.nvcc), "cu++filt"),
                                  shutil.which("cu++filt") or "", shutil.which("c++filt") or "",
                                  shutil.which("llvm-cxxfilt") or ""]
                      if t and os.access(t, os.X_OK)), None)
    if not demangler:
        ap.error("no demangler (cu++filt, c++filt or llvm-cxxfilt)")
    args.corpus = os.path.abspath(args.corpus)
    manifest = load_manifest(args.manifest)
    entries = manifest["programs"]
    args.hw_records = None
    if args.records:
        if not os.path.isdir(args.records):
            ap.error("no folder %s" % args.records)
        args.hw_records = load_hw_records(args.records)
        if not args.program:
            entries = [e for e in entries if e["name"] in args.hw_records]
    if args.program:
        entries = [e for e in entries
                   if any(fnmatch.fnmatchcase(e["name"], p) for p in args.program)]
        if not entries:
            ap.error("no program matches %s" % " ".join(args.program))
    missing = sorted({e["dir"] for e in entries
                      if not os.path.isdir(os.path.join(args.corpus, e["dir"]))})
    if missing:
        ap.error("not unpacked under %s: %s" % (args.corpus, ", ".join(missing)))

    start = time.time()
    if args.reuse_reports and not args.scratch:
        ap.error("--reuse-reports needs the --scratch of the run whose reports it scores")
    scratch = args.scratch or tempfile.mkdtemp(prefix="warpcheck-realcode-")
    binary = binary_stamp(args.warpcheck)
    if args.reuse_reports:
        # The reports are an earlier build's: no binary of this run made them.
        binary = {"reused_reports_of": scratch}
    elif not args.in_place:
        args.warpcheck = snapshot_build(args.build, os.path.join(scratch, "warpcheck-build"))
        binary["snapshot"] = args.warpcheck
    version = nvcc_version(args.nvcc)
    width = max(len(e["name"]) for e in entries)
    results = []
    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        for e in entries:
            prog = Program(e, args.corpus, scratch)
            s = measure_program(prog, args, version, demangler, pool)
            results.append(s)
            print(line(s, width), flush=True)
            if "hw" in s:
                print(hw_line(s["hw"]), flush=True)
            if args.verbose:
                for u in s["units"]:
                    if not u["nvcc"]["ok"]:
                        print("    nvcc cannot compile %s: %s" % (u["path"], u["nvcc"]["error"]))
                        continue
                    for k in u["kernels"]:
                        if not k["reached"]:
                            print("    missed %s (%s): %s" % (k["name"], u["path"], k["reason"]))
                    for x in u["extra"]:
                        print("    reported, not in nvcc's list: %s (%s)" % (x, u["path"]))
    total = summarise("TOTAL", {"repo": None, "commit": None},
                      [u for s in results for u in s["units"]])
    print(line(total, width))
    if args.hw_records is not None:
        hw_total = hw_stats()
        for s in results:
            if "hw" in s:
                add_hw(hw_total, s["hw"])
        total["hw"] = hw_total
        print(hw_line(hw_total).replace("    hw:", "TOTAL hw:"))
    elapsed = time.time() - start
    units = [u for s in results for u in s["units"]]
    cached = sum(1 for u in units if u["nvcc"]["cached"])
    if args.reuse_reports:
        print("warpcheck: the reports of the run in %s, scored again" % scratch, file=sys.stderr)
    else:
      print("warpcheck: %s%s" % (binary.get("version"), " (%s%s, built %s)" % (
          binary["commit"][:12], ", uncommitted changes in the tree" if binary.get("dirty") else "",
          binary["mtime"]) if binary.get("commit") else ""), file=sys.stderr)
    print("%d programs, %d units (nvcc: %d cached, %d compiled) in %.0f s" % (
        len(results), len(units), cached, len(units) - cached, elapsed), file=sys.stderr)
    if args.in_place and binary_stamp(args.warpcheck) != binary:
        print("realcode: warning: %s changed during the run; the numbers mix two builds"
              % args.warpcheck, file=sys.stderr)
        binary["changed_during_run"] = True
    if not args.scratch:
        shutil.rmtree(scratch, ignore_errors=True)
    if args.json:
        total.pop("units")
        for k in ("name", "repo", "commit"):
            total.pop(k)
        with open(args.json, "w") as f:
            json.dump({"version": 1, "arch": ARCH, "nvcc": version,
                       "warpcheck": binary, "warpcheck_args": args.warpcheck_arg, "seconds": round(elapsed, 1),
                       "programs": results, "total": total}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
