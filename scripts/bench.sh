#!/usr/bin/env bash
# The one command for the benchmark: builds playctl and playctl-bench in release mode and times playctl against
# ffmpeg and mpv (full decode and worst-case exact seek). Arguments go to 'playctl-bench run': --file F, --runs N,
# --playback, --json. Makes bench-media/1080p.mp4 with scripts/make-bench-media.sh when it is missing. Needs ffmpeg;
# mpv is optional. playctl-bench links the test kit (its HTTP servers, simulated network, process runner) and spawns
# the playctl built next to it, which does not.
#
# With --network, 'playctl-bench run --network' runs inside scripts/netns.sh (nginx on a shaped loopback in a private
# network namespace, which needs root): remote time to first frame, a second play from the cache, bytes of a full
# play (docs/network.md). --dwell runs there too: the first frame after a 30 s idle dwell against a 1 s one
# (docs/network.md, "Connections"). --posters runs there too: first-frame posters against ffmpeg, local and remote, and a
# batch of 300 requests (docs/posters.md). --abr runs there too, on its own port: HLS first frame against ffmpeg and
# mpv, the bytes of a full play, and a 60 s ABR run while tc changes the link's rate, against mpv
# (docs/streaming-abr.md, "Measured"). --thumbnails and --scrub make their default clip (long.mp4, with the served
# media of scripts/make-http-media.sh) first.
#
# With --feed, the feed of scripts/make-feed-media.sh is made first (once, about 1-2 minutes), then 'playctl-bench run
# --feed' runs inside scripts/netns.sh: playctl's feed against a naive player and mpv, swipe to first frame, prefetch
# competition, waste, loader impressions at 3G, a weak link, a feed of HLS ladders (--parts hls: the ladder of
# scripts/make-ladder-media.sh, which netns.sh makes), a soak (docs/feed-bench.md); about 25 minutes. --feed --sweep
# replays a trace on a simulated link for a grid of prefetch parameters (it needs the feed, not the server).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product playctl
swift build -c release --product playctl-bench
for argument in "$@"; do
  if [ "$argument" = "--network" ] || [ "$argument" = "--dwell" ] || [ "$argument" = "--posters" ] || [ "$argument" = "--abr" ]; then
    exec bash scripts/netns.sh .build/release/playctl-bench run "$@"
  fi
  if [ "$argument" = "--thumbnails" ] || [ "$argument" = "--scrub" ]; then
    # Their default clip, long.mp4 (10 minutes of 1080p), is made with the served media.
    bash scripts/make-http-media.sh
  fi
  if [ "$argument" = "--feed" ]; then
    bash scripts/make-feed-media.sh
    exec bash scripts/netns.sh .build/release/playctl-bench run "$@"
  fi
done
exec .build/release/playctl-bench run "$@"
