#!/usr/bin/env bash
# max-rate.sh: the highest fixed rate that one load core sustains, for Loadlab and for h2load, oha and vegeta,
# against one nginx (bench/nginx.conf, 1 worker, pinned to NGINX_CORE; the tool pinned to LOAD_CORE).
#
# Each rate of RATES is tried in ascending order, every tool once per rate, in an order that rotates with
# the rate. A tool sustains a rate when, over its window:
#   - it achieved at least 99% of the rate, with no error;
#   - it was not load-bound: for loadlab, --json's load_bound is false and no request was missed; for
#     the other tools, their process used less than 90% of the load core (CPU-s over wall-s);
#   - nginx was not the limit (its CPU-s under 90% of the run's wall-s): a rate nginx cannot serve says
#     nothing of the tool, and is printed as server-bound, not held against the tool.
# A tool that fails a rate is not tried at higher ones. The table at the end gives each tool's highest
# sustained rate and why the next one failed.
#   loadlab  loadlab load -t1 -cC -R RATE -dDs --json (default warm-up, counted out of the window);
#   loadlab-grid  the same with --pace-slack C/RATE: requests sent on a grid of one request per
#            connection, h2load's own schedule (its per-client timers), the hold counted in the latency;
#   h2load   h2load --h1 -t1 -cC --rps RATE/C -D D (its rate is per client);
#   oha      oha -z Ds -cC -q RATE --latency-correction --worker-threads 1 (from Loadlab's tools cache,
#            where scripts/setup test builds it);
#   vegeta   vegeta attack -rate RATE -duration Ds, C connections and C workers, keep-alive (v12.13.0,
#            built once with go install into Loadlab's tools cache, bench/lib.sh vegeta_bin).
#
# Usage: bench/max-rate.sh [-d SECONDS] [-c CONNECTIONS] [--rates "R1 R2 ..."]
#                          [--tools "loadlab loadlab-grid h2load oha vegeta"]
# Environment: NGINX_CORE (0), LOAD_CORE (1), RATES, TOOLS, DURATION (5), CONNECTIONS (64), RAW_DIR.
set -euo pipefail
export LC_ALL=C

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
BENCH=max-rate
# shellcheck source=bench/lib.sh
. "$here/lib.sh"

DURATION="${DURATION:-5}"
CONNECTIONS="${CONNECTIONS:-64}"
NGINX_CORE="${NGINX_CORE:-0}"
LOAD_CORE="${LOAD_CORE:-1}"
RAW_DIR="${RAW_DIR:-}"
RATES="${RATES:-10000 20000 30000 40000 60000 80000 100000 120000 140000 160000 180000}"
TOOLS="${TOOLS:-loadlab loadlab-grid h2load oha vegeta}"
ROUNDS=1

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }
while [ $# -gt 0 ]; do
  case "$1" in
    -d|--duration) DURATION="${2:?}"; shift 2 ;;
    -c|--connections) CONNECTIONS="${2:?}"; shift 2 ;;
    --rates) RATES="${2:?}"; shift 2 ;;
    --tools) TOOLS="${2:?}"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
DURATION="${DURATION%s}"
for v in DURATION CONNECTIONS NGINX_CORE LOAD_CORE; do
  [[ "${!v}" =~ ^[0-9]+$ ]] || die "$v must be a whole number (got '${!v}')"
done
read -r -a rates <<<"$RATES"
read -r -a tools <<<"$TOOLS"
for r in "${rates[@]}"; do
  [[ "$r" =~ ^[0-9]+$ ]] && [ "$r" -ge "$CONNECTIONS" ] || die "each rate must be a whole number of at least CONNECTIONS, got '$r'"
done
need=(nginx taskset awk)
for t in "${tools[@]}"; do
  case "$t" in loadlab|loadlab-grid|oha|vegeta) ;; h2load) need+=(h2load) ;;
    *) die "--tools takes loadlab, loadlab-grid, h2load, oha and vegeta, got '$t'" ;; esac
done
bench_need "${need[@]}"
bench_setup
VEGETA=""
[[ " ${tools[*]} " != *" vegeta "* ]] || VEGETA="$(vegeta_bin)"
OHA=""
[[ " ${tools[*]} " != *" oha "* ]] || OHA="$(oha_bin)"
"$root/loadlab" --version >&2 || die "./loadlab --version failed"

plain_url() { url="http://127.0.0.1:$PORT/plaintext"; }
bench_start_nginx "$here/nginx.conf" PORT plain_url

# one_try TOOL RATE: runs the tool at RATE; prints "achieved errors cpu_share server_share load_bound".
one_try() {
  local tool="$1" rate="$2" name="$1-$2" before wall cpu m lb=0
  before="$(nginx_ticks)"
  case "$tool" in
    loadlab|loadlab-grid)
      local grid=()
      [ "$tool" = loadlab ] || grid=(--pace-slack "$(grid_slack "$rate" "$CONNECTIONS")")
      run_tool "$name" "$root/loadlab" load -t1 -c"$CONNECTIONS" -R "$rate" "${grid[@]}" -d"${DURATION}s" --json "$url"
      m="$(parse_loadlab "$name")"
      lb="$(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
