#!/usr/bin/env bash
# Makes the media fuzzer's seed corpus (Fuzz/corpus/media): tiny clips, each below the fuzzer's 12 KiB input limit,
# one per container and codec family FFmpeg reaches through MediaIO. The seeds are committed; rerun this only to
# change them (needs the ffmpeg CLI with libx264, libvpx, libopus and libmp3lame, as Debian 12's ffmpeg has).
set -euo pipefail
cd "$(dirname "$0")/corpus/media"
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
V="testsrc=size=32x32:rate=10:duration=0.5"
A="sine=frequency=440:sample_rate=8000:duration=0.5"
x264=(-c:v libx264 -preset ultrafast)
ff -f lavfi -i "$V" -f lavfi -i "$A" "${x264[@]}" -bf 2 -g 4 -c:a aac -b:a 16k -ac 1 -movflags +faststart h264-aac-faststart.mp4
ff -f lavfi -i "$V" -f lavfi -i "$A" "${x264[@]}" -bf 2 -g 4 -c:a aac -b:a 16k -ac 1 h264-aac-moovlast.mp4
ff -f lavfi -i "$V" "${x264[@]}" -g 3 -x264-params keyint=3 h264-only.mp4
ff -f lavfi -i "$V" -f lavfi -i "$A" "${x264[@]}" -c:a aac -b:a 16k -movflags +frag_keyframe+empty_moov fragmented.mp4
ff -f lavfi -i "$V" "${x264[@]}" -bf 1 -g 4 h264.mkv
ff -f lavfi -i "testsrc=size=32x32:rate=10:duration=0.3" -f lavfi -i "sine=frequency=440:sample_rate=16000:duration=0.3" \
   "${x264[@]}" -bf 2 -g 2 -c:a mp2 -b:a 32k -ar 16000 -mpegts_flags +resend_headers h264-mp2.ts
# The same with a timed ID3 metadata stream (HLS timed metadata) added by Media/make-id3.py (its samples past the end).
python3 ../../../Media/make-id3.py h264-mp2.ts h264-id3.ts > /dev/null
# MP4 timed metadata added by Media/make-mp4meta.py: emsg boxes before the four fragments of a fragmented MP4 (a
# keyframe each), a mebx track with its key table added to an MP4 whose moov is last.
ff -f lavfi -i "testsrc=size=32x32:rate=10:duration=0.4" "${x264[@]}" -g 1 -bf 0 \
   -movflags +frag_keyframe+empty_moov+default_base_moof "$tmp/fragments.mp4"
python3 ../../../Media/make-mp4meta.py emsg "$tmp/fragments.mp4" emsg.mp4
ff -f lavfi -i "$V" "${x264[@]}" -bf 0 -g 4 "$tmp/plain.mp4"
python3 ../../../Media/make-mp4meta.py mebx "$tmp/plain.mp4" mebx.mp4
ff -f lavfi -i "$V" -f lavfi -i "$A" -c:v libvpx-vp9 -b:v 20k -deadline realtime -c:a libopus -b:a 8k -ar 48000 vp9-opus.webm
ff -f lavfi -i "$V" -c:v vp8 -b:v 20k vp8.webm
ff -f lavfi -i "$V" -frames:v 3 -c:v mjpeg -q:v 31 mjpeg.avi
ff -f lavfi -i "$V" -c:v mpeg4 -q:v 20 -bf 1 mpeg4.mkv
ff -f lavfi -i "$V" -c:v mpeg2video -q:v 20 mpeg2.mpg
ff -f lavfi -i "testsrc=size=16x16:rate=5:duration=0.6" gif.gif
ff -f lavfi -i "$A" -c:a aac -b:a 16k aac.m4a
ff -f lavfi -i "sine=frequency=440:sample_rate=8000:duration=0.1" -c:a flac flac.flac
ff -f lavfi -i "sine=frequency=440:sample_rate=8000:duration=0.2" -c:a pcm_s16le wav.wav
ff -f lavfi -i "sine=frequency=440:sample_rate=8000:duration=0.3" -c:a libmp3lame -b:a 8k mp3.mp3
