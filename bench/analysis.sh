#!/usr/bin/env bash
# Analysis benchmark: generated runs with their histograms, loaded and summarised.
# Prints the time to load, the time for the summary/comparison/warning tables and the merged
# percentiles, and the peak heap; the first iteration is a cold JVM.
# Usage: bench/analysis.sh [RUNS] [HEAP]   (default 100000 runs under -Xmx2g, the target)
# ANALYSIS_BENCH_DIR=DIR keeps the generated experiment in DIR and reuses it on the next call.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
runs="${1:-100000}"
heap="${2:-2g}"
# shellcheck source=bench/classes.sh
. bench/classes.sh
build_classes analysis.sh
if [ -n "${ANALYSIS_BENCH_DIR:-}" ]; then
  exp="$ANALYSIS_BENCH_DIR/exp-$runs"
else
  dir="$(mktemp -d /tmp/loadlab-analysis-bench.XXXXXX)"
  trap 'rm -rf "$dir"' EXIT
  exp="$dir/exp"
fi
if [ ! -f "$exp/latency.hlog" ]; then
  # Generated in a JVM of its own, so that the measured one starts cold.
  java -cp "$BENCH_CP" io.loadlab.bench.AnalysisBenchmark generate "$exp.tmp" "$runs"
  mv "$exp.tmp" "$exp"
fi
echo "load average before: $(cat /proc/loadavg)"
java -Xmx"$heap" -cp "$BENCH_CP" io.loadlab.bench.AnalysisBenchmark measure "$exp"
echo "load average after: $(cat /proc/loadavg)"
