#!/usr/bin/env bash
# How far one coordinator scales on paper: the interval histograms it can decode and merge per second
# on one thread, the same through Hazelcast with simulated agents in one JVM, and the threads each
# agent's client costs. See docs/architecture.md (agents, scaling).
# Usage: bench/agents-scaling.sh [SECONDS] [AGENTS] [REPS]   (default 5 repetitions of 5 s, 4 agents)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
log="$(mktemp)"
if ! mvn -B -q -DskipTests package >"$log" 2>&1; then
  tail -30 "$log" >&2
  echo "agents-scaling.sh: the build failed (full log: $log)" >&2
  exit 1
fi
rm -f "$log"
java -Xmx1g -cp "target/classes:target/test-classes:target/lib/*" io.loadlab.agent.ScalingBenchmark "${1:-5}" "${2:-4}" "${3:-5}"
