#!/usr/bin/env python3
"""Unit tests for microbench_to_records.py and check_microbench_sass.py, on hand-written samples
in ncu's, ptxas's and cuobjdump's formats (testdata/). Run: python3 -m unittest discover -s test/hw/scripts
"""
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

import check_microbench_sass as sass  # noqa: E402
import microbench_to_records as m2r  # noqa: E402
from testsupport import scratch_dir  # noqa: E402

DATA = os.path.join(HERE, "testdata")


def read(name):
    with open(os.path.join(DATA, name), encoding="utf-8") as f:
        return f.read()


class ParseValue(unittest.TestCase):
    def test_numbers(self):
        self.assertEqual(m2r.parse_value("1,024"), 1024)
        self.assertEqual(m2r.parse_value("1,234,567"), 1234567)
        self.assertEqual(m2r.parse_value(" 32 "), 32)
        self.assertEqual(m2r.parse_value("3.5"), 3.5)
        self.assertEqual(m2r.parse_value("1,024.50"), 1024.5)
        self.assertEqual(m2r.parse_value("0"), 0)

    def test_non_numbers(self):
        self.assertIsNone(m2r.parse_value("n/a"))
        self.assertIsNone(m2r.parse_value(""))
        self.assertEqual(m2r.parse_value("(32, 1, 1)"), "(32, 1, 1)")
        # a comma that is not a thousands separator is kept as text
        self.assertEqual(m2r.parse_value("1,02"), "1,02")


