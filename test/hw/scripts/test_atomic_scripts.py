#!/usr/bin/env python3
"""Unit tests for atomic_sass_census.py (and, with nvcc, the committed census) on samples in
cuobjdump's format (testdata/). Run: python3 -m unittest discover -s test/hw/scripts
"""
import csv
import io
import os
import re
import shutil
import subprocess
import sys
import tarfile
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import atomic_sass_census as census  # noqa: E402

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


def nvcc_release(nvcc):
    out = subprocess.run([nvcc, "--version"], stdout=subprocess.PIPE, universal_newlines=True).stdout
    m = re.search(r"release (\d+\.\d+)", out)
    return m.group(1) if m else None


NVCC = census.find_nvcc()


@unittest.skipUnless(NVCC and nvcc_release(NVCC) == "13.0", "the census was made with nvcc 13.0")
class CommittedCensus(unittest.TestCase):
    def test_reproduced(self):
        """test/hw/atomics/sass_census.csv is what nvcc makes of atomic_patterns.cu."""
        src = os.path.join(HW, "microbench", "atomic_patterns.cu")
        tmp = tempfile.mkdtemp()
        try:
            exe, cubin, ptx, lst = (os.path.join(tmp, n) for n in ("ap", "ap.cubin", "ap.ptx", "list.csv"))
            flags = ["-O3", "-arch=sm_90", "-lineinfo"]
            for extra, out in (([], exe), (["-cubin"], cubin), (["-ptx"], ptx)):
                subprocess.run([NVCC] + flags + extra + ["-o", out, src], check=True)
            subprocess.run([exe, lst, "--list"], check=True, stdout=subprocess.PIPE)
            out = os.path.join(tmp, "census.csv")
            self.assertEqual(census.main(["--list", lst, "--cubin", cubin, "--ptx", ptx, "-o", out]), 0)
            with open(out) as a, open(os.path.join(HW, "atomics", "sass_census.csv")) as b:
                self.assertEqual(a.read(), b.read())
        finally:
            shutil.rmtree(tmp)


if __name__ == "__main__":
    unittest.main()
