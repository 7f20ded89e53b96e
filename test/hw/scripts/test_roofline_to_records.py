#!/usr/bin/env python3
"""Unit tests for roofline_to_records.py on a hand-written sample in ncu's
--metrics --csv format (testdata/roofline_ncu_sample.csv). Run:
python3 -m unittest discover -s test/hw/scripts
"""
import json
import os
import shutil
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))

import roofline_to_records as r2r  # noqa: E402
from testsupport import scratch_dir  # noqa: E402

SAMPLE = os.path.join(HERE, "testdata", "roofline_ncu_sample.csv")


class ParseRooflineCsv(unittest.TestCase):
    def test_launches_in_order_numbered_per_kernel(self):
        launches = r2r.parse_roofline_csv(SAMPLE)
        self.assertEqual([(k["function"], k["launch"]) for k in launches],
                         [("saxpy", 0), ("reduce<256>", 0), ("reduce<256>", 1)])
        self.assertEqual(launches[0]["block"], "(256, 1, 1)")
        self.assertEqual(launches[0]["grid"], "(1048576, 1, 1)")

    def test_counts_and_bytes_are_integers(self):
        m = r2r.parse_roofline_csv(SAMPLE)[0]["metrics"]
        self.assertEqual(m["smsp__sass_thread_inst_executed_op_ffma_pred_on.sum"], 268435456)
        self.assertEqual(m["smsp__sass_thread_inst_executed_op_fadd_pred_on.sum"], 0)
        self.assertEqual(m["dram__bytes_read.sum"], 2147554112)
        self.assertEqual(m["dram__bytes_write.sum"], 1040187392)
        self.assertEqual(m["gpu__time_duration.sum"], 752416)

    def test_units_are_converted_and_missing_values_kept_missing(self):
        launches = r2r.parse_roofline_csv(SAMPLE)
        m = launches[1]["metrics"]
        self.assertEqual(m["dram__bytes_read.sum"], 1073800000)
        self.assertEqual(m["gpu__time_duration.sum"], 262500)
        self.assertIsNone(launches[2]["metrics"]["dram__bytes_write.sum"])

    def test_records_written_per_input(self):
        with scratch_dir() as raw, scratch_dir() as out:
            shutil.copy(SAMPLE, os.path.join(raw, "roofline.roofline.csv"))
            with open(os.path.join(raw, "roofline.device.txt"), "w") as f:
                f.write("name, driver_version\nNVIDIA H200, 580.159.04\n")
            saved = sys.argv
            sys.argv = ["roofline_to_records.py", raw, out]
            try:
                r2r.main()
            finally:
                sys.argv = saved
            with open(os.path.join(out, "roofline.json")) as f:
                doc = json.load(f)
            self.assertEqual(doc["input"], "test/inputs/roofline.cu")
            self.assertEqual(doc["device"], "NVIDIA H200, 580.159.04")
            self.assertEqual(len(doc["kernels"]), 3)

if __name__ == "__main__":
    unittest.main()
