#!/usr/bin/env bash
# Builds and runs the examples in Examples/ the way their READMEs say, against an installed copy of the C API
# (scripts/install-capi.sh into a temporary prefix):
#   c-minimal               cc main.c $(pkg-config --cflags --libs playctl), run on Media/a.mp4
#   python-ctypes           python3 playctl_minimal.py on Media/a.mp4
#   swift-integration-test  swift test in its folder (a package of its own: it builds playctl again, in its .build)
# Any failure fails the script. Tests/EmbeddingTests runs the C and Python ones in the suite (--only c --only
# python --no-build --bin-path DIR); scripts/test.sh runs the Swift one after the suite (--only swift).
#
#   scripts/examples.sh [--only c|python|swift]... [-c debug|release] [--no-build] [--bin-path DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
config=debug build="" bin=() only=()
while [ $# -gt 0 ]; do
  case "$1" in
    --only) only+=("$2"); shift 2 ;;
    -c) config="$2"; shift 2 ;;
    --no-build) build="--no-build"; shift ;;
    --bin-path) bin=(--bin-path "$2"); shift 2 ;;
    *) echo "usage: scripts/examples.sh [--only c|python|swift]... [-c debug|release] [--no-build] [--bin-path DIR]" >&2
       exit 2 ;;
  esac
done
[ ${#only[@]} -gt 0 ] || only=(c python swift)
wants() { local want; for want in "${only[@]}"; do [ "$want" = "$1" ] && return 0; done; return 1; }

work="$(mktemp -d /tmp/playctl-examples.XXXXXX)"
trap 'rm -rf "$work"' EXIT
if wants c || wants python; then
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
fi
if wants swift; then
  echo "== swift-integration-test"
  (cd Examples/swift-integration-test && swift test)
fi
echo "examples: ${only[*]}: ok"
