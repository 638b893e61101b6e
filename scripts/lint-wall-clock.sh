#!/usr/bin/env bash
# The parallel pass judges virtual time (ManualClock, --untimed) or ratios of two measurements taken in the same run,
# never the wall clock: beside 150 other suites on 2 CPUs a thread may be starved for seconds, so an absolute bound
# fails now and then (issue 31). Tests that must judge real time run in a group of scripts/test-groups.sh.
# This check (run by scripts/lint.sh) greps the test sources outside those groups for what judges the wall clock:
# - an elapsed time measured (an instant subtracted, Date's timeIntervalSince, a clock's measure, wallSeconds
#   compared);
# - a real sleep (Thread.sleep, usleep, sleep, Task.sleep of 100 ms or more) that a loaded machine may outrun;
# - a wait whose timing out is the expected answer (== .timedOut);
# - a deadline under 30 s (a hang detector that short judges speed on a loaded machine), or a poll bounded by a
#   count of sleeps.
# Each hit must be listed in `allowed` below with the reason it does not judge the wall clock (a poll's interval, a
# deadline that only turns a hang into a failure, a bound measured in the same run); a new one fails the lint.
# Suites of the groups are left out: a file whose every *Tests type is one of theirs.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/test-groups.sh
source scripts/test-groups.sh
groups="^($deadlines|$realtime|$alone)\$"

patterns=(
  # Elapsed time measured.
  '(Continuous|Suspending)Clock\.now *-' 'monotonicSeconds\(\) *-' 'timeIntervalSince(Now|\()' '\.measure *\{'
  'wallSeconds *[<>]' 'uptimeNanoseconds' 'clock_gettime|CFAbsoluteTimeGetCurrent|systemUptime'
  # Real sleeps.
  'Thread\.sleep\(' '(^|[^A-Za-z_.])u?sleep\('
  'Task\.sleep\((for: \.seconds\(([0-9]|[12][0-9])(\.[0-9]+)?\)|nanoseconds: ([0-9]{3}(_[0-9]{3}){2}|[0-9]{1,2}(_[0-9]{3}){3})\)|for: \.milliseconds\([0-9]{3,})'
  # A wait whose timing out is the answer.
  'wait\(timeout:.*== *\.timedOut'
  # Deadlines under 30 s.
  '(now(\(\))? \+ |Deadline\.race\(|timeout: )\.seconds\(([0-9]|[12][0-9])(\.[0-9]+)?\)' 'now(\(\))? \+ \.milliseconds'
  'addingTimeInterval\(([0-9]|[12][0-9])(\.[0-9]+)?\)' '\.now\(\) \+ ([0-9]|[12][0-9])([^0-9.]|$)'
  '(atLeast: [^,]+, within|wait\(timeout): ([0-9]|[12][0-9])(\.[0-9]+)?\)'
  # A poll bounded by a count of sleeps: a deadline in disguise.
  'for _ in 0\.\.<[0-9]+ where'
)

