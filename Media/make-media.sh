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
