#!/usr/bin/env bash
# Build and run warpcheck's GPU microbenchmarks (shared/global access patterns, occupancy) under
# Nsight Compute, and bundle every raw output into OUTDIR.
#
#   bash test/hw/scripts/run_microbench.sh OUTDIR            # on the GPU machine (root, ncu)
#   bash test/hw/scripts/run_microbench.sh OUTDIR --dry-run  # anywhere with nvcc: builds + checks
#
# OUTDIR receives at most 8 files:
#   microbench_raw.tar.gz   everything below (microbench_raw/...)
#   summary.txt             step table + record summary
#   sass_check.txt          per-kernel SASS verdicts (the measured instruction of each kernel)
#   shared_patterns.json global_patterns.json occupancy_runtime.json occupancy_ncu.json
#                           the records, as test/hw/scripts/microbench_to_records.py makes them
# Robust by design: `set -u`, each step runs with a time limit and the script goes on after a
# failing step; a global deadline (MB_DEADLINE_S, default 320 s) keeps the whole run bounded.
set -u

OUT_DIR=${1:?usage: run_microbench.sh OUTDIR [--dry-run]}
DRY=0
[ "${2:-}" = "--dry-run" ] && DRY=1
SCRIPT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$SCRIPT_DIR/../../.." && pwd)
SRC=$REPO/test/hw/microbench
mkdir -p "$OUT_DIR"
OUT_DIR=$(cd "$OUT_DIR" && pwd)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/microbench.XXXXXX")
RAW=$WORK/microbench_raw
BIN=$WORK/bin
mkdir -p "$RAW" "$BIN"
T0=$(date +%s)
DEADLINE_S=${MB_DEADLINE_S:-320}
export PYTHONUNBUFFERED=1

