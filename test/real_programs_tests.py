#!/usr/bin/env python3
"""The inputs of real programs, as their builds lay them out: compile
databases written by build systems (relative files and include folders,
forced includes, -maxrregcount, `.cpp` files compiled as CUDA, architectures
warpcheck does not model), folders of sources where one file includes
another, kernels in headers that several files include, and a summary that
counts every input by what became of it.

Each case writes a small program of its own into a temporary folder. Runs
as one ctest; prints 'N passed, M failed' and exits non-zero on failure.
"""
import argparse
import json
import os
import sys
import textwrap

from testsupport import Results, run, scratch_dir, toolkit_nvcc, warpcheck_binary

RESULTS = Results()
check = RESULTS.check


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(textwrap.dedent(text))
    return path


def report(wc, args, cwd):
    """(exit code, parsed JSON or None, stderr) of a --format=json run."""
    rc, out, err = run([wc, "--format=json"] + args, cwd)
    try:
        return rc, json.loads(out), err
    except ValueError:
        return rc, None, out + err


# A kernel in a header: a column store (32 sectors per request) and a
# shared tile read by column whose extents are a macro from a forced include.
TILE_HEADER = """\
    __global__ void columnStore(const float *in, float *out, int n) {
      __shared__ float tile[TILE][TILE];
      int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
      tile[threadIdx.y][threadIdx.x] = in[y * n + x];
      __syncthreads();
      out[x * n + y] = tile[threadIdx.x][threadIdx.y];
    }
    """

MAIN = """\
    #include "tile.cuh"
    int main() {
      float *a, *b;
      cudaMalloc(&a, 1 << 24);
      cudaMalloc(&b, 1 << 24);
      columnStore<<<dim3(64, 64), dim3(TILE, TILE)>>>(a, b, 2048);
      cudaDeviceSynchronize();
      return 0;
    }
    """

OTHER = """\
    #include "tile.cuh"
    void again(float *a, float *b) { columnStore<<<dim3(64, 64), dim3(TILE, TILE)>>>(a, b, 2048); }
    """


def build_project(root):
    """src/main.cu and src/other.cu include include/tile.cuh; TILE comes from
    a forced include; the database is written from build/, as CMake writes it."""
    write(root, "include/tile.cuh", TILE_HEADER)
    write(root, "include/config.h", "#define TILE 32\n")
    write(root, "src/main.cu", MAIN)
    write(root, "src/other.cu", OTHER)
    os.makedirs(os.path.join(root, "build"), exist_ok=True)
    entries = [
        {"directory": os.path.join(root, "build"), "file": "../src/main.cu",
         "arguments": ["/usr/local/cuda/bin/nvcc", "-I../include", "-include", "../include/config.h",
                       "-arch=sm_80", "-c", "../src/main.cu", "-o", "main.o"]},
        {"directory": os.path.join(root, "build"), "file": "../src/other.cu",
         "arguments": ["/usr/local/cuda/bin/nvcc", "-I", "../include", "-include",
                       "../include/config.h", "-arch=sm_80", "-c", "../src/other.cu"]},
    ]
    with open(os.path.join(root, "build", "compile_commands.json"), "w") as f:
        json.dump(entries, f)


