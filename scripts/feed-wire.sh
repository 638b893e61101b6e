#!/usr/bin/env bash
# Bytes on the wire against bytes kept for a feed over the 8 Mbit/s shaped loopback: 36 entries of the benchmark's
# feed (scripts/make-feed-media.sh), a swipe every 2 s (a scripted scroll), no audio. Prints what the shaper (tc's
# class for port 18008) passed, what nginx wrote to its sockets, and the feed summary's bytesFetched (kept) and
# bytesReceived (delivered by the transport), and the ratio the issue judges: shaper / fetched (target <= 1.10).
#
#   scripts/feed-wire.sh [PLAYCTL]     (default .build/release/playctl, built when missing; about 80 s)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" != "--inside" ]; then
  playctl=${1:-.build/release/playctl}
  [ -x "$playctl" ] || swift build -c release --product playctl
  bash scripts/make-feed-media.sh
  exec bash scripts/netns.sh bash "$0" --inside "$playctl"
fi
playctl=$2
work=$(mktemp -d /tmp/playctl-feed-wire.XXXXXX)
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
entries = []
for i in range(36):
    image = i % 9 == 4
    entries.append({"url": "http://127.0.0.1:18008/feed/%03d.%s" % (i, "jpg" if image else "mp4"),
                    "kind": "image" if image else "video"})
json.dump({"entries": entries}, open(work + "/feed.json", "w"))
steps = [{"at": 0, "index": 0}] + [{"at": 2.0 * i, "index": i, "speed": 2} for i in range(1, 36)] + [{"at": 72.0}]
json.dump(steps, open(work + "/script.json", "w"))
PY
sent() { tc -s class show dev lo classid 1:08 | awk '/Sent/ {print $2}'; }
before=$(sent)
: > "$PLAYCTL_HTTP_LOG"
"$playctl" feed "$work/feed.json" --script "$work/script.json" --no-audio --json > "$work/out.jsonl"
sleep 1
shaper=$(($(sent) - before))
nginx=$(awk '{s += $3} END {print s}' "$PLAYCTL_HTTP_LOG")
tail -1 "$work/out.jsonl" | python3 -c '
import json, sys
shaper, nginx = int(sys.argv[1]), int(sys.argv[2])
s = json.loads(sys.stdin.read())
fetched, received = s["bytesFetched"], s["bytesReceived"]
print("feed-wire: 36 entries, a swipe every 2 s over 8 Mbit/s")
print("  shaper passed %d bytes (headers and TCP/IP included); nginx wrote %d" % (shaper, nginx))
print("  the feed kept %d bytes (bytesFetched), the transport delivered %d (bytesReceived), played %d"
      % (fetched, received, s["bytesPlayed"]))
print("  shaper / fetched: %.3fx (target <= 1.10x: %s)" % (shaper / fetched, "met" if shaper <= 1.10 * fetched else "NOT met"))
' "$shaper" "$nginx"
