#!/usr/bin/env bash
# connections-memory.sh: many connections on one load core, Loadlab against wrk: peak RSS and throughput.
#
# nginx (bench/nginx.conf with worker_connections raised to CONNECTIONS + 1024, 1 worker, on NGINX_CORE)
# against wrk -t1 -cC and loadlab load -t1 -cC (closed loop, default warm-up), each pinned to LOAD_CORE,
# in ROUNDS rounds that alternate which goes first. For every run: requests/s as the tool reports it,
# errors, and the peak resident set size of the tool's whole process (/usr/bin/time's %M, KiB; for
# loadlab the JVM, whose heap is sized by the launcher's defaults). The summary gives each tool's mean
# (min, max) and loadlab/wrk per round with n, mean and a 95% t interval.
#
# Usage: bench/connections-memory.sh [-r ROUNDS] [-d SECONDS] [-c CONNECTIONS]
# Environment: NGINX_CORE (0), LOAD_CORE (1), ROUNDS (3), DURATION (10), CONNECTIONS (10000), RAW_DIR.
# Needs an open-file limit above CONNECTIONS + 1024 (ulimit -n) for nginx and the tools.
set -euo pipefail
export LC_ALL=C

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
BENCH=connections-memory
# shellcheck source=bench/lib.sh
. "$here/lib.sh"

ROUNDS="${ROUNDS:-3}"
DURATION="${DURATION:-10}"
CONNECTIONS="${CONNECTIONS:-10000}"
NGINX_CORE="${NGINX_CORE:-0}"
LOAD_CORE="${LOAD_CORE:-1}"
RAW_DIR="${RAW_DIR:-}"

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }
while [ $# -gt 0 ]; do
  case "$1" in
    -r|--rounds) ROUNDS="${2:?}"; shift 2 ;;
    -d|--duration) DURATION="${2:?}"; shift 2 ;;
    -c|--connections) CONNECTIONS="${2:?}"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
DURATION="${DURATION%s}"
for v in ROUNDS DURATION CONNECTIONS NGINX_CORE LOAD_CORE; do
  [[ "${!v}" =~ ^[0-9]+$ ]] || die "$v must be a whole number (got '${!v}')"
done
[ "$ROUNDS" -ge 1 ] && [ "$DURATION" -ge 1 ] && [ "$CONNECTIONS" -ge 1 ] || die "ROUNDS, DURATION and CONNECTIONS must be at least 1"
limit="$(ulimit -n)"
[ "$limit" = unlimited ] || [ "$limit" -gt $((CONNECTIONS + 1024)) ] \
  || die "the open-file limit is $limit: raise it above $((CONNECTIONS + 1024)) (ulimit -n) or lower -c"
bench_need wrk nginx taskset awk
bench_setup
[ -n "$TIME_BIN" ] || die "GNU time is needed for the peak RSS (apt-get install -y time)"
"$root/loadlab" --version >&2 || die "./loadlab --version failed"

sed -e "s/worker_connections 4096;/worker_connections $((CONNECTIONS + 1024));/" "$here/nginx.conf" >"$tmp/nginx-many.conf"
plain_url() { url="http://127.0.0.1:$PORT/plaintext"; }
bench_start_nginx "$tmp/nginx-many.conf" PORT plain_url

# one_run ROUND TOOL: appends "round tool rps errors rss_kib steal" to $results and prints it.
one_run() {
  local r="$1" tool="$2" name="r$1-$2" rps err
  echo "$BENCH: round $r/$ROUNDS: $tool (${DURATION}s, $CONNECTIONS connections)..." >&2
  # run_tool's /usr/bin/time writes user and system CPU; the peak RSS needs its own format.
  case "$tool" in
    wrk) run_tool "$name" "$TIME_BIN" -f '%M' -o "$tmp/$name.rss" wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" "$url"
         rps="$(awk '/^Requests\/sec:/ { print $2 }' "$tmp/$name.out")"
         err="$(awk '/Socket errors:/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+,?$/) e += $i } END { print e + 0 }' "$tmp/$name.out")" ;;
    loadlab) run_tool "$name" "$TIME_BIN" -f '%M' -o "$tmp/$name.rss" "$root/loadlab" load -t1 -c"$CONNECTIONS" \
           -d"${DURATION}s" --json "$url"
         read -r rps err < <(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
print(repr(float(d["rps"])), sum(d["errors"].values()))' "$tmp/$name.out") ;;
  esac
  [ -n "$rps" ] || die "$tool printed no requests/s (see $tmp/$name.out)"
  echo "$r $tool $rps $err $(tail -n1 "$tmp/$name.rss") $(cat "$tmp/$name.steal")" | tee -a "$results"
}

echo "Many connections: nginx 1 worker on core $NGINX_CORE, the tool on core $LOAD_CORE, $CONNECTIONS connections," \
     "1 thread, ${DURATION}s per run, $ROUNDS round(s)."
echo "round tool requests/s errors peak-RSS-KiB steal-s"
for r in $(seq "$ROUNDS"); do
  for tool in $(bench_order "$r" wrk); do
    one_run "$r" "$tool"
    sleep 2  # let 10,000 connections close before the next run
  done
done

echo
awk "$AWK_T95"'
  function stats(label, k,    i, m, sd, v) {
    m = 0; for (i = 1; i <= n[k]; i++) m += x[k, i]; m /= n[k]
    sd = 0; for (i = 1; i <= n[k]; i++) sd += (x[k, i] - m) ^ 2
    sd = n[k] > 1 ? sqrt(sd / (n[k] - 1)) : 0
    if (n[k] > 1) printf "  %-34s n=%d mean %12.3f  95%% CI %.3f..%.3f, CV %.1f%%\n", label, n[k], m,
      m - t95(n[k] - 1) * sd / sqrt(n[k]), m + t95(n[k] - 1) * sd / sqrt(n[k]), (m > 0 ? 100 * sd / m : 0)
    else printf "  %-34s n=1 mean %12.3f  (one round: no interval)\n", label, m
  }
  function add(k, v) { x[k, ++n[k]] = v }
  { rps[$1, $2] = $3; rss[$1, $2] = $5; add($2 ":rps", $3); add($2 ":rss", $5 / 1024); if ($1 > maxr) maxr = $1 }
  END {
    for (r = 1; r <= maxr; r++) if (((r, "wrk") in rps) && ((r, "loadlab") in rps) && rps[r, "wrk"] > 0) {
      add("ratio:rps", rps[r, "loadlab"] / rps[r, "wrk"]); add("ratio:rss", rss[r, "loadlab"] / rss[r, "wrk"])
    }
    print "Summary:"
    stats("wrk requests/s", "wrk:rps"); stats("loadlab requests/s", "loadlab:rps")
    stats("wrk peak RSS (MiB)", "wrk:rss"); stats("loadlab peak RSS (MiB)", "loadlab:rss")
    if (n["ratio:rps"]) { stats("loadlab/wrk requests/s, per round", "ratio:rps"); stats("loadlab/wrk peak RSS, per round", "ratio:rss") }
  }' "$results"
