#!/usr/bin/env bash
# The one command for the benchmark: builds playctl in release mode and times it against ffmpeg and mpv
# (full decode and worst-case exact seek). Arguments go to 'playctl bench': --file F, --runs N, --json.
# Makes bench-media/1080p.mp4 with scripts/make-bench-media.sh when it is missing. Needs ffmpeg; mpv is optional.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release
exec .build/release/playctl bench "$@"
