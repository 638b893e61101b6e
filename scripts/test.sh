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
# The suites that judge real time run after the parallel pass, by themselves: a play timed against a shaped link
# (ShapedLinkTests), the bytes a fetch gets in a second (LinkPriorityTests), and sound through the daemon, sample
# for sample and within 20 ms of the picture (PulseOutputTests). Beside 150 other suites on a 2-CPU machine a thread
# starved for most of a second looks like a slow link or a device run dry (CI saw a 5 Mbit/s clip stall on the
# 8 Mbit/s link that way). With arguments, one run with them as given.
alone='ShapedLinkTests|LinkPriorityTests|PulseOutputTests'
if [ $# -eq 0 ]; then
  scripts/pulse.sh run scripts/netns.sh bash -c "swift test --skip '$alone' && swift test --filter '$alone'"
else
  scripts/pulse.sh run scripts/netns.sh swift test "$@"
fi

# The Swift package example builds playctl again in its own folder: after the suite, not beside it.
scripts/examples.sh --only swift
