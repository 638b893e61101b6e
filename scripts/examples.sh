#!/usr/bin/env bash
# Builds and runs the examples in Examples/ the way their READMEs say, against an installed copy of the C API
# (scripts/install-capi.sh into a temporary prefix):
#   c-minimal               cc main.c $(pkg-config --cflags --libs playctl), run on Media/a.mp4
#   python-ctypes           python3 playctl_minimal.py on Media/a.mp4, python3 playctl_feed.py on Media/ (a 10-item
#                           feed on the manual clock, its summary printed)
#   c-sdl2                  cc main.c $(pkg-config --cflags --libs playctl sdl2), run in a private Xvfb (and a
#                           private PulseAudio daemon with a null sink when pulseaudio is installed): driven through
#                           its --control input (seek, keys, PiP), screenshots of the X server (xwd) compared with
#                           FFmpeg's decode of the frames it says it shows, and with the next frame, which must not
#                           match. It needs Xvfb, xwd, SDL2 and ffmpeg (scripts/setup.sh): without them it fails.
#   swift-integration-test  swift test in its folder (a package of its own: it builds playctl again, in its .build)
# Any failure fails the script. Tests/EmbeddingTests runs the C, SDL and Python ones in the suite (--only c --only
# python, --only sdl; --no-build --bin-path DIR); scripts/test.sh runs the Swift one after the suite (--only swift).
#
#   scripts/examples.sh [--only c|python|sdl|swift]... [-c debug|release] [--no-build] [--bin-path DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
config=debug build="" bin=() only=()
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only+=("$2"); shift 2 ;;
    -c) config="$2"; shift 2 ;;
    --no-build) build="--no-build"; shift ;;
    --bin-path) bin=(--bin-path "$2"); shift 2 ;;
    *) echo "usage: scripts/examples.sh [--only c|python|sdl|swift]... [-c debug|release] [--no-build] [--bin-path DIR]" >&2
       exit 2 ;;
  esac