first_of() {  # first executable among the arguments
  local c
  for c in "$@"; do
    if [ -n "$c" ] && [ -x "$c" ]; then
      echo "$c"
      return 0
    fi
  done
  echo ""
}
NVCC=$(first_of "$(command -v nvcc 2>/dev/null)" /usr/local/cuda/bin/nvcc)
CUOBJDUMP=$(first_of "$(command -v cuobjdump 2>/dev/null)" /usr/local/cuda/bin/cuobjdump)
NCU=$(first_of "$(command -v ncu 2>/dev/null)" /usr/local/cuda/bin/ncu $(ls -d /opt/nvidia/nsight-compute/*/ncu 2>/dev/null | sort -r))
PY=$(first_of "$(command -v python3 2>/dev/null)" /usr/bin/python3)
NVFLAGS=(-O3 -arch=sm_90 -lineinfo)

STEPS=()
LAST_RC=0
step() {  # step NAME TIMEOUT_S 'shell command'   (stdout+stderr -> $RAW/log_NAME.txt)
  local name=$1 to=$2 cmd=$3
  local now left rc t1 t2
  now=$(date +%s)
  left=$((DEADLINE_S - (now - T0) - 20))
  if [ "$left" -lt "$to" ]; then to=$left; fi
  if [ "$to" -lt 5 ]; then
    STEPS+=("$(printf '%-22s %-8s %6s  %s' "$name" SKIPPED - 'deadline reached')")
    echo "=== [$name] skipped: deadline"
    LAST_RC=124
    return 0
  fi
  echo "=== [$name] (limit ${to}s)"
  printf '=== [%s]\n%s\n' "$name" "$cmd" >>"$RAW/commands.txt"
  t1=$(date +%s.%N)
  timeout -k 10 "$to" bash -c "$cmd" >"$RAW/log_$name.txt" 2>&1
  rc=$?
  LAST_RC=$rc
  t2=$(date +%s.%N)
  local secs
  secs=$(awk -v a="$t1" -v b="$t2" 'BEGIN{printf "%.1f", b-a}')
  local verdict=ok
  [ "$rc" -ne 0 ] && verdict="FAIL($rc)"
  [ "$rc" -eq 124 ] && verdict="TIMEOUT"
  STEPS+=("$(printf '%-22s %-8s %6s  %s' "$name" "$verdict" "$secs" "log_$name.txt")")
  echo "    -> $verdict in ${secs}s; last lines:"
  tail -n 4 "$RAW/log_$name.txt" | sed 's/^/       /'
  return 0
}

# ------------------------------------------------------------------------------ environment
step env 60 "
  date -u; uname -a; echo;
  echo '# nvidia-smi -q | head -40'; (nvidia-smi -q 2>&1 | head -40) || true; echo;
  echo '# ncu --version'; '${NCU:-ncu}' --version 2>&1 || true; echo;
  echo '# nvcc --version'; '${NVCC:-nvcc}' --version 2>&1 || true; echo;
  echo '# cuobjdump'; '${CUOBJDUMP:-cuobjdump}' --version 2>&1 | tail -2 || true;
  echo '# python3'; '${PY:-python3}' --version 2>&1;
  echo '# git'; git -C '$REPO' log -1 --format='%H %s' 2>&1 || true;
  echo '# tools'; echo NVCC=$NVCC CUOBJDUMP=$CUOBJDUMP NCU=$NCU PY=$PY
"
cp "$RAW/log_env.txt" "$RAW/env.txt" 2>/dev/null

# ------------------------------------------------------------------------------ builds
# The three programs build in parallel; each build's ptxas -v output is kept (ptxas_PROG.txt) and
# any warning fails the step. For the two pattern programs the PTX (PROG.ptx, PTX-level check) and
# a cubin (opcode census, cubin_census.py, the check used where cuobjdump is missing) are made too.
step build 300 "
  cd '$SRC' || exit 9
  for p in shared_patterns global_patterns occupancy_grid; do
    { ( '$NVCC' ${NVFLAGS[*]} -Xptxas -v \$p.cu -o '$BIN'/\$p 2>'$RAW'/ptxas_\$p.txt &&
        if [ \$p != occupancy_grid ]; then
          '$NVCC' ${NVFLAGS[*]} -ptx \$p.cu -o '$RAW'/\$p.ptx &&
          '$NVCC' ${NVFLAGS[*]} -cubin \$p.cu -o '$BIN'/\$p.cubin; fi ) > '$RAW'/build_\$p.txt 2>&1
      echo \$? > '$WORK'/rc_build_\$p; } &
  done
  wait
  rc=0
  for p in shared_patterns global_patterns occupancy_grid; do
    r=\$(cat '$WORK'/rc_build_\$p 2>/dev/null || echo 99)
    w=\$(grep -ci warning '$RAW'/ptxas_\$p.txt '$RAW'/build_\$p.txt | awk -F: '{s+=\$NF} END {print s+0}')
    echo \"build \$p: rc=\$r warnings=\$w\"
    grep -i -B1 -A1 'warning\\|error' '$RAW'/ptxas_\$p.txt '$RAW'/build_\$p.txt | head -20
    [ \"\$r\" != 0 ] && rc=1
    [ \"\$w\" != 0 ] && rc=3
  done
  exit \$rc
"

# ------------------------------------------------------------------------------ SASS checks
if [ -n "$CUOBJDUMP" ]; then
  step sass 120 "
    for p in shared_patterns global_patterns occupancy_grid; do
      [ -x '$BIN'/\$p ] && '$CUOBJDUMP' -sass '$BIN'/\$p > '$RAW'/sass_\$p.txt;
      [ -x '$BIN'/\$p ] && '$CUOBJDUMP' -res-usage '$BIN'/\$p > '$RAW'/resusage_\$p.txt 2>&1;
    done;
    '$PY' '$SCRIPT_DIR/check_microbench_sass.py' --sass '$RAW/sass_shared_patterns.txt' \
        --sass '$RAW/sass_global_patterns.txt' --json '$RAW/sass_check.json' | tee '$RAW/sass_check.txt';
    exit \${PIPESTATUS[0]}
  "
else
  echo "no cuobjdump: SASS check replaced by the cubin opcode census and the PTX check" | tee "$RAW/sass_check.txt"
fi
step census 60 "
  '$PY' '$SCRIPT_DIR/cubin_census.py' --check '$BIN/shared_patterns.cubin' '$BIN/global_patterns.cubin' | tee '$RAW/sass_census.txt';
  exit \${PIPESTATUS[0]}
"
step ptx_check 60 "
  '$PY' '$SCRIPT_DIR/check_microbench_sass.py' --ptx '$RAW/shared_patterns.ptx' --ptx '$RAW/global_patterns.ptx' \
      --json '$RAW/ptx_check.json'
"

if [ "$DRY" -eq 0 ]; then
  # ---------------------------------------------------------------------------- metrics present?
  M_SHARED="l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum"
  M_GLOBAL="l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum,l1tex__t_requests_pipe_lsu_mem_global_op_red.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"
  M_OCC="launch__registers_per_thread,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps,launch__occupancy_limit_blocks,launch__occupancy_per_block_size,sm__maximum_warps_per_active_cycle_pct,launch__block_size,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic"
  step ncu_query 60 "'$NCU' --query-metrics > '$RAW/ncu_query_metrics.txt' 2>&1; '$NCU' --list-sections > '$RAW/ncu_list_sections.txt' 2>&1; true"
  # An unknown metric name makes ncu refuse the whole run. So each ncu step runs first with the
  # full list; only if it yields no CSV result at all is it retried with the counter metrics that
  # `ncu --query-metrics` lists (launch__* and other non-counter metrics are never dropped) and, for
  # occupancy, with the LaunchStats and Occupancy sections instead of named metrics.
  filter_metrics() {
    local list=$1 kept=() m base
    if [ ! -s "$RAW/ncu_query_metrics.txt" ] || ! grep -q '__' "$RAW/ncu_query_metrics.txt"; then
      echo "$list"
      return
    fi
    IFS=, read -ra ms <<<"$list"
    for m in "${ms[@]}"; do
      base=${m%.*}
      case "$base" in
        l1tex__* | smsp__* | lts__* | dram__*) ;;
        *) kept+=("$m"); continue ;;
      esac
      if grep -qE "(^|[[:space:]])${base}([[:space:]]|$)" "$RAW/ncu_query_metrics.txt"; then
        kept+=("$m")
      else
        echo "metric not listed by ncu --query-metrics, dropped on retry: $m" >>"$RAW/ncu_dropped_metrics.txt"
      fi
    done
    (IFS=,; echo "${kept[*]}")
  }
  # Retry only when a run ended on its own without any result (not when it ran out of time).
  needs_retry() { [ "$LAST_RC" -ne 124 ] && [ "$LAST_RC" -ne 137 ] && ! grep -qs '^"ID"' "$1" && ! grep -qs '^"ID"' "$2"; }
  NCU_COMMON="--clock-control none --cache-control none --print-units base --csv"

  # ---------------------------------------------------------------------------- runs
  step occupancy_runtime 60 "
    '$BIN/occupancy_grid' '$RAW/occupancy_grid.csv' '$RAW/device_props.json' '$RAW/occupancy_launches.csv'
  "
  ncu_step() {  # ncu_step NAME TIMEOUT METRICS-OR-SECTION-ARGS PROGRAM-AND-ARGS
    local name=$1 to=$2 what=$3 prog=$4
    step "$name" "$to" "
      '$NCU' $NCU_COMMON --log-file '$RAW/$name.csv' $what $prog > '$RAW/${name}_stdout.txt' 2>&1;
      rc=\$?; tail -n 5 '$RAW/${name}_stdout.txt'; exit \$rc
    "
  }
  OCC_PROG="'$BIN/occupancy_grid' '$WORK/occ_grid_under_ncu.csv' '$WORK/props_under_ncu.json' '$RAW/occupancy_launches_ncu.csv' --no-grid"
  ncu_step occupancy_ncu 90 "--metrics '$M_OCC'" "$OCC_PROG"
  if needs_retry "$RAW/occupancy_ncu.csv" "$RAW/occupancy_ncu_stdout.txt"; then
    for f in occupancy_ncu_stdout.txt occupancy_ncu.csv log_occupancy_ncu.txt; do mv "$RAW/$f" "$RAW/try1_$f" 2>/dev/null; done
    ncu_step occupancy_ncu 90 "--section LaunchStats --section Occupancy" "$OCC_PROG"
  fi
  ncu_step shared_ncu 150 "--metrics '$M_SHARED'" "'$BIN/shared_patterns' '$RAW/shared_patterns.csv'"
  if needs_retry "$RAW/shared_ncu.csv" "$RAW/shared_ncu_stdout.txt"; then
    for f in shared_ncu_stdout.txt shared_ncu.csv log_shared_ncu.txt; do mv "$RAW/$f" "$RAW/try1_$f" 2>/dev/null; done
    ncu_step shared_ncu 150 "--metrics '$(filter_metrics "$M_SHARED")'" "'$BIN/shared_patterns' '$RAW/shared_patterns.csv'"
  fi
  ncu_step global_ncu 150 "--metrics '$M_GLOBAL'" "'$BIN/global_patterns' '$RAW/global_patterns.csv'"
  if needs_retry "$RAW/global_ncu.csv" "$RAW/global_ncu_stdout.txt"; then
    for f in global_ncu_stdout.txt global_ncu.csv log_global_ncu.txt; do mv "$RAW/$f" "$RAW/try1_$f" 2>/dev/null; done
    ncu_step global_ncu 150 "--metrics '$(filter_metrics "$M_GLOBAL")'" "'$BIN/global_patterns' '$RAW/global_patterns.csv'"
  fi
  # ---------------------------------------------------------------------------- records
  mkdir -p "$RAW/records"
  step records 60 "'$PY' '$SCRIPT_DIR/microbench_to_records.py' '$RAW' '$RAW/records'"
fi

# ------------------------------------------------------------------------------ summary + bundle
{
  echo "microbench run: $(date -u) on $(cat /etc/hostname 2>/dev/null) dry_run=$DRY total $(( $(date +%s) - T0 ))s"
  echo
  printf '%-22s %-8s %6s  %s\n' step result secs log
  for s in "${STEPS[@]}"; do echo "$s"; done
  echo
  for f in "$RAW"/*.csv "$RAW"/*.json; do
    [ -f "$f" ] && printf '%-40s %8d lines\n' "$(basename "$f")" "$(wc -l <"$f")"
  done
  [ -f "$RAW/ncu_dropped_metrics.txt" ] && cat "$RAW/ncu_dropped_metrics.txt"
  echo
  [ -f "$RAW/sass_check.txt" ] && echo "cuobjdump check: $(tail -n 1 "$RAW/sass_check.txt")"
  [ -f "$RAW/sass_census.txt" ] && echo "cubin census:    $(tail -n 1 "$RAW/sass_census.txt")"
  [ -f "$RAW/log_records.txt" ] && cat "$RAW/log_records.txt"
} >"$RAW/summary.txt" 2>&1

cp "$RAW/summary.txt" "$OUT_DIR/summary.txt"
[ -f "$RAW/sass_check.txt" ] && cp "$RAW/sass_check.txt" "$OUT_DIR/sass_check.txt"
for j in shared_patterns global_patterns occupancy_runtime occupancy_ncu; do
  [ -f "$RAW/records/$j.json" ] && cp "$RAW/records/$j.json" "$OUT_DIR/$j.json"
done
tar -czf "$OUT_DIR/microbench_raw.tar.gz" -C "$WORK" microbench_raw
echo
cat "$RAW/summary.txt"
echo
ls -la "$OUT_DIR"
exit 0
