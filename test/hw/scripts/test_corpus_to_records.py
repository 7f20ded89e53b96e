#!/usr/bin/env python3
"""Unit tests for corpus_to_records.py on hand-written exports in ncu's
source-page and details-page CSV formats (testdata/corpus_*.csv), packed as
measure_corpus.sh packs them. Run: python3 -m unittest discover -s test/hw/scripts
"""
import contextlib
import io
import json
import os
import shutil
import sys
import tarfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# test/testsupport.py: what warpcheck's test scripts share.
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

import corpus_to_records as c2r  # noqa: E402
from testsupport import scratch_dir  # noqa: E402

DATA = os.path.join(HERE, "testdata")

PLAN = {"version": 1, "entries": [
    {"id": "demo/prog", "program": "demo", "dir": "demo", "repo": "someone/demo", "commit": "abc",
     "bin": "demo_prog", "sources": ["src/k.cu", "src/main.cpp"],
     "runs": [{"argv": ["@BIN@", "--n=4"]}, {"argv": ["@BIN@", "2"]}]},
    {"id": "demo/unbuilt", "program": "demo", "dir": "demo", "bin": "demo_unbuilt",
     "sources": ["src/u.cu"], "runs": [{"argv": ["@BIN@"]}]}]}
ENV = """date: 2026-12-02T10:00:00Z
root: /gpu/repo/.corpus
carried: .corpus
kernel_id: ::regex:.*:1
# nvidia-smi
name, driver_version, compute_cap
NVIDIA H200, 580.159.04, 9.0
# nvcc
Cuda compilation tools, release 13.0, V13.0.88
# ncu
Version 2025.3.0.0 (build 36273991) (public-release)
"""


def read(name):
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return f.read()


def make_result(base, compact=False):
    """result/ as measure_corpus.sh leaves it."""
    os.makedirs(os.path.join(base, "csv"))
    os.makedirs(os.path.join(base, "status"))
    with open(os.path.join(base, "plan.json"), "w") as f:
        json.dump(PLAN, f)
    with open(os.path.join(base, "env.txt"), "w") as f:
        f.write(ENV)
    for k, name in enumerate(["corpus_source_sample.csv", "corpus_source_sample_run1.csv"]):
        dst = os.path.join(base, "csv", "demo_prog.%d.source.csv" % k)
        if compact:
            with contextlib.redirect_stdout(io.StringIO()):
                c2r.compact(os.path.join(DATA, name), dst)
        else:
            shutil.copy(os.path.join(DATA, name), dst)
    shutil.copy(os.path.join(DATA, "corpus_details_sample.csv"),
                os.path.join(base, "csv", "demo_prog.0.details.csv"))
    with open(os.path.join(base, "status", "demo_prog.run.0"), "w") as f:
        f.write("0 12 exported 3\n")
    with open(os.path.join(base, "status", "demo_prog.run.1"), "w") as f:
        f.write("1 4 exported 2\n")


def convert(source):
    with scratch_dir() as out:
        with contextlib.redirect_stdout(io.StringIO()):
            c2r.convert(c2r.Result(source), out)
        files = sorted(os.listdir(out))
        docs = {}
        for name in files:
            with open(os.path.join(out, name)) as f:
                docs[name] = json.load(f)
        return docs


def rec(doc, kernel, line, space, op):
    hits = [r for r in doc["records"]
            if (r["kernel"], r["line"], r["space"], r["op"]) == (kernel, line, space, op)]
    return hits[0] if len(hits) == 1 else hits


