#!/usr/bin/env bash
# Builds, runs and profiles per source line the corpus programs packed by
# test/hw/scripts/pack_corpus.py (a folder with plan.json and _plan/), on a
# machine with the GPU, and packs the exports into ONE tarball under OUT.
#
#   build    every executable of the plan, in parallel (--jobs), each source
#            compiled as the plan says (nvcc -O3 -arch=sm_90 -lineinfo + the
#            program's flags), then linked
#   check    first, test/hw/microbench/ncu_filter_check.cu under the kernel
#            filter below, two copies at once: 3 launches must be profiled
#            (else: one program at a time, or the fallback filter
#            --filter-mode per-launch-config --launch-count 1)
#   profile  every run of every built executable, in plan (priority) order,
#            as soon as its build is done, --profile-jobs runs at a time
#            (Nsight Compute serialises the profiled kernels; what overlaps
#            is the programs' host work), under
#              ncu --clock-control none --target-processes all
#                  --section SourceCounters --section LaunchStats
#                  --import-source yes --kernel-name-base demangled
#                  --kernel-id ::regex:.*:1 -o REP timeout T PROGRAM ARGS
#            i.e. the first launch of every kernel instance (the invocation
#            number counts per kernel, template instances apart); the
#            time-out stops the program, and ncu still writes what it had
#   export   ncu -i REP --page source --csv --print-source cuda,sass and
#            --page details --csv (launch shapes); with python3 the source
#            export is compacted (memory instructions and line totals only,
#            the source text and SASS operands dropped) by
#            corpus_to_records.py --compact, and records are written too
#   pack     OUT/corpus_measure.tar.gz: result/{csv,logs,status,records},
#            summary.tsv, done.txt (entries whose runs all ran), env.txt,
#            plan.json; split into .partNN pieces if over 15 MiB
#
# It stops itself: no build step starts after DEADLINE-90 s, no run after
# DEADLINE-45 s, every run's time-out is cut to end by then, and the pack is
# written by DEADLINE (seconds from the start; default 530, under 9 minutes).
# Programs not reached are listed in summary.tsv; a second call with
# --skip-done done.txt (the first call's list) measures the rest.
#
# Usage (from the repository root):
#   bash test/hw/scripts/measure_corpus.sh [options] CARRIED_DIR OUT
#     --dry-run          print what would be built and run, run nothing
#     --build-only       build (no GPU needed), report, no profiling
#     --jobs N           parallel builds (10)
#     --profile-jobs N   programs under ncu at once (6; 1 if two at once fail)
#     --deadline S       total wall-clock budget in seconds (530)
#     --only GLOB        entry ids to take (repeatable; default all)
#     --skip-done FILE   entry ids (one a line) to leave out
set -u

usage() { sed -n '2,/^set -u/p' "$0" | sed 's/^# \{0,1\}//;/^set -u/d'; exit "${1:-2}"; }

first_of() { for c in "$@"; do [ -n "$c" ] && [ -x "$c" ] && { echo "$c"; return; }; done; echo ""; }

# ---------------------------------------------------------------------------
# One build: called by xargs as "$0 --build-one PLAN_DIR" with the context in
# the environment (MC_ROOT, MC_WORK, MC_NVCC, MC_BUILD_END).
build_one() {
  local d=$1 bin k cwd t0 t1 now left rc=0 step=""
  bin=$(basename "$d"); bin=${bin#*.}
  local log=$MC_WORK/result/logs/$bin.build.txt obj=$MC_WORK/obj/$bin
  mkdir -p "$obj"
  t0=$(date +%s)
  : > "$log"
  for ((k = 0; ; k++)); do
    [ -f "$d/build.$k.argv" ] || break
    now=$(date +%s); left=$((MC_BUILD_END - now))
    if [ "$left" -lt 5 ]; then rc=124; step="deadline before step $k"; break; fi
    [ "$left" -gt 400 ] && left=400
    cwd=$(cat "$d/build.$k.cwd")
    mapfile -t argv < "$d/build.$k.argv"
    for i in "${!argv[@]}"; do
      argv[$i]=${argv[$i]//@BIN@/$MC_WORK/bin/$bin}
      argv[$i]=${argv[$i]//@OBJ@/$obj}
    done
    [ "${argv[0]}" = nvcc ] && argv[0]=$MC_NVCC
    echo "+ (cd $cwd && ${argv[*]})" >> "$log"
    ( cd "$MC_ROOT/$cwd" && timeout -k 5 "$left" "${argv[@]}" ) >> "$log" 2>&1
    rc=$?
    if [ $rc -ne 0 ]; then step="step $k exit $rc"; break; fi
  done
  t1=$(date +%s)
  if [ $rc -eq 0 ]; then
    echo "ok $((t1 - t0))" > "$MC_WORK/result/status/$bin.build"
  else
    echo "failed $((t1 - t0)) $step" > "$MC_WORK/result/status/$bin.build"
  fi
  rm -rf "$obj"
}
dry=0; build_only=0; jobs=10; pjobs=6; deadline=530; only=(); skip_done=""
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) dry=1 ;;
    --build-only) build_only=1 ;;
    --jobs) jobs=$2; shift ;;
    --profile-jobs) pjobs=$2; shift ;;
    --deadline) deadline=$2; shift ;;
    --only) only+=("$2"); shift ;;
    --skip-done) skip_done=$2; shift ;;
    -h|--help) usage 0 ;;
    --build-one) build_one "$2"; exit 0 ;;   # internal: one build (xargs)
    -*) echo "measure_corpus: unknown option $1" >&2; usage ;;
    *) break ;;
  esac
  shift
