#!/usr/bin/env bash
# engine-vs-wrk.sh: compare Loadlab's load engine with wrk (and h2load) against one nginx.
#
# nginx (bench/nginx.conf, 1 worker, "Hello, World!" from memory) runs pinned to
# one core, the load generator to another. Sections, each in ROUNDS rounds
# that alternate which tool goes first:
#   closed     wrk -t1 -cC against loadlab load -t1 -cC (default flags: steady warm-up);
#   pipelined  the same with PIPELINE requests in flight per connection (wrk with a
#              Lua script that sends PIPELINE requests at once, loadlab --pipeline);
#              nginx writes each answer on its own and is the limit here (its core
#              busy all the window), so both tools wait on it;
#   gen-bound  pipelined as above, against bench/batch-server.c instead of nginx (on
#              the same core): it writes all the answers of one read at once, for a
#              fraction of nginx's CPU, so the generator is the limit and the figure
#              is the generators' own (needs cc to build it);
#   fixed      a fixed rate RATE below saturation, h2load --h1 --rps (per client)
#              against loadlab -R: what it costs, in CPU-s per million requests;
#   fixed-grid the same rate and h2load against loadlab -R --pace-slack C/RATE: Loadlab on
#              h2load's own schedule (one request per connection per C/RATE, bench/lib.sh
#              grid_slack), the hold counted in its latency, so both tools in one table;
#   fixed-vegeta  the same rate, vegeta attack (-rate, CONNECTIONS connections and
#              workers, keep-alive) against loadlab -R. vegeta is built once with
#              go install into Loadlab's tools cache (bench/lib.sh, vegeta_bin);
#   closed-oha oha -z -cC --worker-threads 1 against loadlab's closed loop, as closed;
#   fixed-oha  oha -q RATE --latency-correction against loadlab -R, as fixed (oha from
#              the tools cache, where scripts/setup test builds it).
# For every run it measures:
#   - requests/s as the tool reports it;
#   - CPU seconds of the whole load-generator process, from outside (user+sys
#     from /usr/bin/time; for loadlab this includes JVM start-up and JIT), and
#     the answers the whole process got (for loadlab: its window's plus its
#     warm-up's, from warmup_rps x 0.5 s), so whole-process figures count both;
#   - syscalls of the whole process (perf stat -e raw_syscalls:sys_enter), per answer;
#   - for loadlab also its own in-window figures from --json: process_cpu_s
#     (whole JVM, measured window only) and load_cpu_s (engine event-loop threads);
#   - the server's CPU seconds (nginx: master + workers; utime+stime from /proc) during
#     the run, against every answer of the run (ans/srv-s).
# In the fixed sections on the even schedule (fixed, fixed-vegeta, fixed-oha without PACE_SLACK) it
# also prints, at the end, Loadlab's send lateness (p99, p99.9, max from --json's
# pacing.send_lateness_us) beside the host's floor: bench/pace-floor.c (built with cc when cc is
# there), a C loop that sleeps to each due time of the same schedule on the load core and does
# nothing else, run once per round before the tools. A p99.9 target is judged against that floor.
#
# Usage: bench/engine-vs-wrk.sh [-r ROUNDS] [-d SECONDS] [-c CONNECTIONS]
#                               [--sections closed,pipelined,gen-bound,fixed,fixed-grid,fixed-vegeta,closed-oha,fixed-oha]
#                               [--pipeline N] [--rate RPS]
#   or   ROUNDS=3 DURATION=10 CONNECTIONS=64 bench/engine-vs-wrk.sh
# Other environment: NGINX_CORE (0), LOAD_CORE (1): the cores to pin to;
#   SECTIONS (closed,pipelined,gen-bound,fixed,fixed-grid,fixed-vegeta,closed-oha,fixed-oha), PIPELINE (16),
#   RATE (20000); PACE_SLACK: loadlab's --pace-slack in the fixed, fixed-vegeta and fixed-oha sections
#   (default: loadlab's own, 0; fixed-grid always uses C/RATE);
#   RAW_DIR: when set, the raw output of every run is copied there;
#   LOADLAB_JAVA_OPTS: passed on to the JVM by ./loadlab. For a JFR profile add -Xlog:jfr+startup=off
#     (-XX:StartFlightRecording=filename=F.jfr,settings=profile), or its banner on stdout breaks the JSON.
set -euo pipefail
export LC_ALL=C

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
BENCH=engine-vs-wrk
# shellcheck source=bench/lib.sh
. "$here/lib.sh"

ROUNDS="${ROUNDS:-3}"
DURATION="${DURATION:-10}"
CONNECTIONS="${CONNECTIONS:-64}"
NGINX_CORE="${NGINX_CORE:-0}"
LOAD_CORE="${LOAD_CORE:-1}"
RAW_DIR="${RAW_DIR:-}"
SECTIONS="${SECTIONS:-closed,pipelined,gen-bound,fixed,fixed-grid,fixed-vegeta,closed-oha,fixed-oha}"
PIPELINE="${PIPELINE:-16}"
RATE="${RATE:-20000}"

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }

