#!/usr/bin/env bash
# The one command for the benchmark: builds playctl in release mode and times it against ffmpeg and mpv
# (full decode and worst-case exact seek). Arguments go to 'playctl bench': --file F, --runs N, --playback, --json.
# Makes bench-media/1080p.mp4 with scripts/make-bench-media.sh when it is missing. Needs ffmpeg; mpv is optional.
#
# With --network, 'playctl bench --network' runs inside scripts/netns.sh (nginx on a shaped loopback in a private
# network namespace, which needs root): remote time to first frame, a second play from the cache, bytes of a full
# play (docs/network.md). --posters runs there too: first-frame posters against ffmpeg, local and remote, and a
# batch of 300 requests (docs/posters.md).
#
# With --feed, the feed of scripts/make-feed-media.sh is made first (once, about 1-2 minutes), then 'playctl bench
# --feed' runs inside scripts/netns.sh: playctl's feed against a naive player and mpv, swipe to first frame, prefetch
# competition, waste, loader impressions at 3G, a soak (docs/feed-bench.md); about 20 minutes. --feed --sweep
# replays a trace on a simulated link for a grid of prefetch parameters (it needs the feed, not the server).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release
for argument in "$@"; do
  if [ "$argument" = "--network" ] || [ "$argument" = "--posters" ]; then
    exec bash scripts/netns.sh .build/release/playctl bench "$@"
  fi
  if [ "$argument" = "--feed" ]; then
    bash scripts/make-feed-media.sh
    exec bash scripts/netns.sh .build/release/playctl bench "$@"
  fi
done
exec .build/release/playctl bench "$@"