class Helpers(unittest.TestCase):
    def test_opcode(self):
        self.assertEqual(c2r.opcode_of("      @!P0 LDG.E.64 R2, desc[UR4][R2.64]"), "LDG.E.64")
        self.assertEqual(c2r.opcode_of("STS [R5], R6"), "STS")
        self.assertEqual(c2r.opcode_of(""), "")

    def test_classes(self):
        self.assertEqual(c2r.access_class("LDG.E.128.CONSTANT", "Global", "Load"), ("global", "load"))
        self.assertEqual(c2r.access_class("LDGSTS.E.BYPASS.128", "Global", "Load"), ("global", "load"))
        self.assertEqual(c2r.access_class("RED.E.ADD", "Global", "Reduction"), ("global", "atomic"))
        self.assertEqual(c2r.access_class("ATOMS.ADD", "Shared", "Atomic"), ("shared", "atomic"))
        self.assertEqual(c2r.access_class("LDSM.16.M88.4", "", ""), ("shared", "load"))
        self.assertEqual(c2r.access_class("LD.E", "Shared", "Load"), ("shared", "load"))
        self.assertEqual(c2r.access_class("ST.E.64", "Global", "Store"), ("global", "store"))
        self.assertIsNone(c2r.access_class("LD.E", "Generic", "Load"))
        self.assertIsNone(c2r.access_class("STL", "Local", "Store"))
        self.assertIsNone(c2r.access_class("LDC", "-", "-"))

    def test_kernel_names(self):
        self.assertEqual(c2r.kernel_name("reduce6<int, (unsigned int)256, (bool)1>(int *, int *, unsigned int)"),
                         "reduce6<int, (unsigned int)256, (bool)1>")
        self.assertEqual(c2r.kernel_name("void ns::k(float *)"), "ns::k")
        self.assertEqual(c2r.kernel_name("plain"), "plain")

    def test_files(self):
        root = "/gpu/repo/.corpus"
        self.assertEqual(c2r.relative_file("/gpu/repo/.corpus/demo/src/../inc/h.cuh", root),
                         ("demo", "inc/h.cuh"))
        self.assertEqual(c2r.relative_file("/usr/local/cuda/include/crt/sm_70_rt.hpp", root),
                         (None, "toolkit:crt/sm_70_rt.hpp"))
        self.assertEqual(c2r.relative_file("/gpu/repo/.corpus/_bench/fixup-x.h", root),
                         (None, "pack:_bench/fixup-x.h"))
        # a path the compiler saw relative: to the build's folder
        self.assertEqual(c2r.relative_file("../../Common/h.h", root, root + "/demo/Samples/a/b"),
                         ("demo", "Samples/Common/h.h"))

    def test_details(self):
        shapes, order = c2r.parse_details(read("corpus_details_sample.csv"))
        self.assertEqual(len(order), 3)
        self.assertEqual(shapes["transposeNaive(float *, const float *, int, int)"]["block"], [32, 8, 1])
        self.assertEqual(shapes["scale<float, (int)4>(const float *, float *, int)"]["grid"], [16, 1, 1])


