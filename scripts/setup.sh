#!/usr/bin/env bash
# Installs what warpcheck needs on Debian 12 (as root), then configures and
# builds it in ./build. Safe to run again: installed packages are skipped and
# the build is incremental.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(clang-19 libclang-19-dev clang-tidy-19 llvm-19-dev llvm-19-tools
          libgtest-dev cmake ninja-build g++ python3 python3-jsonschema git
          python3-yaml clang-tools-19)
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
