#!/usr/bin/env bash
# Makes the feed that 'playctl-bench run --feed' scrolls (not committed; about 1-2 minutes on 2 CPUs, once):
#   .build/feed-media/clipN.mp4  10 distinct clips, 5-20 s, 1280x720 and 1920x1080 at 30 fps, H.264 (-preset
#                                veryfast, 2-5 Mbit/s capped: moving patterns (testsrc2, the game of life) with temporal noise, so the bit rate is
#                                spent) with AAC stereo, a keyframe every 1.5 or 2 s, moov first
#   .build/feed-media/photoN.jpg 3 distinct JPEG images (noisy stills, 150-450 KB)
#   .build/http-media/feed/NNN.mp4|jpg  the 100 entries of the feed (000-099), hard links to those: every 9th entry
#                                (4, 13, 22, ...) an image, the videos cycling through the 10 clips, so that caches and
#                                players see 100 distinct resources; scripts/netns.sh serves them as /feed/NNN.*
#   .build/http-media/feed-3g/   the same feed in the rendition an app serves on a 3G-like link (as ABR ladders do):
#                                each clip at 640x360, 500 kbit/s H.264 (capped) and 64 kbit/s AAC, same keyframes;
#                                the images 540 pixels wide (about 30-60 KB). A 2-5 Mbit/s clip cannot play on a
#                                1.6 Mbit/s link at all, so bench --feed's 3G trace and --sweep scroll this one.
#   .build/http-media/feed-mid/  the same feed's videos at 1280x720, 1500 kbit/s H.264 (capped), 96 kbit/s AAC, same
#                                keyframes (the images are not copied): with feed-3g, the 500 kbit/s and 1.5 Mbit/s
#                                renditions bench --feed's weak-link trace lists beside each clip.
#   .build/http-media/feed-thumbs/NNN.jpg  a server's thumbnail of each entry (a JPEG 320 pixels wide of a clip's first
#                                frame or of the image, about 10-30 KB): the weak-link trace names them as the entries'
#                                posters ("poster" in a manifest).
# Each part is made again when its version changes (its stamp file names it); otherwise reused.
set -euo pipefail
cd "$(dirname "$0")/.."
src=.build/feed-media
out=.build/http-media/feed
version=1
ff() { ffmpeg -hide_banner -loglevel error -y "$@"; }

# The 3G rendition of the feed, from the clips and images in $src.
make_3g() {
  local low=$src/3g out3g=.build/http-media/feed-3g version3g=1
  if [ "$(cat "$low/.version" 2>/dev/null)" = "$version3g" ] && [ -s "$out3g/099.mp4" -o -s "$out3g/099.jpg" ]; then
    return
  fi
  echo "make-feed-media: the 3G rendition of the 10 clips and 3 images into $low (once)" >&2
  rm -rf "$low" "$out3g"
  mkdir -p "$low" "$out3g"
  local n
  for n in 0 1 2 3 4 5 6 7 8 9; do
    # Keyframes where the full rendition has them (every 1.5 or 2 s): the same times, a smaller picture.
    ff -i "$src/clip$n.mp4" -vf scale=640:360 -c:v libx264 -preset veryfast -profile:v main -pix_fmt yuv420p \
       -force_key_frames source -sc_threshold 0 \
       -b:v 500k -maxrate 500k -bufsize 500k -c:a aac -b:a 64k -ac 2 -movflags +faststart "$low/clip$n.mp4"
  done
  for n in 0 1 2; do ff -i "$src/photo$n.jpg" -vf scale=540:-2 -q:v 6 "$low/photo$n.jpg"; done
  link_feed "$low" "$out3g"
  echo "$version3g" > "$low/.version"
}

# The 1.5 Mbit/s rendition of the feed's videos (its images are the full feed's).
make_mid() {
  local mid=$src/mid outmid=.build/http-media/feed-mid versionmid=1
  if [ "$(cat "$mid/.version" 2>/dev/null)" = "$versionmid" ] && [ -s "$outmid/099.mp4" -o -s "$outmid/099.jpg" ]; then
    return
  fi
  echo "make-feed-media: the 1.5 Mbit/s rendition of the 10 clips into $mid (once)" >&2
  rm -rf "$mid" "$outmid"
  mkdir -p "$mid" "$outmid"
  local n
  for n in 0 1 2 3 4 5 6 7 8 9; do
    ff -i "$src/clip$n.mp4" -vf scale=1280:720 -c:v libx264 -preset veryfast -profile:v main -pix_fmt yuv420p \
       -force_key_frames source -sc_threshold 0 \
       -b:v 1500k -maxrate 1500k -bufsize 1500k -c:a aac -b:a 96k -ac 2 -movflags +faststart "$mid/clip$n.mp4"
  done
  for n in 0 1 2; do ln "$src/photo$n.jpg" "$mid/photo$n.jpg"; done
  link_feed "$mid" "$outmid"
  echo "$versionmid" > "$mid/.version"
}

