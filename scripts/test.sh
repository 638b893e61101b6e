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
# The groups that run after the parallel pass, each by itself: scripts/test-groups.sh says which and why.
# shellcheck source=scripts/test-groups.sh
source scripts/test-groups.sh
# The parallel pass runs at most 8 tests at once: with all 600 started together the 2 CPUs were saturated and no test
# finished in the first 90-110 s of a first run (cold caches), so timing checks anywhere failed now and then (a
# --frames 1 play rendered 2 frames, a feed's first frame missed its half-second dwell); with 8 at once the pass
# takes as long (187 s cold, against 176-195 s) and its first test finishes at once.
# With arguments, one run with them as given.
# Each pass runs under scripts/watchdog.sh: a hang fails with the tests left running and their threads' stacks
# (a hang once used up CI's 90 minutes with nothing printed after the last test that finished).
if [ $# -eq 0 ]; then
  scripts/pulse.sh run scripts/netns.sh bash -c "scripts/watchdog.sh 1200 swift test --skip '$deadlines|$realtime|$alone' \
    --experimental-maximum-parallelization-width 8 && scripts/watchdog.sh 600 swift test --filter '$deadlines' \
    && scripts/watchdog.sh 600 swift test --filter '$realtime' && scripts/watchdog.sh 300 swift test --no-parallel --filter '$alone'"
else
  scripts/pulse.sh run scripts/netns.sh swift test "$@"
fi

# The Swift package example builds playctl again in its own folder: after the suite, not beside it.
scripts/examples.sh --only swift
