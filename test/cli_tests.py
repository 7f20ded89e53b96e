#!/usr/bin/env python3
"""Command-line behaviour of warpcheck and the plugin: bad input gets a clear
error naming the file and the cause and a documented exit code; hostile
compile databases start nothing; one broken file never stops the others; a
CCCL-heavy unit parses through both doors; the JSON contract holds; SARIF
carries what code scanning needs; HTML escapes what the source holds.

Runs as one ctest; prints 'N passed, M failed' and exits non-zero on failure.
"""
import json
import os
import re
import sys
import textwrap
import urllib.parse

from testsupport import (CCCL_UNIT, Results, door_arguments, print_toolkit, run, scratch_dir,
                         toolkit_with_fake_nvcc, write_in)

RESULTS = Results()
check = RESULTS.check


GOOD = textwrap.dedent("""\
    __global__ void strided(const float *in, float *out) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      out[i] = in[i * 32];
    }
    int main() {
      float *in, *out;
      cudaMalloc(&in, 1 << 20);
      cudaMalloc(&out, 1 << 20);
      strided<<<4, 128>>>(in, out);
      return 0;
    }
    """)

BROKEN = "__global__ void k(float *p) { p[threadIdx.x] = ; }\n"


SPILLING_KERNEL = """\
#include <cuda_runtime.h>
__global__ void heavy(const float *in, float *out) {
  float acc[160];
#pragma unroll
  for (int k = 0; k < 160; ++k)
    acc[k] = in[threadIdx.x + k * 1024];
  float s = 0;
#pragma unroll
  for (int r = 1; r < 6; ++r)
#pragma unroll
    for (int k = 0; k < 160; ++k)
      s += acc[k] * acc[(k * r + 7) % 160];
  out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
int main() {
  float *in, *out;
  cudaMalloc(&in, 1 << 24);
  cudaMalloc(&out, 1 << 24);
  heavy<<<64, 256>>>(in, out);
  cudaDeviceSynchronize();
}
"""


def loads_of(out, kernel):
    """(block x, sectors per request, status, context) of each load of the
    kernel's launches in a JSON report; empty when the report is not one."""
    try:
        doc = json.loads(out)
        return sorted((k["launch"]["block"][0], a["sectors_per_request"], a["status"],
                       tuple(k["launch"]["context"]))
                      for k in doc["kernels"] if k["name"] == kernel
                      for a in k["accesses"] if a["op"] == "load")
    except (ValueError, KeyError, IndexError, TypeError):
        return []


def occupancy_sweep_cases(wc):
    """warpcheck occupancy --sweep: every block size, and the one
    cudaOccupancyMaxPotentialBlockSize suggests (the model's choice is
    compared with cuda_occupancy.h's in the model's unit tests)."""
    # 72 registers on sm_90: 2304 registers a warp, 28 warps per SM; one
    # block of 896 threads holds them all, larger blocks cannot run.
    rc, out, err = run([wc, "occupancy", "--arch=sm_90", "--registers=72", "--sweep", "--format=csv"])
    rows = [line.split(",") for line in out.strip().splitlines()]
    by_block = {int(r[4]): r for r in rows[1:]} if rc == 0 and len(rows) > 1 else {}
    suggested = [b for b, r in by_block.items() if r[9] == "1"]
    check("occupancy --sweep: 32 block sizes, 896 suggested, 960 cannot run",
          rc == 0 and sorted(by_block) == list(range(32, 1025, 32)) and suggested == [896] and
          by_block[896][5:9] == ["1", "28", "0.4375", "registers"] and
          by_block[960][5] == "0" and by_block[960][8] == "invalid", out + err)
    rc, out, err = run([wc, "occupancy", "--arch=sm_90", "--registers=32", "--sweep"])
    check("occupancy --sweep text: the suggestion marked and said",
          rc == 0 and "*1024          2        64       100%  warps" in out and
          "suggested block size 1024 (as cudaOccupancyMaxPotentialBlockSize): 2 blocks per SM" in out,
          out + err)
    # Dynamic shared memory per thread: 100 bytes a thread, 228 KiB per SM.
    rc, out, err = run([wc, "occupancy", "--arch=sm_90", "--registers=32", "--sweep",
                        "--dynamic-shared-per-thread=100", "--format=json"])
    doc = json.loads(out) if rc == 0 and out.strip().startswith("[") else []
    ok = len(doc) == 1 and doc[0]["arch"] == "sm_90" and len(doc[0]["sweep"]) == 32
    ok = ok and all(r["dynamic_shared"] == 100 * r["block"] for r in doc[0]["sweep"])
    check("occupancy --sweep json: dynamic shared memory grows with the block",
          ok and doc[0]["suggested_block"] is not None, out + err)
    rc, out, err = run([wc, "occupancy", "--arch=sm_90", "--registers=32", "--block=256", "--sweep"])
    check("occupancy --sweep with --block is a usage error", rc == 2 and "--sweep" in err, out + err)
    # As the runtime chose on the device (test/hw/potential_block_size.json,
    # pbs_kernel<24,0>, 100 bytes a thread): 256 for a kernel that keeps the
    # default 48 KB limit; 1024 once it raises the limit to 100 KB.
    rc, out, err = run([wc, "occupancy", "--arch=sm_90", "--registers=24", "--sweep",
                        "--dynamic-shared-per-thread=100", "--format=json"])
    doc = json.loads(out) if rc == 0 else [{}]
    rc2, out2, err2 = run([wc, "occupancy", "--arch=sm_90", "--registers=24", "--sweep",
                           "--dynamic-shared-per-thread=100", "--max-dynamic-shared=102400",
                           "--format=json"])
    doc2 = json.loads(out2) if rc2 == 0 else [{}]
    check("occupancy --sweep, 100 B a thread: 256 suggested as the runtime chose (8 blocks per "
          "SM), 1024 with --max-dynamic-shared=102400 (the opt-in)",
          doc[0].get("suggested_block") == 256 and doc[0].get("suggested_blocks_per_sm") == 8 and
          doc2[0].get("suggested_block") == 1024, out[-300:] + err + out2[-300:] + err2)
    rc, out, err = run([wc, "occupancy", "--arch=sm_90", "--registers=24", "--sweep",
                        "--dynamic-shared-per-thread=100"])
    check("occupancy --sweep text: the block sizes the default limit refuses, and the option "
          "that lifts it",
          rc == 0 and "from block 512: more dynamic shared memory than the kernel's "
          "cudaFuncAttributeMaxDynamicSharedMemorySize of 49152 B (the default)" in out and
          "--max-dynamic-shared=<bytes>" in out, out[-600:] + err)
    # One configuration: the per-limit breakdown, and the opt-in a block
    # above 48 KB of shared memory needs. sm_90, 32 registers, 256 threads,
    # 60000 B dynamic: warps 64 / 8 = 8 blocks, registers 65536 / (8 x 1024)
    # = 8, shared memory 233472 / 61056 (60000 + 1024 reserved, in 128-byte
    # units) = 3, 32 block slots, 64 barriers.
    rc, out, err = run([wc, "occupancy", "--arch=sm_90", "--registers=32", "--block=256",
                        "--dynamic-shared=60000"])
    check("occupancy text: the blocks each resource allows, and the opt-in the block needs",
          rc == 0 and "3 active blocks per SM" in out and "blocks per SM by warps 8, registers 8, "
          "shared memory 3, blocks 32, barriers 64" in out and
          "needs cudaFuncAttributeMaxDynamicSharedMemorySize >= 60000" in out, out + err)
    rc, out, err = run([wc, "occupancy", "--arch=sm_90", "--registers=32", "--block=256",
                        "--dynamic-shared=60000", "--format=json"])
    doc = json.loads(out) if rc == 0 else [{}]
    check("occupancy json: limits and needs_opt_in",
          doc[0].get("limits") == {"warps": 8, "registers": 8, "shared_memory": 3, "blocks": 32,
                                   "barriers": 64} and doc[0].get("needs_opt_in") is True,
          out + err)
    rc, out, err = run([wc, "occupancy", "--arch=sm_90", "--registers=72", "--sweep",
                        "--format=csv"])
    rows = [line.split(",") for line in out.strip().splitlines()]
    row = {r[4]: r for r in rows[1:]}.get("896", [])
    check("occupancy --sweep csv: the per-limit columns (896 threads of 72 registers: warps 2, "
          "registers 1, shared memory 228, blocks 32, barriers 64; no opt-in)",
          rows and rows[0][10:] == ["limit_warps", "limit_registers", "limit_shared_memory",
                                    "limit_blocks", "limit_barriers", "needs_opt_in"] and
          row[10:] == ["2", "1", "228", "32", "64", "0"], out[:600] + err)
    occupancy_sweep_svg_cases(wc)


