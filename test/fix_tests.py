#!/usr/bin/env python3
"""--fix, --fix-notes and --export-fixes of the warpcheck binary: the padding
fix-it made in the file (and the fixed file reports no bank conflict), the
exported YAML read back and applied by clang-apply-replacements to the same
result, a fix-it in a header two units include made once, conflicting
fix-its never both made, and --fix with --baseline making only the new
findings' fix-its.

Runs as one ctest; prints 'N passed, M failed' and exits non-zero on failure.
"""
import json
import os
import shutil
import sys
import textwrap

import yaml

from testsupport import Results, door_arguments, run, scratch_dir

RESULTS = Results()
check = RESULTS.check

# A transpose through shared memory: the column read is a 32-way conflict,
# which padding the row to 33 elements removes.
TRANSPOSE = textwrap.dedent("""\
    __global__ void transpose(const float *in, float *out) {
      __shared__ float tile[32][32];
      tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
      __syncthreads();
      out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
    }
    """)
MAIN = textwrap.dedent("""\
    int main() {
      float *in, *out;
      cudaMalloc(&in, 4096);
      cudaMalloc(&out, 4096);
      transpose<<<1, dim3(32, 32)>>>(in, out);
      return 0;
    }
    """)
# The same kernel with another name, for a second finding.
SECOND = TRANSPOSE.replace("transpose", "transposeAgain")
SECOND_MAIN = MAIN.replace("  return 0;", "  transposeAgain<<<1, dim3(32, 32)>>>(in, out);\n"
                           "  return 0;")
BANK = "--checks=cuda-shared-bank-conflict"


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def read(path):
    with open(path) as f:
        return f.read()


def bank_findings(wc, argv, cwd):
    """The bank-conflict findings of a JSON run (a list of (file, line)), or
    the output when there is no JSON."""
    rc, out, err = run([wc, "--format=json", BANK] + argv, cwd=cwd)
    try:
        return [(os.path.basename(f["file"]), f["line"]) for f in json.loads(out)["findings"]]
    except (ValueError, KeyError, TypeError):
        return out + err


def test_fix(wc, tmp):
    write(os.path.join(tmp, "t.cu"), TRANSPOSE + MAIN)
    rc, out, err = run([wc, BANK, "--fix", "t.cu"], cwd=tmp)
    want = TRANSPOSE.replace("tile[32][32]", "tile[32][33]") + MAIN
    check("--fix pads the tile in the file, nothing else changes",
          rc == 0 and read(os.path.join(tmp, "t.cu")) == want, read(os.path.join(tmp, "t.cu")) + err)
    check("--fix says what it made on standard error",
          "applied 1 of 1 fix-it, in 1 file" in err and "t.cu:5:" in out, out + err)
    check("the fixed file reports no bank conflict",
          bank_findings(wc, ["t.cu"], tmp) == [], str(bank_findings(wc, ["t.cu"], tmp)))
    left = [n for n in os.listdir(tmp) if n != "t.cu"]
    check("--fix leaves no temporary file beside the fixed one", left == [], str(left))
    rc, out, err = run([wc, BANK, "--fix", "t.cu"], cwd=tmp)
    check("--fix again: nothing to make, the file stays fixed",
          rc == 0 and read(os.path.join(tmp, "t.cu")) == want and
          "applied 0 of 0 fix-its, in 0 files" in err, err)