def database_cases(wc, tmp):
    root = os.path.join(tmp, "project")
    build_project(root)
    elsewhere = os.path.join(tmp, "elsewhere")
    os.makedirs(elsewhere)
    # From another directory: every relative path is the entry directory's.
    rc, doc, err = report(wc, ["-p", os.path.join(root, "build")], elsewhere)
    ok = rc == 0 and doc is not None
    if ok:
        statuses = [(os.path.basename(i["file"]), i["status"]) for i in doc["inputs"]]
        ok = statuses == [("main.cu", "analysed"), ("other.cu", "analysed")]
        kernels = doc["kernels"]
        ok = ok and [k["name"] for k in kernels] == ["columnStore", "columnStore"]
        ok = ok and all(k["file"] == os.path.join(root, "include", "tile.cuh") for k in kernels)
        ok = ok and all(k["launch"]["block"] == [32, 32, 1] for k in kernels)
    check("-p from another directory: relative file, -I and -include of the entry's directory",
          ok, json.dumps(doc)[:3000] if doc else err)
    if ok and toolkit_nvcc(wc):
        # The nvcc run for registers found the same headers (it failed
        # silently, falling back to the estimate, when -I stayed relative).
        srcs = [k["registers_source"] for k in kernels]
        check("-p: the nvcc run for registers finds the relative include folders",
              srcs == ["ptxas", "ptxas"], json.dumps([k.get("occupancy_assumptions") for k in kernels]))
    if ok:
        # A finding in a header that two units include is reported once,
        # naming the other launch; the padding fix-it edits the header.
        findings = doc["findings"]
        by_check = {}
        for f in findings:
            by_check.setdefault(f["check"], []).append(f)
        store = by_check.get("cuda-uncoalesced-global-access", [])
        bank = by_check.get("cuda-shared-bank-conflict", [])
        once = len(store) == 1 and len(bank) == 1
        once = once and store[0]["file"] == os.path.join(root, "include", "tile.cuh")
        once = once and "the launch at main.cu:6" in store[0]["message"]
        once = once and any(n["message"] == "the same for the launch at other.cu:2"
                            for n in store[0]["notes"])
        fix = bank[0]["fixes"] if bank else []
        once = once and len(fix) == 1 and fix[0]["replacement"] == "TILE + 1"
        once = once and fix[0]["file"] == os.path.join(root, "include", "tile.cuh")
        check("a header's finding is reported once for both units, its padding fix-it in the header",
              once, json.dumps(findings)[:3000])
    rc, out, err = run([wc, "-p", os.path.join(root, "build")], elsewhere)
    check("text: the header's findings once each, no clang runner boilerplate",
          rc == 0 and out.count("warning: global store 'out[x * n + y]'") == 1 and
          out.count("32-way bank conflict") == 1 and "Error while processing" not in err and
          "generated" not in err and "2 inputs: 2 analysed" in err, out + err)
    # clang-tidy's own behaviour: no header reports.
    rc, doc, err = report(wc, ["-p", os.path.join(root, "build"), "--header-filter="], elsewhere)
    check("--header-filter= restores clang-tidy's default: nothing from headers",
          rc == 0 and doc is not None and doc["findings"] == [] and doc["kernels"] == [], err)
    rc, out, err = run([wc, "-p", os.path.join(root, "build"), "--header-filter=("], elsewhere)
    check("a malformed --header-filter is a usage error", rc == 2 and "header-filter" in err, err)
    # A folder argument with -p: the database's files under it.
    rc, doc, err = report(wc, ["-p", os.path.join(root, "build"), os.path.join(root, "src")], elsewhere)
    check("-p with a folder: the database's entries under it",
          rc == 0 and doc is not None and len(doc["inputs"]) == 2, err)


def register_cap_cases(wc, tmp):
    root = os.path.join(tmp, "regs")
    write(root, "heavy.cu", """\
        __global__ void heavy(const float *in, float *out) {
          float acc[48];
        #pragma unroll
          for (int k = 0; k < 48; ++k) acc[k] = in[threadIdx.x + k * 1024];
          float s = 0;
        #pragma unroll
          for (int k = 0; k < 48; ++k) s += acc[k] * acc[(k * 7) % 48];
          out[threadIdx.x] = s;
        }
        int main() { heavy<<<1, 128>>>(0, 0); }
        """)
    for extra in ([], ["--no-cuda"]):
        rc, free_doc, err = report(wc, extra + ["heavy.cu"], root)
        with open(os.path.join(root, "compile_commands.json"), "w") as f:
            json.dump([{"directory": root, "file": "heavy.cu",
                        "arguments": ["nvcc", "-arch=sm_90", "-maxrregcount=24", "-c", "heavy.cu"]}], f)
        rc2, capped_doc, err2 = report(wc, extra + ["-p", root], root)
        ok = free_doc is not None and capped_doc is not None
        if ok:
            free = free_doc["kernels"][0]["registers"]
            capped = capped_doc["kernels"][0]["registers"]
            ok = free is not None and free > 24 and capped == 24
        check("the build's -maxrregcount caps the registers%s" % (" (estimate)" if extra else ""),
              ok, (json.dumps(free_doc) if free_doc else err)[:1500] +
              (json.dumps(capped_doc) if capped_doc else err2)[:1500])


