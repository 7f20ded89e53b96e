#!/usr/bin/env python3
"""The structure-of-arrays rewrite of cuda-aos-layout (a fix-it on a note)
from the outside: what both doors make of test/inputs/aos-soa-rewrite.cu
with --fix-notes is test/inputs/aos-soa-rewritten.cu; without --fix-notes
nothing is made; the rewritten kernels' accesses move the sectors the
warnings gave as structure-of-arrays, each coalesced; the rewritten file
compiles with nvcc (where a toolkit is found: CI has none, and says so);
one kernel launched twice gets its fix-it once, and clang-tidy applies it;
the option OfferSoAFix turns the offer off, and bad values of the check's
options are reported by name through both doors. And the figures the
rewrite is judged by: the JSON's aos entries per field, with their status
and assumptions, the same through a worker (-j2, two inputs), and the
HTML report's table of them.

Runs as one ctest; prints 'N passed, M failed' and exits non-zero on failure.
"""
import json
import os
import re
import shutil
import sys
import textwrap

from testsupport import Results, door_arguments, plugin_nvcc, run, scratch_dir

RESULTS = Results()
check = RESULTS.check

INPUTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "inputs")
ORIGINAL = "aos-soa-rewrite.cu"
REWRITTEN = "aos-soa-rewritten.cu"
AOS = "--checks=cuda-aos-layout"
# The kernels aos-soa-rewrite.cu offers the rewrite for.
REWRITTEN_KERNELS = ("update", "integrate", "speeds", "scalePairs", "drift", "kick")
CHECK_LINE = re.compile(r"^\s*// *CHECK-")


def read(path):
    with open(path) as f:
        return f.read()


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def code_lines(text):
    """The lines of code: comments on lines of their own and blank lines
    left out (the two files' headers and RUN lines differ)."""
    return [l.rstrip() for l in text.splitlines() if l.strip() and not l.strip().startswith("//")]


def without_check_lines(text):
    return "".join(l for l in text.splitlines(True) if not CHECK_LINE.match(l))


def plugin_command(clang_tidy, plugin, wc, folder, name, extra, config="{}"):
    rc, args, err = run([wc, "--print-clang-args", "--no-cuda", name], cwd=folder)
    return ([clang_tidy, "-load", plugin, "--checks=-*,cuda-aos-layout", "--config=" + config,
             "--quiet"] + extra + [name, "--"] + [a for a in args.split("\n") if a])


def test_both_doors(wc, plugin, clang_tidy, tmp):
    source = without_check_lines(read(os.path.join(INPUTS, ORIGINAL)))
    want = code_lines(read(os.path.join(INPUTS, REWRITTEN)))
    for door in ("binary", "plugin"):
        folder = os.path.join(tmp, door)
        os.makedirs(folder)
        write(os.path.join(folder, ORIGINAL), source)
        if door == "binary":
            rc, out, err = run([wc, AOS, "--no-cuda", "--fix", "--fix-notes", ORIGINAL], cwd=folder)
        else:
            rc, out, err = run(plugin_command(clang_tidy, plugin, wc, folder, ORIGINAL,
                                              ["-fix", "--fix-notes"]), cwd=folder)
        got = code_lines(read(os.path.join(folder, ORIGINAL)))
        diff = [(a, b) for a, b in zip(got, want) if a != b][:3]
        check("%s door, --fix-notes: aos-soa-rewrite.cu becomes aos-soa-rewritten.cu" % door,
              got == want, "%d lines against %d; first differences %s\n%s" %
              (len(got), len(want), diff, err[-800:]))
        write(os.path.join(folder, ORIGINAL), source)
        if door == "binary":
            rc, out, err = run([wc, AOS, "--no-cuda", "--fix", ORIGINAL], cwd=folder)
        else:
            rc, out, err = run(plugin_command(clang_tidy, plugin, wc, folder, ORIGINAL, ["-fix"]),
                               cwd=folder)
        check("%s door, fix without --fix-notes: the rewrite is on a note, nothing is made" % door,
              read(os.path.join(folder, ORIGINAL)) == source and
              "structure-of-arrays rewrite (a fix-it on this note)" in out, out[-600:] + err[-600:])


