#!/usr/bin/env bash
# pace-slack.sh: what the fixed rate's wake-up slack (loadlab load --pace-slack) costs and buys.
#
# nginx (bench/nginx.conf, 1 worker) pinned to NGINX_CORE, each load run to LOAD_CORE. For each rate,
# ROUNDS rounds; each round runs every slack once (the order rotates from round to round) and, when
# h2load is installed, h2load --h1 --rps at the same rate as the reference. Per run it prints:
# in-window process CPU-s (loadlab's process_cpu_s) and engine-thread CPU-s (load_cpu_s) per million
# answers, whole-process CPU-s per million (user+sys from outside, start-up included), the latency p50
# and p99 (µs, from the due time), the send lateness p50/p99/max (µs), the loop's timed wake-ups/s and
# its passes/s (wake-ups for I/O and time together).
# The summary gives each mean with a 95% t confidence interval over the rounds.
#
# Usage: bench/pace-slack.sh [-r ROUNDS] [-d SECONDS] [-c CONNECTIONS] [--rates 20000,2000]
#                            [--slacks 0,50us,200us,1ms]
# Other environment: NGINX_CORE (0), LOAD_CORE (1), WARMUP (3s; loadlab's --warmup).
set -euo pipefail
export LC_ALL=C
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
ROUNDS="${ROUNDS:-3}" DURATION="${DURATION:-8}" CONNECTIONS="${CONNECTIONS:-64}"
RATES="${RATES:-20000,2000}" SLACKS="${SLACKS:-0,50us,200us,1ms}" WARMUP="${WARMUP:-3s}"
NGINX_CORE="${NGINX_CORE:-0}" LOAD_CORE="${LOAD_CORE:-1}"
BENCH=pace-slack
# shellcheck source=bench/lib.sh
. "$here/lib.sh"
while [ $# -gt 0 ]; do
  case "$1" in
    -r) ROUNDS="${2:?}"; shift 2 ;;
    -d) DURATION="${2:?}"; shift 2 ;;
    -c) CONNECTIONS="${2:?}"; shift 2 ;;
    --rates) RATES="${2:?}"; shift 2 ;;
    --slacks) SLACKS="${2:?}"; shift 2 ;;
    -h|--help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; exit 0 ;;
    *) die "unknown argument '$1' (see --help)" ;;
  esac
done
bench_need nginx taskset curl
[ -x /usr/bin/time ] || die "GNU time is missing (apt-get install -y time)"
H2LOAD="$(command -v h2load 2>/dev/null || true)"
bench_setup
"$root/loadlab" --version >/dev/null || die "./loadlab --version failed"
plain_url() { url="http://127.0.0.1:$PORT/plaintext"; }
bench_start_nginx "$here/nginx.conf" PORT plain_url
IFS=, read -r -a rates <<<"$RATES"
IFS=, read -r -a slacks <<<"$SLACKS"
rows="$tmp/rows"
: >"$rows"
for rate in "${rates[@]}"; do
  for r in $(seq "$ROUNDS"); do
    order=("${slacks[@]:$(( (r - 1) % ${#slacks[@]} ))}" "${slacks[@]:0:$(( (r - 1) % ${#slacks[@]} ))}")
    [ -z "$H2LOAD" ] || { [ $((r % 2)) -eq 1 ] && order=(h2load "${order[@]}") || order+=(h2load); }
    for s in "${order[@]}"; do
      out="$tmp/run.out"
      if [ "$s" = h2load ]; then
        per="$(awk -v r="$rate" -v c="$CONNECTIONS" 'BEGIN { printf "%g", r / c }')"
        taskset -c "$LOAD_CORE" /usr/bin/time -f '%U %S' -o "$tmp/time" \
          "$H2LOAD" --h1 -t1 -c"$CONNECTIONS" --rps="$per" -D "$DURATION" "$url" >"$out" 2>"$tmp/err" \
          || die "h2load failed: $(tail -3 "$tmp/err")"
      else
        taskset -c "$LOAD_CORE" /usr/bin/time -f '%U %S' -o "$tmp/time" "$root/loadlab" load -t1 \
          -c"$CONNECTIONS" -R "$rate" --pace-slack "$s" -d"${DURATION}s" --warmup "$WARMUP" --json "$url" \
          >"$out" 2>"$tmp/err" || die "loadlab failed: $(tail -3 "$tmp/err")"
      fi
      python3 - "$s" "$rate" "$r" "$out" "$(tail -n1 "$tmp/time")" >>"$rows" <<'PY'
import json, re, sys
s, rate, r, path, cpu = sys.argv[1:]
whole = sum(float(x) for x in cpu.split())
text = open(path).read()
if s == "h2load":
    ok = int(re.search(r"requests: .*?(\d+) succeeded", text).group(1))
    print(s, rate, r, ok, "-", "-", round(1e6 * whole / ok, 2), "-", "-", "-", "-", "-", "-")
else:
    d = json.loads(text)
    n, p, lat = d["requests"], d["pacing"], d["latency_us"]
    answered = n + round(sum(d.get("warmup_rps") or []) * 0.5)
    late = p["send_lateness_us"]
    print(s, rate, r, n, round(1e6 * d["process_cpu_s"] / n, 2), round(1e6 * d["load_cpu_s"] / n, 2),
          round(1e6 * whole / answered, 2), lat["p50"], lat["p99"], late["p50"], late["p99"], late["max"],
          round(p["wake_times_per_s"]), d["missed"], round(p["loop_passes_per_s"]))
PY
      tail -n1 "$rows" >&2
      sleep 1
    done
  done
done
echo "slack rate n | window-CPU-s/M | engine-CPU-s/M | whole-CPU-s/M | lat p50 us | lat p99 us | late p50 us | late p99 us | wake/s | passes/s   (mean [95% CI])"
python3 - "$rows" <<'PY'
import statistics as st, sys
from collections import defaultdict
T = {2: 12.706, 3: 4.303, 4: 3.182, 5: 2.776, 6: 2.571, 7: 2.447, 8: 2.365, 9: 2.306, 10: 2.262}
groups = defaultdict(list)
for line in open(sys.argv[1]):
    f = line.split()
    groups[(f[0], int(f[1]))].append(f)
def cell(vals):
    v = [float(x) for x in vals if x != "-"]
    if not v:
        return "-"
    m = st.mean(v)
    if len(v) < 2:
        return f"{m:.1f}"
    h = T.get(len(v), 2.0) * st.stdev(v) / len(v) ** 0.5
    return f"{m:.1f} [{m - h:.1f}, {m + h:.1f}]"
for (s, rate), rs in sorted(groups.items(), key=lambda k: (-k[0][1], k[0][0])):
    cols = [cell([r[i] if i < len(r) else "-" for r in rs]) for i in (4, 5, 6, 7, 8, 9, 10, 12, 14)]
    print(f"{s} {rate} {len(rs)} | " + " | ".join(cols))
PY
