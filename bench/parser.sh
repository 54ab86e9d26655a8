#!/usr/bin/env bash
# Parser benchmark: nanoseconds per answer of the engine's HTTP/1.1 response parser
# (io.loadlab.bench.ParserBenchmark), 16 pipelined answers per read, three answer shapes,
# 10 timed rounds each after as many untimed ones; prints mean, CV and a 95% t interval.
# Usage: bench/parser.sh [CORE]   (pins the JVM to CORE, default 1)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
core="${1:-1}"
log="$(mktemp)"
if ! mvn -B -q -DskipTests package >"$log" 2>&1; then
  tail -30 "$log" >&2
  echo "parser.sh: the build failed (full log: $log)" >&2
  exit 1
fi
rm -f "$log"
echo "load average before: $(cat /proc/loadavg)"
taskset -c "$core" java -XX:+UseSerialGC -cp "target/classes:target/test-classes:target/lib/*" io.loadlab.bench.ParserBenchmark
echo "load average after: $(cat /proc/loadavg)"
