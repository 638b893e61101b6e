#!/usr/bin/env bash
# Makes a corpus of broken media files from the clips in Media/, for manual runs (playctl play FILE --untimed)
# and as the seed corpus of the media fuzzer (scripts/fuzz.sh media). The tests build the same kinds of files
# themselves (BrokenMedia in Sources/PlaybackTesting/BrokenMedia), so they do not depend on this script.
#
#   scripts/make-broken-media.sh [OUT_DIR]        (default .build/broken-media; never committed)
#
# Deterministic: every corruption comes from a fixed-seed generator (64-bit LCG, the same one the Swift corpus uses),
# so two runs give byte-identical files. Needs only bash, coreutils (head, dd, od, stat) and GNU grep.
#
# What it makes (NAME: recipe):
#   empty.mp4                     0 bytes
#   trunc-{a,b}-PPP.mp4           a.mp4 (moov first) and b.mp4 (moov last) cut at PPP per mille of their size
#   flip-{a,b}-N.mp4              one random bit flipped per N bytes, anywhere in the file
#   flip-a-mdat-N.mp4             one random bit flipped per N bytes, only in a.mp4's sample data (damage inside)
#   zeroed-a-middle.mp4           16 KiB of a.mp4's sample data overwritten with zeros
#   noise.mp4                     64 KiB of pseudo-random bytes
#   notes.mp4                     a text file
#   moov-renamed-b.mp4            b.mp4 with its moov atom's type renamed (no index at all)
#   moov-child-size-a.mp4         a.mp4 with the size of moov's first child box set to 0xFFFFFFFF
#   moov-stsz-a.mp4               a.mp4 with the first entries of its sample-size table set to 0xFF bytes
#   unsupported-codec.mp4         rotated.mp4 with the avc1 fourcc patched to an unknown one
#   audio-only.m4a                Media/tone.m4a (valid, no video)
#   directory.mp4/                a directory
#   dangling.mp4                  a symbolic link to a missing file
#   unreadable.mp4                a copy of b.mp4 with mode 000 (root reads it anyway: test as another user)
set -euo pipefail
cd "$(dirname "$0")/.."
media=Media
out=${1:-.build/broken-media}
mkdir -p "$out"
# Remove what an earlier run made (only that: OUT_DIR may hold other files).
rm -rf "$out"/{empty,trunc-*,flip-*,zeroed-*,noise,notes,moov-*,unsupported-codec,directory,dangling,unreadable}.mp4 \
  "$out/audio-only.m4a"

size() { stat -c %s "$1"; }

# The generator: x <- x * 6364136223846793005 + 1442695040888963407 (mod 2^64; bash arithmetic wraps).
lcg_state=0
lcg_seed() { lcg_state=$1; }
lcg_next() { lcg_state=$(( lcg_state * 6364136223846793005 + 1442695040888963407 )); }

# Writes the byte value $3 at offset $2 of file $1.
put_byte() {
  printf "\\$(printf '%03o' "$3")" | dd of="$1" bs=1 seek="$2" count=1 conv=notrunc status=none
}

# Flips one bit per $3 bytes of file $1 (at least one), at offsets in [$4, $5) (default: the whole file); seed $2.
flip_bits() {
  local file=$1 seed=$2 per=$3 from=${4:-0} to=${5:-$(size "$1")}
  local range=$(( to - from )) count=$(( (to - from) / per )) i offset bit value
  (( count < 1 )) && count=1
  lcg_seed "$seed"
  for (( i = 0; i < count; i++ )); do
    lcg_next
    offset=$(( from + ((lcg_state >> 33) & 0x7FFFFFFF) % range ))
    bit=$(( (lcg_state >> 29) & 7 ))
    value=$(od -An -tu1 -j "$offset" -N1 "$file" | tr -d ' ')
    put_byte "$file" "$offset" $(( value ^ (1 << bit) ))
  done
}

# Offset of the first occurrence of the four-character box type $2 in file $1.
box_offset() { grep -obUa -m1 "$2" "$1" | head -n1 | cut -d: -f1; }