while [ $# -gt 0 ]; do
  case "$1" in
    -r|--rounds) ROUNDS="${2:?}"; shift 2 ;;
    -d|--duration) DURATION="${2:?}"; shift 2 ;;
    -c|--connections) CONNECTIONS="${2:?}"; shift 2 ;;
    --sections) SECTIONS="${2:?}"; shift 2 ;;
    --pipeline) PIPELINE="${2:?}"; shift 2 ;;
    --rate) RATE="${2:?}"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
DURATION="${DURATION%s}"
for v in ROUNDS DURATION CONNECTIONS NGINX_CORE LOAD_CORE PIPELINE RATE; do
  [[ "${!v}" =~ ^[0-9]+$ ]] || die "$v must be a whole number (got '${!v}')"
done
[ "$ROUNDS" -ge 1 ] && [ "$DURATION" -ge 1 ] && [ "$CONNECTIONS" -ge 1 ] && [ "$PIPELINE" -ge 1 ] \
  && [ "$RATE" -ge "$CONNECTIONS" ] \
  || die "ROUNDS, DURATION, CONNECTIONS and PIPELINE must be at least 1, RATE at least CONNECTIONS"
IFS=, read -r -a sections <<<"$SECTIONS"
for sec in "${sections[@]}"; do
  case "$sec" in closed|pipelined|gen-bound|fixed|fixed-grid|fixed-vegeta|closed-oha|fixed-oha) ;;
    *) die "--sections takes closed, pipelined, gen-bound, fixed, fixed-grid, fixed-vegeta, closed-oha and fixed-oha, got '$sec'" ;; esac
done

need=(wrk nginx taskset awk)
[[ ",$SECTIONS," != *,fixed,* && ",$SECTIONS," != *,fixed-grid,* ]] || need+=(h2load)
[[ ",$SECTIONS," != *,gen-bound,* ]] || need+=(cc)
bench_need "${need[@]}"
bench_setup
VEGETA=""
[[ ",$SECTIONS," != *,fixed-vegeta,* ]] || VEGETA="$(vegeta_bin)"
OHA=""
[[ ",$SECTIONS," != *-oha,* ]] || OHA="$(oha_bin)"

# --- build loadlab once, outside any measurement ------------------------------
echo "engine-vs-wrk: building/checking loadlab..." >&2
"$root/loadlab" --version >&2 || die "./loadlab --version failed"

plain_url() { url="http://127.0.0.1:$PORT/plaintext"; }
bench_start_nginx "$here/nginx.conf" PORT plain_url
nginx_url="$url"

# start_batch_server: builds bench/batch-server.c and starts it on NGINX_CORE; sets batch_url, batch_pid.
start_batch_server() {
  local port i
  cc -O2 -o "$tmp/batch-server" "$here/batch-server.c" || die "cannot build bench/batch-server.c with cc"
  for i in 1 2 3; do
    port="$(pick_port)" || die "found no free port"
    taskset -c "$NGINX_CORE" "$tmp/batch-server" "$port" </dev/null >"$tmp/batch-server.out" 2>&1 &
    batch_pid=$!
    other_servers+=("$batch_pid")
    batch_url="http://127.0.0.1:$port/plaintext"
    for _ in $(seq 50); do
      kill -0 "$batch_pid" 2>/dev/null || break
      answers "$batch_url" && break 2
      sleep 0.1
    done
    echo "$BENCH: batch-server did not come up on $batch_url (attempt $i):" >&2
    tail -3 "$tmp/batch-server.out" >&2 || true
    stop_pids "$batch_pid"
  done
  answers "$batch_url" || die "could not start bench/batch-server"
  echo "$BENCH: batch-server PID $batch_pid on core $NGINX_CORE, $batch_url" >&2
}
[[ ",$SECTIONS," != *,gen-bound,* ]] || start_batch_server

