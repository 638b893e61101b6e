#!/usr/bin/env bash
# A live HLS stream for the adaptive-streaming tests: ffmpeg encodes in real time (-re) and keeps a sliding window
# of 5 segments of 2 s in a media playlist, deleting the segments that leave it, in the background until killed.
#
#   scripts/ladder-live.sh OUT SECONDS [VARIANTS]   starts it; prints ffmpeg's process id once the first segment is
#                                                   listed
#   scripts/ladder-live.sh --stop OUT    stops it (the id is in OUT/live.pid); ffmpeg then ends the playlist
#
# OUT is a folder, made if missing; put it under the served folder to have it served, e.g.
#   scripts/ladder-live.sh .build/http-media/live 60    ->  http://127.0.0.1:18000/live/live.m3u8 (scripts/netns.sh)
# SECONDS is how long the stream lasts (0: until stopped); at its end ffmpeg writes EXT-X-ENDLIST and exits.
# Files: OUT/live.m3u8 (EXT-X-MEDIA-SEQUENCE counting up from 0, no PLAYLIST-TYPE), OUT/live00000.ts, ... (written
# as .tmp and renamed when complete, so the server never serves half a segment), OUT/live.pid, OUT/live.log.
# The picture: testsrc2 at 640x360, 30 fps, H.264 at 0.8 Mbit/s (the ladder's 360p rung: a keyframe every 2 s) with
# a 440 Hz AAC tone. Needs ffmpeg.
# VARIANTS 2 (1 by default) makes a live ladder of one encode: OUT/live.m3u8 is then a master playlist of two variants,
# OUT/live0.m3u8 (the 640x360 picture above) and OUT/live1.m3u8 (the same picture scaled to 320x180 at 0.3 Mbit/s),
# each with the tone, segments OUT/live0_00000.ts and OUT/live1_00000.ts, ..., their media sequence numbers,
# timestamps and program date times aligned (one source split in two; about 1.3 times the CPU of one variant).
# VARIANTS a makes the 640x360 variant without audio and the tone an audio rendition of its own: OUT/live.m3u8 is a
# master playlist naming OUT/live0.m3u8 (video, segments OUT/live0_00000.ts, ...) and, as #EXT-X-MEDIA:TYPE=AUDIO,
# OUT/live1.m3u8 (audio, OUT/live1_00000.ts, ...), numbered and dated alike (ffmpeg's var_stream_map with agroup).
set -euo pipefail
if [ "${1:-}" = "--stop" ]; then
  [ $# -eq 2 ] || { echo "usage: $0 --stop OUT" >&2; exit 2; }
  pid=$(cat "$2/live.pid" 2>/dev/null) || { echo "ladder-live: no $2/live.pid" >&2; exit 1; }
  # SIGTERM: ffmpeg finishes the segment it writes and ends the playlist.
  kill "$pid" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  rm -f "$2/live.pid"
  exit 0
fi
[ $# -ge 2 ] && [ $# -le 3 ] && [[ $2 =~ ^[0-9]+$ ]] && [[ ${3:-1} =~ ^[12a]$ ]] ||
  { echo "usage: $0 OUT SECONDS [1|2|a] | $0 --stop OUT" >&2; exit 2; }
out=$(realpath -m "$1")
seconds=$2
variants=${3:-1}
mkdir -p "$out"
if [ -s "$out/live.pid" ] && kill -0 "$(cat "$out/live.pid")" 2>/dev/null; then
  echo "ladder-live: already running in $out (process $(cat "$out/live.pid"))" >&2
  exit 1
fi
rm -f "$out"/live*.m3u8 "$out"/live*.ts "$out"/live*.tmp
length=""
[ "$seconds" -gt 0 ] && length=":duration=$seconds"
# setsid: the stream outlives this script and the caller's terminal; stdin from /dev/null so ffmpeg never waits on it.
inputs=(-re -f lavfi -i "testsrc2=size=640x360:rate=30$length" -re -f lavfi -i "sine=frequency=440:sample_rate=48000$length")
x264=(-c:v libx264 -preset veryfast -profile:v high -pix_fmt yuv420p -g 60 -keyint_min 60 -sc_threshold 0)
hls=(-f hls -hls_time 2 -hls_list_size 5)
if [ "$variants" = 1 ]; then
  setsid ffmpeg -hide_banner -loglevel warning -nostdin -y "${inputs[@]}" "${x264[@]}" \
    -b:v 800k -maxrate 880k -bufsize 1600k -c:a aac -b:a 96k -ac 2 \
    "${hls[@]}" -hls_flags delete_segments+temp_file \
    -hls_segment_filename "$out/live%05d.ts" "$out/live.m3u8" < /dev/null > "$out/live.log" 2>&1 &
  first="$out/live.m3u8"
elif [ "$variants" = a ]; then
  setsid ffmpeg -hide_banner -loglevel warning -nostdin -y "${inputs[@]}" -map 0:v -map 1:a "${x264[@]}" \
    -b:v 800k -maxrate 880k -bufsize 1600k -c:a aac -b:a 96k -ac 2 \
    "${hls[@]}" -hls_flags delete_segments+temp_file+independent_segments+program_date_time \
    -var_stream_map "v:0,agroup:aud a:0,agroup:aud" -master_pl_name live.m3u8 \
    -hls_segment_filename "$out/live%v_%05d.ts" "$out/live%v.m3u8" < /dev/null > "$out/live.log" 2>&1 &
  first="$out/live1.m3u8"
else
  setsid ffmpeg -hide_banner -loglevel warning -nostdin -y "${inputs[@]}" \
    -filter_complex "[0:v]split=2[v0][v1in];[v1in]scale=320:180[v1]" \
    -map "[v0]" -map "[v1]" -map 1:a -map 1:a "${x264[@]}" \
    -b:v:0 800k -maxrate:v:0 880k -bufsize:v:0 1600k -b:v:1 300k -maxrate:v:1 330k -bufsize:v:1 600k \
    -c:a aac -b:a 96k -ac 2 \
    "${hls[@]}" -hls_flags delete_segments+temp_file+independent_segments+program_date_time \
    -var_stream_map "v:0,a:0 v:1,a:1" -master_pl_name live.m3u8 \
    -hls_segment_filename "$out/live%v_%05d.ts" "$out/live%v.m3u8" < /dev/null > "$out/live.log" 2>&1 &
  first="$out/live1.m3u8"
fi
pid=$!
echo "$pid" > "$out/live.pid"
# Ready once the first segment is listed (2 s of real time, plus the encoder's start).
for _ in $(seq 200); do
  grep -q '^live[0-9_]*\.ts$' "$first" 2>/dev/null && [ -s "$out/live.m3u8" ] && break
  kill -0 "$pid" 2>/dev/null || { echo "ladder-live: ffmpeg ended: $(cat "$out/live.log")" >&2; exit 1; }
  sleep 0.05
done
grep -q '^live[0-9_]*\.ts$' "$first" 2>/dev/null || { echo "ladder-live: no segment after 10 s" >&2; exit 1; }
echo "$pid"
