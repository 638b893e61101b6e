#!/usr/bin/env bash
# A live DASH stream for the adaptive-streaming tests: ffmpeg's dash muxer encodes in real time (-re) and keeps a
# dynamic MPD of a window of 5 segments of 2 s, deleting the segments that leave it, in the background until killed.
#
#   scripts/dash-live.sh OUT SECONDS [number|timeline]   starts it; prints ffmpeg's process id once the MPD lists a
#                                                        segment
#   scripts/dash-live.sh --stop OUT    stops it (the id is in OUT/live.pid); ffmpeg then makes the MPD static
#
# OUT is a folder, made if missing; put it under the served folder to have it served, e.g.
#   scripts/dash-live.sh .build/http-media/dlive 60   ->  http://127.0.0.1:18000/dlive/live.mpd (scripts/netns.sh)
# SECONDS is how long the stream lasts (0: until stopped). `number` (the default): a SegmentTemplate of @duration
# and $Number$, its segments available by the wall clock from MPD@availabilityStartTime; `timeline`: a
# SegmentTimeline listing the window, rewritten with each segment (minimumUpdatePeriod 2 s).
# Files: OUT/live.mpd, OUT/init-stream0.m4s, OUT/chunk-stream0-00001.m4s, ... (written as .tmp and renamed when
# complete), OUT/live.pid, OUT/live.log. The picture: testsrc2 at 640x360, 30 fps, H.264 at 0.8 Mbit/s (a keyframe
# every 2 s), no sound (a live presentation's separate audio adaptation set is not played yet). Needs ffmpeg.
set -euo pipefail
if [ "${1:-}" = "--stop" ]; then
  [ $# -eq 2 ] || { echo "usage: $0 --stop OUT" >&2; exit 2; }
  pid=$(cat "$2/live.pid" 2>/dev/null) || { echo "dash-live: no $2/live.pid" >&2; exit 1; }
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  rm -f "$2/live.pid"
  exit 0
fi
[ $# -ge 2 ] && [ $# -le 3 ] && [[ $2 =~ ^[0-9]+$ ]] && [[ ${3:-number} =~ ^(number|timeline)$ ]] ||
  { echo "usage: $0 OUT SECONDS [number|timeline] | $0 --stop OUT" >&2; exit 2; }
out=$(realpath -m "$1")
seconds=$2
timeline=0
[ "${3:-number}" = timeline ] && timeline=1
mkdir -p "$out"
if [ -s "$out/live.pid" ] && kill -0 "$(cat "$out/live.pid")" 2>/dev/null; then
  echo "dash-live: already running in $out (process $(cat "$out/live.pid"))" >&2
  exit 1
fi
rm -f "$out"/live.mpd "$out"/*.m4s "$out"/*.tmp
length=""
[ "$seconds" -gt 0 ] && length=":duration=$seconds"
# setsid: the stream outlives this script and the caller's terminal; stdin from /dev/null so ffmpeg never waits on it.
(cd "$out" && exec setsid ffmpeg -hide_banner -loglevel warning -nostdin -y \
  -re -f lavfi -i "testsrc2=size=640x360:rate=30$length" \
  -c:v libx264 -preset veryfast -profile:v high -pix_fmt yuv420p -g 60 -keyint_min 60 -sc_threshold 0 \
  -b:v 800k -maxrate 880k -bufsize 1600k \
  -f dash -window_size 5 -extra_window_size 0 -use_template 1 -use_timeline "$timeline" -seg_duration 2 \
  -remove_at_exit 0 live.mpd < /dev/null > "$out/live.log" 2>&1) &
pid=$!
echo "$pid" > "$out/live.pid"
# Ready once the first segment is complete (2 s of real time, plus the encoder's start) and the MPD is dynamic.
for _ in $(seq 200); do
  [ -s "$out/chunk-stream0-00001.m4s" ] && grep -q 'type="dynamic"' "$out/live.mpd" 2>/dev/null && break
  kill -0 "$pid" 2>/dev/null || { echo "dash-live: ffmpeg ended: $(cat "$out/live.log")" >&2; exit 1; }
  sleep 0.05
done
[ -s "$out/chunk-stream0-00001.m4s" ] || { echo "dash-live: no segment after 10 s" >&2; exit 1; }
echo "$pid"
