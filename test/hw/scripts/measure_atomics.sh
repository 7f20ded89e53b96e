#!/usr/bin/env bash
# Measures the global-atomic microbenchmark (test/hw/microbench/atomic_patterns.cu) on the GPU:
# builds it (nvcc -O3 -arch=sm_90 -lineinfo), takes its SASS census with cuobjdump and compares it
# with the committed one (test/hw/atomics/sass_census.csv), runs its 111 launches under
#   ncu --clock-control none --metrics <the op_atom/op_red requests, sectors, instructions> --csv
# and converts the result (test/hw/scripts/atomics_to_records.py).
#
#   bash test/hw/scripts/measure_atomics.sh OUTDIR             # on the GPU machine, repository root
#   bash test/hw/scripts/measure_atomics.sh OUTDIR --dry-run   # anywhere with nvcc: no ncu
#
# OUTDIR receives (7 files):
#   atomic_patterns.csv     the case of each launch, in launch order (the program writes it)
#   atomic_ncu.csv          ncu's raw CSV
#   sass.txt                cuobjdump -sass of the program
#   census_cuobjdump.csv    the census from that listing (cuobjdump's spelling)
#   census_check.txt        the decoder against that listing, and the committed census against it
#   atomic_patterns.json    the records (copy to test/hw/atomic_patterns.json)
#   log.txt                 tools, versions, each step's time and output
# Every step has a time limit and the script goes on after a failing one. On an H200 the run should
# take about a minute (the build 10 s; ncu took 0.14 s a launch for global_patterns' 402); ncu is
# stopped at ATOMICS_NCU_LIMIT_S (180 s). ATOMICS_METRICS replaces the metric list.
set -u

OUT=${1:?usage: measure_atomics.sh OUTDIR [--dry-run]}
DRY=0
[ "${2:-}" = "--dry-run" ] && DRY=1
SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
HW=$(cd "$SCRIPTS/.." && pwd)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/atomics.XXXXXX")
LOG=$OUT/log.txt
: >"$LOG"
T0=$(date +%s)

tool() {  # the first executable of the arguments
  local c
  for c in "$@"; do
    if [ -n "$c" ] && [ -x "$c" ]; then
      echo "$c"
      return
    fi
  done
}
NVCC=$(tool "$(command -v nvcc)" /usr/local/cuda/bin/nvcc)
CUOBJDUMP=$(tool "$(command -v cuobjdump)" /usr/local/cuda/bin/cuobjdump)
NCU=$(tool "$(command -v ncu)" /usr/local/cuda/bin/ncu $(ls -d /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | sort -r))
PY=$(tool "$(command -v python3)" /usr/bin/python3)
# smsp__inst_executed_op_global_atom does not exist on the H200's ncu (2025.3); its SASS-level
# counterpart counts ATOM and ATOMG. The load and store requests tell that nothing else was counted.
METRICS=${ATOMICS_METRICS:-l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum,smsp__sass_inst_executed_op_global_atom.sum,smsp__inst_executed_op_global_red.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum}

step() {  # step NAME LIMIT_S COMMAND...: output to the log, its time and status after it
  local name=$1 limit=$2 t1 rc
  shift 2
  t1=$(date +%s)
  echo "=== $name (limit ${limit}s)" | tee -a "$LOG"
  timeout -k 10 "$limit" "$@" >>"$LOG" 2>&1
  rc=$?
  echo "=== $name: exit $rc after $(($(date +%s) - t1))s" | tee -a "$LOG"
  return $rc
}

{
  date -u
  echo "nvcc=$NVCC cuobjdump=$CUOBJDUMP ncu=$NCU python3=$PY"
  [ -n "$NVCC" ] && "$NVCC" --version | tail -2
  [ -n "$NCU" ] && "$NCU" --version | tail -1
  nvidia-smi -L 2>&1 | head -2
  git -C "$HW" log -1 --format='%H %s' 2>&1
} >>"$LOG" 2>&1

SRC=$HW/microbench/atomic_patterns.cu
BIN=$WORK/atomic_patterns
step build 120 "$NVCC" -O3 -arch=sm_90 -lineinfo -Xptxas -v -o "$BIN" "$SRC" || { echo "build failed"; exit 1; }
step list 30 "$BIN" "$WORK/list.csv" --list

if [ -n "$CUOBJDUMP" ]; then
  step cuobjdump 60 bash -c "'$CUOBJDUMP' -sass '$BIN' > '$OUT/sass.txt'"
  step census 60 "$PY" "$SCRIPTS/atomic_sass_census.py" --list "$WORK/list.csv" --sass "$OUT/sass.txt" \
    -o "$OUT/census_cuobjdump.csv"
  {
    "$PY" "$SCRIPTS/atomic_sass_census.py" --check-decoder "$OUT/sass.txt"
    "$PY" "$SCRIPTS/atomic_sass_census.py" --compare "$HW/atomics/sass_census.csv" "$OUT/census_cuobjdump.csv"
  } >"$OUT/census_check.txt" 2>&1
  tail -n 2 "$OUT/census_check.txt" | tee -a "$LOG"
else
  echo "no cuobjdump: no SASS census" | tee -a "$LOG" "$OUT/census_check.txt"
fi

if [ "$DRY" -eq 1 ]; then
  cp "$WORK/list.csv" "$OUT/atomic_patterns.csv"
  echo "dry run: no ncu" | tee -a "$LOG"
elif [ -z "$NCU" ]; then
  echo "no ncu found" | tee -a "$LOG"
else
  LIMIT=${ATOMICS_NCU_LIMIT_S:-180}
  ncu_run() {
    step ncu "$LIMIT" "$NCU" --clock-control none --metrics "$1" --csv --log-file "$OUT/atomic_ncu.csv" \
      "$BIN" "$OUT/atomic_patterns.csv"
  }
  ncu_run "$METRICS"
  rc=$?
  # An unknown metric makes ncu refuse the whole run: once more with those it lists.
  if [ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] && ! grep -qs '^"ID"' "$OUT/atomic_ncu.csv"; then
    "$NCU" --query-metrics >"$WORK/query.txt" 2>&1
    KNOWN=$("$PY" "$SCRIPTS/atomics_to_records.py" --metrics-known "$WORK/query.txt" "$METRICS")
    echo "retry with the metrics ncu lists: $KNOWN" | tee -a "$LOG"
    mv "$OUT/atomic_ncu.csv" "$WORK/atomic_ncu_try1.csv" 2>/dev/null
    [ -n "$KNOWN" ] && ncu_run "$KNOWN"
  fi
  step records 60 "$PY" "$SCRIPTS/atomics_to_records.py" "$OUT" "$OUT/atomic_patterns.json"
  sed -n '/^=== records (/,/^=== records:/p' "$LOG" | head -40
fi
echo "total $(($(date +%s) - T0))s" | tee -a "$LOG"
rm -rf "$WORK"
ls -la "$OUT"
