#!/bin/sh
# Parses every .cu file in this folder the way warpcheck does when no CUDA
# toolkit is found (cudaParseArguments without a toolkit), host side and
# device side, and every .cpp file as plain C++ with the same arguments, and
# fails unless clang prints no diagnostic at all.
#
#   test/inputs/no-toolkit/check-parse.sh [clang++ binary]
#
# --cuda-path points at an empty folder so that clang does not pick up an
# installed toolkit even where one exists: the environment is then the same
# as on a machine without CUDA. A line "// WARPCHECK-EXTRA-ARGS: ..." in a
# file adds arguments for that file.
set -u
CLANG=${1:-clang++-19}
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../../.." && pwd)
INCLUDE="$ROOT/tool/include"
EMPTY=$(mktemp -d)
trap 'rmdir "$EMPTY"' EXIT

COMMON="-x cuda -fsyntax-only --cuda-path=$EMPTY -nocudainc -nocudalib \
-Wno-unknown-cuda-version -include $INCLUDE/cuda-minimal/warpcheck_cuda_minimal.h \
-isystem $INCLUDE/cuda-minimal -Wall -Wextra ${WARPCHECK_EXTRA_FLAGS:-}"

Failed=0
Count=0
# .cpp files: plain C++ units of a CUDA project (compiled by the host
# compiler), parsed with the same arguments.
for File in "$HERE"/*.cpp; do
  Count=$((Count + 1))
  # shellcheck disable=SC2086
  Out=$("$CLANG" $(echo "$COMMON" | sed 's/-x cuda/-x c++/') -Qunused-arguments \
        "$File" 2>&1)
  Status=$?
  if [ $Status -ne 0 ] || [ -n "$Out" ]; then
    echo "FAIL (c++): $File"
    echo "$Out" | head -40
    Failed=$((Failed + 1))
  else
    echo "ok   (c++): $(basename "$File")"
  fi
done
for File in "$HERE"/*.cu; do
  Extra=$(sed -n 's|^// WARPCHECK-EXTRA-ARGS: *||p' "$File")
  # "default" is a plain -fsyntax-only: the host side plus the device side
  # for clang's default arch (sm_52).
  for Side in "default" "--cuda-host-only" \
              "--cuda-device-only --cuda-gpu-arch=sm_90" \
              "--cuda-device-only --cuda-gpu-arch=sm_80" \
              "--cuda-device-only --cuda-gpu-arch=sm_70"; do
    if [ "$Side" = default ]; then SideArgs=; else SideArgs=$Side; fi
    Count=$((Count + 1))
    # shellcheck disable=SC2086
    Out=$("$CLANG" $COMMON $SideArgs $Extra "$File" 2>&1)
    Status=$?
    if [ $Status -ne 0 ] || [ -n "$Out" ]; then
      echo "FAIL ($Side): $File"
      echo "$Out" | head -40
      Failed=$((Failed + 1))
    else
      echo "ok   ($Side): $(basename "$File")"
    fi
  done
done
echo "$Count parses, $Failed failed"
[ $Failed -eq 0 ]