done
[ ${#only[@]} -gt 0 ] || only=(c python sdl swift)
wants() { local want; for want in "${only[@]}"; do [ "$want" = "$1" ] && return 0; done; return 1; }

work="$(mktemp -d /tmp/playctl-examples.XXXXXX)"
started=() # the processes this script started (Xvfb, PulseAudio, the SDL example): stopped on exit
cleanup() {
  local pid
  for pid in "${started[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${started[@]}"; do wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
if wants c || wants python || wants sdl; then
  scripts/install-capi.sh "$work/prefix" -c "$config" $build "${bin[@]}"
  export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
fi
if wants c; then
  echo "== c-minimal"
  (cd Examples/c-minimal && cc main.c $(pkg-config --cflags --libs playctl) -o "$work/c-minimal" \
    && "$work/c-minimal" ../../Media/a.mp4)
fi
if wants python; then
  echo "== python-ctypes"
  (cd Examples/python-ctypes && python3 playctl_minimal.py ../../Media/a.mp4)
  echo "== python-ctypes feed"
  (cd Examples/python-ctypes && python3 playctl_feed.py ../../Media)
fi
if wants sdl; then
  echo "== c-sdl2"
  missing=()
  command -v Xvfb >/dev/null || missing+=("Xvfb (xvfb)")
  command -v xwd >/dev/null || missing+=("xwd (x11-apps)")
  pkg-config --exists sdl2 || missing+=("SDL2 (libsdl2-dev)")
  command -v ffmpeg >/dev/null || missing+=("ffmpeg")
  if [ ${#missing[@]} -gt 0 ]; then
    echo "c-sdl2: FAILED: missing ${missing[*]}: install them with scripts/setup.sh" >&2
    exit 1
  fi
  # The README's build, warning-free under C99.
  (cd Examples/c-sdl2 && cc -Wall -Wextra -Werror -std=c99 main.c $(pkg-config --cflags --libs playctl sdl2) \
    -o "$work/c-sdl2")
  fail() { echo "c-sdl2: FAILED: $*" >&2; [ -f "$work/sdl.log" ] && sed 's/^/  | /' "$work/sdl.log" >&2; exit 1; }
  # A private X server on a free display (-displayfd: Xvfb picks it and writes its number).
  Xvfb -displayfd 4 -screen 0 1024x768x24 -nolisten tcp 4>"$work/display" >"$work/xvfb.log" 2>&1 &
  started+=($!)
  for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.1; done
  [ -s "$work/display" ] || { cat "$work/xvfb.log" >&2; fail "Xvfb did not start"; }
  export DISPLAY=":$(cat "$work/display")"
  # A private sound server with a null sink, when there is one to start; without it the example plays on the
  # library's null output (it says so).
  if command -v pulseaudio >/dev/null; then
    mkdir -p "$work/pulse"
    printf 'load-module module-native-protocol-unix socket=%s auth-anonymous=1\nload-module module-null-sink sink_name=examples\nset-default-sink examples\n' \
      "$work/pulse/native" >"$work/pulse/examples.pa"
    HOME="$work/pulse" XDG_RUNTIME_DIR="$work/pulse" PULSE_RUNTIME_PATH="$work/pulse" pulseaudio -n \
      -F "$work/pulse/examples.pa" --daemonize=no --exit-idle-time=-1 --use-pid-file=no >"$work/pulse.log" 2>&1 &
    started+=($!)
    for _ in $(seq 100); do [ -S "$work/pulse/native" ] && break; sleep 0.1; done
    export PULSE_SERVER="unix:$work/pulse/native"
    echo "c-sdl2: PulseAudio on $PULSE_SERVER (null sink)"
  else
    echo "c-sdl2: no pulseaudio to start: the example plays on the null output"
  fi
  echo "c-sdl2: Xvfb on $DISPLAY"
  mkfifo "$work/control"
  (cd Examples/c-sdl2 && exec "$work/c-sdl2" --control --size 480x270 \
    ../../Media/a.mp4 <"$work/control" >"$work/sdl.log" 2>&1) &
  sdl=$!
  started+=($sdl)
  exec 3>"$work/control"
  # await PATTERN: sets got to the first line of the example's output matching PATTERN after the last one awaited
  # (at most 30 s).
  seen=0 got=""
  await() {
    local line
    for _ in $(seq 300); do
      line="$(tail -n +"$((seen + 1))" "$work/sdl.log" | grep -n -m1 -E "$1" || true)"
      if [ -n "$line" ]; then seen=$((seen + ${line%%:*})); got="${line#*:}"; return 0; fi
      kill -0 "$sdl" 2>/dev/null || fail "the example exited while waiting for \"$1\""
      sleep 0.1
    done
    fail "no \"$1\" within 30 s"
  }
  ask() { echo "$1" >&3; await "$2"; } # ask COMMAND PATTERN: sends a command, awaits its answer
  # compare WHAT CLIP TIME "shown T window X Y W H": T must be TIME (the exact seek's frame), and the screen's
  # rectangle is compared with FFmpeg's frame at T scaled to W x H (a match: at least 25 dB) and with the frame after
  # it (must not match).
  compare() {
    local what="$1" clip="$2" time x y w h right next
    read -r _ time _ x y w h <<<"$4"
    [ "$time" = "$3" ] || fail "$what: the frame shown is at $time, not at $3"
    xwd -root -silent >"$work/screen.xwd" || fail "xwd could not grab $DISPLAY"
    ffmpeg -v error -y -i "$work/screen.xwd" -vf "crop=$w:$h:$x:$y,format=rgb24" -f rawvideo "$work/shot.rgb"
    ffmpeg -v error -y -i "Media/$clip" -vf "select='between(t,$time-0.0005,$time+0.0005)',scale=$w:$h,format=rgb24" \
      -frames:v 1 -f rawvideo "$work/right.rgb"
    ffmpeg -v error -y -i "Media/$clip" -vf "select='gt(t,$time+0.0005)',scale=$w:$h,format=rgb24" \
      -frames:v 1 -f rawvideo "$work/next.rgb"
    right="$(scripts/compare-frames.py "$work/shot.rgb" "$work/right.rgb")" || fail "$what: $right"
    next="$(scripts/compare-frames.py "$work/shot.rgb" "$work/next.rgb")" || fail "$what: $next"
    right="${right#psnr }" next="${next#psnr }"
    echo "c-sdl2: $what: $clip at $time in ${w}x$h at $x,$y: the frame ${right%% *} dB (mean abs ${right##* })," \
      "the next frame ${next%% *} dB (mean abs ${next##* })"
    awk -v r="${right%% *}" -v n="${next%% *}" 'BEGIN { exit !(r >= 25 && n < 25 && r - n >= 5) }' \
      || fail "$what: the screenshot does not show the frame at $time (at least 25 dB, the next frame below)"
  }
  await '^c-sdl2: .* window'
  echo "$got"
  ask "seek 1.0" '^shown '
  compare "window" a.mp4 1.000 "$got"
  ask "key space" '^key: play'
  ask "state" '^state '
  [[ "$got" == *" rate 1 "* ]] || fail "space did not play: $got"
  if [ -n "${PULSE_SERVER:-}" ] && command -v pactl >/dev/null; then
    echo "c-sdl2: PulseAudio streams while playing: $(pactl list short sink-inputs 2>/dev/null | grep -c . || true)"
  fi
  ask "key space" '^key: pause'
  ask "key right" 'seek-completed .* finished 1' # from 1 s: 6 s, the end of the 6 s clip
  [[ "$got" == *"landed 6.000" ]] || fail "right did not seek 5 s forward: $got"
  ask "key left" 'seek-completed .* finished 1'
  [[ "$got" == *"landed 1.000" ]] || fail "left did not seek 5 s back: $got"
  ask "key p" '^pip +pip-did-start'
  ask "pip-seek 2.0" '^pip-shown '
  compare "PiP window" a.mp4 2.000 "$got"
  ask "key p" '^pip +pip-did-stop'
  ask "state" '^state '
  [[ "$got" == *" pip 0 "* ]] || fail "p did not close the PiP window: $got"
  echo "quit" >&3
  exec 3>&-
  wait "$sdl" || fail "the example exited with $?"
  sed -n 's/^audio: /c-sdl2: audio: /p' "$work/sdl.log"
  echo "c-sdl2: $(grep -c . "$work/sdl.log") lines of output, keys, PiP and screenshots: ok"
fi
if wants swift; then
  echo "== swift-integration-test"
  (cd Examples/swift-integration-test && swift test)
fi
echo "examples: ${only[*]}: ok"