def entry_cases(wc, tmp):
    root = os.path.join(tmp, "entries")
    kernel = """\
        __global__ void strided(const float *in, float *out) { out[threadIdx.x] = in[threadIdx.x * 32]; }
        int main() { strided<<<1, 64>>>(0, 0); }
        """
    write(root, "as_cuda.cpp", kernel)
    write(root, "host.cpp", "int add(int a, int b) { return a + b; }\n")
    write(root, "newer.cu", kernel)
    write(root, "mixed.cu", kernel)
    write(root, "native.cu", kernel)
    write(root, "nested.cu", """\
        __global__ void child(float *a) { a[threadIdx.x * 2] = 0; }
        template <int N> __global__ void tiled(float *a, int n) { a[threadIdx.x * N] = n; }
        __global__ void parent(float *a, const int *counts) {
          a[threadIdx.x * 32] = 1;
          if (threadIdx.x == 0) child<<<1, 32>>>(a);
          if (threadIdx.x == 0)
            tiled<4>
                <<<1, 32>>>(a, counts[blockIdx.x * 64]);
          a[threadIdx.x * 2] = 2;
        }
        int main() { parent<<<1, 64>>>(0, 0); }
        """)
    entries = [
        {"directory": root, "file": "as_cuda.cpp",
         "arguments": ["nvcc", "-x", "cu", "-arch=sm_90", "-c", "as_cuda.cpp"]},
        {"directory": root, "file": "host.cpp", "arguments": ["g++", "-c", "host.cpp"]},
        {"directory": root, "file": "newer.cu",
         "arguments": ["nvcc", "-gencode", "arch=compute_130,code=sm_130", "-c", "newer.cu"]},
        {"directory": root, "file": "mixed.cu",
         "arguments": ["nvcc", "-arch=sm_131", "-arch=sm_86", "-c", "mixed.cu"]},
        {"directory": root, "file": "native.cu", "arguments": ["nvcc", "-arch=native", "-c", "native.cu"]},
        {"directory": root, "file": "nested.cu",
         "arguments": ["nvcc", "-arch=sm_90", "-rdc=true", "-c", "nested.cu"]},
    ]
    with open(os.path.join(root, "compile_commands.json"), "w") as f:
        json.dump(entries, f)
    rc, doc, err = report(wc, ["-p", root], root)
    ok = rc == 3 and doc is not None
    inputs = {os.path.basename(i["file"]): i for i in doc["inputs"]} if doc else {}
    check("-p: a .cpp compiled with -x cu is analysed, a host .cpp is not an input",
          ok and inputs.get("as_cuda.cpp", {}).get("status") == "analysed" and "host.cpp" not in inputs,
          json.dumps(inputs))
    newer = inputs.get("newer.cu", {})
    check("an architecture the table lacks is refused by name, the input not analysed",
          newer.get("status") == "not_analysed" and "sm_130" in newer.get("cause", "") and
          "sm_90" in newer.get("cause", "") and "newer.cu" in err and "sm_130" in err, json.dumps(newer) + err)
    mixed = inputs.get("mixed.cu", {})
    check("an unknown architecture beside a known one: modelled for the known one, with a note",
          mixed.get("status") == "analysed" and any("sm_131" in n and "sm_86" in n for n in mixed.get("notes", [])),
          json.dumps(mixed))
    native = inputs.get("native.cu", {})
    check("-arch=native: modelled for sm_90 with a note",
          native.get("status") == "analysed" and any("-arch=native" in n and "sm_90" in n
                                                     for n in native.get("notes", [])), json.dumps(native))
    if doc:
        parent = [k for k in doc["kernels"] if k["name"] == "parent"]
        check("a kernel that launches another from device code (-rdc=true) is analysed",
              len(parent) == 1 and parent[0]["status"] == "analysed" and
              any(a["sectors_per_request"] == 32 for a in parent[0]["accesses"]), json.dumps(parent))
        # A template kernel launched from device code: clang 19 leaves no
        # candidate ("no matching function for call to 'tiled'"), the
        # accesses around the launch and its argument's load are the parent's.
        lines = sorted((a["line"], a["op"], a["sectors_per_request"])
                       for a in (parent[0]["accesses"] if len(parent) == 1 else []))
        check("a template kernel launched from device code: the parent's accesses, "
              "the argument's load, and the launch said not followed",
              lines == [(4, "store", 32), (8, "load", 1), (9, "store", 8)] and
              any("launched from device code" in l for l in parent[0]["limitations"]),
              json.dumps(parent))
        # A non-template kernel launched from device code: clang 19 drops
        # the statement whole ("reference to __global__ function"), said in
        # the parent's limitations with its place.
        check("a non-template kernel launched from device code: the dropped launch said, with its line",
              len(parent) == 1 and
              any("launch from device code at nested.cu:5:" in l and "clang 19 drops the statement" in l
                  for l in parent[0]["limitations"]), json.dumps(parent))
        arches = {os.path.basename(k["file"]): k.get("occupancy", {}) for k in doc["kernels"] if k.get("occupancy")}
        check("the model's architecture follows the build: sm_86 for the mixed entry",
              arches.get("mixed.cu", {}).get("arch") == "sm_86", json.dumps(arches))


