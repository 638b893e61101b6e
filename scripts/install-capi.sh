#!/usr/bin/env bash
# Installs playctl's C API into a prefix: PREFIX/lib/libplayctl.so.0 (+ the libplayctl.so link),
# PREFIX/include/playctl.h and PREFIX/lib/pkgconfig/playctl.pc (docs/c-api.md).
#
#   scripts/install-capi.sh PREFIX [-c release|debug] [--no-build] [--bin-path DIR]
#
# The library carries its own Swift runtime and Foundation (linked statically: -static-stdlib), so PREFIX needs
# nothing from the Swift toolchain; it needs FFmpeg's and libcurl's shared libraries (Debian's packages).
# --no-build installs what .build/<configuration> already holds (the tests do: they run inside `swift test`, which
# holds the build directory's lock); --bin-path names the build's folder (.build/<triple>/<configuration>) instead
# of asking SwiftPM for it.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix="" config=release build=1 bin=""
while [ $# -gt 0 ]; do
  case "$1" in
    -c) config="$2"; shift 2 ;;
    --no-build) build=0; shift ;;
    --bin-path) bin="$2"; shift 2 ;;
    -*) echo "usage: scripts/install-capi.sh PREFIX [-c release|debug] [--no-build] [--bin-path DIR]" >&2; exit 2 ;;
    *) prefix="$1"; shift ;;
  esac
done
[ -n "$prefix" ] || { echo "usage: scripts/install-capi.sh PREFIX [-c release|debug] [--no-build] [--bin-path DIR]" >&2; exit 2; }
if [ "$build" = 1 ]; then swift build -c "$config" --product PlayctlC >&2; fi
[ -n "$bin" ] || bin="$(swift build -c "$config" --show-bin-path)"
built="$bin/libPlayctlC.so"
[ -f "$built" ] || { echo "install-capi: $built is not built (run: swift build -c $config)" >&2; exit 1; }
mkdir -p "$prefix/lib/pkgconfig" "$prefix/include"
prefix="$(cd "$prefix" && pwd)"
install -m 0755 "$built" "$prefix/lib/libplayctl.so.0"
ln -sf libplayctl.so.0 "$prefix/lib/libplayctl.so"
install -m 0644 include/playctl.h "$prefix/include/playctl.h"
version="$(sed -n 's/^#define PLAYCTL_API_VERSION_MAJOR \([0-9]*\)$/\1/p' include/playctl.h)"
version="$version.$(sed -n 's/^#define PLAYCTL_API_VERSION_MINOR \([0-9]*\)$/\1/p' include/playctl.h).0"
sed -e "s|@PREFIX@|$prefix|" -e "s|@VERSION@|$version|" scripts/playctl.pc.in > "$prefix/lib/pkgconfig/playctl.pc"
echo "installed playctl $version in $prefix (lib/libplayctl.so.0, include/playctl.h, lib/pkgconfig/playctl.pc)" >&2
