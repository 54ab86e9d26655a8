#!/usr/bin/env bash
# Analysis benchmark: 10,000 generated runs with their histograms, loaded and summarised.
# Prints the time to load, the time for the summary/comparison/warning tables, and the peak heap.
# Usage: bench/analysis.sh [HEAP]   (default heap limit 1g, the target)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
heap="${1:-1g}"
log="$(mktemp)"
if ! mvn -B -q -DskipTests package >"$log" 2>&1; then
  tail -30 "$log" >&2
  echo "analysis.sh: the build failed (full log: $log)" >&2
  exit 1
fi
rm -f "$log"
dir="$(mktemp -d /tmp/loadlab-analysis-bench.XXXXXX)"
trap 'rm -rf "$dir"' EXIT
java -Xmx"$heap" -cp "target/classes:target/test-classes:target/lib/*" io.loadlab.bench.AnalysisBenchmark "$dir/exp"
