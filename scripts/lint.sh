#!/usr/bin/env bash
# Checks the code's format against .swift-format with the toolchain's swift-format (CI runs it; `swift format
# format -i -r Sources Tests Fuzz Package.swift` fixes what it reports), and one layering rule the fuzzer needs.
set -euo pipefail
cd "$(dirname "$0")/.."
paths=(Package.swift)
for dir in Sources Tests Fuzz Examples; do [ -d "$dir" ] && paths+=("$dir"); done
swift format lint --strict -r -p "${paths[@]}" 2>&1 | tee /tmp/playctl-lint.$$ >&2
if [ -s /tmp/playctl-lint.$$ ]; then rm -f /tmp/playctl-lint.$$; exit 1; fi
rm -f /tmp/playctl-lint.$$

# The CLIs' argument declarations import CommandLineKit alone: scripts/fuzz.sh args compiles them on that module only.
if grep -Hn '^import ' Sources/PlayctlCLI/Arguments/*.swift Sources/PlayctlBench/Arguments/*.swift \
  | grep -v ':import CommandLineKit$' >&2; then
  echo "lint: Sources/PlayctlCLI/Arguments and Sources/PlayctlBench/Arguments may import only CommandLineKit" \
    "(scripts/fuzz.sh args builds them alone)" >&2
  exit 1
fi
# ... and name nothing of the CLIs' other folders (a run's TimelineRecorder kept in PlayOptions broke the fuzzer's
# build once, seen only at CI's end): type-checked here as scripts/fuzz.sh args builds them, in a few seconds.
args_check=$(mktemp -d)
swiftc -emit-module -parse-as-library -swift-version 6 -module-name CommandLineKit \
  -emit-module-path "$args_check/CommandLineKit.swiftmodule" $(find Sources/CommandLineKit -name '*.swift' | sort)
if ! swiftc -typecheck -parse-as-library -swift-version 6 -module-name ArgumentsCheck -I "$args_check" \
  Sources/PlayctlCLI/Arguments/*.swift Sources/PlayctlBench/Arguments/*.swift; then
  rm -rf "$args_check"
  echo "lint: the argument declarations do not build alone (scripts/fuzz.sh args builds them with CommandLineKit" \
    "only)" >&2
  exit 1
fi
rm -rf "$args_check"
# MediaIO reaches MediaCore through its re-export (Exports.swift) alone: scripts/fuzz.sh media compiles both as one
# module, where there is no MediaCore to import.
if grep -Hn '^import MediaCore$' Sources/MediaIO --include='*.swift' -r >&2; then
  echo "lint: Sources/MediaIO may not import MediaCore (Exports.swift re-exports it; scripts/fuzz.sh media builds" \
    "MediaCore and MediaIO as one module)" >&2
  exit 1
fi
# The manifest parsers and the model import only Foundation, MediaCore and CXML2: scripts/fuzz.sh manifest builds
# them alone, without Streaming's other folders.
if grep -Hn '^import ' Sources/Streaming/Model/*.swift Sources/Streaming/Manifest/*.swift \
  | grep -Ev ':import (Foundation|MediaCore|CXML2)$' >&2; then
  echo "lint: Sources/Streaming/Model and Sources/Streaming/Manifest may import only Foundation, MediaCore and CXML2" \
    "(scripts/fuzz.sh manifest builds them alone)" >&2
  exit 1
fi
# The parallel pass judges no wall-clock bound (scripts/lint-wall-clock.sh says what it looks for and what is allowed).
scripts/lint-wall-clock.sh
