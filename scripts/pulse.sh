#!/usr/bin/env bash
# A private PulseAudio daemon with a null sink, for the audio tests and CI (as root, without D-Bus):
#   scripts/pulse.sh start DIR   starts one whose socket is DIR/native; prints PULSE_SERVER=unix:DIR/native
#   scripts/pulse.sh stop DIR    stops it (its pid is in DIR/xdg/pulse/pid)
#   scripts/pulse.sh run CMD...  starts one in a fresh temporary folder, runs CMD with PULSE_SERVER set, stops it
#                                and removes the folder; exits with CMD's status (scripts/test.sh and .ci/run). If
#                                the daemon cannot start, says so and runs CMD without it: the audio tests then
#                                fail, saying PULSE_SERVER is not set, and the rest still runs.
# Its sink is "playctl_sink" (48 kHz stereo float), the default; record what reaches it from its monitor:
#   PULSE_SERVER=unix:DIR/native parec -d playctl_sink.monitor --raw --format=float32le --rate=48000 --channels=2
# A second one, "playctl_exact", is played to only by the test that compares what it records sample for sample (the
# suites run in parallel, and others play to the default sink meanwhile).
# Needs pulseaudio and pulseaudio-utils (scripts/setup.sh installs them).
set -euo pipefail
if [ "${1:-}" = run ]; then
  shift
  [ $# -gt 0 ] || { echo "usage: scripts/pulse.sh run COMMAND [ARGS...]" >&2; exit 2; }
  run="$(mktemp -d /tmp/playctl-pulse.XXXXXX)"
  stop() { "$0" stop "$run" || true; rm -rf "$run"; }
  trap stop EXIT
  if server="$("$0" start "$run")"; then
    export "${server?}"
  else
    echo "ERROR: scripts/pulse.sh: no PulseAudio daemon could be started (see above): the audio tests will fail" >&2
  fi
  status=0
  "$@" || status=$?
  exit "$status"
fi
action="${1:-}" dir="${2:-}"
[ -n "$dir" ] && { [ "$action" = start ] || [ "$action" = stop ]; } || {
  echo "usage: scripts/pulse.sh start|stop DIR" >&2; exit 2; }
mkdir -p "$dir/xdg"
dir="$(cd "$dir" && pwd)"
chmod 700 "$dir/xdg"
export XDG_RUNTIME_DIR="$dir/xdg" HOME="$dir"
if [ "$action" = stop ]; then
  pid="$(cat "$dir/xdg/pulse/pid" 2>/dev/null || true)"
  if [ -n "$pid" ] && kill "$pid" 2>/dev/null; then
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  fi
  exit 0
fi
cat > "$dir/playctl.pa" <<PA
load-module module-native-protocol-unix auth-anonymous=1 socket=$dir/native
load-module module-null-sink sink_name=playctl_sink rate=48000 channels=2 format=float32le
load-module module-null-sink sink_name=playctl_exact rate=48000 channels=2 format=float32le
set-default-sink playctl_sink
set-default-source playctl_sink.monitor
PA
# -n: no default configuration; --exit-idle-time=-1 and --disallow-exit: it stays until stopped.
pulseaudio -n -F "$dir/playctl.pa" --daemonize=yes --exit-idle-time=-1 --disallow-exit --use-pid-file=yes \
  --disable-shm=yes --log-target=file:"$dir/pulse.log" 2>>"$dir/pulse.log" || {
  echo "pulse.sh: pulseaudio did not start:" >&2; tail -n 20 "$dir/pulse.log" >&2; exit 1; }
for _ in $(seq 100); do
  PULSE_SERVER="unix:$dir/native" pactl info >/dev/null 2>&1 && { echo "PULSE_SERVER=unix:$dir/native"; exit 0; }
  sleep 0.05
done
echo "pulse.sh: the daemon did not answer:" >&2
tail -n 20 "$dir/pulse.log" >&2
exit 1
