#!/usr/bin/env bash
# Parser benchmark: nanoseconds per answer of the engine's HTTP/1.1 response parser
# (io.loadlab.bench.ParserBenchmark), 16 pipelined answers per read, three answer shapes,
# 10 timed rounds each after as many untimed ones; prints mean, CV and a 95% t interval.
# Usage: bench/parser.sh [CORE]   (pins the JVM to CORE, default 1)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
core="${1:-1}"
# shellcheck source=bench/classes.sh
. bench/classes.sh
build_classes parser.sh
echo "load average before: $(cat /proc/loadavg)"
taskset -c "$core" java -XX:+UseSerialGC -cp "$BENCH_CP" io.loadlab.bench.ParserBenchmark
echo "load average after: $(cat /proc/loadavg)"