# Thumbnails of the feed's entries, as a service serves them beside its videos.
make_thumbs() {
  local thumbs=$src/thumbs outthumbs=.build/http-media/feed-thumbs versionthumbs=1 i
  if [ "$(cat "$thumbs/.version" 2>/dev/null)" = "$versionthumbs" ] && [ -s "$outthumbs/099.jpg" ]; then
    return
  fi
  echo "make-feed-media: thumbnails of the 10 clips and 3 images into $thumbs (once)" >&2
  rm -rf "$thumbs" "$outthumbs"
  mkdir -p "$thumbs" "$outthumbs"
  for i in 0 1 2 3 4 5 6 7 8 9; do ff -i "$src/clip$i.mp4" -frames:v 1 -vf scale=320:-2 -q:v 5 "$thumbs/clip$i.jpg"; done
  for i in 0 1 2; do ff -i "$src/photo$i.jpg" -vf scale=320:-2 -q:v 5 "$thumbs/photo$i.jpg"; done
  link_feed "$thumbs" "$outthumbs" jpg
  echo "$versionthumbs" > "$thumbs/.version"
}

# The 100 entries in folder $2: hard links to the clips and images of folder $1 (the clips' extension $3, mp4 by
# default: a thumbnail's is jpg).
link_feed() {
  local from=$1 to=$2 ext=${3:-mp4} video=0 image=0 i name
  for i in $(seq 0 99); do
    name=$(printf %03d "$i")
    if [ $((i % 9)) -eq 4 ]; then
      ln "$from/photo$((image % 3)).jpg" "$to/$name.jpg"
      image=$((image + 1))
    else
      ln "$from/clip$((video % 10)).$ext" "$to/$name.$ext"
      video=$((video + 1))
    fi
  done
}

if [ "$(cat "$src/.version" 2>/dev/null)" = "$version" ] && [ -s "$out/099.mp4" -o -s "$out/099.jpg" ]; then
  make_3g
  make_mid
  make_thumbs
  exit 0
fi
rm -rf "$src" "$out"
mkdir -p "$src" "$out"
# clip N PATTERN SIZE SECONDS BITRATE GOP TONE: a moving lavfi pattern (testsrc2, or the game of life scaled up) with
# temporal noise and a slow hue turn, and a tone.
clip() {
  local n=$1 pattern=$2 size=$3 seconds=$4 rate=$5 gop=$6 tone=$7 source
  if [ "$pattern" = life ]; then
    source="life=size=320x180:rate=30:mold=10:ratio=0.1:death_color=#C83232:life_color=#00ff00,scale=$size:flags=neighbor"
  else
    source="$pattern=size=$size:rate=30"
  fi
  ff -f lavfi -i "$source,format=yuv420p,noise=alls=14:allf=t,hue=h=20*t" -t "$seconds" \
     -f lavfi -i "sine=frequency=$tone:sample_rate=48000" -t "$seconds" \
     -c:v libx264 -preset veryfast -profile:v high -pix_fmt yuv420p -g "$gop" -keyint_min "$gop" -sc_threshold 0 \
     -b:v "$rate" -maxrate "$rate" -bufsize "$rate" -c:a aac -b:a 96k -ac 2 -movflags +faststart \
     "$src/clip$n.mp4"
}
echo "make-feed-media: encoding 10 clips and 3 images into $src (once)" >&2
clip 0 testsrc2 1280x720 8 2500k 60 220
clip 1 testsrc2 1920x1080 12 4000k 45 247
clip 2 life 1280x720 6 3000k 45 262
clip 3 testsrc2 1920x1080 15 5000k 60 294
clip 4 testsrc2 1280x720 10 2000k 60 330
clip 5 testsrc2 1920x1080 18 3500k 60 349
clip 6 life 1280x720 5 3000k 45 392
clip 7 testsrc2 1920x1080 20 4000k 60 440
clip 8 testsrc2 1280x720 14 2500k 45 494
clip 9 life 1920x1080 9 3000k 60 523
for n in 0 1 2; do
  ff -f lavfi -i "testsrc2=size=1080x1350:rate=1:duration=1,noise=alls=$((12 + 8 * n)):allf=u,hue=h=$((100 * n))" \
     -frames:v 1 -q:v 3 "$src/photo$n.jpg"
done
link_feed "$src" "$out"
echo "$version" > "$src/.version"
make_3g
make_mid
make_thumbs
