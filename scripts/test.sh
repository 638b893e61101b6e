#!/usr/bin/env bash
# Runs every test: installs the -dev packages if needed, builds playctl (the CLI tests spawn it), then runs the
# whole suite inside scripts/pulse.sh (a private PulseAudio daemon with a null sink, for the audio tests; stopped
# after) and scripts/netns.sh (a private network namespace with nginx on a shaped loopback, for the network
# tests; it installs nginx-light, iproute2 and ffmpeg if needed), then the Swift package example in Examples/
# (scripts/examples.sh; the C and Python examples run in the suite). Same command in CI (.ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
swift build
# The suites that judge a shaped link against real time run alone, after the parallel pass: beside 150 other
# suites on a 2-CPU machine, a reader thread starved for most of a second looks like a slow link (CI once saw a
# 5 Mbit/s clip stall on the 8 Mbit/s link that way). With arguments, one run with them as given.
alone=(--filter ShapedLinkTests)
if [ $# -eq 0 ]; then
  scripts/pulse.sh run scripts/netns.sh bash -c 'swift test --skip ShapedLinkTests && swift test "$@"' _ "${alone[@]}"
else
  scripts/pulse.sh run scripts/netns.sh swift test "$@"
fi
# The Swift package example builds playctl again in its own folder: after the suite, not beside it.
scripts/examples.sh --only swift
