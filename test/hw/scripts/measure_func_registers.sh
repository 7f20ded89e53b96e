#!/usr/bin/env bash
# The register counts the CUDA driver reports for every kernel of the test
# inputs (and of the CCCL unit bench/register_estimator.py writes, when
# given): each translation unit is compiled to an sm_90 cubin with nvcc -O3
# (-Xptxas -v, ptxas's log kept next to it), and
# test/hw/microbench/func_registers.cu asks the driver for each function's
# CU_FUNC_ATTRIBUTE_NUM_REGS. Writes $1/func_registers.csv and
# $1/ptxas_logs.txt (every log, each headed by its unit).
#
# Usage (on the device machine, from the repository root):
#   bash test/hw/scripts/measure_func_registers.sh "$OUT" [extra.cu ...]
set -u
out=${1:?output directory}
shift
mkdir -p "$out"
work=$(mktemp -d)
nvcc -O3 -o "$work/func_registers" test/hw/microbench/func_registers.cu -lcuda || exit 1
cubins=()
: > "$out/ptxas_logs.txt"
for src in test/inputs/*.cu test/inputs/*/*.cu "$@"; do
  [ -f "$src" ] || continue
  unit=$(echo "$src" | tr '/' '_')
  # As warpcheck compiles for ptxas's count (analysis/registers/NvccRunner.cpp):
  # lambdas and constexpr as clang accepts them, -rdc=true when the device
  # code calls other translation units (the device runtime).
  flags=(-O3 -cubin -arch=sm_90 -Xptxas -v --extended-lambda --expt-relaxed-constexpr)
  if nvcc "${flags[@]}" -o "$work/$unit.cubin" "$src" > "$work/$unit.log" 2>&1 ||
     nvcc "${flags[@]}" -rdc=true -o "$work/$unit.cubin" "$src" > "$work/$unit.log" 2>&1; then
    cubins+=("$work/$unit.cubin")
  else
    echo "build failed: $src" >> "$out/ptxas_logs.txt"
  fi
  { echo "== $unit"; cat "$work/$unit.log"; } >> "$out/ptxas_logs.txt"
done
"$work/func_registers" "${cubins[@]}" > "$out/func_registers.csv"
echo "func_registers exited $? for ${#cubins[@]} cubins"
