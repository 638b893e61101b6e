#!/usr/bin/env bash
# Runs a test command with a time limit, so that a hang fails CI with a diagnosis instead of using up its time:
#   scripts/watchdog.sh SECONDS command [args...]
# The command's output passes through unchanged (and is kept in a temporary file). When it runs longer than SECONDS,
# the watchdog prints the swift-testing tests that started and have not finished, every thread's stack of each test
# process (gdb, when installed), then stops the command and exits 124. Otherwise it exits with the command's status.
set -uo pipefail
limit=$1
shift
log=$(mktemp /tmp/watchdog.XXXXXX)
trap 'rm -f "$log"' EXIT
setsid "$@" > >(tee "$log") 2>&1 &
pid=$!
started=$SECONDS
while kill -0 "$pid" 2>/dev/null; do
  if ((SECONDS - started >= limit)); then
    # The stacks first and the tests left running last: CI's report shows the end of the log.
    for test in $(pgrep -f 'xctest' -s "$(ps -o sid= -p "$pid" | tr -d ' ')" 2>/dev/null); do
      echo "watchdog: the threads of test process $test that are in playctl's code (frames outside the C and"
      echo "watchdog: Swift runtimes, demangled; the whole dump in $log.gdb)"
      if command -v gdb >/dev/null; then
        timeout 120 gdb -p "$test" -batch -ex 'thread apply all bt 40' 2>/dev/null | grep -E '^Thread|^#' >"$log.gdb"
        demangle=cat
        command -v swift-demangle >/dev/null && demangle="swift-demangle --simplified"
        # One line per thread: its name, its wait (frame 0) and its first 8 frames of Swift code not in the runtimes.
        awk '/^Thread/ { if (line != "") print line; line = $0; n = 0; next }
          /^#0 / { sub(/^#0 +(0x[0-9a-f]+ in )?/, ""); sub(/ \(.*/, ""); line = line " | wait: " $0; next }
          /\$s/ && !/libswiftCore|libdispatch|libFoundation|swift_task|swift::/ && n < 8 {
            sub(/^#[0-9]+ +(0x[0-9a-f]+ in )?/, ""); sub(/ \(.*/, ""); line = line " <- " $0; n++ }
          END { if (line != "") print line }' "$log.gdb" | $demangle | grep -- ' <- ' | cut -c1-600 |
          sed 's/^/watchdog: /' | head -80
        # Whether Swift's cooperative pool is blocked: threads inside a task's job (swift_job_run) that wait, against
        # threads idle; the dump stays in $log.gdb for a closer look.
        awk '/^Thread/ { threads++; if (job) jobs++; job = 0; next } /swift_job_run/ { job = 1 }
          END { if (job) jobs++; printf "watchdog: %d threads, %d of them inside a Swift task job\n", threads, jobs }' \
          "$log.gdb"
      fi
    done
    echo "watchdog: '$*' still runs after $limit s; the tests started and not finished:"
    # "◇ Test NAME started." against "✔ Test NAME passed after" / "✘ Test NAME failed after" / "━ Test NAME passed
    # after ... with N known issues".
    grep -aoE '◇ Test .* started\.' "$log" | sed -E 's/^◇ Test (.*) started\.$/\1/' | sort -u >"$log.started"
    grep -aoE '[✔✘━] Test .* (passed|failed) after' "$log" | sed -E 's/^.{1,4} Test (.*) (passed|failed) after$/\1/' |
      sed -E 's/ with [0-9]+ test cases?$//' | sort -u >"$log.finished"
    comm -23 "$log.started" "$log.finished" | grep -v '^case passing' | sed 's/^/watchdog:   /' | head -50
    rm -f "$log.started" "$log.finished"
    kill -TERM -- "-$pid" 2>/dev/null
    sleep 5
    kill -KILL -- "-$pid" 2>/dev/null
    exit 124
  fi
  sleep 5
done
wait "$pid"
