#!/usr/bin/env bash
# Makes the larger clips the benchmarks use (not committed): bench-media/1080p.mp4, a 10 s 1920x1080 30 fps
# H.264 High file with a long GOP (keyframes every 250 frames) and 3 B-frames, plus AAC audio.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p bench-media
if [ ! -s bench-media/1080p.mp4 ]; then
  ffmpeg -hide_banner -loglevel error -y -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=10" \
    -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=10" \
    -c:v libx264 -preset veryfast -profile:v high -pix_fmt yuv420p -g 250 -keyint_min 250 -sc_threshold 0 -bf 3 \
    -crf 23 -c:a aac -b:a 128k bench-media/1080p.mp4
fi
