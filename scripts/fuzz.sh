#!/usr/bin/env bash
# Fuzzes playctl with libFuzzer and AddressSanitizer.
#
#   scripts/fuzz.sh [media|args] [SECONDS]      fuzz for SECONDS (default 60), starting from Fuzz/corpus/<target>
#   scripts/fuzz.sh [media|args] FILE...        run the target once on each FILE (reproduce a crash)
#
# Targets (entry points in Fuzz/<Target>/):
#   media  writes each input to a temporary file and opens it with MediaIO's Demuxer, decodes a few video frames
#          (VideoFrameReader), seeks exactly and by keyframe, and does the same for audio (AudioSampleReader)
#          (Sources/PlaybackTesting/Fuzzing/MediaFuzzCase.swift).
#   args   splits each input on NUL bytes into a command line and parses it with playctl's PlayctlCommands.tool and
#          playctl-bench's PlayctlBenchCommands.tool, checking the parser's promises and reading the parsed command
#          through its type
#          (Sources/CommandLineKit/Fuzzing/ArgumentsFuzzCase.swift).
#
# SwiftPM cannot build a fuzzer next to the package's executables (-sanitize=fuzzer brings its own main), so this
# compiles the target's sources directly with swiftc: for media, Sources/MediaCore + Sources/MediaIO + the media fuzz
# case + the entry point in one module; for args, Sources/CommandLineKit as a module of its own, then playctl's and
# playctl-bench's declarations (Sources/PlayctlCLI/Arguments, Sources/PlayctlBench/Arguments) + the entry point on top
# of it. Everything goes to
# .build/fuzz/<target>/: the binary, the working corpus (seeded from the committed one, which this never changes),
# and crash-*/timeout-*/leak-* artifacts. A crash exits non-zero;
# keep its input as a regression by copying it into Fuzz/corpus/<target>/ (FuzzCorpusTests and
# ArgumentsFuzzCorpusTests replay every file there in 'swift test') before fixing it.
#
# CI runs a short pass of each:  scripts/fuzz.sh args 60 && scripts/fuzz.sh media 120
#
# Environment: FUZZ_JOBS=N runs N fuzzing processes in parallel (default 1); FUZZ_FLAGS adds libFuzzer flags.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:-media}
shift || true
out=.build/fuzz/$target
mkdir -p "$out/corpus" "$out/artifacts" "$out/tmp"

case "$target" in
  media)
    # MediaCore and MediaIO in one module (MediaIO's re-export of MediaCore left out), with the fuzz case the tests
    # replay the corpus through (PlaybackTesting's MediaFuzzCase).
    sources="$(find Sources/MediaCore Sources/MediaIO -name '*.swift' ! -name Exports.swift | sort)
      Sources/PlaybackTesting/Fuzzing/MediaFuzzCase.swift"
    module=MediaFuzz
    # Small inputs run fast; the committed seeds are all below this. A 7 KB raw MPEG-4 stream of 3373x4912 frames
    # takes 3.5 s under ASan alone, and several times that on a loaded machine: hence the 30 s timeout.
    flags=(-max_len=12288 -timeout=30 -rss_limit_mb=4096 -dict=Fuzz/media.dict)
    ;;
  args)
    # The parser is built first as the module SwiftPM builds (CommandLineKit); playctl's declarations and the entry
    # point go on top of it, reaching only its public API, as PlayctlCLI does.
    library=CommandLineKit
    library_sources=$(find Sources/CommandLineKit -name '*.swift' | sort)
    sources="Sources/PlayctlCLI/Arguments/*.swift Sources/PlayctlBench/Arguments/*.swift"
    module=ArgumentsFuzz
    flags=(-max_len=512 -timeout=5 -dict=Fuzz/args.dict)
    ;;
  *)
    echo "usage: scripts/fuzz.sh [media|args] [SECONDS | FILE...]" >&2
    exit 2
    ;;
esac

binary=$out/fuzz-$target
entry=$(find "Fuzz/${module%Fuzz}" -name '*.swift' | sort)
linked=()
if [ -n "${library:-}" ]; then
  echo "building $out/lib$library.a" >&2
  mkdir -p "$out/modules"
  # shellcheck disable=SC2086
  swiftc -sanitize=fuzzer,address -parse-as-library -swift-version 6 -module-name "$library" -O -g \
    -emit-module -emit-module-path "$out/modules/$library.swiftmodule" -emit-library -static \
    -o "$out/lib$library.a" $library_sources
  linked=(-I "$out/modules" -L "$out" -l"$library")
fi
echo "building $binary" >&2
# shellcheck disable=SC2086  # the source lists are word-split on purpose
swiftc -sanitize=fuzzer,address -parse-as-library -swift-version 6 -module-name "$module" -package-name playctl \
  -O -g -I Sources/CFFmpeg $(pkg-config --cflags-only-I libavformat | sed 's/-I/-Xcc -I/g') "${linked[@]}" \
  $sources $entry -o "$binary" 2> >(grep -v "ld.gold: warning: Cannot export local symbol" >&2)

# Reproduce: run once on the given files.
if [ $# -gt 0 ] && [ -e "$1" ]; then
  TMPDIR=$out/tmp exec "$binary" "${flags[@]}" "$@"
fi

seconds=${1:-60}
jobs=${FUZZ_JOBS:-1}
extra=()
if [ "$jobs" -gt 1 ]; then extra=(-jobs="$jobs" -workers="$jobs"); fi
# shellcheck disable=SC2206
extra+=(${FUZZ_FLAGS:-})
echo "fuzzing $target for $seconds s (corpus $out/corpus, seeds Fuzz/corpus/$target)" >&2
TMPDIR=$out/tmp "$binary" "${flags[@]}" "${extra[@]}" -max_total_time="$seconds" -print_final_stats=1 \
  -artifact_prefix="$out/artifacts/" "$out/corpus" "Fuzz/corpus/$target"