print(1 if d.get("load_bound") or (d.get("missed") or 0) > 0 else 0)' "$tmp/$name.out")" ;;
    h2load)
      run_tool "$name" h2load --h1 -t1 -c"$CONNECTIONS" \
        --rps="$(h2load_rps "$rate" "$CONNECTIONS")" -D "$DURATION" "$url"
      m="$(parse_h2load "$name")" ;;
    oha)
      run_tool "$name" "$OHA" -z "${DURATION}s" -c "$CONNECTIONS" -q "$rate" --latency-correction --worker-threads 1 \
        --no-tui --output-format json "$url"
      m="$(parse_oha "$name")" ;;
    vegeta)
      printf 'GET %s\n' "$url" >"$tmp/$name.targets"
      run_tool "$name" "$VEGETA" attack -targets="$tmp/$name.targets" -rate="$rate" -duration="${DURATION}s" \
        -connections="$CONNECTIONS" -max-connections="$CONNECTIONS" -workers="$CONNECTIONS" \
        -max-workers="$CONNECTIONS" -output="$tmp/$name.bin"
      m="$(parse_vegeta "$name")" ;;
  esac
  wall="$(cat "$tmp/$name.wall")"
  # shellcheck disable=SC2086
  set -- $m
  # loadlab's own process also ran its warm-up and JVM start: its share is its window's process CPU-s.
  case "$tool" in loadlab*) cpu="$7"; wall="$DURATION" ;; *) cpu="$6" ;; esac
  awk -v ach="$3" -v err="$4" -v cpu="$cpu" -v wall="$wall" -v srv="$(nginx_cpu_since "$before")" \
      -v runwall="$(cat "$tmp/$name.wall")" -v lb="$lb" \
    'BEGIN { printf "%.0f %d %.3f %.3f %d\n", ach, err, cpu / wall, srv / runwall, lb }'
}

echo "Highest sustained fixed rate: nginx 1 worker on core $NGINX_CORE, each tool on core $LOAD_CORE," \
     "$CONNECTIONS connections, ${DURATION}s per try."
echo "Sustained: achieved >= 99% of the rate, no error, the tool not load-bound; nginx under 90% of its core."
echo "cpu = the tool's CPU-s per second of its window (loadlab: its in-window process CPU-s); nginx = nginx's"
echo "CPU-s per second of the run; steal-s = the hypervisor's steal during the try."
printf '%-12s %8s %9s %7s %6s %6s %6s %7s  %s\n' tool rate achieved ratio errors cpu nginx steal-s verdict
declare -A best=() why=() out=()
i=0
for rate in "${rates[@]}"; do
  n=${#tools[@]}
  for k in $(seq 0 $((n - 1))); do
    tool="${tools[$(((k + i) % n))]}"
    [ -z "${out[$tool]:-}" ] || continue
    one_try "$tool" "$rate" >"$tmp/try"  # not in a subshell: cleanup must see the tool's PID
    read -r ach err share srv lb <"$tmp/try"
    verdict=sustained
    if awk -v s="$srv" 'BEGIN { exit !(s >= 0.90) }'; then verdict=server-bound
    elif [ "$err" -gt 0 ]; then verdict="errors"
    elif awk -v a="$ach" -v r="$rate" 'BEGIN { exit !(a < 0.99 * r) }'; then verdict="below 99%"
    elif [ "$lb" = 1 ] || { [[ "$tool" != loadlab* ]] && awk -v s="$share" 'BEGIN { exit !(s >= 0.90) }'; }; then
      verdict=load-bound
    fi
    printf '%-12s %8d %9d %7.3f %6d %6.2f %6.2f %7s  %s\n' "$tool" "$rate" "$ach" \
      "$(awk -v a="$ach" -v r="$rate" 'BEGIN { print a / r }')" "$err" "$share" "$srv" \
      "$(cat "$tmp/$tool-$rate.steal")" "$verdict"
    case "$verdict" in
      sustained) best[$tool]="$rate" ;;
      server-bound) why[$tool]="nginx was the limit at $rate/s"; out[$tool]=1 ;;
      *) why[$tool]="$verdict at $rate/s (achieved $ach)"; out[$tool]=1 ;;
    esac
    sleep 1  # let connections close before the next try
  done
  i=$((i + 1))
done

echo
echo "Summary: the highest rate each tool sustained on one load core"
printf '%-12s %12s  %s\n' tool "rate (req/s)" "the next rate"
for tool in "${tools[@]}"; do
  printf '%-12s %12s  %s\n' "$tool" "${best[$tool]:-none}" "${why[$tool]:-every rate tried was sustained}"
done
