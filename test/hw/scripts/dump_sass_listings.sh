#!/usr/bin/env bash
# Compiles every test input's device code as the H200 measurements build it
# (measure_inputs.sh: -O3 -arch=sm_90 -lineinfo -DWARPCHECK_HW_MEASUREMENT)
# into a cubin, and lists it with nvdisasm -gi: the memory instructions the
# records' SASS rows belong to, with their source lines.
# test/hw/scripts/pack_sass_listings.py turns the listings into
# test/hw/sass/. Needs a CUDA toolkit with nvdisasm; no GPU.
#
# Usage (from the repository root):
#   bash test/hw/scripts/dump_sass_listings.sh "$OUT/sass" [test/inputs/x.cu ...]
#   python3 test/hw/scripts/pack_sass_listings.py "$OUT/sass" "$PWD/test/inputs" test/hw/sass
set -u
out=${1:?output directory}
shift
mkdir -p "$out"
inputs=("$@")
if [ ${#inputs[@]} -eq 0 ]; then
  inputs=(test/inputs/*.cu)
fi
for src in "${inputs[@]}"; do
  name=$(basename "$src" .cu)
  if ! nvcc -cubin -O3 -arch=sm_90 -lineinfo -DWARPCHECK_HW_MEASUREMENT \
      -o "$out/$name.cubin" "$(realpath "$src")" > "$out/$name.build.txt" 2>&1; then
    echo "$name: build failed"; continue
  fi
  nvdisasm -gi "$out/$name.cubin" > "$out/$name.nvdisasm_gi.txt" 2>> "$out/$name.build.txt" \
    || echo "$name: nvdisasm failed"
done