done


[ $# -eq 2 ] || usage
carried=$1; out=$2
[ -f "$carried/plan.json" ] && [ -d "$carried/_plan" ] || {
  echo "measure_corpus: $carried is not a pack (no plan.json/_plan; run test/hw/scripts/pack_corpus.py)" >&2; exit 2; }
root=$(cd "$carried" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
start=$(date +%s)
build_end=$((start + deadline - 90))
run_end=$((start + deadline - 45))
export_end=$((start + deadline - 25))

NVCC=$(first_of "$(command -v nvcc 2>/dev/null)" /usr/local/cuda/bin/nvcc)
NCU=$(first_of "$(command -v ncu 2>/dev/null)" /usr/local/cuda/bin/ncu)
PY=$(first_of "$(command -v python3 2>/dev/null)" /usr/bin/python3)
KERNEL_ID='::regex:.*:1'
NCU_ARGS=(--clock-control none --target-processes all --section SourceCounters --section LaunchStats
          --import-source yes --kernel-name-base demangled --kernel-id "$KERNEL_ID" -f)

# The entries, in plan order (priority first), less --only / --skip-done.
entries=()
for d in "$root"/_plan/*/; do
  d=${d%/}
  id=$(cat "$d/id")
  if [ ${#only[@]} -gt 0 ]; then
    keep=0
    # shellcheck disable=SC2053  # a glob on purpose
    for g in "${only[@]}"; do [[ $id == $g ]] && keep=1; done
    [ $keep -eq 1 ] || continue
  fi
  if [ -n "$skip_done" ] && grep -qxF "$id" "$skip_done" 2>/dev/null; then continue; fi
  entries+=("$d")
done
runs_of() { local n=0; while [ -f "$1/run.$n.argv" ]; do n=$((n + 1)); done; echo $n; }
nruns=0
for d in "${entries[@]}"; do nruns=$((nruns + $(runs_of "$d"))); done

if [ $dry -eq 1 ]; then
  echo "# measure_corpus dry run: ${#entries[@]} executables, $nruns runs, root $root"
  echo "# nvcc: ${NVCC:-not found}  ncu: ${NCU:-not found}  python3: ${PY:-not found}"
  echo "# builds: $jobs at a time; profiling: $pjobs at a time; deadline ${deadline}s"
  for d in "${entries[@]}"; do
    bin=$(basename "$d"); bin=${bin#*.}
    echo "== $(cat "$d/id")"
    for ((k = 0; ; k++)); do
      [ -f "$d/build.$k.argv" ] || break
      mapfile -t argv < "$d/build.$k.argv"
      echo "  build: (cd $(cat "$d/build.$k.cwd") && $(printf '%q ' "${argv[@]}" | sed "s#@BIN@#WORK/bin/$bin#g;s#@OBJ@#WORK/obj/$bin#g"))"
    done
    for ((k = 0; ; k++)); do
      [ -f "$d/run.$k.argv" ] || break
      mapfile -t argv < "$d/run.$k.argv"
      envs=$(tr '\n' ' ' < "$d/run.$k.env")
      echo "  run $k: (cd $(cat "$d/run.$k.cwd") && ${envs}ncu ${NCU_ARGS[*]} -o WORK/rep/$bin.$k timeout $(cat "$d/run.$k.timeout") $(printf '%q ' "${argv[@]}" | sed "s#@BIN@#WORK/bin/$bin#g"))"
      echo "         then ncu -i WORK/rep/$bin.$k.ncu-rep --page source --csv --print-source cuda,sass; --page details --csv"
    done
  done
  exit 0
fi

[ -n "$NVCC" ] || { echo "measure_corpus: no nvcc" >&2; exit 2; }
if [ $build_only -eq 0 ] && [ -z "$NCU" ]; then echo "measure_corpus: no ncu" >&2; exit 2; fi
mkdir -p "$out"
work=$(mktemp -d "${TMPDIR:-/tmp}/measure_corpus.XXXXXX")
res=$work/result
mkdir -p "$res/csv" "$res/logs" "$res/status" "$res/records" "$work/bin" "$work/obj" "$work/rep" "$work/raw"
log=$res/log.txt
say() { echo "[$(( $(date +%s) - start ))s] $*" | tee -a "$log"; }

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "root: $root"
  echo "carried: $(basename "$root")"
  echo "deadline_s: $deadline  jobs: $jobs  profile_jobs: $pjobs"
  echo "kernel_id: $KERNEL_ID"
  echo "ncu_args: ${NCU_ARGS[*]}"
  echo "# nvidia-smi"; nvidia-smi --query-gpu=name,driver_version,compute_cap --format=csv 2>&1 | head -5
  echo "# nvcc"; "$NVCC" --version 2>&1 | tail -2
  if [ -n "$NCU" ]; then
    echo "# ncu"; "$NCU" --version 2>&1 | tail -1
    echo "# ncu --help (filters)"; "$NCU" --help 2>&1 | grep -A6 -E -- '--kernel-id|--kernel-name-base' | head -40
  fi
  echo "# python3"; [ -n "$PY" ] && "$PY" --version 2>&1
  echo "# cpus"; nproc
} > "$res/env.txt" 2>&1
cp "$root/plan.json" "$res/plan.json"
say "${#entries[@]} executables, $nruns runs; builds $jobs at a time, profiling $pjobs at a time, deadline ${deadline}s"

# --- builds, in the background -------------------------------------------
export MC_ROOT=$root MC_WORK=$work MC_NVCC=$NVCC MC_BUILD_END=$build_end
printf '%s\n' "${entries[@]}" | xargs -P "$jobs" -I{} bash "$0" --build-one {} &
builder=$!

bin_of() { local b; b=$(basename "$1"); echo "${b#*.}"; }

# --- the kernel filter and concurrent profiling, checked on a program of ours
# test/hw/microbench/ncu_filter_check.cu launches three kernel instances three
# times each: the filter must profile 3 launches. Two copies are profiled at
# once: if only a lone one succeeds, profiling runs one program at a time. If
# this ncu counts invocations otherwise, the fallback is the first launch of
# every (kernel, launch shape): more profiles, the same coverage (the records
# keep the first launch of each kernel).
filter_check() {   # TAG -> the number of launches profiled
  local log=$res/logs/_filter_check.$1.txt
  ( cd "$work" && timeout -k 5 60 "$NCU" "${NCU_ARGS[@]}" -o "$work/rep/_filter_check.$1" "$work/bin/_ncu_filter_check" ) > "$log" 2>&1
  grep -c '^==PROF== Profiling' "$log"
  rm -f "$work/rep/_filter_check.$1.ncu-rep"
}
if [ $build_only -eq 0 ]; then
  if "$NVCC" -O3 -arch=sm_90 -lineinfo -o "$work/bin/_ncu_filter_check" "$here/../microbench/ncu_filter_check.cu" \
       > "$res/logs/_filter_check.build.txt" 2>&1; then
    filter_check a > "$work/fc.a" & pa=$!
    filter_check b > "$work/fc.b" & pb=$!
    wait $pa; wait $pb
    na=$(cat "$work/fc.a"); nb=$(cat "$work/fc.b")
    if [ "$na" = 3 ] && [ "$nb" = 3 ]; then
      say "kernel filter checked: 3 launches of 3 instances profiled, two programs at once"
    else
      n=$(filter_check c)
      if [ "$n" = 3 ]; then
        say "kernel filter checked alone (3 launches); two at once gave $na and $nb: profiling one program at a time"
        pjobs=1
      else
        say "kernel filter: $n launches profiled, 3 expected; using --filter-mode per-launch-config --launch-count 1"
        KERNEL_ID=per-launch-config
        NCU_ARGS=(--clock-control none --target-processes all --section SourceCounters --section LaunchStats
                  --import-source yes --kernel-name-base demangled --kernel-name 'regex:.*'
                  --filter-mode per-launch-config --launch-count 1 -f)
        n=$(filter_check d)
        say "fallback filter: $n launches profiled (5 expected); profiling one program at a time"
        pjobs=1
      fi
    fi
  else
    say "the filter check does not build (see logs/_filter_check.build.txt); going on unchecked"
  fi
  echo "kernel_filter: ${NCU_ARGS[*]}" >> "$res/env.txt"
  echo "profile_jobs_used: $pjobs" >> "$res/env.txt"
fi

# --- one run of one program under ncu ----------------------------------------
profile_one() {   # PLAN_DIR RUN
  local d=$1 k=$2 bin cwd to now left rc t0 t1 rep n
  bin=$(bin_of "$d")
  now=$(date +%s); left=$((run_end - now - 20))
  if [ "$left" -lt 10 ]; then echo "deadline - - 0" > "$res/status/$bin.run.$k"; return; fi
  to=$(cat "$d/run.$k.timeout"); [ "$to" -gt "$left" ] && to=$left
  cwd=$(cat "$d/run.$k.cwd")
  mapfile -t argv < "$d/run.$k.argv"
  for i in "${!argv[@]}"; do argv[$i]=${argv[$i]//@BIN@/$work/bin/$bin}; done
  mapfile -t envs < "$d/run.$k.env"
  rep=$work/rep/$bin.$k
  t0=$(date +%s)
  # The time-out stops the program, not ncu, which then still writes what it
  # profiled; the outer one is a safety net.
  ( cd "$root/$cwd" && env "${envs[@]}" timeout -k 5 $((to + 20)) \
      "$NCU" "${NCU_ARGS[@]}" -o "$rep" timeout -k 5 "$to" "${argv[@]}" ) \
    > "$res/logs/$bin.run.$k.txt" 2>&1 < /dev/null
  rc=$?
  t1=$(date +%s)
  n=$(grep -c '^==PROF== Profiling' "$res/logs/$bin.run.$k.txt")
  if [ -f "$rep.ncu-rep" ] && [ "$(date +%s)" -lt "$export_end" ]; then
    "$NCU" -i "$rep.ncu-rep" --page source --csv --print-source cuda,sass \
      > "$work/raw/$bin.$k.source.csv" 2>> "$res/logs/$bin.run.$k.txt"
    "$NCU" -i "$rep.ncu-rep" --page details --csv --print-kernel-base demangled \
      > "$res/csv/$bin.$k.details.csv" 2>> "$res/logs/$bin.run.$k.txt" \
      || "$NCU" -i "$rep.ncu-rep" --page details --csv > "$res/csv/$bin.$k.details.csv" 2>> "$res/logs/$bin.run.$k.txt"
    if [ -n "$PY" ] && "$PY" "$here/corpus_to_records.py" --compact "$work/raw/$bin.$k.source.csv" \
         "$res/csv/$bin.$k.source.csv" >> "$res/logs/$bin.run.$k.txt" 2>&1; then
      rm -f "$work/raw/$bin.$k.source.csv"
    else
      gzip -c "$work/raw/$bin.$k.source.csv" > "$res/csv/$bin.$k.source.csv.gz"
      rm -f "$work/raw/$bin.$k.source.csv"
    fi
    rm -f "$rep.ncu-rep"
    echo "$rc $((t1 - t0)) exported $n" > "$res/status/$bin.run.$k"
  elif [ -f "$rep.ncu-rep" ]; then
    rm -f "$rep.ncu-rep"
    echo "$rc $((t1 - t0)) not-exported(deadline) $n" > "$res/status/$bin.run.$k"
  else
    echo "$rc $((t1 - t0)) no-report $n" > "$res/status/$bin.run.$k"
  fi
}

# --- scheduler: runs in plan order, each as soon as its program is built -------
if [ $build_only -eq 1 ]; then
  wait "$builder"
else
  queue=()
  for d in "${entries[@]}"; do
    for ((k = 0; ; k++)); do [ -f "$d/run.$k.argv" ] || break; queue+=("$d|$k"); done
  done
  running=()
  while :; do
    now=$(date +%s)
    alive=()
    for p in "${running[@]}"; do kill -0 "$p" 2>/dev/null && alive+=("$p") || wait "$p" 2>/dev/null; done
    running=("${alive[@]}")
    [ ${#queue[@]} -eq 0 ] && [ ${#running[@]} -eq 0 ] && break
    if [ "$now" -ge "$run_end" ]; then
      say "deadline: no more runs (${#queue[@]} runs not started)"
      break
    fi
    if [ ${#running[@]} -lt "$pjobs" ] && [ ${#queue[@]} -gt 0 ]; then
      rest=(); picked=""
      for item in "${queue[@]}"; do
        d=${item%|*}; k=${item##*|}
        b=$(bin_of "$d")
        if [ -z "$picked" ] && [ -f "$res/status/$b.build" ]; then
          if read -r st _ < "$res/status/$b.build" && [ "$st" = ok ]; then
            picked=$item
          elif [ "$k" = 0 ]; then
            say "not built: $(cat "$d/id") ($(cat "$res/status/$b.build"))"
          fi
          continue
        fi
        rest+=("$item")
      done
      queue=("${rest[@]}")
      if [ -n "$picked" ]; then
        d=${picked%|*}; k=${picked##*|}
        say "profile $(cat "$d/id") run $k"
        profile_one "$d" "$k" &
        running+=($!)
        continue
      fi
      if ! kill -0 "$builder" 2>/dev/null; then
        # Builds are over: whatever has no status now never will.
        for item in "${queue[@]}"; do
          b=$(bin_of "${item%|*}")
          [ -f "$res/status/$b.build" ] || echo "failed 0 not built" > "$res/status/$b.build"
        done
      fi
    fi
    sleep 1
  done
  for p in "${running[@]}"; do wait "$p" 2>/dev/null; done
fi
# Builds still going (none should be past build_end + their time-out).
if kill -0 "$builder" 2>/dev/null; then say "waiting for the last builds"; wait "$builder"; fi

# --- summary -----------------------------------------------------------------
: > "$res/done.txt"
printf 'id\tbuild\tbuild_s\truns\truns_done\tkernels_profiled\trun_status\n' > "$res/summary.tsv"
for d in "${entries[@]}"; do
  b=$(bin_of "$d"); id=$(cat "$d/id")
  bs=$(cat "$res/status/$b.build" 2>/dev/null || echo "not-reached 0")
  read -r bst bsec _ <<< "$bs"
  nr=$(runs_of "$d")
  done_runs=0; kern=0; rs=""
  for ((k = 0; k < nr; k++)); do
    if [ -f "$res/status/$b.run.$k" ]; then
      read -r rrc rsec rexp rn < "$res/status/$b.run.$k"
      rs+="$k:$rrc/$rexp/${rsec}s "
      [ "$rexp" = exported ] && done_runs=$((done_runs + 1))
      [ "$rn" != - ] && kern=$((kern + rn))
    else
      rs+="$k:not-run "
    fi
  done
  printf '%s\t%s\t%s\t%d\t%d\t%d\t%s\n' "$id" "$bst" "$bsec" "$nr" "$done_runs" "$kern" "$rs" >> "$res/summary.tsv"
  if [ $build_only -eq 0 ] && [ "$bst" = ok ] && [ "$done_runs" -eq "$nr" ]; then echo "$id" >> "$res/done.txt"; fi
done
nb=$(awk -F'\t' 'NR>1 && $2=="ok"' "$res/summary.tsv" | wc -l)
nk=$(awk -F'\t' 'NR>1 {s+=$6} END {print s+0}' "$res/summary.tsv")
say "built $nb of ${#entries[@]}; $(wc -l < "$res/done.txt") executables profiled in full; $nk kernel profiles"
if [ $build_only -eq 1 ]; then
  awk -F'\t' 'NR>1 && $2!="ok" {print "  not built: " $1}' "$res/summary.tsv" | tee -a "$log"
  for f in "$res"/status/*.build; do
    read -r st _ < "$f"; [ "$st" = ok ] && continue
    b=$(basename "$f" .build); echo "--- $b"; grep -m5 -iE 'error|undefined' "$res/logs/$b.build.txt"
  done >> "$log"
fi

# --- records and the pack ----------------------------------------------------
if [ $build_only -eq 0 ] && [ -n "$PY" ] && [ "$(date +%s)" -lt $((start + deadline - 12)) ]; then
  timeout 10 "$PY" "$here/corpus_to_records.py" "$res" "$res/records" >> "$log" 2>&1 || say "records: not written (see log)"
fi
tar czf "$out/corpus_measure.tar.gz" -C "$work" result
size=$(stat -c %s "$out/corpus_measure.tar.gz")
if [ "$size" -gt $((15 * 1024 * 1024)) ]; then
  split -b 15M -d "$out/corpus_measure.tar.gz" "$out/corpus_measure.tar.gz.part"
  rm -f "$out/corpus_measure.tar.gz"
  say "pack split into $(ls "$out"/corpus_measure.tar.gz.part* | wc -l) parts (cat them to join)"
fi
say "wrote $(ls "$out" | tr '\n' ' ')($size bytes) in $(( $(date +%s) - start ))s"
rm -rf "$work"