def exit_code_docs_cases(wc, source):
    """docs/report-formats.md's exit-code table says what --help says: the
    same codes, and for the usage errors (2) the same options."""
    import re
    _, help_text, _ = run([wc, "--help"])
    section = help_text[help_text.index("EXIT CODES:"):]
    paragraphs = dict(re.findall(r"^  ([0-4])  (.*?)(?=^  [0-4]  |^\S|\Z)", section, re.S | re.M))
    with open(os.path.join(source, "docs", "report-formats.md"), encoding="utf-8") as f:
        docs = f.read()
    rows = dict(re.findall(r"^\| ([0-4]) \| (.*) \|$", docs, re.M))
    options = lambda text: set(re.findall(r"(?<![\w-])--[a-z][a-z-]*", text))
    check("docs/report-formats.md's exit codes are --help's (0 to 4), and code 2 names the same "
          "options (%s)" % " ".join(sorted(options(rows.get("2", "")))),
          sorted(rows) == sorted(paragraphs) == list("01234") and
          options(rows["2"]) == options(paragraphs["2"]) and
          "configuration" in rows["2"] and "configuration" in paragraphs["2"],
          "docs %s\nhelp %s" % (sorted(options(rows.get("2", ""))),
                                sorted(options(paragraphs.get("2", "")))))


def occupancy_sweep_svg_cases(wc):
    """--sweep --format=svg: a standalone SVG document, one panel per
    architecture, whose curve is the CSV's numbers (x: 52 + block / 1024 x
    314, y: 204 - occupancy x 180, the panel's plot area) and whose dashed
    line stands at the suggested block size."""
    import xml.etree.ElementTree as ET
    args = ["occupancy", "--arch=sm_90,sm_121", "--registers=72", "--static-shared=8192",
            "--sweep"]
    rc, csv_out, err = run([wc] + args + ["--format=csv"])
    rows = [line.split(",") for line in csv_out.strip().splitlines()[1:]] if rc == 0 else []
    rc, out, err = run([wc] + args + ["--format=svg"])
    ns = {"s": "http://www.w3.org/2000/svg"}
    try:
        root = ET.fromstring(out.encode()) if rc == 0 else None
    except ET.ParseError as e:
        root, err = None, err + str(e)
    check("occupancy --sweep --format=svg: well-formed SVG with its own styles",
          root is not None and root.tag == "{http://www.w3.org/2000/svg}svg" and
          root.find("s:style", ns) is not None and root.find(".//s:script", ns) is None,
          out[:400] + err)
    if root is None:
        return
    panels = root.findall("s:svg", ns)
    titles = [t.text for t in root.findall("s:text", ns)]
    check("occupancy --sweep --format=svg: a panel per architecture, titled",
          len(panels) == 2 and titles == ["sm_90 · 72 registers · 8192 B shared",
                                           "sm_121 · 72 registers · 8192 B shared"], str(titles))
    for panel, arch in zip(panels, ["sm_90", "sm_121"]):
        want = [r for r in rows if r[0] == arch]
        points = [tuple(float(v) for v in p.split(","))
                  for p in panel.find("s:polyline", ns).attrib["points"].split()]
        expected = [(52 + int(r[4]) / 1024 * 314, 204 - float(r[7]) * 180) for r in want]
        suggested = [int(r[4]) for r in want if r[9] == "1"]
        line = [l for l in panel.findall("s:line", ns) if l.attrib.get("class") == "suggested"]
        check("occupancy --sweep --format=svg: %s's curve is the CSV's %d points, the dashed "
              "line at the suggested %s" % (arch, len(want), suggested),
              len(points) == len(want) == 32 and
              all(abs(a - c) < 0.06 and abs(b - d) < 0.06
                  for (a, b), (c, d) in zip(points, expected)) and
              len(suggested) == 1 and len(line) == 1 and
              abs(float(line[0].attrib["x1"]) - (52 + suggested[0] / 1024 * 314)) < 0.06,
              str(points[:4]) + " / " + str(expected[:4]))
    rc, out, err = run([wc, "occupancy", "--arch=sm_90", "--registers=32", "--block=256",
                        "--format=svg"])
    check("occupancy --format=svg without --sweep is a usage error",
          rc == 2 and "svg with --sweep" in err, out + err)


