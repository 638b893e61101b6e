#!/usr/bin/env bash
# Runs a command on a real HTTP server over a shaped link: a private network namespace (unshare -n, as root)
# whose loopback is shaped with tc (HTB: one class per server port, every connection to a port sharing its rate),
# and Debian's nginx-light serving the test media on those ports. Traffic never leaves the namespace's loopback.
#
#   scripts/netns.sh COMMAND [ARGS...]
#
# Ports (all on 127.0.0.1):     18000 unshaped    18016 1.6 Mbit/s (3G-like)    18002 2 Mbit/s
#                               18008 8 Mbit/s    18020 20 Mbit/s
#                               18017 1.6 Mbit/s, 18003 2 Mbit/s and 18009 8 Mbit/s, each one suite's alone
#                               18030 8 Mbit/s for playctl-bench run --abr alone, which changes its rate
#                               (tc class change dev lo parent 1: classid 1:30 ...) while it plays
# Paths: /<file> every file of the media folder (byte ranges, keep-alive, ETag and Last-Modified as nginx sends them),
#        /noranges/<file> the same without byte ranges, /stall/<file> one byte a second (a stalled connection),
#        /status/500 an internal server error; a missing file is a 404; /auth/<file> 401 unless the request has
#        "Authorization: Bearer playctl-test-token"; /cache/no-cache/<file>, /cache/max-age/<file> (60 s) and
#        /cache/no-store/<file> with those Cache-Control fields; /vary/clip.mp4 b.mp4 for "X-Variant: b", a.mp4
#        otherwise, with "Vary: X-Variant".
# The media folder is .build/http-media: Media/*, plus clips made with ffmpeg (scripts/make-http-media.sh), and the
# HLS/DASH ladders under /ladder/ (scripts/make-ladder-media.sh; playlists, manifests and segments get MIME types).
#
# The command sees PLAYCTL_HTTP=http://127.0.0.1, PLAYCTL_HTTP_ROOT (the media folder), PLAYCTL_HTTP_LOG (nginx's
# access log: port, status, bytes sent, request and Range header, a line per response), and
# PLAYCTL_HTTP_SHAPED=1 when the ports are shaped. Where a namespace cannot be made (not root, no user
# namespaces), nginx runs on the host's loopback unshaped, PLAYCTL_HTTP_SHAPED=0, and a warning says so: tests
# that need the shaping then skip, loudly. MTU: tbf/htb drop packets above their burst and loopback's MTU is
# 65536, so the namespace's lo is set to 1500 first.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${1:-}" = "--inside" ]; then
  shift
  shaped=$1
  shift
  if [ "$shaped" = 1 ]; then
    ip link set lo mtu 1500
    ip link set lo up
    tc qdisc add dev lo root handle 1: htb default 99
    tc class add dev lo parent 1: classid 1:99 htb rate 10gbit quantum 60000
    for spec in 18016:1600kbit 18017:1600kbit 18002:2mbit 18003:2mbit 18008:8mbit 18009:8mbit 18020:20mbit 18030:8mbit; do
      port=${spec%%:*}
      rate=${spec#*:}
      tc class add dev lo parent 1: classid "1:${port: -2}" htb rate "$rate" ceil "$rate" burst 32kb quantum 1514
      tc filter add dev lo parent 1: protocol ip prio 1 u32 match ip sport "$port" 0xffff flowid "1:${port: -2}"
    done
  fi
  root=$(pwd)/.build/http-media
  run=$(mktemp -d /tmp/playctl-nginx.XXXXXX)
  cat > "$run/nginx.conf" <<CONF
user root;
worker_processes 1;
pid $run/nginx.pid;
error_log $run/error.log warn;
# Clients now keep idle connections up to a minute (the loader's idleLifetime) and nginx keeps them 75 s: room for
# the whole suite's at once (with too few, nginx closes idle ones to make room, and a test counting connections
# sees a reconnect).
worker_rlimit_nofile 8192;
events { worker_connections 4096; }
http {
  # Bytes on the wire per response (\$bytes_sent: what nginx wrote to the socket, headers included, a transfer the
  # client dropped mid-way counted as far as it went), for the tests and benchmarks that compare them with what the
  # client kept: PLAYCTL_HTTP_LOG names the file.
  # After them, the connection's number and how many requests it has served (ConnectionReuseTests count the
  # connections a client opened).
  log_format sent '\$server_port \$status \$bytes_sent "\$request" "\$http_range" \$connection \$connection_requests';
  access_log $run/access.log sent;
  sendfile on;
  # nginx's default, said to clients in a Keep-Alive: timeout=75 field (HTTPLoader keeps a connection that long).
  keepalive_timeout 75s 75s;
  types {
    video/mp4 mp4 m4a; video/webm webm; video/mp2t ts; image/jpeg jpg; image/png png;
    application/vnd.apple.mpegurl m3u8; application/dash+xml mpd; video/iso.segment m4s;
  }
  default_type application/octet-stream;
  client_body_temp_path $run/body;
  proxy_temp_path $run/proxy;
  server {
    listen 127.0.0.1:18000; listen 127.0.0.1:18016; listen 127.0.0.1:18017; listen 127.0.0.1:18002; listen 127.0.0.1:18003;
    listen 127.0.0.1:18008; listen 127.0.0.1:18009; listen 127.0.0.1:18020;
    listen 127.0.0.1:18030;
    root $root;
    location = /status/500 { return 500; }
    location /noranges/ { alias $root/; max_ranges 0; }
    location /stall/ { alias $root/; limit_rate 1; }
    # Request headers: 401 unless the request carries this Authorization (RequestHeaderTests).
    location /auth/ { alias $root/; if (\$http_authorization != "Bearer playctl-test-token") { return 401; } }
    # HTTP caching (HTTPCachingTests): the same files with these Cache-Control fields; nginx answers If-None-Match
    # and If-Modified-Since with 304 by itself.
    location /cache/no-cache/ { alias $root/; add_header Cache-Control "no-cache"; }
    location /cache/max-age/ { alias $root/; add_header Cache-Control "max-age=60"; }
    location /cache/no-store/ { alias $root/; add_header Cache-Control "no-store"; }
    # Vary (HTTPCachingTests): /vary/clip.mp4 is b.mp4 for "X-Variant: b", a.mp4 otherwise, with Vary: X-Variant.
    location = /vary/clip.mp4 { if (\$http_x_variant = "b") { rewrite ^ /vary-b/b.mp4 last; } rewrite ^ /vary-a/a.mp4 last; }
    location /vary-a/ { internal; alias $root/; add_header Vary X-Variant; }
    location /vary-b/ { internal; alias $root/; add_header Vary X-Variant; }
  }
}
CONF
  nginx -c "$run/nginx.conf" -p "$run"
  stop() { kill "$(cat "$run/nginx.pid" 2>/dev/null)" 2>/dev/null || true; sleep 0.2; rm -rf "$run"; }
  trap stop EXIT
  for _ in $(seq 50); do [ -s "$run/nginx.pid" ] && break; sleep 0.05; done
  export PLAYCTL_HTTP=http://127.0.0.1 PLAYCTL_HTTP_ROOT=$root PLAYCTL_HTTP_SHAPED=$shaped PLAYCTL_HTTP_LOG=$run/access.log
  "$@"
  exit $?
fi

# Outside: install what is missing, make the media, then enter a namespace (or not) and come back in.
need=()
command -v nginx >/dev/null || need+=(nginx-light)
command -v tc >/dev/null || need+=(iproute2)
command -v ffmpeg >/dev/null || need+=(ffmpeg)
command -v openssl >/dev/null || need+=(openssl)
if [ ${#need[@]} -gt 0 ]; then
  sudo=""
  [ "$(id -u)" -ne 0 ] && sudo="sudo"
  echo "Installing: ${need[*]}" >&2
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi
bash scripts/make-http-media.sh
bash scripts/make-ladder-media.sh
if unshare -n true 2>/dev/null; then
  exec unshare -n -- "$0" --inside 1 "$@"
fi
echo "WARNING: scripts/netns.sh: cannot make a network namespace here (needs root); nginx runs on the host's" \
     "loopback, unshaped, and the tests that need a shaped link skip." >&2
exec "$0" --inside 0 "$@"