# The host's floor for the fixed sections (bench/pace-floor.c), when a C compiler is there.
FLOOR=""
if [[ ",$SECTIONS," =~ ,fixed(-vegeta|-oha)?, ]] && [ -z "${PACE_SLACK:-}" ]; then FLOOR="$(floor_bin)"; fi
: >"$tmp/lateness"
# floor_run SECTION ROUND: the floor at RATE for DURATION on the load core; appends its lateness.
floor_run() {
  [ -n "$FLOOR" ] || return 0
  echo "engine-vs-wrk: $1, round $2/$ROUNDS: the host's floor (bench/pace-floor.c, ${RATE}/s)..." >&2
  taskset -c "$LOAD_CORE" "$FLOOR" "$RATE" "$DURATION" >"$tmp/$1-r$2-floor.out" 2>&1 \
    || die "bench/pace-floor.c failed: $(tail -3 "$tmp/$1-r$2-floor.out")"
  awk -v sec="$1" -v r="$2" '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] } }
    END { print sec, r, "floor", v["late_p99_us"], v["late_p999_us"], v["late_max_us"] }' \
    "$tmp/$1-r$2-floor.out" >>"$tmp/lateness"
}
# even_schedule SECTION: whether Loadlab runs that section on the even schedule (no --pace-slack), the
# schedule the floor keeps; on a grid a request may be held to its slot's end, which its lateness counts.
even_schedule() {
  case "$1" in fixed|fixed-vegeta|fixed-oha) [ -z "${PACE_SLACK:-}" ] ;; *) return 1 ;; esac
}
# loadlab_lateness SECTION ROUND NAME: appends the send lateness of a fixed-rate loadlab run.
loadlab_lateness() {
  local f
  if [ "$JSON" = jq ]; then
    f="$(jq -r '.pacing.send_lateness_us | "\(.p99) \(.p999) \(.max)"' "$tmp/$3.out")"
  else
    f="$(python3 -c 'import json,sys
p = json.load(open(sys.argv[1]))["pacing"]["send_lateness_us"]
print(p["p99"], p["p999"], p["max"])' "$tmp/$3.out")"
  fi || { echo "$BENCH: no send lateness in $3's JSON" >&2; return 0; }
  echo "$1 $2 loadlab $f" >>"$tmp/lateness"
}

one_run() {  # SECTION ROUND TOOL
  local sec="$1" r="$2" tool="$3" name="$1-r$2-$3" before m rebuilt=0 per_client ngx server
  [ "$tool" != loadlab ] || loadlab_prebuild
  echo "engine-vs-wrk: $sec, round $r/$ROUNDS: $tool (${DURATION}s, $CONNECTIONS connections)..." >&2
  if [ "$sec" = gen-bound ]; then server="$batch_pid" url="$batch_url"; else server="$nginx_pid" url="$nginx_url"; fi
  before="$(server_ticks "$server")"
  case "$sec:$tool" in
    closed:wrk) run_tool "$name" wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" "$url"
         m="$(parse_wrk "$name")" ;;
    pipelined:wrk|gen-bound:wrk) run_tool "$name" wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" -s "$tmp/pipeline.lua" "$url"
         m="$(parse_wrk "$name")" ;;
    fixed:h2load|fixed-grid:h2load)
         per_client="$(h2load_rps "$RATE" "$CONNECTIONS")"
         run_tool "$name" h2load --h1 -t1 -c"$CONNECTIONS" --rps="$per_client" -D "$DURATION" "$url"
         m="$(parse_h2load "$name")" ;;
    closed:loadlab|closed-oha:loadlab) run_tool "$name" "$root/loadlab" load -t1 -c"$CONNECTIONS" -d"${DURATION}s" --json "$url"
         m="$(parse_loadlab "$name")" ;;
    pipelined:loadlab|gen-bound:loadlab) run_tool "$name" "$root/loadlab" load -t1 -c"$CONNECTIONS" --pipeline "$PIPELINE" \
           -d"${DURATION}s" --json "$url"
         m="$(parse_loadlab "$name")" ;;
    fixed-vegeta:vegeta)
         printf 'GET %s\n' "$url" >"$tmp/$name.targets"
         run_tool "$name" "$VEGETA" attack -targets="$tmp/$name.targets" -rate="$RATE" -duration="${DURATION}s" \
           -connections="$CONNECTIONS" -max-connections="$CONNECTIONS" -workers="$CONNECTIONS" \
           -max-workers="$CONNECTIONS" -output="$tmp/$name.bin"
         m="$(parse_vegeta "$name")" ;;
    closed-oha:oha) run_tool "$name" "$OHA" -z "${DURATION}s" -c "$CONNECTIONS" --worker-threads 1 --no-tui \
           --output-format json "$url"
         m="$(parse_oha "$name")" ;;
    fixed-oha:oha) run_tool "$name" "$OHA" -z "${DURATION}s" -c "$CONNECTIONS" -q "$RATE" --latency-correction \
           --worker-threads 1 --no-tui --output-format json "$url"
         m="$(parse_oha "$name")" ;;
    fixed-grid:loadlab) run_tool "$name" "$root/loadlab" load -t1 -c"$CONNECTIONS" -R "$RATE" \
           --pace-slack "$(grid_slack "$RATE" "$CONNECTIONS")" -d"${DURATION}s" --json "$url"
         m="$(parse_loadlab "$name")" ;;
    fixed:loadlab|fixed-vegeta:loadlab|fixed-oha:loadlab) run_tool "$name" "$root/loadlab" load -t1 -c"$CONNECTIONS" -R "$RATE" \
           ${PACE_SLACK:+--pace-slack "$PACE_SLACK"} -d"${DURATION}s" --json "$url"
         m="$(parse_loadlab "$name")" ;;
  esac
  ngx="$(server_cpu_since "$before" "$server")"
  kill -0 "$server" 2>/dev/null || die "the server (PID $server) died during the run"
  [ "$tool" != loadlab ] || rebuilt="$(loadlab_rebuilt "$name" "$r")"
  record "$sec" "$r" "$tool" "$m" "$ngx" "$rebuilt"
  if [ "$tool" = loadlab ] && even_schedule "$sec"; then loadlab_lateness "$sec" "$r" "$name"; fi
}