def test_export(wc, tmp):
    fixed_dir = os.path.join(tmp, "fixed")
    os.makedirs(fixed_dir)
    write(os.path.join(tmp, "e.cu"), TRANSPOSE + MAIN)
    write(os.path.join(fixed_dir, "e.cu"), TRANSPOSE + MAIN)
    yaml_dir = os.path.join(tmp, "yaml")
    os.makedirs(yaml_dir)
    exported = os.path.join(yaml_dir, "fixes.yaml")
    rc, out, err = run([wc, BANK, "--export-fixes", exported, "e.cu"], cwd=tmp)
    check("--export-fixes alone leaves the file as it is",
          rc == 0 and read(os.path.join(tmp, "e.cu")) == TRANSPOSE + MAIN, err)
    source = os.path.realpath(os.path.join(tmp, "e.cu"))
    try:
        doc = yaml.safe_load(read(exported))
        diag = doc["Diagnostics"][0]
        message = diag["DiagnosticMessage"]
        repl = message["Replacements"][0]
        offset = (TRANSPOSE + MAIN).index("tile[32][32]") + len("tile[32][")
        ok = (doc["MainSourceFile"] == source and len(doc["Diagnostics"]) == 1 and
              diag["DiagnosticName"] == "cuda-shared-bank-conflict" and
              diag["Level"] == "Warning" and diag["BuildDirectory"] == os.path.realpath(tmp) and
              message["FilePath"] == source and
              message["FileOffset"] == (TRANSPOSE + MAIN).index("tile[threadIdx.x]") and
              "bank conflict" in message["Message"] and
              repl == {"FilePath": source, "Offset": offset, "Length": 2,
                       "ReplacementText": "33"})
        detail = json.dumps(doc)
    except (OSError, yaml.YAMLError, KeyError, IndexError, TypeError) as e:
        ok, detail = False, repr(e) + err
    check("--export-fixes: clang-tidy's YAML with the padding replacement", ok, detail)
    # clang-apply-replacements makes the same change as --fix.
    car = shutil.which("clang-apply-replacements-19")
    if not check("clang-apply-replacements-19 is on PATH", car):
        return
    rc, out, err = run([car, yaml_dir], cwd=tmp)
    run([wc, BANK, "--fix", "e.cu"], cwd=fixed_dir)
    check("clang-apply-replacements on the exported YAML gives --fix's file",
          rc == 0 and read(os.path.join(tmp, "e.cu")) == read(os.path.join(fixed_dir, "e.cu")) and
          "tile[32][33]" in read(os.path.join(tmp, "e.cu")), out + err)
    rc, out, err = run([wc, BANK, "--export-fixes=" + os.path.join(tmp, "no", "such.yaml"),
                        "e.cu"], cwd=fixed_dir)
    check("--export-fixes to a file that cannot be written: exit 4, named",
          rc == 4 and "no/such.yaml" in err, err)


HEADER = textwrap.dedent("""\
    #ifndef ELEM
    #define ELEM float
    #endif
    __global__ void transpose(const ELEM *in, ELEM *out) {
      __shared__ ELEM tile[32][32];
      tile[threadIdx.y][threadIdx.x] = in[threadIdx.y * 32 + threadIdx.x];
      __syncthreads();
      out[threadIdx.y * 32 + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
    }
    """)


def unit(elem=None, rows=32):
    define = "#define ELEM %s\n" % elem if elem else ""
    main = MAIN.replace("float *in", "ELEM *in").replace("dim3(32, 32)", "dim3(32, %d)" % rows)
    return define + '#include "tile.cuh"\n' + main


def test_header_once(wc, tmp):
    write(os.path.join(tmp, "tile.cuh"), HEADER)
    # Two launch shapes: two findings in the header, with the same fix-it.
    write(os.path.join(tmp, "u1.cu"), unit(rows=32))
    write(os.path.join(tmp, "u2.cu"), unit(rows=16))
    found = bank_findings(wc, ["u1.cu", "u2.cu"], tmp)
    check("a header two units launch differently: two findings",
          found == [("tile.cuh", 8), ("tile.cuh", 8)], str(found))
    rc, out, err = run([wc, BANK, "--fix", "u1.cu", "u2.cu"], cwd=tmp)
    check("a fix-it in a header two units include is made once",
          rc == 0 and read(os.path.join(tmp, "tile.cuh")) ==
          HEADER.replace("tile[32][32]", "tile[32][33]") and
          "applied 2 of 2 fix-its, in 1 file" in err and "not applied" not in err,
          read(os.path.join(tmp, "tile.cuh")) + err)
    check("the units themselves are left as they were",
          read(os.path.join(tmp, "u1.cu")) == unit(rows=32), read(os.path.join(tmp, "u1.cu")))


