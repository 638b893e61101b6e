#!/usr/bin/env bash
# Makes .build/http-media, what scripts/netns.sh serves: every clip of Media/, and clips for the network tests
# and benchmarks made with ffmpeg (skipped when present):
#   high.mp4  H.264 720p at about 12 Mbit/s, 4 s, moov first: above an 8 Mbit/s link
#   hd.mp4    H.264 720p at about 2.5 Mbit/s + AAC, 8 s, moov first: the time-to-first-frame benchmark's clip
#   large.bin 20 MB of random bytes: larger than the caches the loading tests bound (not media)
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/http-media
mkdir -p "$out"
cp -p Media/*.mp4 Media/*.webm Media/*.m4a Media/*.ts "$out"/
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }
if [ ! -s "$out/high.mp4" ]; then
  ff -f lavfi -i "testsrc2=size=1280x720:rate=30:duration=4,noise=alls=40:allf=t" \
     -c:v libx264 -preset veryfast -pix_fmt yuv420p -g 60 -b:v 12M -maxrate 12M -bufsize 4M \
     -movflags +faststart "$out/high.mp4"
fi
if [ ! -s "$out/hd.mp4" ]; then
  ff -f lavfi -i "testsrc2=size=1280x720:rate=30:duration=8" \
     -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=8" \
     -c:v libx264 -preset veryfast -pix_fmt yuv420p -g 60 -b:v 2500k -maxrate 2500k -bufsize 2500k \
     -c:a aac -b:a 96k -movflags +faststart "$out/hd.mp4"
fi
if [ ! -s "$out/large.bin" ]; then
  head -c $((20 << 20)) /dev/urandom > "$out/large.bin.tmp"
  mv "$out/large.bin.tmp" "$out/large.bin"
fi
