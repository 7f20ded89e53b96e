#!/usr/bin/env bash
# Measures every test input on the GPU: builds each test/inputs/*.cu program
# with nvcc, profiles every kernel launch with Nsight Compute's source
# counters (per source line and per SASS instruction) and with the
# per-kernel memory metrics, and leaves the raw CSV exports in $1.
# test/hw/scripts/inputs_to_records.py turns them into test/hw/inputs/*.json.
#
# Inputs whose host code nvcc 13 rejects on purpose (host-errors.cu,
# removed-runtime-api.cu: what warpcheck must cope with) keep those lines
# under #ifndef WARPCHECK_HW_MEASUREMENT, defined here: the kernels and every
# line number are the same in the measured program.
#
# Usage (on the device machine, from the repository root):
#   bash test/hw/scripts/measure_inputs.sh "$OUT/inputs" [test/inputs/x.cu ...]
set -u
out=${1:?output directory}
shift
mkdir -p "$out"
inputs=("$@")
if [ ${#inputs[@]} -eq 0 ]; then
  inputs=(test/inputs/*.cu)
fi
work=$(mktemp -d)
metrics=l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,smsp__inst_executed_op_global_ld.sum,smsp__inst_executed_op_global_st.sum,launch__registers_per_thread,launch__block_size,launch__grid_size,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps,launch__occupancy_limit_blocks,sm__maximum_warps_per_active_cycle_pct,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic
for src in "${inputs[@]}"; do
  name=$(basename "$src" .cu)
  echo "== $name"
  if ! nvcc -O3 -arch=sm_90 -lineinfo -DWARPCHECK_HW_MEASUREMENT -o "$work/$name" "$src" > "$out/$name.build.txt" 2>&1; then
    echo "   build failed"; cat "$out/$name.build.txt"; continue
  fi
  ( cd "$(dirname "$src")" && timeout 120 "$work/$name" ) > "$out/$name.run.txt" 2>&1 || echo "   run exited $?"
  ( cd "$(dirname "$src")" && timeout 300 ncu --clock-control none --section SourceCounters \
      --import-source yes -k 'regex:.*' -f -o "$work/$name" "$work/$name" ) > "$out/$name.ncu.txt" 2>&1 \
    || echo "   ncu source counters exited $?"
  if [ -f "$work/$name.ncu-rep" ]; then
    ncu -i "$work/$name.ncu-rep" --page source --csv --print-source cuda,sass \
      > "$out/$name.source.csv" 2>> "$out/$name.ncu.txt" || echo "   source export failed"
    ncu -i "$work/$name.ncu-rep" --page details --csv > "$out/$name.details.csv" 2>> "$out/$name.ncu.txt" || true
  fi
  ( cd "$(dirname "$src")" && timeout 300 ncu --clock-control none --metrics "$metrics" --csv \
      "$work/$name" ) > "$out/$name.metrics.csv" 2>> "$out/$name.ncu.txt" || echo "   ncu metrics exited $?"
  # Shared atomics in their own run: a metric name this ncu does not know
  # must not cost the main metrics.
  ( cd "$(dirname "$src")" && timeout 300 ncu --clock-control none --metrics \
      l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum,smsp__inst_executed_op_shared_atom.sum \
      --csv "$work/$name" ) > "$out/$name.metrics2.csv" 2>> "$out/$name.ncu.txt" || echo "   ncu atom metrics exited $?"
  # DRAM bytes per kernel (caches flushed before each launch, ncu's
  # default): what an array of structs moves beyond its L1 sectors.
  ( cd "$(dirname "$src")" && timeout 300 ncu --clock-control none --metrics \
      dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_write.sum \
      --csv "$work/$name" ) > "$out/$name.dram.csv" 2>> "$out/$name.ncu.txt" || echo "   ncu dram metrics exited $?"
  echo "   $(wc -l < "$out/$name.source.csv" 2>/dev/null || echo 0) source rows, $(grep -c '"' "$out/$name.metrics.csv" 2>/dev/null || echo 0) metric rows"
done
rm -rf "$work"
