#!/usr/bin/env bash
# Makes the adaptive-streaming test media (HLS and DASH ladders) into OUT, by default .build/http-media/ladder, which
# scripts/netns.sh serves as /ladder/... (it runs this script; a present ladder of this version is kept, at once).
#
#   scripts/make-ladder-media.sh [OUT]
#
# One encode (about a minute on 2 busy CPUs, once), then stream copies of it: every format below carries the same
# H.264 and AAC bytes, so a frame decoded from any of them is bit-identical to the same frame of the progressive file.
# Source: lavfi testsrc2 at 1920x1080, 30 fps, 12 s, and a 440 Hz sine (48 kHz stereo); the same bytes every run
# (with the same ffmpeg and x264); libx264
# -preset veryfast High profile with a keyframe every 2 s exactly (-g 60 -keyint_min 60 -sc_threshold 0), AAC 96 kbit/s.
# The ladder (-b:v at the target, -maxrate 1.1 times it, -bufsize twice it):
#   360p 640x360 at 0.8 Mbit/s   540p 960x540 at 1.6   720p 1280x720 at 3   1080p 1920x1080 at 5 Mbit/s
# (below the 1.6, 2, 8 and 20 Mbit/s links of netns.sh: one rung fits each).
#   progressive/<rung>.mp4  the encode itself, moov first: the reference for decoding
#   hls-ts/       master.m3u8 and v0..v3/ (360p..1080p): index.m3u8 and seg000.ts..seg005.ts, 2 s MPEG-TS segments
#                 with video and audio, the same PIDs (0x100 video, 0x101 audio) and timestamps in every rendition
#   hls-fmp4/     the same as fragmented MP4: v0..v3/ with init.mp4 (EXT-X-MAP) and seg000.m4s..seg005.m4s
#   hls-byterange/  360p as one file, 360p.ts, with EXT-X-BYTERANGE segments: index.m3u8
#   dash/         manifest.mpd: one video AdaptationSet of the 4 rungs (Representations 0-3) and one of the audio
#                 (4); init-stream<id>.m4s and chunk-stream<id>-00001.m4s.. (SegmentTemplate, $Number$, no timeline)
#   hls-aes/      360p (v0/) and 720p (v1/) encrypted with AES-128 (a fixed key, v*/key.bin, URI "key.bin"):
#                 v0's playlist has one EXT-X-KEY without IV (each segment's IV is its media sequence number),
#                 v1's an EXT-X-KEY per segment with that IV written out; clear/ the same two renditions unencrypted
#                 (clear/v0/seg001.ts is v0/seg001.ts decrypted, byte for byte)
#   hls-audio/    Apple's layout: master.m3u8 whose variants v0..v3/ (360p..1080p, fMP4: init.mp4, seg000.m4s..)
#                 carry video only, each naming AUDIO="aud", and one #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",DEFAULT=YES,
#                 AUTOSELECT=YES,URI="audio/index.m3u8" rendition (audio/: init.mp4, seg000.m4s..seg006.m4s, about 2 s
#                 each, the last 21 ms), muxed in one pass as hls-fmp4 is: the same timelines (see make_audio below)
#   long-ts/      the 60 s ladder of playctl-bench run --abr: the hls-ts layout with 30 segments a rung, made from
#                 progressive/ 5 times in a row (stream copy; see make_long below)
#   long-dash/    the same 60 s ladder as a DASH MPD in the dash/ layout (see make_long_dash below)
#   hls-aes-fmp4/ 360p fMP4 under AES-128, its initialization section encrypted too (see make_aes_fmp4 below)
#   README.txt    what is where, the rates measured and the ffmpeg version
# Each master's BANDWIDTH is the peak segment bit rate measured (bits of a segment over its duration) and
# AVERAGE-BANDWIDTH the whole playlist's: ffmpeg 5.1 writes the encoder's average plus 10% instead, which some
# segments exceed. Checks run before the ladder is put in place (ffprobe opens every manifest; the TS renditions
# share PIDs and each segment's first PTS; the encrypted segments decrypt to the clear ones); a failure leaves none.
# Timelines (as ffmpeg 5.1 writes them, the same in every rendition of a format): the first video PTS is 0 in the
# progressive files, 1.4667 s in hls-ts (the TS muxer's 1.4 s offset and 2 frames of B-frame delay) and 0.0660 s
# in hls-fmp4 (1014/15360: its first DTS is -10 ticks); audio leads video by 21 ms in each.
# A ladder made by an older version of this script is made again (OUT/.version names the version); hls-audio/ and
# long-ts/ are made from OUT/progressive when they are missing (a ladder of this version made before them gets them).
set -euo pipefail
out=${1:+$(realpath -m "$1")}
cd "$(dirname "$0")/.."
out=${out:-.build/http-media/ladder}
version=2
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }
probe() { ffprobe -v error "$@"; }

