#!/usr/bin/env bash
# Makes .build/http-media, what scripts/netns.sh serves: every clip of Media/ (and Media/tracks/ as tracks/), and clips for the network tests
# and benchmarks made with ffmpeg (skipped when present):
#   high.mp4  H.264 360p at about 12 Mbit/s (noise), 4 s, moov first: above an 8 Mbit/s link
#   mid.mp4   H.264 360p at about 5 Mbit/s (noise), 6 s, moov first: below it (cheap to decode, so a slow machine
#             does not stall on the decoder where the test means the link)
#   hd.mp4    H.264 720p at about 2.5 Mbit/s + AAC, 8 s, moov first: the time-to-first-frame benchmark's clip
#   moov-end.mp4  the first 4 s of hd.mp4 with its index (moov) after the media: a demuxer reads the tail first
#   long.mp4  H.264 1080p at 5 fps and 400 kbit/s, 10 minutes, a keyframe every 2 s, moov first: the storyboard's
#             clip (thumbnails: tests and playctl-bench run --thumbnails; and --scrub's)
#   large.bin 20 MB of random bytes: larger than the caches the loading tests bound (not media)
#   renditions/a-360p.mp4, a-720p.mp4  Media/a.mp4 again at 360p and 500 kbit/s and at 720p and 1.5 Mbit/s (H.264,
#             its audio copied, moov first): two progressive renditions of one clip; renditions/feed.json a feed
#             manifest of three entries listing them (each with its measured bit rate), for the rendition tests
#   id3-hls/index.m3u8  an HLS playlist of Media/tracks/id3.ts (its timed ID3 samples at 0.5, 1.5, 2.5 and 3.5 s) in two
#             byte ranges split at a TS packet: ffmpeg 5.1's hls muxer cannot carry timed ID3 (it writes each tag
#             without the five bytes its MPEG-TS demuxer dropped), so the segments are the file's own bytes
#   emsg-hls/index.m3u8  an fMP4 HLS playlist of Media/tracks/emsg.mp4 (its emsg boxes at 0.5, 1.5, 2.5 and 3.5 s,
#             Media/make-mp4meta.py): the initialization section (ftyp, moov) and four 1 s segments (each its emsg,
#             moof and mdat) as byte ranges of the file
#   subs-hls/master.m3u8  Media/a.mp4 as HLS (MPEG-TS, stream copy: segments of 4 and 2 s, v/) with a WebVTT
#             subtitle group "subs" of two renditions, en/ (DEFAULT=NO) and fr/ (DEFAULT=YES), both AUTOSELECT=YES:
#             three 2 s segments each, written here from the cue lists cues-en.tsv and cues-fr.tsv ("start end text",
#             media seconds from the stream's start), with X-TIMESTAMP-MAP=MPEGTS:<start+2k s>,LOCAL:<60+2k s> (cue
#             times 60 s after the media's: the map must be applied), a cue across the 2 s boundary written in both
#             segments; master-bad.m3u8 the same variant with a rendition whose playlist is missing (404) and one,
#             bad/, whose seg1.vtt is missing and seg2.vtt is not WebVTT (seg0.vtt has the one cue of cues-bad.tsv, then a
#             block that is not a cue and one whose timing line is malformed);
#             master-fmp4.m3u8 the clip as fMP4 (vf/) with the English cues mapped against its start (en-fmp4/)
#   feed-mini/000-011  a 12-entry feed of hard links to a.mp4, b.mp4 and still.jpg, for bench --feed's quick runs
#             (tests); the benchmark's own feed is made by scripts/make-feed-media.sh
# A clip made by an older version of this script is made again (the stamp file names the version).
set -euo pipefail
cd "$(dirname "$0")/.."
out=.build/http-media
mkdir -p "$out"
cp -p Media/*.mp4 Media/*.webm Media/*.m4a Media/*.ts Media/*.jpg "$out"/
mkdir -p "$out/tracks"
cp -p Media/tracks/* "$out/tracks"/
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }
version=4
if [ "$(cat "$out/.version" 2>/dev/null)" != "$version" ]; then
  rm -f "$out/high.mp4" "$out/mid.mp4" "$out/hd.mp4" "$out"/renditions/*
fi
noisy() {  # noisy NAME SECONDS BITRATE
  ff -f lavfi -i "testsrc2=size=640x360:rate=30:duration=$2,noise=alls=60:allf=t" \
     -c:v libx264 -preset veryfast -pix_fmt yuv420p -g 60 -b:v "$3" -maxrate "$3" -bufsize 2M \
     -movflags +faststart "$out/$1"
}
[ -s "$out/high.mp4" ] || noisy high.mp4 4 12M
[ -s "$out/mid.mp4" ] || noisy mid.mp4 6 5M
if [ ! -s "$out/hd.mp4" ]; then
  ff -f lavfi -i "testsrc2=size=1280x720:rate=30:duration=8" \
     -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=8" \
     -c:v libx264 -preset veryfast -pix_fmt yuv420p -g 60 -b:v 2500k -maxrate 2500k -bufsize 2500k \
     -c:a aac -b:a 96k -movflags +faststart "$out/hd.mp4"
fi
[ -s "$out/moov-end.mp4" ] || ff -i "$out/hd.mp4" -c copy -t 4 "$out/moov-end.mp4"
if [ ! -s "$out/long.mp4" ]; then
  ff -f lavfi -i "testsrc2=size=1920x1080:rate=5:duration=600" \
     -c:v libx264 -preset ultrafast -pix_fmt yuv420p -g 10 -b:v 400k -maxrate 400k -bufsize 800k \
     -movflags +faststart "$out/long.mp4.tmp.mp4"
  mv "$out/long.mp4.tmp.mp4" "$out/long.mp4"
fi
if [ ! -s "$out/large.bin" ]; then
  head -c $((20 << 20)) /dev/urandom > "$out/large.bin.tmp"
  mv "$out/large.bin.tmp" "$out/large.bin"
fi
mkdir -p "$out/renditions"
rendition() {  # rendition NAME HEIGHT BITRATE
  [ -s "$out/renditions/$1" ] && return
  ff -i Media/a.mp4 -map 0 -c:v libx264 -preset veryfast -pix_fmt yuv420p -g 60 -vf "scale=-2:$2" \
     -b:v "$3" -maxrate "$3" -bufsize "$3" -c:a copy -movflags +faststart "$out/renditions/$1.tmp.mp4"
  mv "$out/renditions/$1.tmp.mp4" "$out/renditions/$1"
}
rendition a-360p.mp4 360 500k
rendition a-720p.mp4 720 1500k
if [ ! -s "$out/renditions/feed.json" ]; then
  bitrate() { ffprobe -v error -show_entries format=bit_rate -of default=nw=1:nk=1 "$out/renditions/$1"; }
  low=$(bitrate a-360p.mp4)
  high=$(bitrate a-720p.mp4)
  entry='{"kind": "video", "renditions": [{"url": "a-360p.mp4", "bitrate": '$low', "width": 640, "height": 360},
    {"url": "a-720p.mp4", "bitrate": '$high', "width": 1280, "height": 720}]}'
  printf '{"entries": [\n  %s,\n  %s,\n  %s\n]}\n' "$entry" "$entry" "$entry" > "$out/renditions/feed.json"
fi
mkdir -p "$out/id3-hls"
id3size=$(stat -c %s Media/tracks/id3.ts)
id3half=$((id3size / 188 / 2 * 188))
printf '%s\n' '#EXTM3U' '#EXT-X-VERSION:4' '#EXT-X-TARGETDURATION:3' '#EXT-X-PLAYLIST-TYPE:VOD' \
  '#EXTINF:2.0,' "#EXT-X-BYTERANGE:$id3half@0" '../tracks/id3.ts' \
  '#EXTINF:2.0,' "#EXT-X-BYTERANGE:$((id3size - id3half))@$id3half" '../tracks/id3.ts' '#EXT-X-ENDLIST' \
  > "$out/id3-hls/index.m3u8"
mkdir -p "$out/emsg-hls"
python3 - Media/tracks/emsg.mp4 > "$out/emsg-hls/index.m3u8" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
boxes, at = [], 0
while at < len(data):
    size, kind = struct.unpack(">I4s", data[at : at + 8])
    boxes.append((kind, at, size))
    at += size
init = sum(size for kind, _, size in boxes if kind in (b"ftyp", b"moov"))
print("#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:1\n#EXT-X-PLAYLIST-TYPE:VOD")
print(f'#EXT-X-MAP:URI="../tracks/emsg.mp4",BYTERANGE="{init}@0"')
starts = [start for kind, start, _ in boxes if kind == b"emsg"] + [len(data)]
for start, end in zip(starts, starts[1:]):
    print(f"#EXTINF:1.0,\n#EXT-X-BYTERANGE:{end - start}@{start}\n../tracks/emsg.mp4")
print("#EXT-X-ENDLIST")
PY
# subs-hls/: the cue lists, then the segments and playlists written from them.
subs="$out/subs-hls"
mkdir -p "$subs/v" "$subs/vf" "$subs/en" "$subs/en-fmp4" "$subs/fr" "$subs/bad"
[ -s "$subs/v/index.m3u8" ] || ff -i Media/a.mp4 -c copy -bsf:v h264_mp4toannexb -f hls -hls_time 2 \
  -hls_playlist_type vod -hls_segment_filename "$subs/v/seg%d.ts" "$subs/v/index.m3u8"
[ -s "$subs/vf/index.m3u8" ] || ff -i Media/a.mp4 -c copy -f hls -hls_time 2 -hls_segment_type fmp4 \
  -hls_playlist_type vod -hls_fmp4_init_filename init.mp4 -hls_segment_filename "$subs/vf/seg%d.m4s" "$subs/vf/index.m3u8"
# The media's start on the 90 kHz clock: the earliest stream's first PTS (TS), its start time in 90 kHz units (fMP4).
start=$(ffprobe -v error -show_entries stream=start_pts -of csv=p=0 "$subs/v/seg0.ts" | awk NF | sort -n | head -1)
fstart=$(cat "$subs/vf/init.mp4" "$subs/vf/seg0.m4s" | ffprobe -v error -show_entries format=start_time -of csv=p=0 - \
  | awk '{ printf "%d", $1 * 90000 + 0.5 }')
printf '%s\t%s\t%s\n' 0.500 1.500 'Hello from the first segment.' 1.800 2.600 'A cue across a segment boundary.' \
  3.000 3.750 'Styled English line.' 4.250 5.250 'Fourth English cue.' 5.400 5.900 'Last English cue.' \
  > "$subs/cues-en.tsv"
printf '%s\t%s\t%s\n' 0.700 1.400 'Bonjour depuis le premier segment.' 1.900 2.300 'Une réplique à cheval.' \
  3.100 3.900 'Troisième réplique.' 4.500 5.600 'Quatrième réplique.' > "$subs/cues-fr.tsv"
printf '%s\t%s\t%s\n' 0.500 1.500 'Good cue.' > "$subs/cues-bad.tsv"
vtt_time() {  # vtt_time SECONDS: WebVTT hh:mm:ss.ttt, 60 s later (the segments' LOCAL times)
  awk -v s="$1" 'BEGIN { ms = int((s + 60) * 1000 + 0.5); printf "%02d:%02d:%02d.%03d", ms / 3600000, ms / 60000 % 60, ms / 1000 % 60, ms % 1000 }'
}
write_rendition() {  # write_rendition LANG DIR START: DIR/seg0..2.vtt (the cues overlapping each 2 s) and index.m3u8
  local lang=$1 dir=$2 start=$3 k from to startcue endcue text
  for k in 0 1 2; do
    from=$((2 * k)) to=$((2 * k + 2))
    {
      printf 'WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:%d,LOCAL:%s\n' $((start + 180000 * k)) "$(vtt_time "$from")"
      while IFS=$'\t' read -r startcue endcue text; do
        awk -v a="$startcue" -v b="$endcue" -v f="$from" -v t="$to" 'BEGIN { exit !(a < t && b > f) }' || continue
        [ "$text" = 'Styled English line.' ] && text='<i>Styled</i> English line.'
        printf '\n%s --> %s\n%s\n' "$(vtt_time "$startcue")" "$(vtt_time "$endcue")" "$text"
      done < "$subs/cues-$lang.tsv"
    } > "$subs/$dir/seg$k.vtt"
  done
  printf '%s\n' '#EXTM3U' '#EXT-X-VERSION:3' '#EXT-X-TARGETDURATION:2' '#EXT-X-PLAYLIST-TYPE:VOD' \
    '#EXTINF:2.0,' seg0.vtt '#EXTINF:2.0,' seg1.vtt '#EXTINF:2.0,' seg2.vtt '#EXT-X-ENDLIST' > "$subs/$dir/index.m3u8"
}
write_rendition en en "$start"
write_rendition en en-fmp4 "$fstart"
write_rendition fr fr "$start"
write_rendition bad bad "$start"
rm -f "$subs/bad/seg1.vtt"
printf '\n00:01:01.600 -> 00:01:01.900\nnot a cue: its arrow is malformed\n\nnot a time --> 00:01:01.900\nnever shown\n' \
  >> "$subs/bad/seg0.vtt"
printf 'NOT A WEBVTT FILE\n\n00:01:04.000 --> 00:01:05.000\nnever shown\n' > "$subs/bad/seg2.vtt"
variant='#EXT-X-STREAM-INF:BANDWIDTH=700000,CODECS="avc1.64001e,mp4a.40.2",SUBTITLES="subs"'
media='#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs"'
printf '%s\n' '#EXTM3U' "$media,NAME=\"English\",LANGUAGE=\"en\",DEFAULT=NO,AUTOSELECT=YES,URI=\"en/index.m3u8\"" \
  "$media,NAME=\"Français\",LANGUAGE=\"fr\",DEFAULT=YES,AUTOSELECT=YES,URI=\"fr/index.m3u8\"" \
  "$variant" v/index.m3u8 > "$subs/master.m3u8"
printf '%s\n' '#EXTM3U' "$media,NAME=\"Missing\",LANGUAGE=\"de\",AUTOSELECT=YES,URI=\"missing/index.m3u8\"" \
  "$media,NAME=\"Broken\",LANGUAGE=\"it\",AUTOSELECT=YES,URI=\"bad/index.m3u8\"" \
  "$variant" v/index.m3u8 > "$subs/master-bad.m3u8"
printf '%s\n' '#EXTM3U' '#EXT-X-VERSION:7' \
  "$media,NAME=\"English\",LANGUAGE=\"en\",AUTOSELECT=YES,URI=\"en-fmp4/index.m3u8\"" \
  "$variant" vf/index.m3u8 > "$subs/master-fmp4.m3u8"
mkdir -p "$out/feed-mini"
for i in $(seq 0 11); do
  case $((i % 3)) in 0) file=a.mp4 ;; 1) file=b.mp4 ;; *) file=still.jpg ;; esac
  ln -f "$out/$file" "$out/feed-mini/$(printf %03d "$i").${file##*.}"
done
echo "$version" > "$out/.version"
