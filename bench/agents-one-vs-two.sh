#!/usr/bin/env bash
# One agent against two, each in a network namespace of its own, the subject (a small Netty server)
# in a third, the coordinator in a fourth: alternating runs of loadlab load --agents. Needs root.
# On one machine the namespaces share its CPUs: see docs/architecture.md for what this shows.
# Usage: bench/agents-one-vs-two.sh [ROUNDS] [DURATION]   (default 3 rounds of 5s)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=bench/classes.sh
. bench/classes.sh
build_classes agents-one-vs-two.sh
java -cp "$BENCH_CP" io.loadlab.agent.OneVsTwoBenchmark "${1:-3}" "${2:-5s}"
