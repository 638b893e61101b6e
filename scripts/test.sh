#!/usr/bin/env bash
# Runs every test: installs the -dev packages if needed, builds playctl (the CLI tests spawn it), then runs the
# whole suite inside scripts/netns.sh (a private network namespace with nginx on a shaped loopback, for the network
# tests; it installs nginx-light, iproute2 and ffmpeg if needed). Same command in CI (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build
scripts/netns.sh swift test "$@"
