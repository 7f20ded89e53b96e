#!/usr/bin/env bash
# Sets warpcheck up and runs the whole test suite (ctest).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --tests
ctest --test-dir build --output-on-failure -j "$(nproc)"