def test_sarif_note_fixes(wc, tmp):
    """The SARIF log carries the rewrite as fixes of its results, each
    described by its note: their replacements, made together (an edit two
    of them share made once, as --fix-notes makes it), give the rewritten
    file."""
    source = without_check_lines(read(os.path.join(INPUTS, ORIGINAL)))
    write(os.path.join(tmp, ORIGINAL), source)
    rc, out, err = run([wc, AOS, "--no-cuda", "--format=sarif", ORIGINAL], cwd=tmp)
    edits, described = set(), 0
    try:
        for res in json.loads(out)["runs"][0]["results"]:
            for fix in res.get("fixes", []):
                if not fix.get("description", {}).get("text", "").startswith(
                        "structure-of-arrays rewrite (a fix-it on this note)"):
                    continue
                described += 1
                for change in fix["artifactChanges"]:
                    for r in change["replacements"]:
                        edits.add((r["deletedRegion"]["charOffset"],
                                   r["deletedRegion"]["charLength"], r["insertedContent"]["text"]))
    except (ValueError, KeyError, IndexError) as e:
        out += "\n" + repr(e)
    patched = source
    for offset, length, text in sorted(edits, reverse=True):
        patched = patched[:offset] + text + patched[offset + length:]
    want = code_lines(read(os.path.join(INPUTS, REWRITTEN)))
    got = code_lines(patched)
    check("sarif: one described fix per rewritten kernel (%d), whose edits give "
          "aos-soa-rewritten.cu" % len(REWRITTEN_KERNELS),
          described == len(REWRITTEN_KERNELS) and got == want,
          "%d fixes; first differences %s\n%s" % (
              described, [(a, b) for a, b in zip(got, want) if a != b][:3], out[-1500:] + err[-500:]))


def report(wc, folder, name, extra=()):
    rc, out, err = run([wc, "--format=json", "--no-cuda"] + list(extra) + [name], cwd=folder)
    try:
        return json.loads(out)
    except ValueError:
        return {"kernels": [], "findings": [], "error": out[-500:] + err[-500:]}


def test_soa_figures(wc):
    """The warnings' structure-of-arrays sectors are what the rewritten
    kernels' field accesses touch, each of them coalesced."""
    before = {k["name"]: k for k in report(wc, INPUTS, ORIGINAL)["kernels"]}
    after_doc = report(wc, INPUTS, REWRITTEN)
    after = {k["name"]: k for k in after_doc["kernels"]}
    for name in REWRITTEN_KERNELS:
        groups = before.get(name, {}).get("aos", [])
        predicted = {d: sum(g[d]["soa_l1_sectors"] for g in groups) for d in ("loads", "stores")}
        kernel = after.get(name, {})
        # A view's field at the thread's index: `p.x[i]`.
        fields = [a for a in kernel.get("accesses", [])
                  if a["space"] == "global" and re.match(r"^\w+\.\w+\[i\]$", a["expression"])]
        measured = {d: sum(a["sectors_per_request"] for a in fields if a["op"] == d[:-1])
                    for d in ("loads", "stores")}
        check("%s: structure-of-arrays sectors as warned (loads %d, stores %d), rewritten "
              "%s" % (name, predicted["loads"], predicted["stores"], measured),
              groups and predicted == measured and predicted["loads"] > 0,
              json.dumps(groups)[:400])
        check("%s rewritten: every field access exact and coalesced (4 sectors a request), "
              "no array of structs left" % name,
              fields and all(a["status"] == "exact" and a["sectors_per_request"] == 4
                             for a in fields) and kernel.get("aos") == [],
              json.dumps(kernel)[:600])
    checks = {f["check"] for f in after_doc["findings"]}
    check("the rewritten file has no global-memory finding",
          not checks & {"cuda-aos-layout", "cuda-uncoalesced-global-access"}, str(checks))