class ParseNcuCsv(unittest.TestCase):
    def test_details_form(self):
        ls = m2r.parse_ncu_csv(read("ncu_details_sample.csv"))
        self.assertEqual([L["id"] for L in ls], [0, 1, 2])
        self.assertEqual(ls[0]["kernel"], "lds_w4")
        self.assertEqual(ls[1]["metrics"]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"], 32)
        self.assertEqual(ls[1]["metrics"]["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"], 31)
        self.assertEqual(ls[0]["units"]["smsp__inst_executed_op_shared_ld.sum"], "inst")
        # repeated header, thousands separator, n/a
        self.assertEqual(ls[2]["metrics"]["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"], 1024)
        self.assertIsNone(ls[2]["metrics"]["smsp__inst_executed_op_shared_ld.sum"])
        self.assertEqual(ls[2]["fields"]["Block Size"], "(32, 1, 1)")

    def test_raw_form(self):
        ls = m2r.parse_ncu_csv(read("ncu_raw_sample.csv"))
        self.assertEqual(len(ls), 3)
        self.assertEqual(ls[1]["metrics"]["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], 32)
        self.assertEqual(ls[2]["metrics"]["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"], 5)
        self.assertEqual(ls[2]["units"]["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"], "sector")
        self.assertEqual(ls[0]["kernel"], "ldg_w4")

    def test_kernel_names(self):
        self.assertEqual(m2r.base_kernel_name("lds_w8(SharedPattern, unsigned int *)"), "lds_w8")
        self.assertEqual(m2r.base_kernel_name("lds_w8"), "lds_w8")
        self.assertEqual(m2r.normalize_template_name("void occ_kernel<40, 1024>(float *, int, int)"),
                         "occ_kernel<40,1024>")

    def test_empty(self):
        self.assertEqual(m2r.parse_ncu_csv("==PROF== nothing\n"), [])


class Records(unittest.TestCase):
    def test_shared(self):
        rows = m2r.read_csv_rows(read("shared_patterns_sample.csv"))
        ls = m2r.parse_ncu_csv(read("ncu_details_sample.csv"))
        sj = {"lds_w4": {"measured": "LDS", "ok": True}}
        recs = m2r.build_shared(rows, ls, sj)
        self.assertEqual(len(recs), 3)
        r = recs[1]
        self.assertEqual(r["id"], "lds_w4.stride_32")
        self.assertEqual((r["wavefronts"], r["bank_conflicts"], r["instructions"]), (32, 31, 1))
        self.assertEqual(r["wavefronts_per_request"], 32.0)
        self.assertEqual(r["offsets"][1], 128)
        self.assertEqual(r["sass"], "LDS")
        self.assertTrue(r["clean"])
        self.assertEqual(recs[2]["op"], "store")
        self.assertEqual(recs[2]["wavefronts"], 1024)
        self.assertEqual(recs[2]["wavefronts_per_request"], 32.0)
        self.assertIsNone(recs[2]["sass"])

    def test_shared_name_mismatch(self):
        rows = m2r.read_csv_rows(read("shared_patterns_sample.csv"))
        rows[0]["kernel"] = "lds_w8"
        with self.assertRaises(m2r.JoinError):
            m2r.build_shared(rows, m2r.parse_ncu_csv(read("ncu_details_sample.csv")))

    def test_gap_refused(self):
        rows = m2r.read_csv_rows(read("shared_patterns_sample.csv"))
        ls = m2r.parse_ncu_csv(read("ncu_details_sample.csv"))
        del ls[1]
        with self.assertRaises(m2r.JoinError):
            m2r.build_shared(rows, ls)

    def test_global(self):
        rows = m2r.read_csv_rows(read("global_patterns_sample.csv"))
        recs = m2r.build_global(rows, m2r.parse_ncu_csv(read("ncu_raw_sample.csv")))
        self.assertEqual([(r["requests"], r["sectors"]) for r in recs], [(1, 4), (1, 32), (1, 5)])
        self.assertEqual(recs[2]["base_shift"], 4)
        self.assertEqual(recs[1]["sectors_per_request"], 32.0)
        self.assertTrue(all(r["clean"] for r in recs))

    def test_global_unclean(self):
        text = read("ncu_raw_sample.csv").replace('"1","32","0","0"', '"1","32","1","1"')
        rows = m2r.read_csv_rows(read("global_patterns_sample.csv"))
        recs = m2r.build_global(rows, m2r.parse_ncu_csv(text))
        self.assertFalse(recs[1]["clean"])

    def test_ptxas_and_occupancy(self):
        p = m2r.parse_ptxas_verbose(read("ptxas_sample.txt"))
        k = p["_Z10occ_kernelILi40ELi1024EEvPfii"]
        self.assertEqual((k["registers"], k["smem"], k["spill_stores"], k["barriers"]), (40, 1024, 500, 1))
        self.assertEqual(p["_Z12empty_kernelPfii"]["registers"], 4)
        self.assertEqual(m2r.demangle_occ("_Z10occ_kernelILi40ELi1024EEvPfii"), "occ_kernel<40,1024>")
        recs = m2r.build_occupancy_ncu(read("occupancy_launches_sample.csv"),
                                       m2r.parse_ncu_csv(read("ncu_occupancy_sample.csv")), p)
        self.assertEqual(recs[0]["metrics"]["launch__registers_per_thread"], 16)
        self.assertEqual(recs[0]["ptxas"]["registers"], 4)
        self.assertEqual(recs[1]["metrics"]["launch__block_size"], 1024)
        self.assertEqual(recs[1]["num_regs"], 40)

    def test_main_from_tarball(self):
        with scratch_dir() as tmp:
            raw = os.path.join(tmp, "microbench_raw")
            os.makedirs(raw)
            for src, dst in [("shared_patterns_sample.csv", "shared_patterns.csv"),
                             ("ncu_details_sample.csv", "shared_ncu.csv"),
                             ("global_patterns_sample.csv", "global_patterns.csv"),
                             ("ncu_raw_sample.csv", "global_ncu_stdout.txt"),
                             ("occupancy_launches_sample.csv", "occupancy_launches_ncu.csv"),
                             ("ncu_occupancy_sample.csv", "occupancy_ncu.csv"),
                             ("ptxas_sample.txt", "ptxas_occupancy_grid.txt")]:
                shutil.copy(os.path.join(DATA, src), os.path.join(raw, dst))
            with open(os.path.join(raw, "occupancy_grid.csv"), "w") as f:
                f.write("phase,kernel,reg_cap,num_regs,block,dyn_smem,status,active_blocks\n"
                        'default,"occ_kernel<40,1024>",40,40,512,0,cudaSuccess,3\n')
            with open(os.path.join(raw, "device_props.json"), "w") as f:
                json.dump({"name": "test", "props": {"multiProcessorCount": 132}}, f)
            tgz = os.path.join(tmp, "microbench_raw.tar.gz")
            with tarfile.open(tgz, "w:gz") as t:
                t.add(raw, arcname="microbench_raw")
            out = os.path.join(tmp, "out")
            rc = m2r.main(["x", tgz, out])
            self.assertEqual(rc, 0)
            with open(os.path.join(out, "global_patterns.json")) as f:
                g = json.load(f)
            self.assertEqual(g[1]["sectors"], 32)
            with open(os.path.join(out, "occupancy_runtime.json")) as f:
                o = json.load(f)
            self.assertEqual(o["rows"][0][o["columns"].index("active_blocks")], 3)
            self.assertEqual(o["rows"][0][o["columns"].index("kernel")], "occ_kernel<40,1024>")
            self.assertEqual(o["device"]["props"]["multiProcessorCount"], 132)


class SassCheck(unittest.TestCase):
    def test_sample(self):
        funcs = sass.parse_sass(read("cuobjdump_sample.txt"))
        self.assertEqual(funcs["lds_w8"], ["LDS.64", "STG.E"])
        ok = {k: sass.check_sass_kernel(k, v) for k, v in funcs.items()}
        self.assertTrue(ok["lds_w8"][1])
        self.assertEqual(ok["lds_w8"][2], "LDS.64")
        self.assertTrue(ok["sts_w16"][1])
        self.assertFalse(ok["ldg_w1"][1])  # two LDGs
        self.assertTrue(ok["red_w4"][1])
        self.assertFalse(ok["stg_w2"][1])  # local store

    def test_widths(self):
        self.assertTrue(sass.check_sass_kernel("lds_w4", ["LDS"])[1])
        self.assertFalse(sass.check_sass_kernel("lds_w4", ["LDS.64"])[1])
        self.assertTrue(sass.check_sass_kernel("ldg_w16", ["LDG.E.128", "STG.E"])[1])
        self.assertFalse(sass.check_sass_kernel("ldg_w16", ["LDG.E.128.CONSTANT", "STG.E"])[1])
        self.assertFalse(sass.check_sass_kernel("sts_w1", ["STS.U8", "LD.E"])[1])
        self.assertTrue(sass.check_sass_kernel("atom_w4", ["ATOMG.E.ADD.STRONG.GPU", "STG.E"])[1])


if __name__ == "__main__":
    unittest.main()