def test_conflict(wc, tmp):
    write(os.path.join(tmp, "tile.cuh"), HEADER)
    # float rows pad to 33, short rows (two to a bank) to 34: two fix-its of
    # the same characters.
    write(os.path.join(tmp, "f.cu"), unit("float"))
    write(os.path.join(tmp, "s.cu"), unit("short"))
    rc, out, err = run([wc, "--format=json", BANK, "f.cu", "s.cu"], cwd=tmp)
    try:
        fixes = sorted(x["replacement"] for f in json.loads(out)["findings"] for x in f["fixes"])
    except (ValueError, KeyError) as e:
        fixes = repr(e) + err
    check("float and short tiles: two fix-its of one range", fixes == ["33", "34"], str(fixes))
    exported = os.path.join(tmp, "fixes.yaml")
    rc, out, err = run([wc, BANK, "--fix", "--export-fixes", exported, "f.cu", "s.cu"], cwd=tmp)
    header = os.path.realpath(os.path.join(tmp, "tile.cuh"))
    check("conflicting fix-its: the first is made, the other never",
          read(os.path.join(tmp, "tile.cuh")) == HEADER.replace("tile[32][32]", "tile[32][33]"),
          read(os.path.join(tmp, "tile.cuh")))
    check("the fix-it left out is said on standard error, naming the file",
          "warning: " in err and "fix-it of [cuda-shared-bank-conflict] not applied to '%s': "
          "it overlaps another fix-it" % header in err and
          "applied 1 of 2 fix-its, in 1 file" in err, err)
    try:
        doc = yaml.safe_load(read(exported))
        texts = [r["ReplacementText"] for d in doc["Diagnostics"]
                 for r in d["DiagnosticMessage"]["Replacements"]]
        main_file = doc["MainSourceFile"]
    except (OSError, yaml.YAMLError, KeyError, TypeError) as e:
        texts, main_file = repr(e), None
    check("--export-fixes holds only the fix-it made (several units: no main file)",
          texts == ["33"] and main_file == "", str(texts) + str(main_file))


def test_baseline(wc, tmp):
    write(os.path.join(tmp, "b.cu"), TRANSPOSE + MAIN)
    rc, out, err = run([wc, BANK, "--write-baseline", "base.json", "b.cu"], cwd=tmp)
    # The pull request adds a second kernel with the same conflict.
    write(os.path.join(tmp, "b.cu"), TRANSPOSE + SECOND + SECOND_MAIN)
    rc, out, err = run([wc, BANK, "--fix", "--baseline", "base.json", "b.cu"], cwd=tmp)
    want = TRANSPOSE + SECOND.replace("tile[32][32]", "tile[32][33]") + SECOND_MAIN
    check("--fix with --baseline makes only the new finding's fix-it",
          read(os.path.join(tmp, "b.cu")) == want and "applied 1 of 1 fix-it" in err,
          read(os.path.join(tmp, "b.cu")) + err)
    write(os.path.join(tmp, "b.cu"), TRANSPOSE + SECOND + SECOND_MAIN)
    rc, out, err = run([wc, BANK, "--fix", '--line-filter=[{"name":"b.cu","lines":[[1,6]]}]',
                        "b.cu"], cwd=tmp)
    want = TRANSPOSE.replace("tile[32][32]", "tile[32][33]") + SECOND + SECOND_MAIN
    check("--fix with --line-filter makes only the kept finding's fix-it",
          read(os.path.join(tmp, "b.cu")) == want, read(os.path.join(tmp, "b.cu")) + err)


def test_options(wc, tmp):
    rc, out, err = run([wc, "--help"])
    check("--help lists --fix, --fix-notes and --export-fixes",
          "--fix " in out and "--fix-notes" in out and "--export-fixes=<file>" in out, out)
    write(os.path.join(tmp, "n.cu"), TRANSPOSE + MAIN)
    rc, out, err = run([wc, "--export-fixes=", "n.cu"], cwd=tmp)
    check("--export-fixes with no value: exit 2",
          rc == 2 and "'--export-fixes' needs a value" in err, err)
    rc, out, err = run([wc, BANK, "--export-fixes=./n.cu", "n.cu"], cwd=tmp)
    check("--export-fixes naming the input: exit 2, the source left as it is",
          rc == 2 and "--export-fixes './n.cu' is the input" in err and
          read(os.path.join(tmp, "n.cu")) == TRANSPOSE + MAIN, err)
    rc, out, err = run([wc, BANK, "--fix-notes", "--fix", "n.cu"], cwd=tmp)
    check("--fix-notes: the warning's own fix-it is still the one made",
          rc == 0 and "tile[32][33]" in read(os.path.join(tmp, "n.cu")), err)


def main():
    args, wc, _ = door_arguments()
    with scratch_dir("warpcheck-fixes-") as tmp:
        for name, test in (("fix", test_fix), ("export", test_export),
                           ("header", test_header_once), ("conflict", test_conflict),
                           ("base", test_baseline), ("options", test_options)):
            os.makedirs(os.path.join(tmp, name))
            test(wc, os.path.join(tmp, name))
    return RESULTS.summary()


if __name__ == "__main__":
    sys.exit(main())
