#!/usr/bin/env bash
# How far one coordinator scales on paper: the interval histograms it can decode and merge per second
# on one thread, the same through Hazelcast with simulated agents in one JVM, and the threads each
# agent's client costs. See docs/architecture.md (agents, scaling).
# Usage: bench/agents-scaling.sh [SECONDS] [AGENTS] [REPS]   (default 5 repetitions of 5 s, 4 agents)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/classes.sh
. bench/classes.sh
build_classes agents-scaling.sh
java -Xmx1g -cp "$BENCH_CP" io.loadlab.agent.ScalingBenchmark "${1:-5}" "${2:-4}" "${3:-5}"
