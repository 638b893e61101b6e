#!/usr/bin/env bash
# The demo: installs what is needed, builds playctl, plays Media/a.mp4 in Picture in Picture on the simulated
# system host, swapping to Media/b.mp4 mid-way, then scrolls a feed of the clips in Media/ (a pool of players, the
# next video prepared, prefetches) and makes a poster. Extra arguments go to `playctl play` (try --json).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
log="$(mktemp)"
# The playctl product only (what the demo runs): the release build of playctl-bench and the C library is left to
# scripts/bench.sh and scripts/install-capi.sh, which build them.
if ! swift build -c release --product playctl >"$log" 2>&1; then cat "$log" >&2; rm -f "$log"; exit 1; fi
rm -f "$log"
.build/release/playctl probe Media/a.mp4
echo
.build/release/playctl play Media/a.mp4 --pip --swap Media/b.mp4 "$@"
echo
.build/release/playctl feed Media --swipes 4 --dwell 1
echo
.build/release/playctl poster Media/a.mp4 --size 320x180 --fit fill -o .build/poster.png && echo "poster: .build/poster.png"
