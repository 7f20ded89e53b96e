#!/usr/bin/env python3
"""Turns `nvdisasm -gi` listings of the test inputs' cubins into the test data
test/hw/sass/<input>.nvdisasm.txt: the code sections only (the line table,
relocations and the other sections are dumped as bytes, which nothing reads),
without the NOP padding, and with the folder of the test inputs written
@INPUTS@ (the tests put their own folder there).

The listings come from the H200's machine (CUDA 13.0):
  nvcc -cubin -O3 -arch=sm_90 -lineinfo -DWARPCHECK_HW_MEASUREMENT \\
       -o X.cubin test/inputs/X.cu
  nvdisasm -gi X.cubin > X.nvdisasm_gi.txt
(test/hw/scripts/dump_sass_listings.sh runs both for every input.)

Usage: pack_sass_listings.py LISTINGS_DIR INPUTS_DIR_AS_LISTED OUT_DIR
  INPUTS_DIR_AS_LISTED: the test/inputs folder as the listings name it
  (the absolute path it had where they were compiled).
"""
import os
import re
import sys

NOP = re.compile(r"^\s*/\*[0-9a-f]+\*/\s+NOP\s*;\s*$")
HEADER = ("// nvdisasm -gi of nvcc -cubin -O3 -arch=sm_90 -lineinfo of test/inputs/%s.cu "
          "(CUDA 13.0): code sections only, NOPs left out, test/inputs written @INPUTS@\n")


def trimmed(lines, inputs_dir):
    """The code sections of a listing, without NOPs, inputs_dir -> @INPUTS@."""
    out = []
    in_code = False
    for line in lines:
        if line.startswith("//---------------------"):
            in_code = " .text." in line
        if not in_code or NOP.match(line):
            continue
        out.append(line.replace('"%s/' % inputs_dir.rstrip("/"), '"@INPUTS@/'))
    return out


def main():
    src, inputs_dir, dest = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(dest, exist_ok=True)
    for name in sorted(os.listdir(src)):
        if not name.endswith(".nvdisasm_gi.txt"):
            continue
        stem = name[: -len(".nvdisasm_gi.txt")]
        with open(os.path.join(src, name), encoding="utf-8", errors="replace") as f:
            lines = trimmed(f.readlines(), inputs_dir)
        with open(os.path.join(dest, stem + ".nvdisasm.txt"), "w") as f:
            f.write(HEADER % stem)
            f.writelines(lines)
        print("%s: %d lines" % (stem, len(lines)))


if __name__ == "__main__":
    main()
