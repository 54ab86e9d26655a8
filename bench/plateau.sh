#!/usr/bin/env bash
# The java-netty plateau of issue 31: in one demo, java-netty's plaintext read 127k requests/s
# "steady after 5.0 s" on a JIT plateau while its other runs read 185-197k. This runs the demo's
# settings on java-netty alone, plaintext and json, for ROUNDS rounds (a fresh server each round),
# and prints each round's plaintext/json throughput ratio and warm-ups, then the worst ratio (the one
# furthest from 1). On a quiet machine the two workloads are within a few percent of each other;
# a round whose warm-up stopped on a plateau reads far below (0.66 in that demo).
# Run it with the launcher of each build to compare (see src/main/java/io/loadlab/load/WarmupEnd.java, "Steady,
# compilers done"), on a quiet machine: the noise_cpu_s column says how quiet it was.
# Usage: bench/plateau.sh LAUNCHER [ROUNDS] [OUT]   (default 10 rounds, OUT a new folder under /tmp)
set -euo pipefail
launcher="${1:?usage: bench/plateau.sh LAUNCHER [ROUNDS] [OUT] (LAUNCHER: path of a loadlab launcher)}"
rounds="${2:-10}"
out="${3:-$(mktemp -d /tmp/plateau.XXXXXX)/java-netty}"
[ -x "$launcher" ] || { echo "plateau.sh: $launcher is not an executable loadlab launcher" >&2; exit 2; }
"$launcher" run --subjects '^java-netty$' --workloads '^(plaintext|json)$' --rounds "$rounds" -d 2s \
  --warmup auto --cooldown 0s --out "$out" >&2
python3 - "$out/runs.csv" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["status"] == "ok"]
by_round = {}
for r in rows:
    by_round.setdefault(int(r["round"]), {})[r["workload"]] = r
print(f"{'round':>5} {'plaintext rps':>14} {'warm-up s':>9} {'json rps':>10} {'warm-up s':>9} {'ratio':>6} {'noise CPU-s':>11}")
worst = None
for n in sorted(by_round):
    w = by_round[n]
    if "plaintext" not in w or "json" not in w:
        print(f"{n:>5} (a run failed: see runs.csv)")
        continue
    p, j = w["plaintext"], w["json"]
    ratio = float(p["rps"]) / float(j["rps"])
    noise = sum(float(x.get("noise_cpu_s") or 0) for x in (p, j))
    print(f"{n:>5} {float(p['rps']):>14,.0f} {float(p['warmup_s']):>9.1f} {float(j['rps']):>10,.0f}"
          f" {float(j['warmup_s']):>9.1f} {ratio:>6.3f} {noise:>11.2f}")
    if worst is None or abs(ratio - 1) > abs(worst[1] - 1):
        worst = (n, ratio)
if worst:
    print(f"worst plaintext/json ratio: {worst[1]:.3f} (round {worst[0]}) over {len(by_round)} rounds; data in {sys.argv[1]}")
PY