def test_aos_entries(wc):
    """integrate (aos-soa-rewrite.cu) reads all six fields of its particles
    and writes x, y, z: per field, 24 sectors as laid out and 4 as
    structure of arrays in each direction it is accessed; an exact group
    (block and grid from main's launch). speeds assumes nothing either."""
    doc = report(wc, INPUTS, ORIGINAL)
    kernels = {k["name"]: k for k in doc["kernels"]}
    groups = kernels.get("integrate", {}).get("aos", [])
    fields = {f["name"]: f for g in groups for f in g["fields"]}
    figures = {n: (f["loads"]["l1_sectors"], f["loads"]["soa_l1_sectors"],
                   f["stores"]["l1_sectors"], f["stores"]["soa_l1_sectors"])
               for n, f in fields.items()}
    want = {"x": (24, 4, 24, 4), "y": (24, 4, 24, 4), "z": (24, 4, 24, 4),
            "vx": (24, 4, 0, 0), "vy": (24, 4, 0, 0), "vz": (24, 4, 0, 0)}
    check("aos per field: integrate's six fields, 24 sectors a direction against 4",
          figures == want, str(figures))
    check("aos per field: each field's DRAM bytes as laid out (768) and as SoA (128)",
          fields and all(f["loads"]["dram_bytes"] == 768 and f["loads"]["soa_dram_bytes"] == 128
                         for f in fields.values()), json.dumps(fields)[:600])
    statuses = [(k["name"], g["status"], g["assumption_kinds"])
                for k in doc["kernels"] for g in k["aos"]]
    check("aos entries: exact, no assumptions (every launch evaluated)",
          statuses and all(st == "exact" and kinds == [] for _, st, kinds in statuses),
          str(statuses))
    both = report(wc, INPUTS, ORIGINAL, ["-j2", "aos-soa-refused.cu"])
    via_worker = {k["name"]: k["aos"] for k in both["kernels"]
                  if k["file"].endswith(ORIGINAL)}
    check("aos entries through a worker (-j2, two inputs): the same JSON",
          via_worker == {k["name"]: k["aos"] for k in doc["kernels"]},
          json.dumps(via_worker)[:400])
    rc, out, err = run([wc, "--format=html", "--no-cuda", ORIGINAL], cwd=INPUTS)
    check("html: the arrays of structures of each launch, in total and per field",
          "Arrays of structures (per warp, as laid out and as structure of arrays):" in out and
          "<td>72 (12 as SoA)</td><td>768 (384 as SoA)</td><td>16.7%</td>" in out and
          "<li>vx (read): 24 (4 as SoA) sectors</li>" in out and
          "<li>x (read, written): 48 (8 as SoA) sectors</li>" in out, out[-3000:])


def test_nvcc(wc, tmp):
    nvcc = plugin_nvcc(wc)
    if not nvcc or not os.path.exists(nvcc):
        print("SKIP nvcc: no CUDA toolkit with nvcc ($CUDA_PATH, $CUDA_HOME, /usr/local/cuda): "
              "aos-soa-rewritten.cu is not compiled here")
        return
    for name in (ORIGINAL, REWRITTEN):
        rc, out, err = run([nvcc, "-O3", "-arch=sm_90", "-lineinfo", "-o",
                            os.path.join(tmp, name + ".out"), os.path.join(INPUTS, name)],
                           cwd=tmp)
        check("nvcc -O3 -arch=sm_90 builds %s (host code written for the view)" % name,
              rc == 0, out[-1500:] + err[-1500:])


TWICE = textwrap.dedent("""\
    struct Cell { float mass, charge, energy; };
    __global__ void weigh(Cell *c, float *out) {
      int i = blockIdx.x * blockDim.x + threadIdx.x;
      out[i] = c[i].mass;
    }
    int main() {
      Cell *c;
      float *out;
      weigh<<<4, 128>>>(c, out);
      weigh<<<2, 64>>>(c, out);
    }
    """)
TWICE_FIXED = (TWICE.replace("struct Cell { float mass, charge, energy; };\n",
                             "struct Cell { float mass, charge, energy; };\n"
                             "struct CellSoA { float *mass; float *charge; float *energy; };\n")
               .replace("weigh(Cell *c,", "weigh(CellSoA c,").replace("c[i].mass", "c.mass[i]"))


def test_two_launches(wc, plugin, clang_tidy, tmp):
    write(os.path.join(tmp, "twice.cu"), TWICE)
    rc, out, err = run([wc, AOS, "--no-cuda", "twice.cu"], cwd=tmp)
    check("two launches: two warnings, the fix-it with the first, the second pointing to it",
          out.count("warning: kernel 'weigh'") == 2 and
          out.count("structure-of-arrays rewrite (a fix-it on this note)") == 1 and
          "the structure-of-arrays rewrite of 'c' is the fix-it offered with the warning at "
          "line 4" in out, out[-1500:])
    for door in ("binary", "plugin"):
        write(os.path.join(tmp, "twice.cu"), TWICE)
        if door == "binary":
            rc, out, err = run([wc, AOS, "--no-cuda", "--fix", "--fix-notes", "twice.cu"], cwd=tmp)
        else:
            rc, out, err = run(plugin_command(clang_tidy, plugin, wc, tmp, "twice.cu",
                                              ["-fix", "--fix-notes"]), cwd=tmp)
        check("%s door: the kernel launched twice is rewritten once" % door,
              read(os.path.join(tmp, "twice.cu")) == TWICE_FIXED,
              read(os.path.join(tmp, "twice.cu")) + err[-600:])


