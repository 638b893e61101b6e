#!/usr/bin/env bash
# The demo: installs what is needed, builds playctl, and plays Media/a.mp4 in Picture in Picture on the simulated
# system host, swapping to Media/b.mp4 mid-way. Extra arguments go to `playctl play` (try --json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build -c release 2>&1 | grep -vE '^\[|^Building|^Compiling|^Write' || true
.build/release/playctl probe Media/a.mp4
echo
.build/release/playctl play Media/a.mp4 --pip --swap Media/b.mp4 "$@"
