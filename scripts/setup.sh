#!/usr/bin/env bash
# Installs what warpcheck needs on Debian 12 (as root), then configures and
# builds it in ./build. Safe to run again: installed packages are skipped and
# the build is incremental.
#
#   scripts/setup.sh          what building warpcheck and the demo need
#   scripts/setup.sh --tests  and what only the test suite needs: Debian's
#                             chromium, in which the html_report test renders
#                             the audit report, and libclang-rt-19-dev, the
#                             libFuzzer and sanitizer runtimes of the
#                             fuzz_smoke_model_invariants test (each test is
#                             skipped without its package)
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(clang-19 libclang-19-dev clang-tidy-19 llvm-19-dev llvm-19-tools
          libgtest-dev cmake ninja-build g++ python3 python3-jsonschema git
          python3-yaml clang-tools-19)
for arg in "$@"; do
  case "$arg" in
    --tests) packages+=(chromium libclang-rt-19-dev) ;;
    *) echo "warpcheck setup: unknown option '$arg' (expected --tests)" >&2; exit 2 ;;
  esac
done
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "warpcheck setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends "${missing[@]}"
fi

if [ ! -f build/build.ninja ]; then
  cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
fi
cmake --build build -j "$(nproc)"