def main():
    args, wc, plugin = door_arguments("--source")
    occupancy_sweep_cases(wc)
    exit_code_docs_cases(wc, args.source)
    with scratch_dir("warpcheck-cli-") as tmp:
        good = os.path.join(tmp, "good.cu")
        broken = os.path.join(tmp, "broken.cu")
        with open(good, "w") as f:
            f.write(GOOD)
        with open(broken, "w") as f:
            f.write(BROKEN)

        # --help documents the exit codes; --version; --list-checks.
        rc, out, err = run([wc, "--help"])
        check("help exits 0 and documents exit codes", rc == 0 and "EXIT CODES" in out, out + err)
        rc, out, err = run([wc, "--version"])
        check("version", rc == 0 and out.startswith("warpcheck "), out + err)
        rc, out, err = run([wc, "--list-checks"])
        check("list-checks shows cuda-uncoalesced-global-access",
              rc == 0 and "cuda-uncoalesced-global-access" in out, out + err)

        # The plugin in clang-tidy-19 lists the same checks.
        rc, out, err = run([args.clang_tidy, "-load", plugin, "-checks=-*,cuda-*", "--list-checks"])
        check("plugin lists cuda-* checks", rc == 0 and "cuda-uncoalesced-global-access" in out, out + err)

        # A real finding, text and JSON.
        rc, out, err = run([wc, "good.cu"], cwd=tmp)
        check("good file: exit 0 and a finding",
              rc == 0 and "good.cu:3:12: warning: global load 'in[i * 32]' touches 32 sectors per warp request (ideal 4, 12.5% efficiency)" in out,
              out + err)
        rc, out, err = run([wc, "--format=json", "good.cu"], cwd=tmp)
        ok = rc == 0
        try:
            doc = json.loads(out)
            k = doc["kernels"][0]
            acc = [a for a in k["accesses"] if a["op"] == "load"][0]
            ok = ok and doc["version"] == 1 and k["name"] == "strided" and k["launch"]["block"] == [128, 1, 1]
            ok = ok and acc["sectors_per_request"] == 32 and acc["ideal_sectors_per_request"] == 4
            ok = ok and acc["lines_per_request"] == 32 and acc["wavefronts_per_request"] is None
            ok = ok and acc["status"] == "exact" and acc["space"] == "global" and acc["bytes_per_lane"] == 4
            ok = ok and abs(acc["efficiency"] - 0.125) < 1e-9
            ok = ok and all(key in acc for key in ("file", "line", "column"))
            ok = ok and "aggregated" in acc and acc["aggregated"] is None
            f = doc["findings"][0]
            ok = ok and f["check"] == "cuda-uncoalesced-global-access" and f["severity"] == "warning"
            ok = ok and f["line"] == 3 and f["column"] == 12
        except Exception as e:  # noqa: BLE001
            ok = False
            out += "\n" + repr(e)
        check("json contract fields and numbers", ok, out + err)

        # Global atomics say whether the compiler aggregates them per warp.
        atomics = os.path.join(args.source, "test", "inputs", "atomics.cu")
        rc, out, err = run([wc, "--format=json", atomics], cwd=tmp)
        try:
            acc = {k["name"]: a for k in json.loads(out)["kernels"] for a in k["accesses"]
                   if a["op"] == "atomic"}
            ok = (acc["countAll"]["aggregated"] is True and acc["countAll"]["sectors_per_request"] == 1
                  and acc["sumFloats"]["aggregated"] is False and acc["sumFloats"]["sectors_per_request"] == 32)
        except Exception as e:  # noqa: BLE001
            ok = False
            out += "\n" + repr(e)
        check("json: aggregated atomics", rc == 0 and ok, out + err)

        # -o writes the report to a file.
        rep = os.path.join(tmp, "report.json")
        rc, out, err = run([wc, "--format=json", "-o", rep, "good.cu"], cwd=tmp)
        check("-o writes the report", rc == 0 and os.path.exists(rep) and json.load(open(rep))["version"] == 1, err)

        # SARIF 2.1.0 for code scanning: every result has what GitHub
        # requires (ruleId, message.text, a location with a uri and a
        # startLine >= 1), a rule per check, notes as related locations.
        def sarif_run(out):
            doc = json.loads(out)
            assert doc["version"] == "2.1.0" and "sarif-schema-2.1.0" in doc["$schema"]
            run_ = doc["runs"][0]
            rules = [r["id"] for r in run_["tool"]["driver"]["rules"]]
            for r in run_["results"]:
                loc = r["locations"][0]["physicalLocation"]
                assert r["ruleId"] in rules and rules[r["ruleIndex"]] == r["ruleId"]
                assert r["message"]["text"] and loc["artifactLocation"]["uri"]
                assert loc["region"]["startLine"] >= 1
            return run_

        rc, version, _ = run([wc, "--version"])
        rc, out, err = run([wc, "--format=sarif", "good.cu"], cwd=tmp)
        ok = rc == 0
        try:
            r = sarif_run(out)
            driver = r["tool"]["driver"]
            res = r["results"][0]
            loc = res["locations"][0]["physicalLocation"]
            ok = ok and driver["name"] == "warpcheck" and version.split()[1] == driver["version"]
            ok = ok and [x["id"] for x in driver["rules"]] == ["cuda-uncoalesced-global-access"]
            ok = ok and res["ruleId"] == "cuda-uncoalesced-global-access" and res["level"] == "warning"
            ok = ok and loc["artifactLocation"] == {"uri": "good.cu", "uriBaseId": "%SRCROOT%"}
            ok = ok and loc["region"]["startLine"] == 3 and loc["region"]["startColumn"] == 12
            ok = ok and res["message"]["text"].startswith("global load 'in[i * 32]' touches 32 sectors")
            ok = ok and res["relatedLocations"][0]["message"]["text"]
            ok = ok and r["invocations"][0]["executionSuccessful"] is True
        except Exception as e:  # noqa: BLE001
            ok = False
            out += "\n" + repr(e)
        check("sarif: version, schema, rule, result at good.cu:3:12", ok, out + err)
        bank = os.path.join(args.source, "test", "inputs", "cuda-shared-bank-conflict.cu")
        rc, out, err = run([wc, "--format=sarif", bank], cwd=tmp)
        ok = rc == 0
        try:
            text = open(bank, encoding="utf-8").read()
            fixes = [f for res in sarif_run(out)["results"] for f in res.get("fixes", [])]
            change = fixes[0]["artifactChanges"][0]
            rep_ = change["replacements"][0]
            start = rep_["deletedRegion"]["charOffset"]
            end = start + rep_["deletedRegion"]["charLength"]
            patched = text[:start] + rep_["insertedContent"]["text"] + text[end:]
            # Outside the current directory: an absolute file:// URI.
            ok = ok and change["artifactLocation"]["uri"] == "file://" + urllib.parse.quote(bank)
            ok = ok and "__shared__ float tile[32][33];" in patched and text[start:end] == "32"
        except Exception as e:  # noqa: BLE001
            ok = False
            out += "\n" + repr(e)
        check("sarif: the padding fix-it as a fix (deletedRegion, insertedContent)", ok, out[-3000:] + err)
        rc, out, err = run([wc, "--format=sarif", "broken.cu", "good.cu"], cwd=tmp)
        ok = rc == 3
        try:
            r = sarif_run(out)
            inv = r["invocations"][0]
            note = inv["toolExecutionNotifications"][0]
            ok = ok and inv["executionSuccessful"] is False and note["level"] == "error"
            ok = ok and note["message"]["text"] and \
                note["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "broken.cu"
            ok = ok and [x["ruleId"] for x in r["results"]] == ["cuda-uncoalesced-global-access"]
        except Exception as e:  # noqa: BLE001
            ok = False
            out += "\n" + repr(e)
        check("sarif: an unparseable input is an error notification, exit 3", ok, out + err)

        # HTML for audits: self-contained (one inline script, the report's
        # own), and nothing from the analysed code (file names, expressions,
        # messages) reaches it unescaped.
        rc, out, err = run([wc, "--format=html", "good.cu"], cwd=tmp)
        check("html: the finding, escaped, and the access table",
              rc == 0 and out.startswith("<!DOCTYPE html>") and
              "global load &#39;in[i * 32]&#39; touches 32 sectors per warp request" in out and
              "<code>in[i * 32]</code></td><td>global</td><td>load</td><td>32 (ideal 4)</td>" in out and
              out.count("<script") == 1 and "http" not in out, out + err)
        hostile = os.path.join(tmp, "x<script>&.cu")
        with open(hostile, "w") as f:
            f.write(GOOD.replace("in[i * 32]", "in[i /*<script>alert('&')</script>*/ * 32]"))
        rc, out, err = run([wc, "--format=html", "x<script>&.cu"], cwd=tmp)
        check("html: <script> and & from the source and file name are escaped",
              rc == 0 and out.lower().count("<script") == 1 and "x&lt;script&gt;&amp;.cu:3:12" in out and
              "/*&lt;script&gt;alert(&#39;&amp;&#39;)&lt;/script&gt;*/" in out, out + err)
        os.remove(hostile)
        rc, out, err = run([wc, "--format=xml", "good.cu"], cwd=tmp)
        check("unknown --format: exit 2, named", rc == 2 and "xml" in err, out + err)

        # Bad inputs: each names the file and the cause; others still analysed.
        rc, out, err = run([wc, "missing.cu", "good.cu"], cwd=tmp)
        check("missing file: exit 3, named, the other analysed",
              rc == 3 and "missing.cu: no such file" in err and "good.cu:3:12: warning" in out, out + err)
        rc, out, err = run([wc, "broken.cu", "good.cu"], cwd=tmp)
        check("parse error: exit 3, file named, the other analysed",
              rc == 3 and "broken.cu" in err and "error" in err and "good.cu:3:12: warning" in out, out + err)
        os.chmod(good, 0o000)
        if os.access(good, os.R_OK):  # root reads anything: use a directory instead
            os.chmod(good, 0o644)
            os.mkdir(os.path.join(tmp, "dir.cu"))
            rc, out, err = run([wc, "dir.cu"], cwd=tmp)
            check("unreadable input: exit 3 and named", rc == 3 and "dir.cu" in err, out + err)
        else:
            rc, out, err = run([wc, "good.cu"], cwd=tmp)
            os.chmod(good, 0o644)
            check("unreadable input: exit 3 and named", rc == 3 and "good.cu" in err and "cannot be read" in err, out + err)
        rc, out, err = run([wc, "--checks=cuda-no-such-check", "good.cu"], cwd=tmp)
        check("unknown --checks pattern: exit 2", rc == 2 and "cuda-no-such-check" in err and "matches no check" in err, out + err)
        for checks in ("-*", "cuda-*,-cuda-*"):
            rc, out, err = run([wc, "--checks=" + checks, "good.cu"], cwd=tmp)
            check("--checks=%s enables no check: exit 2, said (as clang-tidy's 'no checks "
                  "enabled')" % checks,
                  rc == 2 and "--checks '%s' enables no check" % checks in err and
                  "warning:" not in out, out + err)
        rc, out, err = run([wc, "--arch=sm_999", "good.cu"], cwd=tmp)
        check("unknown --arch: exit 2", rc == 2 and "sm_999" in err, out + err)
        rc, out, err = run([wc, "--bogus-flag", "good.cu"], cwd=tmp)
        check("unknown option: exit 2", rc == 2 and "--bogus-flag" in err, out + err)
        rc, out, err = run([wc, "--arch=sm_120", "good.cu"], cwd=tmp)
        check("sm_120 parses (as sm_90) and analyses", rc == 0 and "warning:" in out, out + err)

        # Compile databases: malformed, naming missing files, hostile flags.
        db = os.path.join(tmp, "db")
        os.mkdir(db)
        with open(os.path.join(db, "compile_commands.json"), "w") as f:
            f.write("[{ this is not json")
        rc, out, err = run([wc, "-p", db], cwd=tmp)
        check("malformed compile database: exit 2, file named",
              rc == 2 and "compile_commands.json" in err and "malformed" in err, out + err)
        marker = os.path.join(tmp, "started-something")
        evil = os.path.join(tmp, "evil.sh")
        with open(evil, "w") as f:
            f.write("#!/bin/sh\ntouch %s\n" % marker)
        os.chmod(evil, 0o755)
        entries = [
            {"directory": tmp, "file": os.path.join(tmp, "good.cu"),
             "arguments": ["/usr/local/cuda/bin/nvcc", "-ccbin=" + evil, "--compiler-bindir", evil,
                           "-DX=$(touch %s)" % marker, "-DY=`touch %s`" % marker,
                           "-Xcompiler", "-fplugin=" + evil, "--options-file", evil,
                           "-Xclang", "-load", "-Xclang", evil, "-B" + tmp,
                           "-arch=sm_80", "-c", os.path.join(tmp, "good.cu"), "-o", "good.o"]},
            {"directory": tmp, "file": os.path.join(tmp, "gone.cu"),
             "command": "nvcc -c gone.cu -o gone.o"},
        ]
        with open(os.path.join(db, "compile_commands.json"), "w") as f:
            json.dump(entries, f)
        rc, out, err = run([wc, "-p", db], cwd=tmp)
        check("hostile compile database starts nothing", not os.path.exists(marker), out + err)
        check("compile database: missing file named, exit 3, the good one analysed",
              rc == 3 and "gone.cu" in err and "good.cu:3:12: warning" in out, out + err)
        rc, out, err = run([wc, "-p", db, "--print-clang-args", "good.cu"], cwd=tmp)
        check("hostile flags are dropped from the clang arguments",
              evil not in out and "-fplugin" not in out and "-load" not in out and "--cuda-gpu-arch=sm_80" in out,
              out + err)

        # The plugin must never crash clang-tidy, even on a broken file.
        rc, out, err = run([wc, "--print-clang-args", "good.cu"], cwd=tmp)
        clang_args = [a for a in out.split("\n") if a]
        rc, out, err = run([args.clang_tidy, "-load", plugin, "-checks=-*,cuda-*", "broken.cu", "--"] + clang_args, cwd=tmp)
        check("plugin on a broken file: an error, no crash",
              rc in (0, 1) and "error:" in (out + err) and "Stack dump" not in err, out + err)

        # --print-toolkit: what the toolkit search found, as JSON, from fake
        # toolkits (nothing in them is started).
        fake_tk = os.path.join(tmp, "print-toolkit", "cuda-12.4")
        for sub in ("include/cccl/cub", "bin"):
            os.makedirs(os.path.join(fake_tk, sub))
        with open(os.path.join(fake_tk, "include", "cuda.h"), "w") as f:
            f.write("#define CUDA_VERSION 12040\n")
        with open(os.path.join(fake_tk, "version.json"), "w") as f:
            f.write('{"cuda": {"name": "CUDA SDK", "version": "12.4.1"}}\n')
        tk_marker = os.path.join(tmp, "print-toolkit", "started")
        for prog in ("nvcc", "ptxas"):
            with open(os.path.join(fake_tk, "bin", prog), "w") as f:
                f.write("#!/bin/sh\necho started > '%s'\n" % tk_marker)
            os.chmod(os.path.join(fake_tk, "bin", prog), 0o755)
        bare_tk = os.path.join(tmp, "print-toolkit", "headers-only")
        os.makedirs(os.path.join(bare_tk, "include"))
        with open(os.path.join(bare_tk, "include", "cuda.h"), "w") as f:
            f.write("#define CUDA_VERSION 13000\n")
        no_env = dict(os.environ)
        no_env.pop("CUDA_PATH", None)
        no_env.pop("CUDA_HOME", None)

        def toolkit_json(options, env=no_env):
            rc, out, err = run([wc, "--print-toolkit"] + options, env=env)
            try:
                return rc, json.loads(out), out + err
            except ValueError:
                return rc, {}, out + err

        rc, doc, text = toolkit_json(["--cuda-path=" + fake_tk + "/"])
        check("--print-toolkit: a toolkit named by --cuda-path",
              rc == 0 and doc.get("found") is True and doc.get("root") == fake_tk and
              doc.get("origin") == "--cuda-path" and doc.get("version") == "12.4" and
              doc.get("nvcc") == os.path.join(fake_tk, "bin", "nvcc") and doc.get("ptxas") is True and
              doc.get("cccl_include_dir") == os.path.join(fake_tk, "include", "cccl") and
              not os.path.exists(tk_marker), text)
        rc, doc, text = toolkit_json([], env=dict(no_env, CUDA_PATH=bare_tk))
        check("--print-toolkit: CUDA_PATH, a toolkit without nvcc, its version from cuda.h",
              rc == 0 and doc.get("found") is True and doc.get("origin") == "CUDA_PATH" and
              doc.get("root") == bare_tk and doc.get("version") == "13.0" and
              doc.get("nvcc") is None and doc.get("ptxas") is False and
              doc.get("cccl_include_dir") is None, text)
        rc, doc, text = toolkit_json([], env=dict(no_env, CUDA_HOME=fake_tk))
        check("--print-toolkit: CUDA_HOME, and the plugin's toolkit is the one with nvcc",
              rc == 0 and doc.get("origin") == "CUDA_HOME" and
              doc.get("plugin_toolkit_root") == os.path.realpath(fake_tk), text)
        missing = os.path.join(tmp, "print-toolkit", "no-such-cuda")
        rc, doc, text = toolkit_json(["--cuda-path=" + missing])
        check("--print-toolkit: a named location that is no toolkit is an error (exit 1)",
              rc == 1 and doc.get("found") is False and
              doc.get("error") == "--cuda-path '%s': no such directory" % missing, text)
        rc, doc, text = toolkit_json(["--no-cuda", "--cuda-path=" + fake_tk])
        check("--print-toolkit --no-cuda: no toolkit",
              rc == 0 and doc.get("found") is False and doc.get("no_cuda") is True and
              "root" not in doc, text)
        rc, doc, text = toolkit_json([])
        if os.path.isfile("/usr/local/cuda/include/cuda.h"):
            check("--print-toolkit: the default location",
                  rc == 0 and doc.get("found") is True and doc.get("origin") == "default" and
                  doc.get("root") == "/usr/local/cuda", text)
        else:
            check("--print-toolkit: no toolkit anywhere is {\"found\": false}, exit 0",
                  rc == 0 and doc.get("found") is False and "error" not in doc, text)

        # The toolkit the tests below use is the one warpcheck found.
        found = print_toolkit(wc) or {}
        real = found.get("root") if found.get("found") else None

        # CCCL robustness: cub and thrust through both doors.
        if real and (found.get("cccl_include_dir") or os.path.isdir(os.path.join(real, "include", "cub"))):
            cccl = os.path.join(tmp, "cccl.cu")
            with open(cccl, "w") as f:
                f.write(CCCL_UNIT)
            rc, out, err = run([wc, "--format=json", "cccl.cu"], cwd=tmp)
            ok = rc == 0
            try:
                doc = json.loads(out)
                ok = ok and not doc["errors"] and any(k["name"] == "blockSum" for k in doc["kernels"])
            except Exception as e:  # noqa: BLE001
                ok = False
                err += repr(e)
            check("CCCL unit: warpcheck analyses it without error", ok, out[-2000:] + err[-2000:])
            rc, out2, err2 = run([wc, "--print-clang-args", "cccl.cu"], cwd=tmp)
            rc, out, err = run([args.clang_tidy, "-load", plugin, "-checks=-*,cuda-*", "cccl.cu", "--"]
                               + [a for a in out2.split("\n") if a], cwd=tmp)
            check("CCCL unit: clang-tidy with the plugin, no error",
                  rc == 0 and "error:" not in out and "Stack dump" not in err, out[-2000:] + err[-2000:])
        else:
            print("SKIP CCCL robustness: no CUDA toolkit with CCCL (warpcheck --print-toolkit)")

        # The registers come from the toolkit warpcheck located (--cuda-path),
        # and the JSON report and cuda-occupancy use the same options. A
        # toolkit whose bin/nvcc only leaves a marker shows which nvcc is
        # started (needs a real toolkit's headers to parse against).
        if real:
            fake = toolkit_with_fake_nvcc(real, os.path.join(tmp, "located-toolkit"))
            marker = os.path.join(fake, "nvcc-was-started")
            with open(os.path.join(fake, "bin", "nvcc"), "w") as f:
                f.write("#!/bin/sh\necho started > '%s'\nexit 1\n" % marker)
            os.chmod(os.path.join(fake, "bin", "nvcc"), 0o755)
            cache = os.path.join(tmp, "register-cache")
            env = dict(os.environ, XDG_CACHE_HOME=cache)
            rc, out, err = run([wc, "--cuda-path=" + fake, "--format=json",
                                "--config=RegisterMode=ptxas", "good.cu"], cwd=tmp, env=env)
            doc = json.loads(out) if out.strip().startswith("{") else {"kernels": []}
            sources = [k.get("registers_source") for k in doc["kernels"]]
            check("the nvcc of --cuda-path is the one started for registers",
                  os.path.exists(marker) and sources == ["estimate"], out[-2000:] + err[-2000:])
        else:
            print("SKIP located-toolkit nvcc: no CUDA toolkit (warpcheck --print-toolkit)")

        # cuda-occupancy's __launch_bounds__ fix-it is checked with ptxas:
        # 160 values live across a reduction take 168 registers (1 block of
        # 256 threads); the cap 64 for 4 blocks makes ptxas spill, so the
        # warning says so and no fix-it is offered (--fix leaves the file).
        if real:
            spill = write_in(tmp, "spill.cu", SPILLING_KERNEL)
            before = open(spill).read()
            rc, out, err = run([wc, "--checks=cuda-occupancy", "--config=RegisterMode=ptxas",
                                "--fix", "spill.cu"], cwd=tmp)
            check("cuda-occupancy: a register cap that makes ptxas spill is said, no fix-it",
                  re.search(r"168 registers per thread limit sm_90 to 1 block of 256 threads "
                            r"\(12\.5% occupancy\); at most 64 registers would allow 4 blocks "
                            r"\(50%\); but ptxas then spills \(64 registers, [1-9][0-9]* bytes of "
                            r"spill stores and [1-9][0-9]* of spill loads; none now\): no "
                            r"__launch_bounds__ fix-it offered", out) is not None and
                  open(spill).read() == before and "__launch_bounds__(256" not in out,
                  out[-2000:] + err[-1000:])
            rc, out, err = run([wc, "--format=json", "--config=RegisterMode=ptxas", "spill.cu"],
                               cwd=tmp)
            kernels = (json.loads(out) if out.strip().startswith("{") else {}).get("kernels", [])
            check("JSON: ptxas's spills per kernel (spill_store_bytes, spill_load_bytes): none",
                  len(kernels) == 1 and kernels[0]["registers"] == 168 and
                  kernels[0]["spill_store_bytes"] == 0 and kernels[0]["spill_load_bytes"] == 0,
                  out[-1500:] + err[-500:])
            write_in(tmp, "bounded.cu", SPILLING_KERNEL.replace(
                "__global__ void heavy", "__global__ void __launch_bounds__(256, 4) heavy"))
            rc, out, err = run([wc, "--format=json", "--config=RegisterMode=ptxas", "bounded.cu"],
                               cwd=tmp)
            kernels = (json.loads(out) if out.strip().startswith("{") else {}).get("kernels", [])
            check("JSON: the same kernel under __launch_bounds__(256, 4): 64 registers, spills",
                  len(kernels) == 1 and kernels[0]["registers"] == 64 and
                  kernels[0]["spill_store_bytes"] > 0 and kernels[0]["spill_load_bytes"] > 0,
                  out[-1500:] + err[-500:])
            rc, out, err = run([wc, "--format=json", "--config=RegisterMode=estimate", "spill.cu"],
                               cwd=tmp)
            kernels = (json.loads(out) if out.strip().startswith("{") else {}).get("kernels", [])
            check("JSON: no spill figures from the estimate (null)",
                  len(kernels) == 1 and kernels[0]["registers_source"] == "estimate" and
                  kernels[0]["spill_store_bytes"] is None and kernels[0]["spill_load_bytes"] is None,
                  out[-1500:] + err[-500:])
        else:
            print("SKIP occupancy fix-it spills: no CUDA toolkit (warpcheck --print-toolkit)")
        for option in ("RegisterMode=estimate", "cuda-occupancy.RegisterMode=estimate"):
            rc, out, err = run([wc, "--format=json", "--config=" + option,
                                "--config=cuda-occupancy.MinOccupancy=101", "good.cu"], cwd=tmp)
            ok = rc == 0
            try:
                doc = json.loads(out)
                k = doc["kernels"][0]
                notes = [n["message"] for f in doc["findings"] if f["check"] == "cuda-occupancy"
                         for n in f["notes"]]
                ok = ok and k["registers_source"] == "estimate" and \
                    ("%d registers per thread (estimated, sm_90)" % k["registers"]) in notes
            except Exception as e:  # noqa: BLE001
                ok = False
                out += "\n" + repr(e)
            check("JSON registers follow the check's %s" % option, ok, out[-2000:] + err[-2000:])

        # --no-cuda: no toolkit is used for anything, so no nvcc is started,
        # not even one that $CUDA_PATH names and RegisterMode=ptxas asks for.
        decoy = os.path.join(tmp, "decoy-toolkit")
        os.makedirs(os.path.join(decoy, "bin"))
        decoy_marker = os.path.join(decoy, "nvcc-was-started")
        with open(os.path.join(decoy, "bin", "nvcc"), "w") as f:
            f.write("#!/bin/sh\necho started > '%s'\nexit 1\n" % decoy_marker)
        os.chmod(os.path.join(decoy, "bin", "nvcc"), 0o755)
        env = dict(os.environ, CUDA_PATH=decoy, XDG_CACHE_HOME=os.path.join(tmp, "cache2"))
        env.pop("CUDA_HOME", None)
        rc, out, err = run([wc, "--no-cuda", "--format=json",
                            "--config=cuda-occupancy.RegisterMode=ptxas", "good.cu"],
                           cwd=tmp, env=env)
        sources = []
        if out.strip().startswith("{"):
            sources = [k.get("registers_source") for k in json.loads(out)["kernels"]]
        check("--no-cuda starts no nvcc and estimates the registers",
              rc == 0 and not os.path.exists(decoy_marker) and sources == ["estimate"],
              out[-2000:] + err[-2000:])

        # No register count to be had (a builtin of sm_80 analysed for
        # sm_75: clang's code generator rejects it, as ptxas would): the
        # check says so, and why, instead of leaving the kernel out.
        with open(os.path.join(tmp, "redux.cu"), "w") as f:
            f.write("__global__ void total(const unsigned *in, unsigned *out) {\n"
                    "  out[threadIdx.x] = __nvvm_redux_sync_add(in[threadIdx.x], 0xffffffff);\n"
                    "}\n"
                    "int main() { unsigned *p = 0; total<<<1, 1024>>>(p, p); return 0; }\n")
        rc, out, err = run([wc, "--no-cuda", "--arch=sm_75", "redux.cu"], cwd=tmp)
        check("no register count: a warning naming the kernel and the cause",
              rc == 0 and "redux.cu:1:17: warning: occupancy of kernel 'total' not computed on "
              "sm_75: its registers per thread could not be counted (clang's code generator "
              "could not lower the device code: '__nvvm_redux_sync_add' needs target feature "
              in out, out[-2000:] + err[-2000:])
        rc, out, err = run([wc, "--no-cuda", "--arch=sm_75", "--format=json", "redux.cu"], cwd=tmp)
        ok = False
        if out.strip().startswith("{"):
            k = json.loads(out)["kernels"][0]
            ok = (k["registers"] is None and k["occupancy"] is None and
                  any(l.startswith("occupancy not computed: its registers per thread could not "
                                   "be counted") for l in k["limitations"]))
        check("no register count: JSON registers null and the cause in limitations", ok,
              out[-2000:] + err[-2000:])

        # Dynamic shared memory without a launch site: the annotation's
        # shared(N), else cuda-occupancy's DefaultDynamicShared (noted).
        dyn = os.path.join(tmp, "dyn.cu")
        with open(dyn, "w") as f:
            f.write(textwrap.dedent("""\
                // warpcheck: block(128) shared(40960)
                __global__ void annotated(float *out) {
                  extern __shared__ float buf[];
                  buf[threadIdx.x] = threadIdx.x;
                  __syncthreads();
                  out[threadIdx.x] = buf[127 - threadIdx.x];
                }
                __global__ void unlaunched(float *out) {
                  extern __shared__ float buf[];
                  buf[threadIdx.x] = threadIdx.x;
                  __syncthreads();
                  out[threadIdx.x] = buf[255 - threadIdx.x];
                }
                """))
        rc, out, err = run([wc, "--format=json", "--config=RegisterMode=estimate",
                            "--config=cuda-occupancy.DefaultDynamicShared=65536", "dyn.cu"], cwd=tmp)
        ok = rc == 0
        try:
            doc = json.loads(out)
            by = {k["name"]: k for k in doc["kernels"]}
            a, u = by["annotated"], by["unlaunched"]
            # 40960 + 1024 reserved = 41984 bytes a block: 5 fit in sm_90's
            # 233472 (5 x 4 warps = 31.25%; measured with ncu for
            # dynamicBound in test/hw/inputs/cuda-occupancy.json); 65536 +
            # 1024 with 256 threads: 3 blocks, 24 warps, 37.5% (the H200
            # runtime's answer for 117 kernels, test/hw/occupancy_runtime.json).
            ok = ok and a["launch"]["source"] == "annotation" and a["shared_bytes_dynamic"] == 40960
            ok = ok and a["occupancy"]["active_blocks_per_sm"] == 5 and a["occupancy"]["limiter"] == "shared memory"
            ok = ok and u["shared_bytes_dynamic"] == 65536 and u["occupancy"]["active_blocks_per_sm"] == 3
            notes = [n["message"] for f in doc["findings"] if "'unlaunched'" in f["message"]
                     for n in f["notes"]]
            ok = ok and "assumed: the launch's dynamic shared memory size is not known; " \
                        "65536 bytes assumed (DefaultDynamicShared)" in notes
        except Exception as e:  # noqa: BLE001
            ok = False
            out += "\n" + repr(e)
        check("dynamic shared memory from shared(N) and DefaultDynamicShared", ok,
              out[-3000:] + err[-2000:])

        # An --arch list: the first is the model's target, occupancy is also
        # given for the rest (JSON occupancy_by_arch, cuda-occupancy notes).
        rc, out, err = run([wc, "--format=json", "--arch=sm_90,sm_75,sm_90",
                            "--config=RegisterMode=estimate",
                            "--config=cuda-occupancy.MinOccupancy=101", "good.cu"], cwd=tmp)
        ok = rc == 0
        try:
            doc = json.loads(out)
            k = doc["kernels"][0]
            by = k["occupancy_by_arch"]
            ok = ok and [e["arch"] for e in by] == ["sm_90", "sm_75"]
            ok = ok and by[0]["theoretical"] == k["occupancy"]["theoretical"] and \
                by[0]["active_blocks_per_sm"] == k["occupancy"]["active_blocks_per_sm"]
            # 128-thread blocks of a small kernel: 16 blocks fill sm_90's
            # 64 warp slots; sm_75 has 32 (1024 threads): 8 blocks, 100%.
            ok = ok and by[0]["active_blocks_per_sm"] == 16 and by[0]["theoretical"] == 1
            ok = ok and by[1]["active_blocks_per_sm"] == 8 and by[1]["theoretical"] == 1
            notes = [n["message"] for f in doc["findings"] if f["check"] == "cuda-occupancy"
                     for n in f["notes"]]
            ok = ok and any(n.startswith("on sm_75: ") for n in notes)
        except Exception as e:  # noqa: BLE001
            ok = False
            out += "\n" + repr(e)
        check("--arch list: occupancy_by_arch and notes for each", ok, out[-3000:] + err[-2000:])
        rc, out, err = run([wc, "--arch=sm_90,sm_99", "good.cu"], cwd=tmp)
        check("--arch list with an unknown entry: exit 2, named", rc == 2 and "sm_99" in err, out + err)

        # A kernel defined in one unit and launched in another: the launch
        # binds it (the defining unit is analysed again with it), in a
        # compile database as on the command line. Stride 4 floats with a
        # (128, 1, 1) block: lanes 16 bytes apart, 16 sectors per request,
        # ideal 4; the default block would have said (256, 1, 1).
        xtu = os.path.join(tmp, "xtu")
        os.makedirs(xtu)
        with open(os.path.join(xtu, "kernels.cu"), "w") as f:
            f.write("__global__ void scale(float *out, const float *in, int stride) {\n"
                    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "  out[i] = in[i * stride];\n"
                    "}\n")
        with open(os.path.join(xtu, "main.cu"), "w") as f:
            f.write("__global__ void scale(float *out, const float *in, int stride);\n"
                    "int main() {\n"
                    "  float *a, *b;\n"
                    "  cudaMalloc(&a, 1 << 24);\n"
                    "  cudaMalloc(&b, 1 << 24);\n"
                    "  scale<<<64, 128>>>(a, b, 4);\n"
                    "  return 0;\n"
                    "}\n")
        with open(os.path.join(xtu, "compile_commands.json"), "w") as f:
            json.dump([{"directory": xtu, "file": n, "arguments": ["nvcc", "-arch=sm_90", "-c", n]}
                       for n in ("kernels.cu", "main.cu")], f)
        for how, argv in (("command line", [wc, "--format=json", "kernels.cu", "main.cu"]),
                          ("compile database", [wc, "--format=json", "-p", xtu])):
            rc, out, err = run(argv, cwd=xtu)
            try:
                doc = json.loads(out)
                ks = [k for k in doc["kernels"] if k["name"] == "scale"]
                load = [a for k in ks for a in k["accesses"] if a["op"] == "load"]
            except (ValueError, KeyError):
                ks, load = [], []
            check("launch in another unit binds the kernel (%s)" % how,
                  rc == 0 and len(ks) == 1 and ks[0]["launch"]["block"] == [128, 1, 1] and
                  ks[0]["launch"]["location"] == "main.cu:6" and len(load) == 1 and
                  load[0]["sectors_per_request"] == 16 and load[0]["status"] == "exact" and
                  "cross_unit_launches" not in out and "kernels_without_launch" not in out,
                  out[-3000:] + err)
        # A host function defined in the kernel's unit and called from a
        # plain C++ unit in a loop over strides: the defining unit runs it
        # once per call, with the arguments passed. Stride 2 floats: 8
        # sectors per request; stride 4: 16; both exact.
        with open(os.path.join(xtu, "wrapper.cu"), "w") as f:
            f.write("__global__ void gather(float *out, const float *in, int stride) {\n"
                    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "  out[i] = in[i * stride];\n"
                    "}\n"
                    "extern \"C\" void runGather(float *out, const float *in, int stride, int block) {\n"
                    "  gather<<<64, block>>>(out, in, stride);\n"
                    "}\n")
        with open(os.path.join(xtu, "host.cpp"), "w") as f:
            f.write("extern \"C\" void runGather(float *out, const float *in, int stride, int block);\n"
                    "int main() {\n"
                    "  float *a = nullptr, *b = nullptr;\n"
                    "  for (int s = 2; s <= 4; s *= 2)\n"
                    "    runGather(a, b, s, 128);\n"
                    "  return 0;\n"
                    "}\n")
        rc, out, err = run([wc, "--format=json", "wrapper.cu", "host.cpp"], cwd=xtu)
        got = [(b, s, st, c[-1] if c else None) for b, s, st, c in loads_of(out, "gather")]
        check("a host function called from another unit runs with the arguments passed",
              rc == 0 and got == [(128, 8, "exact", "'runGather' called at host.cpp:5"),
                                  (128, 16, "exact", "'runGather' called at host.cpp:5")] and
              "cross_unit_calls" not in out and "functions_without_caller" not in out,
              repr(got) + out[-3000:] + err)
        # A block size the calling unit chooses on a branch (a default or a
        # run-time override) is passed along each way: the kernel's unit
        # runs its host function once per way, the way in the context. The
        # way of 64 threads (2 warps) is 8 sectors per request for stride
        # 2; that of the run-time value is swept.
        choice_dir = os.path.join(xtu, "choice")
        os.makedirs(choice_dir, exist_ok=True)
        with open(os.path.join(choice_dir, "wrapper.cu"), "w") as f:
            f.write("__global__ void pick(float *out, const float *in, int stride) {\n"
                    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "  out[i] = in[i * stride];\n"
                    "}\n"
                    "extern \"C\" void runPick(float *out, const float *in, int block) {\n"
                    "  pick<<<64, block>>>(out, in, 2);\n"
                    "}\n")
        with open(os.path.join(choice_dir, "host.cpp"), "w") as f:
            f.write("#include <cstdlib>\n"
                    "extern \"C\" void runPick(float *out, const float *in, int block);\n"
                    "int main(int argc, char **argv) {\n"
                    "  float *a = nullptr, *b = nullptr;\n"
                    "  int block = 64;\n"
                    "  if (argc > 1)\n"
                    "    block = std::atoi(argv[1]);\n"
                    "  runPick(a, b, block);\n"
                    "  return 0;\n"
                    "}\n")
        rc, out, err = run([wc, "--format=json", "wrapper.cu", "host.cpp"], cwd=choice_dir)
        got = loads_of(out, "pick")
        try:
            unevaluated = [u for k in json.loads(out)["kernels"] if k["name"] == "pick"
                           for u in k["launch"]["unevaluated_launches"]]
        except (ValueError, KeyError):
            unevaluated = []
        check("a value another unit chooses on a branch is passed along the way that knows it",
              rc == 0 and got == [(64, 8, "exact", ("the branch at host.cpp:6 not taken",
                                                    "'runPick' called at host.cpp:8"))] and
              unevaluated == ["the launch at wrapper.cu:6 uses 'block', a parameter of 'runPick' "
                              "whose caller at host.cpp:8 passes a value not known"],
              repr(got) + out[-3000:] + err)
        # A driver whose launch-free function (in its own unit) first sweeps
        # 8 kernels over 26 sizes, past the 32 bindings a function's calls
        # are recorded with, then times 100 rounds of them, past the 20,000
        # steps such a call may take, and only on its other arm passes the
        # command line's kernel choice (cuda-samples' reduction.cpp): that
        # arm still gets its own allowance and its call, the choice not
        # known, is recorded, so kernel 8, which only it reaches, is
        # launched with the block the call passes, not "never executed".
        sweep_dir = os.path.join(xtu, "sweep")
        os.makedirs(sweep_dir, exist_ok=True)
        with open(os.path.join(sweep_dir, "kernels.cu"), "w") as f:
            f.write("__global__ void first(float *d) { d[threadIdx.x] = 0; }\n"
                    "__global__ void eighth(float *d) { d[threadIdx.x * 2] = 0; }\n"
                    "void reduceWith(int size, int threads, int which, float *d) {\n"
                    "  switch (which) {\n"
                    "  case 8:\n"
                    "    eighth<<<size / threads, threads>>>(d);\n"
                    "    break;\n"
                    "  default:\n"
                    "    first<<<size / threads, threads>>>(d);\n"
                    "  }\n"
                    "}\n")
        with open(os.path.join(sweep_dir, "driver.cpp"), "w") as f:
            f.write("#include <cstdlib>\n"
                    "#include <cstring>\n"
                    "void reduceWith(int size, int threads, int which, float *d);\n"
                    "static bool flagSet(int argc, char **argv, const char *flag) {\n"
                    "  bool found = false;\n"
                    "  for (int i = 1; i < argc; i++)\n"
                    "    if (!std::strcmp(argv[i], flag))\n"
                    "      found = true;\n"
                    "  return found;\n"
                    "}\n"
                    "static void sweep(float *d) {\n"
                    "  for (int k = 0; k < 8; k++)\n"
                    "    for (int n = 1; n <= (1 << 25); n *= 2)\n"
                    "      reduceWith(n, 256, k, d);\n"
                    "  for (int it = 0; it < 100; it++)\n"
                    "    for (int n = 1; n <= (1 << 25); n *= 2)\n"
                    "      reduceWith(n, 256, 0, d);\n"
                    "}\n"
                    "static void runAll(int argc, char **argv, float *d) {\n"
                    "  int which = 7;\n"
                    "  if (flagSet(argc, argv, \"--kernel\"))\n"
                    "    which = std::atoi(argv[2]);\n"
                    "  if (flagSet(argc, argv, \"--sweep\"))\n"
                    "    sweep(d);\n"
                    "  else\n"
                    "    reduceWith(1 << 20, 128, which, d);\n"
                    "}\n"
                    "int main(int argc, char **argv) {\n"
                    "  float *d = nullptr;\n"
                    "  runAll(argc, argv, d);\n"
                    "  return 0;\n"
                    "}\n")
        rc, out, err = run([wc, "--format=json", "kernels.cu", "driver.cpp"], cwd=sweep_dir)
        try:
            eighth = [(k["launch"]["block"], k["launch"]["source"], k["launch"]["context"][-2:])
                      for k in json.loads(out)["kernels"] if k["name"] == "eighth"]
        except (ValueError, KeyError, IndexError):
            eighth = []
        check("a call past a long sweep on a branch's other arm is recorded, its unknown kernel "
              "choice reaching the case only it takes",
              rc == 0 and ([128, 1, 1], "launch", ["'reduceWith' called at driver.cpp:26",
                                                   "the case 8 of the switch at kernels.cu:4"])
              in eighth and "never executed" not in out,
              repr(eighth) + out[-3000:] + err)
        # A calling unit whose run spends its steps on an option's branch
        # (every size of a shmoo) before the call on the other arm: the run
        # without arguments makes that call, and it binds the callee's launch.
        exhaust_dir = os.path.join(tmp, "exhaust")
        os.makedirs(exhaust_dir, exist_ok=True)
        with open(os.path.join(exhaust_dir, "kernels.cu"), "w") as f:
            f.write("__global__ void scale(float *d, int n) {\n"
                    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
                    "  if (i < n) d[i] *= 2.0f;\n"
                    "}\n"
                    "void launchScaled(int n, float *d) { scale<<<n / 128, 128>>>(d, n); }\n")
        with open(os.path.join(exhaust_dir, "driver.cpp"), "w") as f:
            f.write("void launchScaled(int n, float *d);\n"
                    "int main(int argc, char **argv) {\n"
                    "  float *d = nullptr;\n"
                    "  if (argc > 1) {\n"
                    "    for (int a = 1; a < 200; ++a)\n"
                    "      for (int b = 1; b < 200; ++b)\n"
                    "        for (int c = 1; c < 200; ++c)\n"
                    "          launchScaled(a * b * c * 128, d);\n"
                    "  } else {\n"
                    "    launchScaled(1 << 20, d);\n"
                    "  }\n"
                    "  return 0;\n"
                    "}\n")
        rc, out, err = run([wc, "--format=json", "kernels.cu", "driver.cpp"], cwd=exhaust_dir)
        try:
            plain = [(k["launch"]["grid"], k["launch"]["context"])
                     for k in json.loads(out)["kernels"] if k["name"] == "scale" and
                     k["launch"]["context"][:1] == ["a run without command-line arguments (the "
                                                    "run with them was too long to follow)"]]
        except (ValueError, KeyError, IndexError, TypeError):
            plain = []
        check("a call past a run cut short by its steps comes from the run without arguments",
              rc == 0 and [g for g, _ in plain] == [[8192, 1, 1]] and
              plain[0][1][-1] == "'launchScaled' called at driver.cpp:10",
              repr(plain) + out[-2000:] + err)
        # --launches-from=database: only the kernels' units are inputs; the
        # database's other units (main.cu's launch, host.cpp's calls) are
        # parsed for their host code only and bind them, and are no inputs.
        with open(os.path.join(xtu, "compile_commands.json"), "w") as f:
            json.dump([{"directory": xtu, "file": n,
                        "arguments": (["nvcc", "-arch=sm_90", "-c", n] if n.endswith(".cu")
                                      else ["c++", "-c", n])}
                       for n in ("kernels.cu", "main.cu", "wrapper.cu", "host.cpp")], f)
        rc, out, err = run([wc, "--format=json", "-p", xtu, "--launches-from=database",
                            "kernels.cu", "wrapper.cu"], cwd=xtu)
        try:
            doc = json.loads(out)
            got = sorted((k["name"], k["launch"]["block"][0], a["sectors_per_request"], a["status"])
                         for k in doc["kernels"] for a in k["accesses"] if a["op"] == "load")
            inputs = sorted(os.path.basename(i["file"]) for i in doc["inputs"])
        except (ValueError, KeyError, IndexError):
            got, inputs = [], []
        check("--launches-from=database binds launches and calls of units that are no inputs",
              rc == 0 and got == [("gather", 128, 8, "exact"), ("gather", 128, 16, "exact"),
                                  ("scale", 128, 16, "exact")] and
              inputs == ["kernels.cu", "wrapper.cu"] and "2 inputs: 2 analysed" in err,
              repr(got) + repr(inputs) + out[-2000:] + err)
        rc, out, err = run([wc, "--format=json", "-p", xtu, "kernels.cu", "wrapper.cu"], cwd=xtu)
        check("by default only the inputs' launches bind (the defaults here)",
              rc == 0 and out.replace('":"', '": "').count('"source": "default"') == 2,
              out[-2000:] + err)
        rc, out, err = run([wc, "--launches-from=database", "kernels.cu"], cwd=xtu)
        check("--launches-from=database without -p: exit 2, said",
              rc == 2 and "--launches-from=database needs a compile database (-p)" in err, err)
        rc, out, err = run([wc, "--launches-from=everywhere", "-p", xtu], cwd=xtu)
        check("--launches-from with another value: exit 2, said",
              rc == 2 and "--launches-from needs inputs or database, got 'everywhere'" in err, err)
        rc, out, err = run([wc, "--format=json", "wrapper.cu"], cwd=xtu)
        check("without the calling unit, the function's parameters are unknown",
              rc == 0 and "which no function of this file calls" in out, out[-2000:] + err)
        rc, out, err = run([wc, "--format=json", "kernels.cu"], cwd=xtu)
        check("without the launching unit, the kernel has no launch",
              rc == 0 and '"source": "default"' in out.replace('":"', '": "'), out[-2000:] + err)

        # A command-line option's default: the JSON says which values the
        # numbers are of, and a launch on a way of an option the run
        # without arguments never takes has no defaults.
        inputs = os.path.join(args.source, "test", "inputs")
        rc, out, err = run([wc, "--format=json", "command-line-defaults.cu"], cwd=inputs)
        try:
            rows = sorted((k["launch"]["description"].split("(")[-1], a["sectors_per_request"],
                           a["assumption_kinds"], a["value_dependence"]["command_line_defaults"])
                          for k in json.loads(out)["kernels"] if k["name"] == "copyRows"
                          for a in k["accesses"] if a["op"] == "load")
        except (ValueError, KeyError, IndexError, TypeError):
            rows = []
        check("command_line_defaults: the run without arguments' width, none on the option's way",
              rc == 0 and rows == [
                  ("the branch at command-line-defaults.cu:74 not taken)", 4,
                   ["command_line_default"], [{"parameter": "width", "value": 1024}]),
                  ("the branch at command-line-defaults.cu:74 taken)", 4.875,
                   ["unbound_value"], [])],
              repr(rows) + out[-2000:] + err)

        # No toolkit at all: the bundled declarations.
        rc, out, err = run([wc, "--cuda-path=" + os.path.join(tmp, "nope"), "good.cu"], cwd=tmp)
        check("missing explicit --cuda-path: exit 2 and named", rc == 2 and "nope" in err, out + err)
        env = dict(os.environ)
        env["CUDA_PATH"] = os.path.join(tmp, "no-cuda-here")
        env.pop("CUDA_HOME", None)
        nt = os.path.join(args.source, "test", "inputs", "no-toolkit")
        if os.path.isdir(nt):
            files = sorted(f for f in os.listdir(nt) if f.endswith(".cu"))
            rc, out, err = run([wc, "--cuda-path=", "--no-cuda"] + files, cwd=nt, env=env)
            check("no-toolkit inputs parse with the bundled declarations",
                  rc == 0 and "error" not in err.lower().replace("0 errors", ""), out[-2000:] + err[-2000:])
    return RESULTS.summary()


if __name__ == "__main__":
    sys.exit(main())