# --- empty, truncated ----------------------------------------------------------------------------------------------
: > "$out/empty.mp4"
for clip in a b; do
  total=$(size "$media/$clip.mp4")
  for permille in 1 10 50 100 250 500 750 900 990 999; do
    head -c $(( total * permille / 1000 )) "$media/$clip.mp4" > "$out/trunc-$clip-$(printf '%03d' "$permille").mp4"
  done
done

# --- bit flips ----------------------------------------------------------------------------------------------------
for per in 100000 10000 1000; do
  cp "$media/a.mp4" "$out/flip-a-$per.mp4" && flip_bits "$out/flip-a-$per.mp4" 1 "$per"
done
for per in 10000 1000 100; do
  cp "$media/b.mp4" "$out/flip-b-$per.mp4" && flip_bits "$out/flip-b-$per.mp4" 2 "$per"
done
# a.mp4 keeps its moov first; its sample data starts after the mdat box header.
mdat=$(( $(box_offset "$media/a.mp4" mdat) + 4 ))
a_size=$(size "$media/a.mp4")
for per in 10000 1000; do
  cp "$media/a.mp4" "$out/flip-a-mdat-$per.mp4" && flip_bits "$out/flip-a-mdat-$per.mp4" 3 "$per" "$mdat" "$a_size"
done
cp "$media/a.mp4" "$out/zeroed-a-middle.mp4"
dd if=/dev/zero of="$out/zeroed-a-middle.mp4" bs=1024 seek=$(( a_size / 2 / 1024 )) count=16 conv=notrunc status=none

# --- not media ----------------------------------------------------------------------------------------------------
lcg_seed 42
noise=""
for (( i = 0; i < 65536; i++ )); do
  lcg_next
  printf -v octal %03o $(( (lcg_state >> 56) & 255 ))
  noise+="\\$octal"
  if (( (i + 1) % 4096 == 0 )); then printf "$noise" >> "$out/noise.mp4"; noise=""; fi
done
printf 'These are notes, not a video.\nSecond line.\n' > "$out/notes.mp4"

# --- damaged index (moov) -----------------------------------------------------------------------------------------
cp "$media/b.mp4" "$out/moov-renamed-b.mp4"
moov=$(box_offset "$media/b.mp4" moov)
printf 'xxxx' | dd of="$out/moov-renamed-b.mp4" bs=1 seek="$moov" conv=notrunc status=none
cp "$media/a.mp4" "$out/moov-child-size-a.mp4"
moov=$(box_offset "$media/a.mp4" moov)
printf '\377\377\377\377' | dd of="$out/moov-child-size-a.mp4" bs=1 seek=$(( moov + 4 )) conv=notrunc status=none
cp "$media/a.mp4" "$out/moov-stsz-a.mp4"
stsz=$(box_offset "$media/a.mp4" stsz)
# Past type, version/flags, sample size and count: the table itself.
head -c 64 /dev/zero | tr '\0' '\377' | dd of="$out/moov-stsz-a.mp4" bs=1 seek=$(( stsz + 16 )) conv=notrunc status=none

# --- unsupported codec, audio only --------------------------------------------------------------------------------
cp "$media/rotated.mp4" "$out/unsupported-codec.mp4"
for offset in $(grep -obUa avc1 "$media/rotated.mp4" | cut -d: -f1); do
  printf 'qqv1' | dd of="$out/unsupported-codec.mp4" bs=1 seek="$offset" conv=notrunc status=none
done
cp "$media/tone.m4a" "$out/audio-only.m4a"

# --- not a file ---------------------------------------------------------------------------------------------------
mkdir "$out/directory.mp4"
ln -s does-not-exist.mp4 "$out/dangling.mp4"
cp "$media/b.mp4" "$out/unreadable.mp4"
chmod 000 "$out/unreadable.mp4"

echo "$(ls -1 "$out" | wc -l) broken media files in $out" >&2
