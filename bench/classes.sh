# classes.sh: what the benchmarks that run a main class of the test tree share (analysis.sh,
# agents-one-vs-two.sh, agents-scaling.sh, parser.sh). Sourced (not run), from Loadlab's folder.
# It gives: build_classes NAME (mvn package without tests, quiet; on failure the log's last 30
# lines and its path, then exit 1) and BENCH_CP (the class path of the main and test classes).

BENCH_CP="target/classes:target/test-classes:target/lib/*"

build_classes() {  # NAME: the script's name, for the failure message
  local log
  log="$(mktemp)"
  if ! mvn -B -q -DskipTests package >"$log" 2>&1; then
    tail -30 "$log" >&2
    echo "$1: the build failed (full log: $log)" >&2
    exit 1
  fi
  rm -f "$log"
}
