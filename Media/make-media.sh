#!/usr/bin/env bash
# Makes the test clips in Media/ with the ffmpeg CLI, and the reference md5 lists that tests compare against.
# Run from anywhere: bash Media/make-media.sh   (needs ffmpeg; Debian 12 ships 5.1)
# The clips are committed, so tests never need ffmpeg; rerun this only to change them.
set -euo pipefail
cd "$(dirname "$0")"
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }

# a.mp4: H.264 High + AAC, 6 s, 640x360, 30 fps, long GOP (keyframes at 0 and 4 s only), 3 B-frames with pyramid.
ff -f lavfi -i "testsrc2=size=640x360:rate=30:duration=6" \
   -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=6" \
   -c:v libx264 -preset medium -profile:v high -pix_fmt yuv420p -g 120 -keyint_min 120 -sc_threshold 0 -bf 3 -x264-params b-pyramid=normal \
   -crf 28 -c:a aac -b:a 96k -ac 2 -movflags +faststart a.mp4

# b.mp4: H.264 + AAC, 4 s, 480x270 at 25 fps, a different look (colour bars with a moving box), GOP 50 with B-frames.
ff -f lavfi -i "smptehdbars=size=480x270:rate=25:duration=4,drawbox=x='mod(t*120,400)':y=100:w=80:h=80:color=yellow:t=fill" \
   -f lavfi -i "sine=frequency=660:sample_rate=44100:duration=4" \
   -c:v libx264 -preset fast -pix_fmt yuv420p -g 50 -bf 2 -crf 30 -c:a aac -b:a 64k -ac 2 b.mp4

# c.webm: VP9 + Opus, 3 s, 320x240, 24 fps.
ff -f lavfi -i "testsrc=size=320x240:rate=24:duration=3" \
   -f lavfi -i "sine=frequency=330:sample_rate=48000:duration=3" \
   -c:v libvpx-vp9 -b:v 200k -deadline good -cpu-used 4 -g 48 -c:a libopus -b:a 48k c.webm

# tone.m4a: audio only, AAC stereo 44.1 kHz, 3 s.
ff -f lavfi -i "sine=frequency=523:sample_rate=44100:duration=3" -ac 2 -c:a aac -b:a 64k tone.m4a

# rotated.mp4: 2 s, 320x180 coded, with a 90-degree display matrix (shown as 180x320 by players).
# ffmpeg 5.1 no longer writes a rotate tag, so the track header's matrix is patched to a 90-degree rotation.
ff -f lavfi -i "testsrc2=size=320x180:rate=30:duration=2" -c:v libx264 -preset fast -pix_fmt yuv420p -g 30 -crf 30 rotated.mp4
python3 - <<'PY'
import struct
data = bytearray(open("rotated.mp4", "rb").read())
i = data.index(b"tkhd")           # the only track: its header (version 0)
m = i + 4 + 4 + 4 * 5 + 8 + 8     # past type, version/flags, times/ids/duration, reserved, layer..volume
data[m:m + 36] = struct.pack(">9i", 0, 0x10000, 0, -0x10000, 0, 0, 0, 0, 0x40000000)
open("rotated.mp4", "wb").write(bytes(data))
PY

# offset.ts: MPEG-TS (timestamps start at 1.4 s, as the muxer does by default), H.264 + MP2, 2 s, 320x240, 25 fps.
ff -f lavfi -i "testsrc=size=320x240:rate=25:duration=2" -f lavfi -i "sine=frequency=200:duration=2" \
   -c:v libx264 -preset fast -pix_fmt yuv420p -g 25 -bf 2 -crf 30 -c:a mp2 offset.ts

# still.jpg: a JPEG photo-like still, 320x240 (a feed's image entry; decoded by libavcodec as a one-frame video).
ff -f lavfi -i "testsrc2=size=320x240" -frames:v 1 -q:v 4 still.jpg

# Clips for media selection, timed text and size changes live in Media/tracks/ (a subfolder: a feed of Media/ and
# playctl soak --media Media leave them out).
mkdir -p tracks
# tracks/tracks.vtt, tracks/tracks.srt: sidecar subtitles (WebVTT and SubRip) for tracks.mp4 and tracks.mkv, committed as written
# here; the SubRip text is also muxed into both clips as their English subtitle track.
cat > tracks/tracks.vtt <<'VTT'
WEBVTT

00:00:01.000 --> 00:00:02.000
Sidecar one.