class Convert(unittest.TestCase):
    def check(self, docs):
        self.assertEqual(list(docs), ["demo_prog.json"])       # the unbuilt entry has none
        doc = docs["demo_prog.json"]
        self.assertEqual(doc["id"], "demo/prog")
        self.assertEqual(doc["units"], ["src/k.cu"])
        self.assertEqual(doc["device"], "NVIDIA H200 (sm_90), driver 580.159.04")
        self.assertEqual(doc["ncu"], "2025.3.0.0")
        self.assertEqual(doc["nvcc"], "13.0.88")
        self.assertEqual(doc["runs"][0], {"args": ["--n=4"], "rc": 0, "seconds": 12,
                                          "status": "exported", "kernels_profiled": 3})
        self.assertEqual(doc["runs"][1]["rc"], 1)
        names = [k["kernel"] for k in doc["kernels"]]
        # run 0's kernels first, the library kernel without line table kept
        # by its launch, reduce6 from run 1; scale once (run 0)
        self.assertEqual(names, ["scale<float, (int)4>", "transposeNaive", "cublasLt::splitKreduce_kernel",
                                 "reduce6<int, (unsigned int)256, (bool)1>"])
        scale = doc["kernels"][0]
        self.assertEqual((scale["run"], scale["block"], scale["grid"]), (0, [128, 1, 1], [16, 1, 1]))
        self.assertEqual(doc["kernels"][3]["run"], 1)
        self.assertIsNone(doc["kernels"][3]["block"])             # run 1 has no details export

        # a predicated 8-byte load, listed twice in the export: counted once
        r = rec(doc, "scale<float, (int)4>", 10, "global", "load")
        self.assertEqual(r["file"], "src/k.cu")
        self.assertEqual((r["instructions"], r["sectors"], r["ideal_sectors"]), (100, 800, 400))
        self.assertEqual((r["sectors_per_request"], r["sector_ratio"]), (8.0, 2.0))
        self.assertEqual(r["opcodes"], ["LDG.E.64"])
        self.assertEqual(r["access_size_bits"], [64])
        self.assertTrue(r["full_warps"])
        self.assertIsNone(r["wavefronts"])
        # the later launch of scale (the fourth block) is not added in
        self.assertNotEqual(r["instructions"], 1099)
        # guarded store: predicated-on thread instructions below 32 a warp
        r = rec(doc, "scale<float, (int)4>", 11, "global", "store")
        self.assertFalse(r["full_warps"])
        self.assertEqual(r["thread_instructions"], 2000)
        self.assertEqual(r["sector_ratio"], 1.0)
        # shared load, store and atomic on one line, thousands separators
        r = rec(doc, "scale<float, (int)4>", 12, "shared", "load")
        self.assertEqual((r["instructions"], r["wavefronts"], r["ideal_wavefronts"]), (50, 1600, 50))
        self.assertEqual((r["wavefronts_per_request"], r["wavefront_ratio"]), (32.0, 32.0))
        self.assertIsNone(r["sectors"])
        r = rec(doc, "scale<float, (int)4>", 12, "shared", "store")
        self.assertEqual(r["wavefront_ratio"], 1.0)
        r = rec(doc, "scale<float, (int)4>", 12, "shared", "atomic")
        self.assertEqual((r["instructions"], r["opcodes"]), (1000, ["ATOMS.ADD"]))
        # generic LD to global memory, RED as a global atomic, STL left out
        r = rec(doc, "scale<float, (int)4>", 13, "global", "load")
        self.assertEqual((r["opcodes"], r["sectors"]), (["LD.E"], 40))
        r = rec(doc, "scale<float, (int)4>", 13, "global", "atomic")
        self.assertEqual(r["opcodes"], ["RED.E.ADD.F32.FTZ.RN.STRONG.GPU"])
        self.assertEqual(len([x for x in doc["records"] if x["line"] == 13]), 2)
        # a header of the program, through '..'
        r = rec(doc, "transposeNaive", 21, "global", "store")
        self.assertEqual(r["file"], "inc/helper.cuh")
        self.assertEqual((r["sectors"], r["ideal_sectors"], r["sector_ratio"]), (32768, 4096, 8.0))
        # SASS placed in a toolkit header: per kernel, outside the records
        self.assertEqual(doc["outside"], [{"kernel": "scale<float, (int)4>",
                                           "file": "toolkit:sm_20_atomic_functions.hpp",
                                           "space": "global", "op": "atomic", "instructions": 4,
                                           "opcodes": ["ATOMG.E.ADD.STRONG.GPU"]}])
        # reduce6 from run 1
        r = rec(doc, "reduce6<int, (unsigned int)256, (bool)1>", 40, "shared", "store")
        self.assertEqual(r["wavefront_ratio"], 1.0)
        self.assertEqual(len(doc["records"]), 10)
        # numbers and names only: no source text in the record
        text = json.dumps(doc)
        for snippet in ("tile[", "float2 v", "__iAtomicAdd", "desc[UR4]", "/gpu/repo"):
            self.assertNotIn(snippet, text)

    def test_folder(self):
        with scratch_dir() as tmp:
            make_result(os.path.join(tmp, "result"))
            self.check(convert(os.path.join(tmp, "result")))

    def test_compacted_tarball_in_parts(self):
        """The compact form gives the same records; the tarball may come in
        .partNN pieces."""
        with scratch_dir() as tmp:
            make_result(os.path.join(tmp, "result"), compact=True)
            with open(os.path.join(tmp, "result", "csv", "demo_prog.0.source.csv")) as f:
                text = f.read()
            self.assertNotIn("float2 v", text)
            self.assertNotIn("desc[UR4]", text)
            self.assertNotIn("S2R", text)
            tar = os.path.join(tmp, "corpus_measure.tar.gz")
            with tarfile.open(tar, "w:gz") as tf:
                tf.add(os.path.join(tmp, "result"), arcname="result")
            with open(tar, "rb") as f:
                data = f.read()
            half = len(data) // 2
            for i, chunk in enumerate([data[:half], data[half:]]):
                with open(tar + ".part%02d" % i, "wb") as f:
                    f.write(chunk)
            self.check(convert(tar))
            self.check(convert(tar + ".part00"))


if __name__ == "__main__":
    unittest.main()
