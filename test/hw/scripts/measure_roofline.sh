#!/usr/bin/env bash
# Measures what the roofline compares (docs/hardware-model.md, "Arithmetic
# intensity and the roofline") on the GPU: builds each roofline input (a
# test/inputs/*.cu holding "HW-ROOFLINE:") with nvcc, runs it once, then
# profiles every kernel launch with Nsight Compute for its floating-point
# instructions per precision, its DRAM bytes and its duration, and leaves
# the CSV exports in $1. test/hw/scripts/roofline_to_records.py turns them
# into test/hw/roofline/<input>.json.
#
# ncu flushes the caches before each pass (--cache-control all, its
# default) and runs the kernels at their own clocks (--clock-control none,
# as every measurement of test/hw/); --print-units base gives bytes and
# nanoseconds with every digit. test/inputs/roofline.cu takes about a
# minute on the H200 (8 kernels, 9 GiB of arrays, a few passes each).
#
# Usage (on the device machine, from the repository root):
#   bash test/hw/scripts/measure_roofline.sh "$OUT/roofline" [test/inputs/x.cu ...]
set -u
out=${1:?output directory}
shift
mkdir -p "$out"
inputs=("$@")
if [ ${#inputs[@]} -eq 0 ]; then
  mapfile -t inputs < <(grep -l "HW-ROOFLINE:" test/inputs/*.cu)
fi
work=$(mktemp -d)
metrics=smsp__sass_thread_inst_executed_op_hadd_pred_on.sum,smsp__sass_thread_inst_executed_op_hmul_pred_on.sum,smsp__sass_thread_inst_executed_op_hfma_pred_on.sum,smsp__sass_thread_inst_executed_op_fadd_pred_on.sum,smsp__sass_thread_inst_executed_op_fmul_pred_on.sum,smsp__sass_thread_inst_executed_op_ffma_pred_on.sum,smsp__sass_thread_inst_executed_op_dadd_pred_on.sum,smsp__sass_thread_inst_executed_op_dmul_pred_on.sum,smsp__sass_thread_inst_executed_op_dfma_pred_on.sum,dram__bytes_read.sum,dram__bytes_write.sum,gpu__time_duration.sum,launch__block_size,launch__grid_size
for src in "${inputs[@]}"; do
  name=$(basename "$src" .cu)
  echo "== $name"
  if ! nvcc -O3 -arch=sm_90 -lineinfo -o "$work/$name" "$src" > "$out/$name.build.txt" 2>&1; then
    echo "   build failed"; cat "$out/$name.build.txt"; continue
  fi
  ( cd "$(dirname "$src")" && timeout 60 "$work/$name" ) > "$out/$name.run.txt" 2>&1 || echo "   run exited $?"
  ( cd "$(dirname "$src")" && timeout 180 ncu --clock-control none --print-units base --metrics "$metrics" --csv \
      "$work/$name" ) > "$out/$name.roofline.csv" 2> "$out/$name.ncu.txt" || echo "   ncu exited $?"
  # The SASS the counts come from, for reading a difference (no metric).
  cuobjdump -sass "$work/$name" > "$out/$name.sass.txt" 2>> "$out/$name.ncu.txt" || true
  nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem --format=csv \
    > "$out/$name.device.txt" 2>&1 || true
  echo "   $(grep -c '"' "$out/$name.roofline.csv" 2>/dev/null || echo 0) metric rows"
done
rm -rf "$work"