00:00:02.500 --> 00:00:03.250
Sidecar <i>two</i>.
VTT
cat > tracks/tracks.srt <<'SRT'
1
00:00:00,500 --> 00:00:01,500
Hello, <b>world</b>.

2
00:00:02,000 --> 00:00:03,000
Second line
on two rows.

3
00:00:03,200 --> 00:00:03,800
<i>The end.</i>
SRT
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/fr.srt" <<'SRT'
1
00:00:00,700 --> 00:00:01,700
Bonjour, le monde.

2
00:00:02,500 --> 00:00:03,500
Deuxième ligne.
SRT
cat > "$work/fr.ass" <<'ASS'
[Script Info]
ScriptType: v4.00+
PlayResX: 320
PlayResY: 240

[V4+ Styles]
Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding
Style: Default,Arial,16,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,1,0,2,10,10,10,1
Style: Sign,Arial,14,&H0000FFFF,&H000000FF,&H00000000,&H00000000,-1,0,0,0,100,100,0,0,1,1,0,8,10,10,10,1

[Events]
Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text
Dialogue: 0,0:00:00.70,0:00:01.70,Default,,0,0,0,,Bonjour, {\i1}le monde{\i0}.
Dialogue: 0,0:00:02.50,0:00:03.50,Sign,,0,0,0,,{\b1}Deuxième{\b0}\Nligne.
ASS

# tracks/tracks.mp4 and tracks/tracks.mkv: 4 s of 160x120 H.264, two AAC stereo audio tracks (English 440 Hz, the default, and
# French 880 Hz) and two subtitle tracks (English and French): mov_text in the MP4; SubRip and ASS (French, forced)
# in the Matroska file.
for out in tracks.mp4 tracks.mkv; do
  if [ "$out" = tracks.mp4 ]; then
    subs=(-i tracks/tracks.srt -i "$work/fr.srt"); codecs=(-c:s mov_text); flags=(-disposition:s:0 0 -disposition:s:1 0)
  else
    subs=(-i tracks/tracks.srt -i "$work/fr.ass"); codecs=(-c:s:0 srt -c:s:1 ass); flags=(-disposition:s:0 0 -disposition:s:1 forced)
  fi
  ff -f lavfi -i "testsrc2=size=160x120:rate=25:duration=4" \
     -f lavfi -i "sine=frequency=440:sample_rate=48000:duration=4" \
     -f lavfi -i "sine=frequency=880:sample_rate=48000:duration=4" "${subs[@]}" \
     -map 0:v -map 1:a -map 2:a -map 3 -map 4 \
     -c:v libx264 -preset fast -pix_fmt yuv420p -g 50 -crf 38 -c:a aac -b:a 24k -ac 2 "${codecs[@]}" \
     -metadata:s:a:0 language=eng -metadata:s:a:0 title=English -metadata:s:a:1 language=fra -metadata:s:a:1 title=Français \
     -metadata:s:s:0 language=eng -metadata:s:s:0 title=English -metadata:s:s:1 language=fra -metadata:s:s:1 title=Français \
     -disposition:a:0 default -disposition:a:1 0 "${flags[@]}" "tracks/$out"
done

# tracks/sizechange.ts: MPEG-TS, H.264 whose frame size changes mid-stream (as adaptive streams do): 1 s at 320x240, then
# 1 s at 640x360 (each keyframe repeats its parameter sets), joined by the concat demuxer.
ff -f lavfi -i "testsrc=size=320x240:rate=25:duration=1" -c:v libx264 -preset fast -pix_fmt yuv420p -g 25 -bf 2 \
   -crf 40 -x264-params repeat-headers=1 -f mpegts "$work/small.ts"
ff -f lavfi -i "testsrc=size=640x360:rate=25:duration=1" -c:v libx264 -preset fast -pix_fmt yuv420p -g 25 -bf 2 \
   -crf 40 -x264-params repeat-headers=1 -f mpegts "$work/large.ts"
printf "file '%s'\nfile '%s'\n" "$work/small.ts" "$work/large.ts" > "$work/list.txt"
ff -f concat -safe 0 -i "$work/list.txt" -c copy tracks/sizechange.ts

