#!/usr/bin/env bash
# The C API's tests, against an installed copy: installs libplayctl.so, playctl.h and playctl.pc into a temporary
# prefix (scripts/install-capi.sh), checks what the library exports and needs, compiles the header alone and the C
# tests in Tests/CAPI/ with `cc -Wall -Wextra -Werror -std=c99` through `pkg-config --cflags --libs playctl` (never
# against Swift), and runs them on Media/; then builds them against the previous header (Tests/CAPI/abi/) and runs
# them again against the same library (old programs keep working). Tests/EmbeddingTests runs it inside `swift test`,
# with --no-build --bin-path.
#
#   scripts/test-capi.sh [-c release|debug] [--no-build] [--bin-path DIR] [-v]
set -euo pipefail
cd "$(dirname "$0")/.."
config=debug build="" verbose="" bin=()
while [ $# -gt 0 ]; do
  case "$1" in
    -c) config="$2"; shift 2 ;;
    --no-build) build="--no-build"; shift ;;
    --bin-path) bin=(--bin-path "$2"); shift 2 ;;
    -v) verbose="-v"; shift ;;
    *) echo "usage: scripts/test-capi.sh [-c release|debug] [--no-build] [--bin-path DIR] [-v]" >&2; exit 2 ;;
  esac
done
work="$(mktemp -d /tmp/playctl-capi.XXXXXX)"
trap 'rm -rf "$work"' EXIT
scripts/install-capi.sh "$work/prefix" -c "$config" $build "${bin[@]}"
export PKG_CONFIG_PATH="$work/prefix/lib/pkgconfig"
lib="$work/prefix/lib/libplayctl.so.0"

# Only playctl_* is exported; the soname; no Swift runtime needed.
exported="$(nm -D --defined-only --extern-only "$lib" | awk '{print $3}')"
if echo "$exported" | grep -v '^playctl_'; then echo "test-capi: exports other than playctl_* (above)" >&2; exit 1; fi
echo "exports: $(echo "$exported" | wc -l) symbols, all playctl_*"
readelf -d "$lib" | grep -q 'SONAME.*\[libplayctl.so.0\]' || { echo "test-capi: soname is not libplayctl.so.0" >&2; exit 1; }
needed="$(readelf -d "$lib" | sed -n 's/.*NEEDED.*\[\(.*\)\]/\1/p' | tr '\n' ' ')"
echo "needs: $needed"
if echo "$needed" | grep -qi swift; then echo "test-capi: the library needs a Swift runtime library" >&2; exit 1; fi

# The header alone: C99 and C11, pedantic, warning-free.
for std in c99 c11; do
  echo '#include <playctl.h>' | cc -x c -std=$std -Wall -Wextra -Wpedantic -Werror -fsyntax-only \
    $(pkg-config --cflags playctl) -
done
echo "header: warning-free under -std=c99 and -std=c11 -Wall -Wextra -Wpedantic"

cc -std=c99 -Wall -Wextra -Werror -pthread Tests/CAPI/*.c $(pkg-config --cflags --libs playctl) -lm -o "$work/capi-tests"
"$work/capi-tests" "$PWD/Media" $verbose

# The hidden ABI: the same tests built against each previous header (Tests/CAPI/abi/playctl-0.N.h: the tests of
# later additions drop out) run against this library, as a program built then would.
for version in 0.1 0.2; do
  mkdir -p "$work/abi-$version"
  cp "Tests/CAPI/abi/playctl-$version.h" "$work/abi-$version/playctl.h"
  cc -std=c99 -Wall -Wextra -Werror -pthread -I"$work/abi-$version" Tests/CAPI/*.c $(pkg-config --libs playctl) -lm \
    -o "$work/capi-tests-$version"
  echo "abi: the tests built against the $version header, run against this library:"
  "$work/capi-tests-$version" "$PWD/Media" $verbose
done

# Every C example of docs/c-api.md, compiled against the installed header as the tests are and run from the
# repository's root: a whole program as it is, a part of one inside Tests/CAPI/docs/fragment-main.c (a player that
# has shown Media/a.mp4 up to 1 s, and the app's functions the examples call). Each must exit 0 within a minute.
mkdir -p "$work/docs"
awk -v dir="$work/docs" '/^```c$/ { n++; file = sprintf("%s/example%d.c", dir, n); line[n] = NR + 1; next }
  /^```/ { file = ""; next } file != "" { print > file } END { for (i = 1; i <= n; i++) print line[i] > (dir "/lines") }' \
  docs/c-api.md
examples=0
while read -r line; do
  examples=$((examples + 1))
  source="$work/docs/example$examples.c"
  if grep -q 'int main(' "$source"; then main="$source" include=(); else
    main=Tests/CAPI/docs/fragment-main.c include=(-DEXAMPLE="\"$source\"")
  fi
  if ! cc -std=c99 -Wall -Wextra -Werror -pthread "${include[@]}" "$main" $(pkg-config --cflags --libs playctl) -lm \
    -o "$work/docs/example$examples"; then
    echo "docs: FAILED to build the example at docs/c-api.md:$line" >&2; exit 1
  fi
  if ! timeout 60 "$work/docs/example$examples" > "$work/docs/example$examples.out" 2>&1; then
    cat "$work/docs/example$examples.out" >&2
    echo "docs: FAILED: the example at docs/c-api.md:$line exited with an error" >&2; exit 1
  fi
  echo "docs: the example at docs/c-api.md:$line ran: $(head -n 1 "$work/docs/example$examples.out")"
done < "$work/docs/lines"
echo "docs: $examples C examples of docs/c-api.md built and ran"
