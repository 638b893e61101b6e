#!/usr/bin/env bash
# Runs every test: installs the FFmpeg -dev packages if needed, builds playctl (the CLI tests spawn it), then
# runs the whole suite. Same command in CI (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build
swift test
