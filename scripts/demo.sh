#!/usr/bin/env bash
# Sets warpcheck up and runs it on the bundled example: a naive and a tiled
# matrix transpose, the textbook case of uncoalesced writes and bank
# conflicts.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
echo
echo "== build/bin/warpcheck examples/transpose.cu"
status=0
build/bin/warpcheck examples/transpose.cu || status=$?
echo
echo "== build/bin/warpcheck occupancy --arch=sm_80,sm_90 --registers=72 --block=256"
build/bin/warpcheck occupancy --arch=sm_80,sm_90 --registers=72 --block=256
exit $status