def folder_cases(wc, tmp):
    root = os.path.join(tmp, "tree")
    write(root, "src/kernels/column.cu", """\
        __global__ void column(const float *in, float *out) { out[threadIdx.x] = in[threadIdx.x * 32]; }
        """)
    write(root, "src/wrapper.cu", """\
        #include "kernels/column.cu"
        int main() { column<<<1, 64>>>(0, 0); }
        """)
    write(root, "src/lib/lone.cuh", """\
        __global__ void lone(float *out) { out[threadIdx.x * 8] = 0; }
        """)
    write(root, "src/.hidden/skip.cu", "__global__ void skipped() {}\n")
    rc, doc, err = report(wc, ["src"], root)
    ok = rc == 0 and doc is not None
    files = [i["file"] for i in doc["inputs"]] if ok else []
    statuses = [i["status"] for i in doc["inputs"]] if ok else []
    check("a folder: its .cu and .cuh files in path order, an included .cu analysed through its includer",
          files == ["src/lib/lone.cuh", "src/wrapper.cu", "src/kernels/column.cu"] and
          statuses == ["analysed", "analysed", "included"], json.dumps(doc)[:2000] if doc else err)
    if ok:
        launches = {k["name"]: k["launch"]["description"] for k in doc["kernels"]}
        check("the included kernel gets its includer's launch shape",
              launches.get("column") == "the launch at wrapper.cu:2" and "skipped" not in launches,
              json.dumps(launches))
    os.makedirs(os.path.join(root, "empty-folder"))
    rc, out, err = run([wc, "empty-folder"], root)
    check("a folder with no CUDA file: not analysed, named", rc == 3 and "empty-folder" in err, err)


def counting_cases(wc, tmp):
    root = os.path.join(tmp, "counts")
    write(root, "good.cu", """\
        __global__ void strided(const float *in, float *out) { out[threadIdx.x] = in[threadIdx.x * 32]; }
        int main() { strided<<<1, 64>>>(0, 0); }
        """)
    write(root, "host_broken.cu", """\
        #include <cuda_runtime.h>
        __global__ void fine(const float *in, float *out) { out[threadIdx.x] = in[threadIdx.x * 32]; }
        __global__ void broken(float *out) { out[threadIdx.x] = notDeclaredAnywhere; }
        int main() { undeclaredHostHelper(); fine<<<1, 64>>>(0, 0); }
        """)
    rc, doc, err = report(wc, ["good.cu", "host_broken.cu", "missing.cu"], root)
    ok = rc == 3 and doc is not None
    if ok:
        s = doc["summary"]
        ok = (s["inputs"], s["inputs_analysed"], s["inputs_analysed_with_errors"],
              s["inputs_not_analysed"], s["kernels_analysed"], s["kernels_with_errors"]) == (3, 1, 1, 1, 2, 1)
        ok = ok and sorted(f["file"].split("/")[-1] for f in doc["findings"]) == ["good.cu", "host_broken.cu"]
        broken = [k for k in doc["kernels"] if k["name"] == "broken"]
        ok = ok and len(broken) == 1 and broken[0]["status"] == "error" and \
            "notDeclaredAnywhere" in broken[0]["error"]["message"]
    check("JSON counts: 1 analysed, 1 analysed with errors (its good kernel reported), 1 not analysed",
          ok, json.dumps(doc.get("summary") if doc else err))
    for fmt in ("sarif", "html"):
        rc, out, err = run([wc, "--format=" + fmt, "host_broken.cu"], root)
        check("%s lists the kernel of a file with host errors" % fmt,
              rc == 3 and "in[threadIdx.x * 32]" in out, out[-1500:] + err)
    rc, out, err = run([wc, "good.cu", "host_broken.cu", "missing.cu"], root)
    check("the summary line counts each state and never calls a failed input analysed",
          rc == 3 and "2 findings; 2 kernels analysed (2 launch shapes), 1 kernel does not compile; "
          "3 inputs: 1 analysed, 1 analysed with errors, 1 not analysed" in err and
          "missing.cu: no such file" in err and "Error while processing" not in err, err)


