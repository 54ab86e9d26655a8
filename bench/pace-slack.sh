#!/usr/bin/env bash
# pace-slack.sh: what the fixed rate's wake-up slack (loadlab load --pace-slack) costs and buys.
#
# nginx (bench/nginx.conf, 1 worker) pinned to NGINX_CORE, each load run to LOAD_CORE. For each rate,
# ROUNDS rounds; each round runs every slack once (the order rotates from round to round) and, when
# h2load is installed, h2load --h1 --rps at the same rate as the reference, and, when cc is there,
# the host's floor: bench/pace-floor.c, a C loop on the same core that sleeps to each due time of the
# same even schedule and does nothing else (no I/O, no server), so its CPU and lateness are what any
# pacer that sleeps between requests pays on this host. Per run it prints: in-window process CPU-s
# (loadlab's process_cpu_s) and engine-thread CPU-s (load_cpu_s) per million answers (the floor: its
# own CPU per million due times), whole-process CPU-s per million (user+sys from outside, start-up
# included), the latency p50 and p99 (µs, from the due time), the send lateness p50/p99/max/p99.9
# (µs; the floor: how late it woke), the loop's timed wake-ups/s and its passes/s (wake-ups for I/O
# and time together; the floor: its sleeps/s).
# The summary gives each mean with a 95% t confidence interval over the rounds, then, per slack and
# rate, the engine's CPU per answer over the floor's per due time, paired by round (mean, CI, CV).
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
FLOOR="$(floor_bin)"
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
    [ -z "$FLOOR" ] || { [ $((r % 2)) -eq 0 ] && order=(floor "${order[@]}") || order+=(floor); }
    for s in "${order[@]}"; do
      out="$tmp/run.out"
      if [ "$s" = h2load ]; then
        per="$(h2load_rps "$rate" "$CONNECTIONS")"
        taskset -c "$LOAD_CORE" /usr/bin/time -f '%U %S' -o "$tmp/time" \
          "$H2LOAD" --h1 -t1 -c"$CONNECTIONS" --rps="$per" -D "$DURATION" "$url" >"$out" 2>"$tmp/err" \
          || die "h2load failed: $(tail -3 "$tmp/err")"
      elif [ "$s" = floor ]; then
        taskset -c "$LOAD_CORE" /usr/bin/time -f '%U %S' -o "$tmp/time" "$FLOOR" "$rate" "$DURATION" \
          >"$out" 2>"$tmp/err" || die "pace-floor failed: $(tail -3 "$tmp/err")"
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
    print(s, rate, r, ok, "-", "-", round(1e6 * whole / ok, 2), "-", "-", "-", "-", "-", "-", "-", "-", "-")
elif s == "floor":
    f = dict(kv.split("=", 1) for kv in text.split())
    due, secs = int(f["due"]), float(f["seconds"])
    per_s = round(int(f["sleeps"]) / secs)
    print(s, rate, r, due, "-", round(1e6 * float(f["cpu_s"]) / due, 2), round(1e6 * whole / due, 2), "-", "-",
          f["late_p50_us"], f["late_p99_us"], f["late_max_us"], per_s, 0, per_s, f["late_p999_us"])
else:
    d = json.loads(text)
    n, p, lat = d["requests"], d["pacing"], d["latency_us"]
    answered = n + round(sum(d.get("warmup_rps") or []) * 0.5)
    late = p["send_lateness_us"]
    print(s, rate, r, n, round(1e6 * d["process_cpu_s"] / n, 2), round(1e6 * d["load_cpu_s"] / n, 2),
          round(1e6 * whole / answered, 2), lat["p50"], lat["p99"], late["p50"], late["p99"], late["max"],
          round(p["wake_times_per_s"]), d["missed"], round(p["loop_passes_per_s"]), late["p999"])
PY
      tail -n1 "$rows" >&2
      sleep 1
    done
  done
done
echo "slack rate n | window-CPU-s/M | engine-CPU-s/M | whole-CPU-s/M | lat p50 us | lat p99 us | late p50 us | late p99 us | late p99.9 us | wake/s | passes/s   (mean [95% CI])"
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
    cols = [cell([r[i] if i < len(r) else "-" for r in rs]) for i in (4, 5, 6, 7, 8, 9, 10, 15, 12, 14)]
    print(f"{s} {rate} {len(rs)} | " + " | ".join(cols))
# Paired per round: each slack's engine CPU per answer over the floor's CPU per due time (same rate, same
# round, same core): how much the engine adds to what the host charges for the sleeps alone.
for (s, rate), rs in sorted(groups.items(), key=lambda k: (-k[0][1], k[0][0])):
    floor = {f[2]: float(f[5]) for f in groups.get(("floor", rate), [])}
    if s in ("floor", "h2load") or not floor:
        continue
    v = [float(f[5]) / floor[f[2]] for f in rs if f[2] in floor and f[5] != "-"]
    if len(v) >= 2:
        m, sd = st.mean(v), st.stdev(v)
        h = T.get(len(v), 2.0) * sd / len(v) ** 0.5
        print(f"engine CPU / floor CPU, slack {s}, {rate}/s: {m:.2f} [{m - h:.2f}, {m + h:.2f}], CV {100 * sd / m:.1f}%, n={len(v)}")
PY