# path :: text of the line (a fixed string it contains) :: why it does not judge the wall clock.
allowed=$(
  cat <<'EOF'
Tests/FeedTests/FeedNetworkRun.swift :: Task.sleep(nanoseconds: 1_000_000_000) :: room for prefetches before the feed stops; callers judge what was fetched by absences and by the items the run waited for, not how much came in the second
Tests/FeedTests/FeedReentrancyTests.swift :: answered.wait(timeout: .now() + 30) == .timedOut :: a probe of the feed's lock: microseconds when free, never when held; 30 s tells never from a starved thread
Tests/FeedTests/MemoryBudgetTests.swift :: Task.sleep(for: .seconds(2.5)) :: time on the first item, at least; longer only makes more trim rounds, bounded by the run's length measured in the same run
Tests/FeedTests/MemoryBudgetTests.swift :: Task.sleep(for: .seconds(1)) :: time on the second item, at least (as above)
Tests/FeedTests/MemoryBudgetTests.swift :: let ran = (ContinuousClock.now - started) :: the run's length, the bound of the trim rounds counted in the same run
Tests/PostersTests/PosterSharingTests.swift :: for _ in 0..<200 where pipeline.statistics.decodes == 0 :: PosterSharingTests' waits are the waits-with-deadlines part of issue 31 (another branch)
Tests/PostersTests/PosterSharingTests.swift :: for _ in 0..<100 where order.withLock({ $0.count }) < 4 :: (as above)
Tests/PostersTests/PosterSharingTests.swift :: for _ in 0..<100 where order.withLock({ $0.count }) < 3 :: (as above)
Tests/LoadingTests/ConnectionReuseTests.swift :: Task.sleep(for: .seconds(6)) :: ConnectionIdleTests (the realtime group) shares the file: a connection idle 6 s, longer than the loader's old lifetime
Tests/LoadingTests/ServerFaults.swift :: Date().addingTimeInterval(10) :: a file's modification date set ahead, not a wait
Tests/LoadingTests/Support/LoaderResources.swift :: usleep(20_000) :: a poll's interval under a 30 s deadline
Tests/PlaybackTests/Events/EventBroadcasterTests.swift :: usleep(50) :: the producer's rests, so that it leaves a core to the others; no judgement
Tests/PlaybackTests/Metrics/HangTests.swift :: Thread.sleep(forTimeInterval: 0.4) :: a block longer than the 0.25 s threshold: a loaded machine only makes it longer, and the hang is bounded above by the same run's length
Tests/PlaybackTests/Metrics/HangTests.swift :: let whole = (ContinuousClock.now - started) :: the run's length, the upper bound of the hang measured in the same run
Tests/PlaybackTests/Metrics/HangTests.swift :: (ContinuousClock.now - $0) / .seconds(1) :: how long the player had played when the hang was reported, its upper bound in the same run
Tests/PlaybackTests/Network/HTTPCachingTests.swift :: Task.sleep(nanoseconds: 1_500_000_000) :: past the use's 1 s grace, at least: a longer sleep changes nothing
Tests/PlaybackTests/Network/ServerFaultTests.swift :: usleep(5000) :: a poll's interval (the proxy stops at half the file)
Tests/PlaybackTests/Streaming/AudioRenditionPlaybackTests.swift :: ContinuousClock.now - started < .seconds(30) :: a 30 s hang detector (the play's watchdog is 60 s); the typed 404 is the judgement
Tests/PlayctlCLITests/Commands/BackgroundProcessTests.swift :: slow.wait(timeout: 0.2) :: the timeout under test: `sleep 30` ended by SIGTERM at it
Tests/PlayctlCLITests/Commands/ProcessRunnerTests.swift :: echo.wallSeconds > 0 :: a measurement's sign
Tests/PlayctlCLITests/Commands/ProcessRunnerTests.swift :: slow.wallSeconds >= 0.3 :: a lower bound (the runner's own timeout): a loaded machine only makes it longer
Tests/PlayctlCLITests/Commands/StandardOutputTests.swift :: usleep(30_000) :: past the 20 ms interval, at least: a longer sleep changes nothing
Tests/PlayctlCLITests/Feed/FeedCapCLITests.swift :: atLeast: 1, within: 1) :: an absence, read after the feed's process ended (nginx logs a response as it ends)
Tests/StreamingTests/Manifest/DASHManifestErrorTests.swift :: print("DASH bound: :: printed, not judged
EOF
)

pattern=$(IFS='|'; echo "${patterns[*]}")
status=0
used=()
while IFS= read -r file; do
  types=$(grep -oE '^(@[A-Za-z]+ +)*(public +)?(final +)?(struct|extension|class|enum) +[A-Za-z0-9_]+Tests\b' "$file" \
    | awk '{print $NF}' | sort -u || true)
  if [ -n "$types" ] && ! grep -vqE "$groups" <<<"$types"; then continue; fi
  while IFS= read -r hit; do
    [ -n "$hit" ] || continue
    number=${hit%%:*}
    text=${hit#*:}
    ok=
    while IFS= read -r entry; do
      [ -n "$entry" ] || continue
      path=${entry%% :: *}
      rest=${entry#* :: }
      fixed=${rest%% :: *}
      if [ "$path" = "$file" ] && [[ "$text" == *"$fixed"* ]]; then
        ok=1
        used+=("$entry")
        break
      fi
    done <<<"$allowed"
    if [ -z "$ok" ]; then
      echo "$file:$number: judges the wall clock in the parallel pass: ${text#"${text%%[![:space:]]*}"}" >&2
      status=1
    fi
  done < <(grep -nE "$pattern" "$file" || true)
done < <(find Tests -name '*.swift' | sort)

# An entry that matches nothing is stale: the list says what is there, no more.
while IFS= read -r entry; do
  [ -n "$entry" ] || continue
  found=
  for seen in "${used[@]+"${used[@]}"}"; do [ "$seen" = "$entry" ] && found=1 && break; done
  if [ -z "$found" ]; then
    rest=${entry#* :: }
    echo "lint-wall-clock.sh: allowed entry matches no line: ${entry%% :: *} :: ${rest%% :: *}" >&2
    status=1
  fi
done <<<"$allowed"

if [ "$status" -ne 0 ]; then
  echo "lint: judge virtual time or a ratio measured in the same run, move the suite to a group of" \
    "scripts/test-groups.sh with its reason, or (if it judges no speed) list the line in scripts/lint-wall-clock.sh" \
    "with why" >&2
fi
exit "$status"