def test_options(wc, plugin, clang_tidy, tmp):
    write(os.path.join(tmp, "twice.cu"), TWICE)
    off = "--config=cuda-aos-layout.OfferSoAFix=false"
    rc, out, err = run([wc, AOS, "--no-cuda", off, "--fix", "--fix-notes", "twice.cu"], cwd=tmp)
    check("OfferSoAFix=false: the warnings stay, no rewrite note, nothing is made",
          "warning: kernel 'weigh'" in out and "structure-of-arrays rewrite" not in out and
          read(os.path.join(tmp, "twice.cu")) == TWICE, out[-1000:] + err[-300:])
    config = json.dumps({"CheckOptions": {"cuda-aos-layout.OfferSoAFix": "false"}})
    rc, out, err = run(plugin_command(clang_tidy, plugin, wc, tmp, "twice.cu",
                                      ["-fix", "--fix-notes"], config), cwd=tmp)
    check("plugin, OfferSoAFix: false: nothing is made",
          "warning: kernel 'weigh'" in out and "structure-of-arrays rewrite" not in out and
          read(os.path.join(tmp, "twice.cu")) == TWICE, out[-1000:] + err[-300:])
    rc, out, err = run([clang_tidy, "-load", plugin, "--checks=-*,cuda-aos-layout",
                        "--config=" + config, "--dump-config"], cwd=tmp)
    check("clang-tidy --dump-config: OfferSoAFix stored (storeOptions), with its value",
          re.search(r"cuda-aos-layout\.OfferSoAFix'?:\s*'?false", out) is not None,
          (out + err)[-1500:])
    for option, value in (("OfferSoAFix", "maybe"), ("ReportL1Only", "sometimes")):
        want = ("invalid configuration value '%s' for option 'cuda-aos-layout.%s'; expected "
                "true or false, using the default true" % (value, option))
        rc, out, err = run([wc, AOS, "--no-cuda", "--config=cuda-aos-layout.%s=%s" % (option, value),
                            "twice.cu"], cwd=tmp)
        check("binary, %s=%s: said by name, the default used" % (option, value),
              want in out + err and "structure-of-arrays rewrite (a fix-it" in out,
              (out + err)[-1200:])
        config = json.dumps({"CheckOptions": {"cuda-aos-layout." + option: value}})
        rc, out, err = run(plugin_command(clang_tidy, plugin, wc, tmp, "twice.cu", [], config),
                           cwd=tmp)
        check("plugin, %s: %s: said by name" % (option, value), want in out + err,
              (out + err)[-1200:])
    rc, out, err = run([wc, AOS, "--no-cuda", "--config=cuda-aos-layout.MinEfficiency=101",
                        "twice.cu"], cwd=tmp)
    check("MinEfficiency=101: not a percentage, said by name",
          "cuda-aos-layout: MinEfficiency 101 is not a percentage (0 to 100)" in out + err,
          (out + err)[-1200:])


def main():
    args, wc, plugin = door_arguments()
    if not shutil.which(args.clang_tidy):
        print("FAIL %s is not on PATH" % args.clang_tidy)
        return 1
    with scratch_dir("warpcheck-soa-") as tmp:
        for name in ("doors", "two", "options", "nvcc", "sarif"):
            os.makedirs(os.path.join(tmp, name))
        test_both_doors(wc, plugin, args.clang_tidy, os.path.join(tmp, "doors"))
        test_sarif_note_fixes(wc, os.path.join(tmp, "sarif"))
        test_soa_figures(wc)
        test_aos_entries(wc)
        test_two_launches(wc, plugin, args.clang_tidy, os.path.join(tmp, "two"))
        test_options(wc, plugin, args.clang_tidy, os.path.join(tmp, "options"))
        test_nvcc(wc, os.path.join(tmp, "nvcc"))
    return RESULTS.summary()


if __name__ == "__main__":
    sys.exit(main())
