#!/usr/bin/env bash
# Installs what playctl needs to build and test on Debian 12: FFmpeg 5.1's, libcurl's and libpulse's -dev packages
# (libpulse's headers only: the library is opened at run time), pkg-config, and the PulseAudio daemon and its
# clients the audio tests start and record from (scripts/pulse.sh), and mpv (the suite runs `bench --feed`'s help
# example, which compares the feed against mpv; with --tools, also what the other benchmarks compare against).
# Skips what is installed. (scripts/netns.sh installs what the network tests need:
# nginx-light, iproute2, ffmpeg.)
set -euo pipefail
packages=(libavformat-dev libavcodec-dev libavutil-dev libswscale-dev libswresample-dev libavfilter-dev
  libcurl4-openssl-dev libpulse-dev libxml2-dev pulseaudio pulseaudio-utils pkg-config python3)
# The c-sdl2 example's test (scripts/examples.sh --only sdl) needs SDL2, a virtual X server, xwd for screenshots,
# and the ffmpeg CLI to decode the frames they are compared with.
packages+=(libsdl2-dev xvfb x11-apps ffmpeg)
# bench --feed's help example (Tests/PlayctlCLITests/Bench) plays the same feed through mpv.
packages+=(mpv)
# playctl report's tests render its SVG with a real renderer (rsvg-convert).
packages+=(librsvg2-bin)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "Installing: ${missing[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
command -v swift >/dev/null || { echo "swift is not on PATH: install the Swift 6 toolchain first" >&2; exit 1; }
