#!/usr/bin/env python3
"""Unit tests for atomic_sass_census.py (and, with nvcc, the committed census) and
atomics_to_records.py, on samples in cuobjdump's and ncu's formats (testdata/).
Run: python3 -m unittest discover -s test/hw/scripts
"""
import csv
import io
import json
import os
import re
import shutil
import sys
import tarfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
# test/testsupport.py: what warpcheck's test scripts share.
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

import atomic_sass_census as census  # noqa: E402
import atomics_to_records as a2r  # noqa: E402
import microbench_to_records as m2r  # noqa: E402
from testsupport import run, scratch_dir  # noqa: E402

DATA = os.path.join(HERE, "testdata")
HW = os.path.normpath(os.path.join(HERE, ".."))


def read(name):
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return f.read()


def list_rows(name="atomic_list_sample.csv"):
    return list(csv.DictReader(io.StringIO(read(name))))


class Census(unittest.TestCase):
    def rows(self):
        instrs = census.instructions_from_sass(read("atomic_sass_sample.txt"))
        return {r["kernel"]: r for r in census.census_rows(list_rows(), instrs, "cuobjdump")}

    def test_aggregated(self):
        r = self.rows()["i32_add_zero_k"]
        self.assertEqual(r["aggregated"], "yes")
        self.assertEqual(r["atomics"], "@P0 REDG.E.ADD.STRONG.GPU")
        self.assertEqual(r["warp_ops"], "VOTEU UFLO POPC")
        self.assertEqual((r["expected_requests"], r["expected_sectors"]), (1, 1))

    def test_full_warp(self):
        r = self.rows()["i32_add_zero_var_ret"]
        self.assertEqual(r["aggregated"], "full_warp")
        self.assertEqual(r["warp_ops"], "VOTE SHFL")
        self.assertEqual(r["expected_sectors"], 1)
        partial = dict(list_rows()[1], active="lt16", active_mask="0x0000ffff")
        atomics, _, agg = census.classify(census.instructions_from_sass(read("atomic_sass_sample.txt"))
                                          ["i32_add_zero_var_ret"])
        self.assertEqual(census.expected(partial, agg, atomics), (1, 16))

    def test_not_aggregated(self):
        rows = self.rows()
        self.assertEqual(rows["f32_add_zero_k"]["aggregated"], "no")
        self.assertEqual(rows["f32_add_zero_k"]["expected_sectors"], 32)
        # 16 lanes on adjacent words: 64 bytes, two sectors; the guarded EXIT is no atomic
        self.assertEqual(rows["i32_add_lane_k_rtmask"]["aggregated"], "no")
        self.assertEqual(rows["i32_add_lane_k_rtmask"]["atomics"], "REDG.E.ADD.STRONG.GPU")
        self.assertEqual(rows["i32_add_lane_k_rtmask"]["expected_sectors"], 2)

    def test_serialised_sectors(self):
        self.assertEqual(census.serialised_sectors({l: 0 for l in range(32)}, 4), 32)
        self.assertEqual(census.serialised_sectors({l: l // 4 for l in range(32)}, 4), 4)
        self.assertEqual(census.serialised_sectors({l: l for l in range(32)}, 16), 16)
        self.assertEqual(census.serialised_sectors({l: l // 2 for l in range(32)}, 4), 4)

    def test_missing_kernel(self):
        with self.assertRaises(KeyError):
            census.census_rows(list_rows(), {}, "cuobjdump")

    def test_compare(self):
        instrs = census.instructions_from_sass(read("atomic_sass_sample.txt"))
        out = io.StringIO()
        census.write_csv(census.census_rows(list_rows(), instrs, "cuobjdump"), out)
        text = out.getvalue()
        self.assertEqual(census.compare(text, text)[0], 0)
        respelled = text.replace("REDG.E.ADD.F32.FTZ.RN.STRONG.GPU", "REDG.E.ADD.F32.FTZ.RN.STRONG.GPU.X")
        differ, lines = census.compare(text, respelled)
        self.assertEqual(differ, 0)
        self.assertTrue(lines[0].startswith("spelling f32_add_zero_k"))
        differ, lines = census.compare(text, text.replace(",yes,", ",no,"))
        self.assertEqual(differ, 1)
        self.assertTrue(lines[0].startswith("DIFFERS i32_add_zero_k"))

    def test_ptx(self):
        ptx = (".visible .entry h2_add_zero_k(\n\t.param .u64 p\n)\n{\n"
               "\t{ atom.add.noftz.f16x2 %r4,[%rd1],%r3; }\n\tret;\n}\n"
               ".visible .entry i32_add_zero_k(\n)\n{\n\tatom.global.add.u32 \t%r1, [%rd2], 1; // x\n}\n")
        self.assertEqual(census.ptx_atomics(ptx), {"h2_add_zero_k": ["atom.add.noftz.f16x2"],
                                                   "i32_add_zero_k": ["atom.global.add.u32"]})


class Decoder(unittest.TestCase):
    def test_sample_encodings(self):
        checked, bad = census.decoder_mismatches(read("atomic_sass_sample.txt"))
        self.assertEqual(bad, [])
        self.assertEqual(checked, 6)  # VOTEU UFLO POPC REDG EXIT BRA

    def test_fields(self):
        # REDG.E.ADD.STRONG.GPU, @P0, of the sample
        d = census.decode(0x000000050200098E, 0x002FE2000C10E184)
        self.assertEqual((d.guard, d.name), ("@P0", "REDG.E.ADD.STRONG.GPU"))
        self.assertEqual(census.decode(0x0000000000047886, 0x000FE400038E0100).name, "VOTEU")
        self.assertIsNone(census.decode(0x00000A00FF017B82, 0x000FE20000000800))  # LDC

    def test_recorded_listing(self):
        """The H200 run's cuobjdump listing of global_patterns (test/hw/raw/): ATOMG and REDG."""
        with tarfile.open(os.path.join(HW, "raw", "microbench_raw.tar.gz")) as t:
            text = t.extractfile("microbench_raw/sass_global_patterns.txt").read().decode()
        checked, bad = census.decoder_mismatches(text)
        self.assertEqual(bad, [])
        self.assertGreater(checked, 10)

    @unittest.skipUnless(census.find_nvcc(), "no nvcc")
    def test_calibration(self):
        self.assertEqual(census.calibrate(census.find_nvcc()), [])


def sample_census():
    instrs = census.instructions_from_sass(read("atomic_sass_sample.txt"))
    rows = census.census_rows(list_rows(), instrs, "cuobjdump")
    # as read back from the CSV: every field a string
    return {r["kernel"]: {k: str(v) for k, v in r.items()} for r in rows}


class Records(unittest.TestCase):
    def records(self, census_rows=None):
        launches = m2r.parse_ncu_csv(read("atomic_ncu_sample.csv"))
        return {r["kernel"]: r for r in a2r.build_records(list_rows(), launches, census_rows)}

    def test_counts(self):
        recs = self.records(sample_census())
        r = recs["i32_add_zero_k"]
        self.assertEqual((r["requests"], r["sectors"], r["instructions"]), (1, 1, 1))
        self.assertEqual(r["red"], {"requests": 1, "sectors": 1, "instructions": 1})
        self.assertEqual(r["atom"], {"requests": 0, "sectors": 0, "instructions": 0})
        self.assertEqual((r["aggregated"], r["bytes"], r["active_mask"]), ("yes", 4, "0xffffffff"))
        self.assertTrue(r["as_expected"] and r["clean"])
        self.assertEqual(r["metrics"]["l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"], 1)
        # the full-warp case: the predicated-off per-lane ATOMG is an instruction without a request
        r = recs["i32_add_zero_var_ret"]
        self.assertEqual((r["requests"], r["sectors"], r["instructions"]), (1, 1, 2))
        self.assertTrue(r["as_expected"])
        self.assertEqual(recs["f32_add_zero_k"]["sectors"], 32)
        self.assertEqual(recs["i32_add_lane_k_rtmask"]["sectors"], 2)
        self.assertTrue(all(r["as_expected"] for r in recs.values()))

    def test_without_census(self):
        r = self.records()["f32_add_zero_k"]
        self.assertIsNone(r["aggregated"])
        self.assertIsNone(r["as_expected"])

    def test_not_as_expected(self):
        c = sample_census()
        c["f32_add_zero_k"]["expected_sectors"] = "1"
        self.assertFalse(self.records(c)["f32_add_zero_k"]["as_expected"])

    def test_name_mismatch(self):
        rows = list_rows()
        rows[2]["kernel"] = "f64_add_zero_k"
        with self.assertRaises(m2r.JoinError):
            a2r.build_records(rows, m2r.parse_ncu_csv(read("atomic_ncu_sample.csv")))

    def test_main(self):
        with scratch_dir() as tmp:
            shutil.copy(os.path.join(DATA, "atomic_list_sample.csv"), os.path.join(tmp, "atomic_patterns.csv"))
            shutil.copy(os.path.join(DATA, "atomic_ncu_sample.csv"), os.path.join(tmp, "atomic_ncu.csv"))
            out = os.path.join(tmp, "atomic_patterns.json")
            self.assertEqual(a2r.main(["x", tmp, out]), 0)
            with open(out) as f:
                recs = json.load(f)
            self.assertEqual([r["kernel"] for r in recs], [r["kernel"] for r in list_rows()])
            # no census beside the raw files: the committed one
            self.assertEqual(recs[0]["aggregated"], "yes")

    def test_known_metrics(self):
        query = ("Metric Name   Metric Type   Metric Unit   Metric Description\n"
                 "l1tex__t_requests_pipe_lsu_mem_global_op_atom        Counter   # of requests\n"
                 "smsp__sass_inst_executed_op_global_atom              Counter   inst   # of warp instructions\n")
        self.assertEqual(a2r.known_metrics(query, ["l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
                                                   "smsp__inst_executed_op_global_atom.sum",
                                                   "smsp__sass_inst_executed_op_global_atom.sum"]),
                         ["l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
                          "smsp__sass_inst_executed_op_global_atom.sum"])


def nvcc_release(nvcc):
    out = run([nvcc, "--version"])[1]
    m = re.search(r"release (\d+\.\d+)", out)
    return m.group(1) if m else None


NVCC = census.find_nvcc()


@unittest.skipUnless(NVCC and nvcc_release(NVCC) == "13.0", "the census was made with nvcc 13.0")
class CommittedCensus(unittest.TestCase):
    def test_reproduced(self):
        """test/hw/atomics/sass_census.csv is what nvcc makes of atomic_patterns.cu."""
        src = os.path.join(HW, "microbench", "atomic_patterns.cu")
        with scratch_dir() as tmp:
            exe, cubin, ptx, lst = (os.path.join(tmp, n) for n in ("ap", "ap.cubin", "ap.ptx", "list.csv"))
            flags = ["-O3", "-arch=sm_90", "-lineinfo"]
            for extra, out in (([], exe), (["-cubin"], cubin), (["-ptx"], ptx)):
                rc, _, err = run([NVCC] + flags + extra + ["-o", out, src])
                self.assertEqual(rc, 0, err)
            rc, _, err = run([exe, lst, "--list"])
            self.assertEqual(rc, 0, err)
            out = os.path.join(tmp, "census.csv")
            self.assertEqual(census.main(["--list", lst, "--cubin", cubin, "--ptx", ptx, "-o", out]), 0)
            with open(out) as a, open(os.path.join(HW, "atomics", "sass_census.csv")) as b:
                self.assertEqual(a.read(), b.read())


if __name__ == "__main__":
    unittest.main()