# long-ts/: the 60 s ladder of 'playctl-bench run --abr' (a link whose rate changes under a play): each progressive
# rung stream-copied 5 times in a row (the concat demuxer, no encode: the same bytes as the 12 s ladder, continuous
# timestamps), muxed as hls-ts is (master.m3u8, v0..v3/index.m3u8, 30 segments seg000.ts..seg029.ts of 2 s each,
# BANDWIDTH measured the same way). Made from OUT/progressive when it is missing (a few seconds, about 80 MB).
# concat_inputs LADDER DIR: each rung's progressive file 5 times in a row, as concat lists written in DIR; their ffmpeg
# inputs in the caller's array 'inputs'. The concat demuxer, not -stream_loop: with -stream_loop, ffmpeg 5.1 ends
# the h264_mp4toannexb filter after the first pass ("A non-NULL packet sent after an EOF") and the video stops at 12 s.
concat_inputs() {
  local i
  for i in 0 1 2 3; do
    printf "file '%s'\n" "$1"/progressive/"${names[$i]}".mp4{,,,,} > "$2/${names[$i]}.txt"
    inputs+=(-f concat -safe 0 -i "$2/${names[$i]}.txt")
  done
}
make_long() {
  local ladder long inputs=() maps=() varmap=() i
  ladder=$(realpath "$1") long=$(realpath "$1")/long-ts
  [ -s "$long/master.m3u8" ] && return 0
  rm -rf "$long.tmp"
  mkdir -p "$long.tmp"
  concat_inputs "$ladder" "$long.tmp"
  for i in 0 1 2 3; do
    maps+=(-map "$i:v" -map "$i:a")
    varmap+=("v:$i,a:$i")
  done
  ff "${inputs[@]}" "${maps[@]}" -c copy -bsf:v h264_mp4toannexb -f hls -hls_time 2 -hls_playlist_type vod \
     -master_pl_name master.m3u8 -var_stream_map "${varmap[*]}" -hls_segment_filename "$long.tmp/v%v/seg%03d.ts" \
     "$long.tmp/v%v/index.m3u8"
  rm "$long.tmp"/*.txt
  measure_master "$long.tmp/master.m3u8"
  local opened
  opened=$(probe -show_entries format=duration -of csv=p=0 "$long.tmp/master.m3u8" 2>&1) \
    || { echo "make-ladder-media: FAILED: ffprobe cannot open long-ts/master.m3u8: $opened" >&2; exit 1; }
  mv "$long.tmp" "$long"
  echo "make-ladder-media: long-ts/ (duration $opened s, $(du -sh "$long" | cut -f1)) in $ladder" >&2
}
# long-dash/: the same 60 s ladder as a DASH MPD (the dash/ layout: one video AdaptationSet of Representations 0-3,
# 360p..1080p, and 360p's audio in one of its own, id 4; SegmentTemplate $Number$, 30 segments of 2 s a rung), for
# 'playctl-bench run --abr''s DASH run. The concat demuxer gives ffmpeg no bit rate to write, so each video
# Representation's @bandwidth is its segments' average (as ffmpeg writes the encoder's for dash/), the audio's too.
make_long_dash() {
  local ladder long inputs=() i
  ladder=$(realpath "$1") long=$(realpath "$1")/long-dash
  [ -s "$long/manifest.mpd" ] && return 0
  rm -rf "$long.tmp"
  mkdir -p "$long.tmp"
  concat_inputs "$ladder" "$long.tmp"
  ff "${inputs[@]}" -map 0:v -map 1:v -map 2:v -map 3:v -map 0:a -c copy -f dash -seg_duration 2 -use_template 1 \
     -use_timeline 0 -adaptation_sets "id=0,streams=v id=1,streams=a" "$long.tmp/manifest.mpd"
  rm "$long.tmp"/*.txt
  sed -i 's/ bitstreamSwitching="true"//' "$long.tmp/manifest.mpd"
  for i in 0 1 2 3 4; do
    local bits
    bits=$(cat "$long.tmp"/chunk-stream$i-*.m4s | wc -c)
    bits=$((bits * 8 / 60))
    # Replace the Representation's bandwidth, or add one after its id.
    sed -i -E "/<Representation id=\"$i\"/{s/ bandwidth=\"[0-9]*\"//;s/<Representation id=\"$i\"/& bandwidth=\"$bits\"/}" \
      "$long.tmp/manifest.mpd"
  done
  local opened
  opened=$(cd "$long.tmp" && probe -show_entries format=duration,nb_streams -of csv=p=0 "$long.tmp/manifest.mpd" 2>&1) \
    || { echo "make-ladder-media: FAILED: ffprobe cannot open long-dash/manifest.mpd: $opened" >&2; exit 1; }
  [ "$(ls "$long.tmp"/chunk-stream3-*.m4s | wc -l)" = 30 ] \
    || { echo "make-ladder-media: FAILED: long-dash/ has not 30 segments a rung" >&2; exit 1; }
  mv "$long.tmp" "$long"
  echo "make-ladder-media: long-dash/ (streams and duration $opened, $(du -sh "$long" | cut -f1)) in $ladder" >&2
}
# hls-aes-fmp4/: 360p fMP4 (hls-fmp4/v0) under AES-128 with its initialization section encrypted too (RFC 8216
# 4.3.2.4: a key applies to the EXT-X-MAP declared after it; ffmpeg 5.1's muxer cannot write encrypted fMP4): openssl
# encrypts init.mp4 into init-aes.mp4 and each segment in place (key 00..0f, one IV for all, written in the key tag).
# index.m3u8 declares the key before the map (init-aes.mp4: encrypted); index-clear-map.m3u8 the map first (the clear
# init.mp4, the same segments). Made from OUT/hls-fmp4 when missing (needs openssl).
make_aes_fmp4() {
  local ladder dir key=000102030405060708090a0b0c0d0e0f iv=0000000000000000000000000000002a file
  ladder=$(realpath "$1") dir=$(realpath "$1")/hls-aes-fmp4
  [ -s "$dir/index.m3u8" ] && return 0
  command -v openssl > /dev/null || { echo "make-ladder-media: FAILED: hls-aes-fmp4/ needs openssl" >&2; exit 1; }
  rm -rf "$dir.tmp"
  mkdir -p "$dir.tmp"
  cp "$ladder/hls-fmp4/v0/init.mp4" "$dir.tmp/init.mp4"
  openssl aes-128-cbc -K "$key" -iv "$iv" -in "$dir.tmp/init.mp4" -out "$dir.tmp/init-aes.mp4"
  for file in "$ladder"/hls-fmp4/v0/seg*.m4s; do
    openssl aes-128-cbc -K "$key" -iv "$iv" -in "$file" -out "$dir.tmp/$(basename "$file")"
  done
  printf "$(sed 's/../\\x&/g' <<< "$key")" > "$dir.tmp/key.bin"
  local tag="#EXT-X-KEY:METHOD=AES-128,URI=\"key.bin\",IV=0x$iv"
  awk -v tag="$tag" '/^#EXT-X-MAP:/ { print tag; print "#EXT-X-MAP:URI=\"init-aes.mp4\""; next } { print }' \
    "$ladder/hls-fmp4/v0/index.m3u8" > "$dir.tmp/index.m3u8"
  awk -v tag="$tag" '/^#EXT-X-MAP:/ { print; print tag; next } { print }' \
    "$ladder/hls-fmp4/v0/index.m3u8" > "$dir.tmp/index-clear-map.m3u8"
  openssl aes-128-cbc -d -K "$key" -iv "$iv" -in "$dir.tmp/init-aes.mp4" | cmp -s - "$dir.tmp/init.mp4" \
    || { echo "make-ladder-media: FAILED: hls-aes-fmp4/init-aes.mp4 does not decrypt to init.mp4" >&2; exit 1; }
  mv "$dir.tmp" "$dir"
  echo "make-ladder-media: hls-aes-fmp4/ (360p fMP4, AES-128, the init section encrypted) in $ladder" >&2
}
# hls-audio/: the 4 rungs' video and 360p's audio stream-copied in one HLS pass (fMP4 segments; the video variants
# without audio, the audio a rendition of its own): the timelines are hls-fmp4's (first video PTS 0.0660 s, audio
# 0.0450 s, its first 1024 samples the AAC encoder's priming, which the progressive files' edit list hides). ffmpeg
# writes the rendition as GROUP-ID="group_aud" without AUTOSELECT and names the init sections init_N.mp4: both are
# rewritten. BANDWIDTH is measured from the video segments. Made from OUT/progressive when missing (a second).
make_audio() {
  local ladder dir inputs=() i
  ladder=$(realpath "$1") dir=$(realpath "$1")/hls-audio
  [ -s "$dir/master.m3u8" ] && return 0
  rm -rf "$dir.tmp"
  mkdir -p "$dir.tmp"
  for i in 0 1 2 3; do inputs+=(-i "$ladder/progressive/${names[$i]}.mp4"); done
  ff "${inputs[@]}" -map 0:v -map 1:v -map 2:v -map 3:v -map 0:a -c copy -bsf:v h264_mp4toannexb -f hls -hls_time 2 \
     -hls_playlist_type vod -master_pl_name master.m3u8 -hls_segment_type fmp4 -hls_fmp4_init_filename init.mp4 \
     -var_stream_map "v:0,agroup:aud,name:v0 v:1,agroup:aud,name:v1 v:2,agroup:aud,name:v2 v:3,agroup:aud,name:v3 \
a:0,agroup:aud,default:yes,name:audio" -hls_segment_filename "$dir.tmp/%v/seg%03d.m4s" "$dir.tmp/%v/index.m3u8"
  for i in 0 1 2 3 4; do
    local sub=v$i
    [ $i = 4 ] && sub=audio
    mv "$dir.tmp/$sub/init_$i.mp4" "$dir.tmp/$sub/init.mp4"
    sed -i "s/init_$i\.mp4/init.mp4/" "$dir.tmp/$sub/index.m3u8"
  done
  local media='#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="audio",DEFAULT=YES,AUTOSELECT=YES,URI="audio/index.m3u8"'
  sed -i -e "s|^#EXT-X-MEDIA:.*\$|$media|" -e 's/AUDIO="group_aud"/AUDIO="aud"/' "$dir.tmp/master.m3u8"
  measure_master "$dir.tmp/master.m3u8"
  local opened
  opened=$(probe -show_entries format=duration,nb_streams -of csv=p=0 "$dir.tmp/master.m3u8" 2>&1) \
    || { echo "make-ladder-media: FAILED: ffprobe cannot open hls-audio/master.m3u8: $opened" >&2; exit 1; }
  grep -q '^#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",.*URI="audio/index.m3u8"' "$dir.tmp/master.m3u8" \
    && [ "$(grep -c 'AUDIO="aud"' "$dir.tmp/master.m3u8")" = 4 ] \
    || { echo "make-ladder-media: FAILED: hls-audio/master.m3u8 does not name its audio rendition" >&2; exit 1; }
  mv "$dir.tmp" "$dir"
  echo "make-ladder-media: hls-audio/ (streams and duration $opened) in $ladder" >&2
}
names=(360p 540p 720p 1080p)
# BANDWIDTH (peak) and AVERAGE-BANDWIDTH measured from the segments of each variant of a master playlist.
# (bash scripts/make-ladder-media.sh itself prints them: segment_rates PLAYLIST -> "peak average" in bit/s.)
segment_rates() {
  local playlist=$1 dir
  dir=$(dirname "$playlist")
  awk -v dir="$dir" '
    /^#EXTINF:/ { split(substr($0, 9), f, ","); duration = f[1]; next }
    /^#/ || /^$/ { next }
    { cmd = "stat -c %s \"" dir "/" $0 "\""; cmd | getline size; close(cmd)
      rate = size * 8 / duration; if (rate > peak) peak = rate; bits += size * 8; total += duration }
    END { printf "%d %d\n", peak, bits / total }' "$playlist"
}
measure_master() {
  local master=$1 dir line uri peak average
  dir=$(dirname "$master")
  : > "$master.new"
  while IFS= read -r line; do
    if [[ $line == "#EXT-X-STREAM-INF:"* ]]; then
      IFS= read -r uri
      read -r peak average < <(segment_rates "$dir/$uri")
      line=$(sed -E "s/BANDWIDTH=[0-9]+/BANDWIDTH=$peak,AVERAGE-BANDWIDTH=$average/" <<< "$line")
      printf '%s\n%s\n' "$line" "$uri" >> "$master.new"
    else
      printf '%s\n' "$line" >> "$master.new"
    fi
  done < "$master"
  mv "$master.new" "$master"
}
if [ "$(cat "$out/.version" 2>/dev/null)" = "$version" ] && [ -s "$out/README.txt" ]; then
  make_audio "$out"
  make_long "$out"
  make_long_dash "$out"
  make_aes_fmp4 "$out"
  exit 0
fi
tmp=$out.tmp
rm -rf "$tmp"
mkdir -p "$tmp/progressive"
tmp=$(cd "$tmp" && pwd)
echo "make-ladder-media: encoding the 12 s ladder into $out (once)" >&2

sizes=(640x360 960x540 1280x720 1920x1080)
rates=(800 1600 3000 5000)  # kbit/s

# The encode: one source split into the four rungs, each written as a progressive MP4 with its own AAC copy. One
# thread per encoder (the four run side by side): x264's frame threads under VBV made different bytes run to run.
outputs=()
for i in 0 1 2 3; do
  rate=${rates[$i]}
  outputs+=(-map "[v$i]" -map 1:a -c:v libx264 -threads 1 -preset veryfast -profile:v high -pix_fmt yuv420p
    -g 60 -keyint_min 60 -sc_threshold 0 -b:v "${rate}k" -maxrate "$((rate * 11 / 10))k" -bufsize "$((rate * 2))k"
    -c:a aac -b:a 96k -ac 2 -movflags +faststart "$tmp/progressive/${names[$i]}.mp4")
done
ff -f lavfi -i "testsrc2=size=1920x1080:rate=30:duration=12" \
   -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=12" \
   -filter_complex "[0:v]split=4[s0][s1][s2][s3];[s0]scale=${sizes[0]/x/:}[v0];[s1]scale=${sizes[1]/x/:}[v1];\
[s2]scale=${sizes[2]/x/:}[v2];[s3]copy[v3]" \
   "${outputs[@]}"

# Stream copies. -bsf:v h264_mp4toannexb gives the muxers an Annex B parameter set: from the MP4's avcC, ffmpeg 5.1's
# HLS muxer cannot read the profile and leaves CODECS out of the master playlist.
inputs=() maps=() varmap=()
for i in 0 1 2 3; do
  inputs+=(-i "$tmp/progressive/${names[$i]}.mp4")
  maps+=(-map "$i:v" -map "$i:a")
  varmap+=("v:$i,a:$i")
done
hls=(-c copy -bsf:v h264_mp4toannexb -f hls -hls_time 2 -hls_playlist_type vod -master_pl_name master.m3u8)
ff "${inputs[@]}" "${maps[@]}" "${hls[@]}" -var_stream_map "${varmap[*]}" \
   -hls_segment_filename "$tmp/hls-ts/v%v/seg%03d.ts" "$tmp/hls-ts/v%v/index.m3u8"
ff "${inputs[@]}" "${maps[@]}" "${hls[@]}" -var_stream_map "${varmap[*]}" -hls_segment_type fmp4 \
   -hls_fmp4_init_filename init.mp4 -hls_segment_filename "$tmp/hls-fmp4/v%v/seg%03d.m4s" \
   "$tmp/hls-fmp4/v%v/index.m3u8"
# With several variants ffmpeg names the init sections init_0.mp4, init_1.mp4, ...: one init.mp4 per folder instead.
for i in 0 1 2 3; do
  mv "$tmp/hls-fmp4/v$i/init_$i.mp4" "$tmp/hls-fmp4/v$i/init.mp4"
  sed -i "s/init_$i\.mp4/init.mp4/" "$tmp/hls-fmp4/v$i/index.m3u8"
done
mkdir -p "$tmp/hls-byterange"
ff -i "$tmp/progressive/360p.mp4" -map 0:v -map 0:a -c copy -bsf:v h264_mp4toannexb -f hls -hls_time 2 \
   -hls_playlist_type vod -hls_flags single_file -hls_segment_filename "$tmp/hls-byterange/360p.ts" \
   "$tmp/hls-byterange/index.m3u8"
mkdir -p "$tmp/dash"
ff "${inputs[@]}" -map 0:v -map 1:v -map 2:v -map 3:v -map 0:a -c copy -f dash -seg_duration 2 -use_template 1 \
   -use_timeline 0 -adaptation_sets "id=0,streams=v id=1,streams=a" "$tmp/dash/manifest.mpd"
# ffmpeg 5.1 marks every AdaptationSet bitstreamSwitching="true", which avc1 rungs with their own SPS in their own
# init segments are not (one decoder cannot be fed another rung's segments without its init): the default (false).
sed -i 's/ bitstreamSwitching="true"//' "$tmp/dash/manifest.mpd"

# AES-128: the key is 00 01 .. 0f. periodic_rekey makes ffmpeg read the key info before each segment and so use its
# sequence number as IV (without it, every segment gets IV 0).
key=000102030405060708090a0b0c0d0e0f
printf "$(sed 's/../\\x&/g' <<< "$key")" > "$tmp/key.bin"
printf 'key.bin\n%s\n' "$tmp/key.bin" > "$tmp/key.info"
for variant in encrypted clear; do
  dir=$tmp/hls-aes
  extra=(-hls_key_info_file "$tmp/key.info" -hls_flags periodic_rekey)
  if [ $variant = clear ]; then dir=$tmp/hls-aes/clear extra=(); fi
  ff -i "$tmp/progressive/360p.mp4" -i "$tmp/progressive/720p.mp4" -map 0:v -map 0:a -map 1:v -map 1:a "${hls[@]}" \
     "${extra[@]}" -var_stream_map "v:0,a:0 v:1,a:1" -hls_segment_filename "$dir/v%v/seg%03d.ts" "$dir/v%v/index.m3u8"
done
cp "$tmp/key.bin" "$tmp/hls-aes/v0/key.bin"
cp "$tmp/key.bin" "$tmp/hls-aes/v1/key.bin"
rm "$tmp/key.bin" "$tmp/key.info"
# v0: the first EXT-X-KEY without its IV, the others dropped: the IV is then each segment's sequence number, as used.
awk '/^#EXT-X-KEY:/ { if (seen++) next; sub(/,IV=0x[0-9a-fA-F]+/, "") } { print }' "$tmp/hls-aes/v0/index.m3u8" \
  > "$tmp/hls-aes/v0/index.m3u8.new"
mv "$tmp/hls-aes/v0/index.m3u8.new" "$tmp/hls-aes/v0/index.m3u8"

for master in hls-ts hls-fmp4 hls-aes hls-aes/clear; do measure_master "$tmp/$master/master.m3u8"; done

# Checks, before the ladder is put in place.
fail() { echo "make-ladder-media: FAILED: $*" >&2; exit 1; }
report=()
for manifest in hls-ts/master.m3u8 hls-fmp4/master.m3u8 hls-byterange/index.m3u8 dash/manifest.mpd \
                hls-aes/master.m3u8 hls-aes/clear/master.m3u8; do
  # An absolute path: ffmpeg 5.1's DASH demuxer cannot open the segments of a relative one ("dash/manifest.mpd").
  opened=$(probe -allowed_extensions ALL -show_entries format=duration,nb_streams -of csv=p=0 "$tmp/$manifest" 2>&1) \
    || fail "ffprobe cannot open $manifest: $opened"
  report+=("  $manifest: opens (ffprobe -v error), streams and duration: $opened")
done
for n in 0 1 2 3 4 5; do
  seg=$(printf seg%03d.ts "$n")
  starts=() pids=()
  for i in 0 1 2 3; do
    file=$tmp/hls-ts/v$i/$seg
    pids+=("$(probe -show_entries stream=id -of csv=p=0 "$file" | grep . | sort -u | paste -sd' ')")
    starts+=("$(probe -select_streams v:0 -read_intervals %+#1 -show_entries packet=pts -of default=nw=1:nk=1 "$file")")
  done
  [ "$(printf '%s\n' "${pids[@]}" | sort -u | wc -l)" = 1 ] || fail "hls-ts $seg: PIDs differ: ${pids[*]}"
  [ "$(printf '%s\n' "${starts[@]}" | sort -u | wc -l)" = 1 ] || fail "hls-ts $seg: first PTS differ: ${starts[*]}"
  report+=("  hls-ts v0-v3/$seg: PIDs ${pids[0]}, first video PTS ${starts[0]} (90 kHz) in every rendition")
done
if command -v openssl > /dev/null; then
  for i in 0 1; do
    for n in 0 1 2 3 4 5; do
      seg=$(printf seg%03d.ts "$n")
      openssl aes-128-cbc -d -K "$key" -iv "$(printf %032x "$n")" -in "$tmp/hls-aes/v$i/$seg" \
        | cmp -s - "$tmp/hls-aes/clear/v$i/$seg" || fail "hls-aes/v$i/$seg does not decrypt to clear/v$i/$seg"
    done
  done
  report+=("  hls-aes: every segment decrypts (key 000102..0f, IV its sequence number) to clear/'s, byte for byte")
else
  report+=("  hls-aes: not compared with clear/ (no openssl here)")
fi
rates_report=()
for i in 0 1 2 3; do
  name=${names[$i]}
  measured=$(probe -select_streams v:0 -show_entries stream=bit_rate -of csv=p=0 "$tmp/progressive/$name.mp4")
  read -r peak average < <(segment_rates "$tmp/hls-ts/v$i/index.m3u8")
  rates_report+=("  $name ${sizes[$i]}: target ${rates[$i]} kbit/s, video measured $((measured / 1000)) kbit/s;\
 hls-ts segments (video+audio+TS) average $((average / 1000)), peak $((peak / 1000)) kbit/s")
done

{
  echo "Adaptive-streaming test media made by scripts/make-ladder-media.sh (version $version) with"
  echo "$(ffmpeg -version | head -1)"
  echo "The same encode in every format: 12 s of testsrc2 + a 440 Hz sine, 30 fps, H.264 High, AAC 96 kbit/s,"
  echo "a keyframe every 2 s, 2 s segments. See the script's header for the details."
  echo
  echo "progressive/360p.mp4 540p.mp4 720p.mp4 1080p.mp4  the encode, moov first (reference decoding)"
  echo "hls-ts/master.m3u8       4 variants, v0..v3/index.m3u8, MPEG-TS segments seg000.ts..seg005.ts"
  echo "hls-fmp4/master.m3u8     4 variants, v0..v3/index.m3u8, init.mp4 + seg000.m4s..seg005.m4s"
  echo "hls-byterange/index.m3u8 360p, one file 360p.ts, EXT-X-BYTERANGE"
  echo "dash/manifest.mpd        4 video Representations (0-3) + audio (4), SegmentTemplate \$Number\$"
  echo "hls-aes/master.m3u8      360p (v0, implicit IV = sequence number) and 720p (v1, explicit IVs), AES-128,"
  echo "                         key 000102030405060708090a0b0c0d0e0f in v0/key.bin and v1/key.bin"
  echo "hls-aes/clear/           the same two renditions unencrypted"
  echo "hls-audio/master.m3u8    4 video-only fMP4 variants v0..v3/ + the audio rendition audio/index.m3u8"
  echo "                         (#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",DEFAULT=YES,AUTOSELECT=YES;"
  echo "                         made after this file, when missing)"
  echo
  echo "Rates (ffprobe):"
  printf '%s\n' "${rates_report[@]}"
  echo "Checks:"
  printf '%s\n' "${report[@]}"
} > "$tmp/README.txt"
echo "$version" > "$tmp/.version"
rm -rf "$out"
mv "$tmp" "$out"
cat "$out/README.txt" >&2
echo "make-ladder-media: $(du -sh "$out" | cut -f1) in $out" >&2
make_audio "$out"
make_long "$out"
make_long_dash "$out"
make_aes_fmp4 "$out"