# tracks/id3.ts: MPEG-TS, 4 s of H.264 (320x240, 25 fps) and AAC, with a timed ID3 metadata stream as HLS carries one
# (stream type 0x15, ID3 tags in PES packets), which make-id3.py adds (ffmpeg cannot make one): four samples, at 0.5,
# 1.5, 2.5 and 3.5 s, of ID3v2.4 and v2.3 tags. The audio and video must decode as they did before.
ff -f lavfi -i "testsrc2=size=320x240:rate=25:duration=4" -f lavfi -i "sine=frequency=500:sample_rate=48000:duration=4" \
   -c:v libx264 -preset fast -pix_fmt yuv420p -g 25 -bf 2 -crf 32 -c:a aac -b:a 32k -ac 1 "$work/id3-source.ts"
python3 make-id3.py "$work/id3-source.ts" tracks/id3.ts > /dev/null
for map in 0:v 0:a; do
  if [ "$(ffmpeg -hide_banner -loglevel error -i "$work/id3-source.ts" -map $map -f md5 -)" != \
       "$(ffmpeg -hide_banner -loglevel error -i tracks/id3.ts -map $map -f md5 -)" ]; then
    echo "make-id3.py changed how stream $map of tracks/id3.ts decodes" >&2
    exit 1
  fi
done

# tracks/emsg.mp4: fragmented MP4 (a moof per second), 4 s of H.264 (160x120, 25 fps, no B-frames), with four emsg
# boxes (v1 and v0; ID3 and other schemes) at 0.5, 1.5, 2.5 and 3.5 s; tracks/mebx.mp4: the same video not
# fragmented, with a QuickTime timed metadata track (mebx, key table, boxed items) of samples at 0, 1 and 3 s.
# make-mp4meta.py writes both (ffmpeg cannot); its docstring lists the events and items.
ff -f lavfi -i "testsrc=size=160x120:rate=25:duration=4" -c:v libx264 -preset fast -pix_fmt yuv420p -g 25 -bf 0 \
   -crf 36 -movflags +frag_keyframe+empty_moov+default_base_moof "$work/emsg-source.mp4"
python3 make-mp4meta.py emsg "$work/emsg-source.mp4" tracks/emsg.mp4
ff -f lavfi -i "testsrc=size=160x120:rate=25:duration=4" -c:v libx264 -preset fast -pix_fmt yuv420p -g 25 -bf 0 \
   -crf 36 "$work/mebx-source.mp4"
python3 make-mp4meta.py mebx "$work/mebx-source.mp4" tracks/mebx.mp4

# Reference lists: the md5 of every decoded frame of the first video stream, as ffmpeg decodes it.
mkdir -p ref
for f in a.mp4 b.mp4 c.webm rotated.mp4 offset.ts; do
  ffmpeg -hide_banner -loglevel error -noautorotate -i "$f" -map 0:v:0 -fps_mode passthrough -f framemd5 - > "ref/$f.framemd5"
done
# Reference probe facts (ffprobe's view) for the probe tests.
for f in a.mp4 b.mp4 c.webm tone.m4a rotated.mp4 offset.ts; do
  ffprobe -v error -show_entries format=duration,start_time:stream=codec_type,codec_name,width,height,sample_rate,channels \
    -of json "$f" > "ref/$f.probe.json"
done

# Reference frame times (seconds, from the start of the media: the container's start_time subtracted), by ffprobe.
for f in a.mp4 b.mp4 c.webm rotated.mp4 offset.ts; do
  start=$(ffprobe -v error -show_entries format=start_time -of csv=p=0 "$f")
  ffprobe -v error -select_streams v:0 -show_entries frame=best_effort_timestamp_time -of csv=p=0 "$f" \
    | tr -d , | awk -v s="$start" 'NF { printf "%.6f\n", $1 - s }' > "ref/$f.times"
done

# Frames of tracks/sizechange.ts at their own sizes (-autoscale 0: ffmpeg would otherwise scale them all to the first size).
ffmpeg -hide_banner -loglevel error -i tracks/sizechange.ts -map 0:v:0 -fps_mode passthrough -autoscale 0 -f framemd5 - \
  > ref/sizechange.ts.framemd5
# The PCM of each audio track of tracks/tracks.mp4 and tracks.mkv as ffmpeg decodes it (interleaved 32-bit float): md5s.
for f in tracks.mp4 tracks.mkv; do
  for a in 0 1; do
    printf "%s\n" "$(ffmpeg -hide_banner -loglevel error -i "tracks/$f" -map 0:a:$a -f f32le - | md5sum | cut -d' ' -f1)" \
      > "ref/$f.a$a.f32le.md5"
  done
done