# wrk's usual pipelining script: each request() call returns PIPELINE requests written at once.
cat >"$tmp/pipeline.lua" <<LUA
init = function(args)
  local r = {}
  for i = 1, $PIPELINE do r[i] = wrk.format() end
  req = table.concat(r)
end
request = function() return req end
LUA

echo "Loadlab engine vs wrk and h2load: nginx 1 worker on core $NGINX_CORE, load on core $LOAD_CORE," \
     "$CONNECTIONS connections, 1 thread, ${DURATION}s per run, $ROUNDS round(s) per section, $nginx_url"
echo "Sections: $SECTIONS (pipelined and gen-bound: $PIPELINE in flight per connection; fixed sections: $RATE requests/s in all)."
echo "gen-bound: against bench/batch-server.c on core $NGINX_CORE (all of a read's answers in one write), not nginx."
echo "CPU-s = user+sys of the whole load-generator process from outside (for loadlab: JVM start-up, JIT and GC"
echo "included); req/CPU-s divides every answer it got (loadlab: window and warm-up) by it."
echo "win = loadlab's process_cpu_s (whole JVM, measured window only); eng = loadlab's load_cpu_s (event-loop threads)."
echo "sys/ans = syscalls of the whole process per answer it got (perf stat raw_syscalls:sys_enter)."
echo "server-s = the server's CPU-s over the whole run; ans/srv-s = every answer of the run per server CPU-s."
echo "steal-s = the hypervisor's steal time of all CPUs during the run (/proc/stat): above 0 the host was busy too."
echo "loadlab! = the launcher rebuilt the jar inside that run (sources changed meanwhile), so its CPU-s includes the build."
echo
header
for sec in "${sections[@]}"; do
  other=wrk
  [ "$sec" != fixed ] && [ "$sec" != fixed-grid ] || other=h2load
  [ "$sec" != fixed-vegeta ] || other=vegeta
  case "$sec" in *-oha) other=oha ;; esac
  for r in $(seq "$ROUNDS"); do
    if even_schedule "$sec"; then floor_run "$sec" "$r"; fi
    for tool in $(bench_order "$r" "$other"); do
      one_run "$sec" "$r" "$tool"
      sleep 1  # let connections close before the next run
    done
  done
done

bench_summary "closed pipelined gen-bound fixed fixed-grid fixed-vegeta closed-oha fixed-oha"

# Send lateness of the fixed sections, µs: each round's Loadlab beside the floor of the same round.
if [ -s "$tmp/lateness" ]; then
  echo
  echo "Send lateness at ${RATE}/s, µs (loadlab: pacing.send_lateness_us; floor: bench/pace-floor.c, same round):"
  awk "$AWK_T95"'
    function stat(k,    m, sd, h) {
      m = s[k] / n[k]
      if (n[k] < 2) return sprintf("%.0f (one round)", m)
      sd = (ss[k] - n[k] * m * m) / (n[k] - 1); sd = sd > 0 ? sqrt(sd) : 0
      h = t95(n[k] - 1) * sd / sqrt(n[k])
      return sprintf("%.0f [%.0f, %.0f], CV %.0f%%", m, m - h, m + h, m > 0 ? 100 * sd / m : 0)
    }
    { printf "  %-13s round %-2s %-8s p99 %8.0f  p99.9 %8.0f  max %8.0f\n", $1, $2, $3, $4, $5, $6
      k = $1 ":" $3; s[k] += $5; ss[k] += $5 * $5; n[k]++; if ($5 < 1000) under[k]++
      if (!($1 in seen)) { seen[$1] = 1; order[++ns] = $1 } }
    END {
      for (i = 1; i <= ns; i++) for (t = 1; t <= 2; t++) {
        tool = t == 1 ? "loadlab" : "floor"; k = order[i] ":" tool
        if (n[k]) printf "  %-13s %-8s p99.9 mean %s, n=%d, under 1 ms in %d of %d\n", order[i], tool, stat(k), n[k], under[k] + 0, n[k]
      }
    }' "$tmp/lateness"
fi
