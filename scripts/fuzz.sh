#!/usr/bin/env bash
# Fuzzes playctl with libFuzzer and AddressSanitizer.
#
#   scripts/fuzz.sh [media|args|manifest] [SECONDS]   fuzz for SECONDS (default 60), from Fuzz/corpus/<target>
#   scripts/fuzz.sh [media|args|manifest] FILE...     run the target once on each FILE (reproduce a crash)
#
# Targets (entry points in Fuzz/<Target>/):
#   media  writes each input to a temporary file and opens it with MediaIO's Demuxer, decodes a few video frames
#          (VideoFrameReader), seeks exactly and by keyframe, does the same for audio (AudioSampleReader), reads a
#          timed metadata track (TimedMetadataReader: ID3, mebx with its MetadataKeyTable) and an MP4's emsg boxes
#          (EventMessageReader) (Sources/PlaybackTesting/Fuzzing/MediaFuzzCase.swift), and parses the
#          input itself as an ID3 tag (ID3Tag).
#   args   splits each input on NUL bytes into a command line and parses it with playctl's PlayctlCommands.tool and
#          playctl-bench's PlayctlBenchCommands.tool, checking the parser's promises and reading the parsed command
#          through its type
#          (Sources/CommandLineKit/Fuzzing/ArgumentsFuzzCase.swift).
#   manifest  the first byte of each input picks a parser (HLS as a presentation, HLS as a playlist, DASH MPD, sidx
#          box), which reads the rest as found at a remote URL: it throws a typed MediaError naming that URL or
#          returns a model whose invariants hold (finite durations, valid ranges, http(s) URIs only, bounded counts)
#          (Sources/PlaybackTesting/Fuzzing/ManifestFuzzCase.swift).
#
# SwiftPM cannot build a fuzzer next to the package's executables (-sanitize=fuzzer brings its own main), so this
# compiles the target's sources directly with swiftc: for media, Sources/MediaCore + Sources/MediaIO + the media fuzz
# case + the entry point in one module; for args, Sources/CommandLineKit as a module of its own, then playctl's and
# playctl-bench's declarations (Sources/PlayctlCLI/Arguments, Sources/PlayctlBench/Arguments) + the entry point on top
# of it; for manifest, Sources/MediaCore as a module of its own, then Sources/Streaming/Model +
# Sources/Streaming/Manifest (libxml2 through the CXML2 module map) + the manifest fuzz case + the entry point on top
# of it. Everything goes to
# .build/fuzz/<target>/: the binary, the working corpus (seeded from the committed one, which this never changes),
# and crash-*/timeout-*/leak-* artifacts. A crash exits non-zero;
# keep its input as a regression by copying it into Fuzz/corpus/<target>/ (FuzzCorpusTests,
# ArgumentsFuzzCorpusTests and ManifestFuzzCorpusTests replay every file there in 'swift test') before fixing it.
#
# CI runs a short pass of each:  scripts/fuzz.sh args 30 && scripts/fuzz.sh manifest 30 && scripts/fuzz.sh media 60
#
# Environment: FUZZ_JOBS=N runs N fuzzing processes in parallel (default 1); FUZZ_FLAGS adds libFuzzer flags.
set -euo pipefail
cd "$(dirname "$0")/.."
target=${1:-media}
# The C modules' headers (CFFmpeg for media; CXML2 for manifest).
includes=(-I Sources/CFFmpeg $(pkg-config --cflags-only-I libavformat | sed 's/-I/-Xcc -I/g'))
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
  manifest)
    # MediaCore (MediaError) as the module SwiftPM builds; the parsers and the model in one module on top of it:
    # Streaming's other folders (ABR, Stream) need Loading and MediaIO, the parsers do not.
    library=MediaCore
    library_sources=$(find Sources/MediaCore -name '*.swift' | sort)
    sources="$(find Sources/Streaming/Model Sources/Streaming/Manifest -name '*.swift' | sort)
      Sources/PlaybackTesting/Fuzzing/ManifestFuzzCase.swift"
    module=ManifestFuzz
    # libxml2 through the CXML2 module map (it links xml2 itself), with libxml2's headers as SwiftPM finds them.
    includes=(-I Sources/CXML2 $(pkg-config --cflags-only-I libxml-2.0 | sed 's/-I/-Xcc -I/g'))
    # The committed seeds are below 4 KB and each runs in milliseconds. A DASH template may imply up to 100,000
    # segments (DASHManifestParser.maximumSegments) from 200 bytes: a few seconds under ASan, within the 10 s timeout
    # (a million, the limit before, took 30 s: docs/reliability.md).
    flags=(-max_len=8192 -timeout=10 -dict=Fuzz/manifest.dict)
    ;;
  *)
    echo "usage: scripts/fuzz.sh [media|args|manifest] [SECONDS | FILE...]" >&2
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
  -O -g "${includes[@]}" "${linked[@]}" \
  $sources $entry -o "$binary" 2> >(grep -v "ld.gold: warning: Cannot export local symbol" >&2)

# The Swift runtime's backtracer reads the crashed process's memory, which AddressSanitizer then reports as a
# heap-buffer-overflow of its own after the real failure; libFuzzer prints the stack (and a trap's message) anyway.
export SWIFT_BACKTRACE=${SWIFT_BACKTRACE:-enable=no}

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