# A __shared__ object whose type has a constructor (the SDK's `__shared__
# cuda::barrier<cuda::thread_scope_block> bar;`): nvcc compiles it (it only
# warns that it does not initialise it), clang 19 refuses the declaration
# and then every use of it. The plain kernel is analysed all the same (its
# store after the barrier's use is costed); the template's instance, whose
# body clang drops without a word, is reported as not compiling, naming the
# object, not left out.
SHARED_OBJECT = """\
    struct Barrier {
      int count;
      __device__ Barrier() : count(0) {}
      __device__ void arrive() { atomicAdd(&count, 1); }
    };
    template <int N> __global__ void strided(float *out) {
      __shared__ Barrier bar;
      bar.arrive();
      out[threadIdx.x * N] = 1.0f;
    }
    __global__ void plain(float *out) {
      __shared__ Barrier bar;
      if (threadIdx.x == 0)
        bar.arrive();
      out[threadIdx.x * 2] = 1.0f;
    }
    int main() {
      strided<2><<<1, 64>>>(nullptr);
      plain<<<1, 64>>>(nullptr);
    }
    """


def shared_object_cases(wc, tmp):
    root = os.path.join(tmp, "shared-object")
    write(root, "barrier.cu", SHARED_OBJECT)
    rc, doc, err = report(wc, ["barrier.cu"], root)
    kernels = {k["name"]: k for k in doc["kernels"]} if doc else {}
    plain = kernels.get("plain", {})
    stores = [(a["line"], a.get("sectors_per_request")) for a in plain.get("accesses", [])
              if a["op"] == "store" and a["space"] == "global"]
    check("a kernel with a __shared__ object clang refuses is analysed past its uses",
          plain.get("status") == "analysed" and stores == [(15, 8)], json.dumps(plain)[:2000] or err)
    instance = kernels.get("strided<2>", {})
    check("the template instance clang drops is reported as not compiling, naming the object",
          instance.get("status") == "error" and
          "refuses the __shared__ object 'bar'" in instance.get("error", {}).get("message", "") and
          instance.get("error", {}).get("line") == 7, json.dumps(instance)[:2000] or err)


# Dynamic parallelism: a kernel launching another from device code, built
# with -rdc=true as its build must be. clang does not compile the device-side
# launch (the unit is analysed with errors); nvcc does, but only in separate
# compilation mode, so the registers come from ptxas only when the run
# for them retries with -rdc=true.
DEVICE_LAUNCH = """\
    __global__ void child(float *out, int n) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      if (i < n) out[i] = 1.0f;
    }
    __global__ void parent(float *out, int n) {
      if (threadIdx.x == 0) child<<<(n + 31) / 32, 32>>>(out, n);
    }
    int main() { parent<<<1, 64>>>(nullptr, 1024); }
    """


def device_launch_cases(wc, tmp):
    if not toolkit_nvcc(wc):
        return
    root = os.path.join(tmp, "cdp")
    write(root, "cdp.cu", DEVICE_LAUNCH)
    with open(os.path.join(root, "compile_commands.json"), "w") as f:
        json.dump([{"directory": root, "file": "cdp.cu",
                    "arguments": ["/usr/local/cuda/bin/nvcc", "-arch=sm_90", "-rdc=true",
                                  "-c", "cdp.cu", "-o", "cdp.o"]}], f)
    # A cache of its own: the retry is what is tested, not an earlier answer.
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(tmp, "cdp-cache"))
    rc, out, err = run([wc, "--format=json", "-p", root, os.path.join(root, "cdp.cu")], root, env=env)
    try:
        doc = json.loads(out)
    except ValueError:
        doc = None
    sources = {k["name"]: k.get("registers_source") for k in doc["kernels"]} if doc else {}
    check("-rdc=true with a device-side launch: registers from ptxas for both kernels",
          sources == {"child": "ptxas", "parent": "ptxas"}, json.dumps(doc)[:3000] if doc else err)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    args = ap.parse_args()
    wc = warpcheck_binary(args.build)
    with scratch_dir("warpcheck-real-") as tmp:
        database_cases(wc, tmp)
        register_cap_cases(wc, tmp)
        entry_cases(wc, tmp)
        folder_cases(wc, tmp)
        counting_cases(wc, tmp)
        shared_object_cases(wc, tmp)
        device_launch_cases(wc, tmp)
    return RESULTS.summary()


if __name__ == "__main__":
    sys.exit(main())
