#!/usr/bin/env bash
# engine-vs-wrk.sh: compare Loadlab's load engine with wrk (and h2load) against one nginx.
#
# nginx (bench/nginx.conf, 1 worker, "Hello, World!" from memory) runs pinned to
# one core, the load generator to another. Three sections, each in ROUNDS rounds
# that alternate which tool goes first:
#   closed     wrk -t1 -cC against loadlab load -t1 -cC (default flags: steady warm-up);
#   pipelined  the same with PIPELINE requests in flight per connection (wrk with a
#              Lua script that sends PIPELINE requests at once, loadlab --pipeline);
#              nginx is not the limit there, so the figure is the generators' own;
#   fixed      a fixed rate RATE below saturation, h2load --h1 --rps (per client)
#              against loadlab -R: what it costs, in CPU-s per million requests.
# For every run it measures:
#   - requests/s as the tool reports it;
#   - CPU seconds of the whole load-generator process, from outside (user+sys
#     from /usr/bin/time; for loadlab this includes JVM start-up and JIT), and
#     the answers the whole process got (for loadlab: its window's plus its
#     warm-up's, from warmup_rps x 0.5 s), so whole-process figures count both;
#   - syscalls of the whole process (perf stat -e raw_syscalls:sys_enter), per answer;
#   - for loadlab also its own in-window figures from --json: process_cpu_s
#     (whole JVM, measured window only) and load_cpu_s (engine event-loop threads);
#   - nginx CPU seconds (master + workers, utime+stime from /proc) during the run.
#
# Usage: bench/engine-vs-wrk.sh [-r ROUNDS] [-d SECONDS] [-c CONNECTIONS]
#                               [--sections closed,pipelined,fixed] [--pipeline N] [--rate RPS]
#   or   ROUNDS=3 DURATION=10 CONNECTIONS=64 bench/engine-vs-wrk.sh
# Other environment: NGINX_CORE (0), LOAD_CORE (1): the cores to pin to;
#   SECTIONS (closed,pipelined,fixed), PIPELINE (16), RATE (20000);
#   PACE_SLACK: loadlab's --pace-slack in the fixed section (default: loadlab's own, 0);
#   RAW_DIR: when set, the raw output of every run is copied there;
#   LOADLAB_JAVA_OPTS: passed on to the JVM by ./loadlab.
set -euo pipefail
export LC_ALL=C

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"

ROUNDS="${ROUNDS:-3}"
DURATION="${DURATION:-10}"
CONNECTIONS="${CONNECTIONS:-64}"
NGINX_CORE="${NGINX_CORE:-0}"
LOAD_CORE="${LOAD_CORE:-1}"
RAW_DIR="${RAW_DIR:-}"
SECTIONS="${SECTIONS:-closed,pipelined,fixed}"
PIPELINE="${PIPELINE:-16}"
RATE="${RATE:-20000}"

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }
die() { echo "engine-vs-wrk: $*" >&2; exit 1; }

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
  case "$sec" in closed|pipelined|fixed) ;; *) die "--sections takes closed, pipelined and fixed, got '$sec'" ;; esac
done

# --- tools -------------------------------------------------------------------
missing=()
command -v wrk >/dev/null 2>&1 || missing+=(wrk)
[[ ",$SECTIONS," != *,fixed,* ]] || command -v h2load >/dev/null 2>&1 || missing+=(h2load)
NGINX="$(command -v nginx 2>/dev/null || true)"
[ -n "$NGINX" ] || { [ -x /usr/sbin/nginx ] && NGINX=/usr/sbin/nginx; } || missing+=(nginx)
command -v taskset >/dev/null 2>&1 || missing+=(taskset)
command -v awk >/dev/null 2>&1 || missing+=(awk)
if [ ${#missing[@]} -gt 0 ]; then
  echo "engine-vs-wrk: missing: ${missing[*]}" >&2
  echo "  install with: apt-get install -y wrk nginx-light util-linux nghttp2-client   (taskset is in util-linux, h2load in nghttp2-client)" >&2
  exit 2
fi
if command -v jq >/dev/null 2>&1; then JSON=jq
elif command -v python3 >/dev/null 2>&1; then JSON=python3
else die "jq or python3 is needed to read loadlab's JSON (apt-get install -y jq)"; fi
TIME_BIN=""
if [ -x /usr/bin/time ] && /usr/bin/time -f '%U %S' -o /dev/null true 2>/dev/null; then
  TIME_BIN=/usr/bin/time
else
  echo "engine-vs-wrk: /usr/bin/time (GNU) not found, using the shell's 'times' instead" \
       "(apt-get install -y time for the usual way)" >&2
fi
for core in "$NGINX_CORE" "$LOAD_CORE"; do
  taskset -c "$core" true 2>/dev/null || die "cannot pin to core $core (this machine has $(nproc) cores)"
done
[ "$NGINX_CORE" != "$LOAD_CORE" ] || echo "engine-vs-wrk: warning: nginx and the load share core $NGINX_CORE" >&2
TCK="$(getconf CLK_TCK 2>/dev/null || echo 100)"
PERF=""
if command -v perf >/dev/null 2>&1 && perf stat -e raw_syscalls:sys_enter -x, -o /dev/null true 2>/dev/null; then
  PERF=perf
else
  echo "engine-vs-wrk: perf cannot count syscalls here (apt-get install -y linux-perf, run as root or lower" \
       "kernel.perf_event_paranoid); syscalls per answer are left out" >&2
fi

# --- clean-up: always stop nginx and any running tool, delete the temp dir ----
tmp="$(mktemp -d "${TMPDIR:-/tmp}/engine-vs-wrk.XXXXXX")"
nginx_pid=""
tool_pid=""
cleaned=""

descendants() {  # PID -> its descendants, deepest last
  local c
  for c in $(pgrep -P "$1" 2>/dev/null || true); do echo "$c"; descendants "$c"; done
}
stop_pids() {  # TERM, wait up to ~5 s, then KILL
  local p i alive
  [ $# -gt 0 ] || return 0
  kill -TERM "$@" 2>/dev/null || true
  for i in $(seq 50); do
    alive=""
    for p in "$@"; do kill -0 "$p" 2>/dev/null && alive=1; done
    [ -n "$alive" ] || break
    sleep 0.1
  done
  kill -KILL "$@" 2>/dev/null || true
}
cleanup() {
  [ -z "$cleaned" ] || return 0
  cleaned=1
  trap - INT TERM
  if [ -n "$tool_pid" ]; then
    # shellcheck disable=SC2046
    stop_pids $(descendants "$tool_pid") "$tool_pid"
    wait "$tool_pid" 2>/dev/null || true
  fi
  if [ -n "$nginx_pid" ]; then
    local workers
    workers="$(descendants "$nginx_pid")"
    stop_pids "$nginx_pid"
    # shellcheck disable=SC2086
    [ -z "$workers" ] || stop_pids $workers
    wait "$nginx_pid" 2>/dev/null || true
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'echo "engine-vs-wrk: interrupted" >&2; exit 130' INT
trap 'echo "engine-vs-wrk: terminated" >&2; exit 143' TERM

# --- build loadlab once, outside any measurement ------------------------------
echo "engine-vs-wrk: building/checking loadlab..." >&2
"$root/loadlab" --version >&2 || die "./loadlab --version failed"

# --- nginx ---------------------------------------------------------------------
pick_port() {
  if command -v python3 >/dev/null 2>&1; then
    python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'
  else
    local p
    for _ in $(seq 100); do
      p=$((20000 + RANDOM % 40000))
      (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
    done
    return 1
  fi
}
answers() {  # URL -> 0 when nginx gives 200 "Hello, World!"
  if command -v curl >/dev/null 2>&1; then
    [ "$(curl -fsS --max-time 1 "$1" 2>/dev/null)" = "Hello, World!" ]
  else
    local r
    r="$(timeout 1 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$0"; printf "GET /plaintext HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" >&3; cat <&3' "$port" 2>/dev/null)" || return 1
    [[ "$r" == "HTTP/1.1 200"*"Hello, World!"* ]]
  fi
}
start_nginx() {
  mkdir -p "$tmp/nginx"
  sed -e "s|@PORT@|$port|g" -e "s|@TMP@|$tmp/nginx|g" "$here/nginx.conf" >"$tmp/nginx/nginx.conf"
  taskset -c "$NGINX_CORE" "$NGINX" -p "$tmp/nginx/" -e "$tmp/nginx/error.log" \
    -c "$tmp/nginx/nginx.conf" </dev/null >"$tmp/nginx/stdout" 2>&1 &
  nginx_pid=$!
  local i
  for i in $(seq 100); do  # up to ~10 s
    if ! kill -0 "$nginx_pid" 2>/dev/null; then
      wait "$nginx_pid" 2>/dev/null || true
      nginx_pid=""
      return 1
    fi
    answers "$url" && return 0
    sleep 0.1
  done
  return 1
}
for attempt in 1 2 3; do
  port="$(pick_port)" || die "found no free port"
  url="http://127.0.0.1:$port/plaintext"
  start_nginx && break
  echo "engine-vs-wrk: nginx did not come up on port $port (attempt $attempt):" >&2
  cat "$tmp/nginx/stdout" "$tmp/nginx/error.log" 2>/dev/null | tail -5 >&2 || true
  if [ -n "$nginx_pid" ]; then stop_pids "$nginx_pid"; wait "$nginx_pid" 2>/dev/null || true; nginx_pid=""; fi
  [ "$attempt" -lt 3 ] || die "could not start nginx"
done
[ "$(cat "/proc/$nginx_pid/comm" 2>/dev/null)" = nginx ] || die "PID $nginx_pid is not nginx"
echo "engine-vs-wrk: nginx PID $nginx_pid (workers: $(pgrep -P "$nginx_pid" | paste -sd' ')) on core $NGINX_CORE, $url" >&2

nginx_ticks() {  # utime+stime of the nginx master and its workers, in clock ticks
  local p t=0 f
  for p in "$nginx_pid" $(pgrep -P "$nginx_pid" 2>/dev/null || true); do
    f="$(cat "/proc/$p/stat" 2>/dev/null)" || continue
    f="${f##*) }"  # fields from 'state' on: utime and stime are the 12th and 13th
    t=$((t + $(awk '{print $12 + $13}' <<<"$f")))
  done
  echo "$t"
}

# --- one measured run ----------------------------------------------------------
# run_tool NAME CMD... : runs CMD on LOAD_CORE; stdout/stderr in $tmp/NAME.out/.err,
# "user sys" CPU seconds of the whole process tree in $tmp/NAME.cpu, wall in $tmp/NAME.wall
run_tool() {
  local name="$1"; shift
  local rc=0 t0 t1
  t0="$(date +%s%N)"
  : >"$tmp/$name.perf"
  if [ -n "$PERF" ]; then  # counts the tool's whole process tree; perf itself is outside it
    set -- perf stat -e raw_syscalls:sys_enter -x, -o "$tmp/$name.perf" -- "$@"
  fi
  if [ -n "$TIME_BIN" ]; then
    taskset -c "$LOAD_CORE" "$TIME_BIN" -f '%U %S' -o "$tmp/$name.time" "$@" \
      </dev/null >"$tmp/$name.out" 2>"$tmp/$name.err" &
  else
    (
      taskset -c "$LOAD_CORE" "$@" </dev/null >"$tmp/$name.out" 2>"$tmp/$name.err"
      rc=$?
      times >"$tmp/$name.times"
      exit $rc
    ) &
  fi
  tool_pid=$!
  wait "$tool_pid" || rc=$?
  tool_pid=""
  t1="$(date +%s%N)"
  awk -v a="$t0" -v b="$t1" 'BEGIN{printf "%.3f\n", (b-a)/1e9}' >"$tmp/$name.wall"
  if [ -n "$TIME_BIN" ]; then
    tail -n1 "$tmp/$name.time" >"$tmp/$name.cpu"
  else  # 2nd line of 'times': children's user and system time, like 0m1.230s 0m0.040s
    sed -n 2p "$tmp/$name.times" | awk '{
      for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); printf "%.3f%s", a[1]*60 + a[2], (i == 1 ? " " : "\n") } }' \
      >"$tmp/$name.cpu"
  fi
  if [ -n "$RAW_DIR" ]; then
    mkdir -p "$RAW_DIR"
    for f in out err cpu wall perf; do cp "$tmp/$name.$f" "$RAW_DIR/$name.$f"; done
  fi
  if [ "$rc" -ne 0 ]; then
    echo "engine-vs-wrk: $name failed (exit $rc):" >&2
    tail -20 "$tmp/$name.err" "$tmp/$name.out" >&2 || true
    exit 1
  fi
}

# Each parser prints: requests answers rps errors wall_s cpu_ext_s win_cpu_s engine_cpu_s syscalls
# ('-' when n/a). requests are the tool's counted (measured) answers; answers are all the answers
# the whole process got, warm-up included: what its whole-process CPU-s and syscalls paid for.
syscalls_of() {  # NAME -> the count perf wrote, or '-'
  awk -F, '$3 ~ /raw_syscalls:sys_enter/ && $1 ~ /^[0-9]+$/ { print $1; found = 1 } END { if (!found) print "-" }' \
    "$tmp/$1.perf" 2>/dev/null || echo -
}
parse_wrk() {
  local o="$tmp/$1.out"
  awk -v cpu="$(cat "$tmp/$1.cpu")" -v wall="$(cat "$tmp/$1.wall")" -v sys="$(syscalls_of "$1")" '
    / requests in / { req = $1 }
    /^Requests\/sec:/ { rps = $2 }
    /Socket errors:/ { for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+,?$/) err += $i }
    /Non-2xx or 3xx responses:/ { err += $NF }
    END {
      if (req == "" || rps == "") exit 1
      split(cpu, c, " ")
      printf "%d %d %s %d %s %.2f - - %s\n", req, req, rps, err, wall, c[1] + c[2], sys
    }' "$o" || { echo "engine-vs-wrk: cannot read wrk's output:" >&2; cat "$o" >&2; exit 1; }
}
parse_h2load() {
  local o="$tmp/$1.out"
  awk -v cpu="$(cat "$tmp/$1.cpu")" -v wall="$(cat "$tmp/$1.wall")" -v sys="$(syscalls_of "$1")" '
    /^finished in/ { rps = $4 }
    /^requests:/ { ok = $8; err = $10 + $12 + $14 }
    END {
      if (ok == "" || rps == "") exit 1
      split(cpu, c, " ")
      printf "%d %d %s %d %s %.2f - - %s\n", ok, ok, rps, err, wall, c[1] + c[2], sys
    }' "$o" || { echo "engine-vs-wrk: cannot read h2load's output:" >&2; cat "$o" >&2; exit 1; }
}
parse_loadlab() {
  local o="$tmp/$1.out" fields
  # warmup_rps holds the throughput of each 0.5 s warm-up interval (SteadyState.INTERVAL_MS).
  if [ "$JSON" = jq ]; then
    fields="$(jq -r '[.requests, ((.warmup_rps | add // 0) * 0.5 | round), .rps, ([.errors[]] | add),
      .process_cpu_s, .load_cpu_s] | map(tostring) | join(" ")' "$o")"
  else
    fields="$(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
print(d["requests"], round(sum(d.get("warmup_rps") or []) * 0.5), repr(float(d["rps"])),
      sum(d["errors"].values()), repr(float(d["process_cpu_s"])), repr(float(d["load_cpu_s"])))' "$o")"
  fi || { echo "engine-vs-wrk: cannot read loadlab's JSON:" >&2; cat "$o" >&2; exit 1; }
  awk -v f="$fields" -v cpu="$(cat "$tmp/$1.cpu")" -v wall="$(cat "$tmp/$1.wall")" -v sys="$(syscalls_of "$1")" 'BEGIN {
    split(f, a, " "); split(cpu, c, " ")
    printf "%d %d %s %d %s %.2f %s %s %s\n", a[1], a[1] + a[2], a[3], a[4], wall, c[1] + c[2], a[5], a[6], sys }'
}

results="$tmp/results"
: >"$results"
fmt='%-9s %-5s %-8s %9s %6s %6s %7s %10s %8s %10s %8s %10s %8s %10s %9s\n'
row() {  # section round tool requests answers rps errors wall cpu win_cpu eng_cpu syscalls nginx_cpu
  awk -v fmt="$fmt" -v sec="$1" -v r="$2" -v t="$3" -v req="$4" -v ans="$5" -v rps="$6" -v err="$7" \
      -v wall="$8" -v cpu="$9" -v win="${10}" -v eng="${11}" -v sys="${12}" -v ngx="${13}" '
    function per(n, d) { return (d == "-" || d + 0 <= 0) ? "-" : sprintf("%.0f", n / d) }
    function num(x, p) { return x == "-" ? "-" : sprintf("%." p "f", x) }
    BEGIN {
      printf fmt, sec, r, t, sprintf("%.0f", rps), err, num(wall, 1), num(cpu, 2), per(ans, cpu),
             num(win, 2), per(req, win), num(eng, 2), per(req, eng), num(ngx, 2), per(req, ngx),
             (sys == "-" ? "-" : sprintf("%.3f", sys / ans))
    }'
}

one_run() {  # SECTION ROUND TOOL
  local sec="$1" r="$2" tool="$3" name="$1-r$2-$3" before after ngx m rebuilt=0 per_client
  if [ "$tool" = loadlab ]; then
    # the launcher rebuilds when the sources changed since the jar: let it do so here, untimed
    "$root/loadlab" --version >/dev/null 2>"$tmp/prebuild.err" \
      || { cat "$tmp/prebuild.err" >&2; die "./loadlab --version failed"; }
  fi
  echo "engine-vs-wrk: $sec, round $r/$ROUNDS: $tool (${DURATION}s, $CONNECTIONS connections)..." >&2
  before="$(nginx_ticks)"
  case "$sec:$tool" in
    closed:wrk) run_tool "$name" wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" "$url"
         m="$(parse_wrk "$name")" ;;
    pipelined:wrk) run_tool "$name" wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" -s "$tmp/pipeline.lua" "$url"
         m="$(parse_wrk "$name")" ;;
    fixed:h2load)
         per_client="$(awk -v r="$RATE" -v c="$CONNECTIONS" 'BEGIN { printf "%g", r / c }')"
         run_tool "$name" h2load --h1 -t1 -c"$CONNECTIONS" --rps="$per_client" -D "$DURATION" "$url"
         m="$(parse_h2load "$name")" ;;
    closed:loadlab) run_tool "$name" "$root/loadlab" load -t1 -c"$CONNECTIONS" -d"${DURATION}s" --json "$url"
         m="$(parse_loadlab "$name")" ;;
    pipelined:loadlab) run_tool "$name" "$root/loadlab" load -t1 -c"$CONNECTIONS" --pipeline "$PIPELINE" \
           -d"${DURATION}s" --json "$url"
         m="$(parse_loadlab "$name")" ;;
    fixed:loadlab) run_tool "$name" "$root/loadlab" load -t1 -c"$CONNECTIONS" -R "$RATE" \
           ${PACE_SLACK:+--pace-slack "$PACE_SLACK"} -d"${DURATION}s" --json "$url"
         m="$(parse_loadlab "$name")" ;;
  esac
  after="$(nginx_ticks)"
  ngx="$(awk -v a="$before" -v b="$after" -v t="$TCK" 'BEGIN{printf "%.2f", (b-a)/t}')"
  kill -0 "$nginx_pid" 2>/dev/null || die "nginx died during the run"
  if [ "$tool" = loadlab ] && grep -q 'loadlab: building' "$tmp/$name.err"; then
    echo "engine-vs-wrk: warning: loadlab rebuilt itself in round $r (sources changed meanwhile);" \
         "its whole-process CPU-s includes Maven and is left out of the summary" >&2
    rebuilt=1
  fi
  echo "$sec $r $tool $m $ngx $rebuilt" >>"$results"
  # shellcheck disable=SC2086
  set -- $m
  row "$sec" "$r" "$tool$([ "$rebuilt" = 0 ] || echo '!')" "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$9" "$ngx"
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
     "$CONNECTIONS connections, 1 thread, ${DURATION}s per run, $ROUNDS round(s) per section, $url"
echo "Sections: $SECTIONS (pipelined: $PIPELINE in flight per connection; fixed: $RATE requests/s in all)."
echo "CPU-s = user+sys of the whole load-generator process from outside (for loadlab: JVM start-up, JIT and GC"
echo "included); req/CPU-s divides every answer it got (loadlab: window and warm-up) by it."
echo "win = loadlab's process_cpu_s (whole JVM, measured window only); eng = loadlab's load_cpu_s (event-loop threads)."
echo "sys/ans = syscalls of the whole process per answer it got (perf stat raw_syscalls:sys_enter)."
echo "loadlab! = the launcher rebuilt the jar inside that run (sources changed meanwhile), so its CPU-s includes the build."
echo
# shellcheck disable=SC2059
printf "$fmt" section round tool req/s errors wall-s CPU-s req/CPU-s win-CPU-s req/win-s eng-CPU-s req/eng-s \
  nginx-s req/nginx-s sys/ans
for sec in "${sections[@]}"; do
  other=wrk
  [ "$sec" != fixed ] || other=h2load
  for r in $(seq "$ROUNDS"); do
    if [ $((r % 2)) -eq 1 ]; then order="$other loadlab"; else order="loadlab $other"; fi
    for tool in $order; do
      one_run "$sec" "$r" "$tool"
      sleep 1  # let connections close before the next run
    done
  done
done

# --- summary ---------------------------------------------------------------------
# results: section round tool requests answers rps errors wall cpu win eng syscalls nginx rebuilt
echo
awk -v million=1000000 '
  function mean(k) { return n[k] ? s[k] / n[k] : 0 }
  function add(k, v) { s[k] += v; n[k]++; if (!(k in lo) || v < lo[k]) lo[k] = v; if (!(k in hi) || v > hi[k]) hi[k] = v }
  function line(label, k, p) { if (n[k]) printf "  %-52s %12." p "f   (min %." p "f, max %." p "f)\n", label, mean(k), lo[k], hi[k] }
  function ratio(label, a, b) { if (n[a] && mean(b) > 0) printf "  %-52s %12.3f\n", label, mean(a) / mean(b) }
  {
    k = $1 ":" $3
    seen[$1] = 1; other[$1] = ($3 == "loadlab") ? other[$1] : $3
    add(k ":rps", $6); add(k ":errors", $7)
    if ($9 > 0 && $14 == 0) { add(k ":cpu", $5 / $9); add(k ":cpum", million * $9 / $5) }
    if ($10 != "-" && $10 > 0) add(k ":win", $4 / $10)
    if ($11 != "-" && $11 > 0) add(k ":eng", $4 / $11)
    if ($12 != "-" && $5 > 0) add(k ":sys", $12 / $5)
    if ($13 > 0) add(k ":ngx", $4 / $13)
  }
  END {
    print "Summary (means over rounds; ratios are ratios of the means):"
    split("closed pipelined fixed", order, " ")
    for (i = 1; i <= 3; i++) {
      sec = order[i]; if (!(sec in seen)) continue
      o = sec ":" other[sec]; l = sec ":loadlab"
      printf "\n%s (%s against loadlab):\n", sec, other[sec]
      line(other[sec] " requests/s", o ":rps", 0)
      line("loadlab requests/s", l ":rps", 0)
      line(other[sec] " answers per load CPU-s (whole process)", o ":cpu", 0)
      line("loadlab answers per load CPU-s (whole process)", l ":cpu", 0)
      line(other[sec] " load CPU-s per million answers", o ":cpum", 2)
      line("loadlab load CPU-s per million answers", l ":cpum", 2)
      line("loadlab requests per in-window process CPU-s", l ":win", 0)
      line("loadlab requests per engine-thread CPU-s", l ":eng", 0)
      line(other[sec] " syscalls per answer (whole process)", o ":sys", 3)
      line("loadlab syscalls per answer (whole process)", l ":sys", 3)
      line(other[sec] " requests per nginx CPU-s", o ":ngx", 0)
      line("loadlab requests per nginx CPU-s", l ":ngx", 0)
      if (s[o ":errors"] + s[l ":errors"] > 0)
        printf "  errors: %s %d, loadlab %d (in total)\n", other[sec], s[o ":errors"], s[l ":errors"]
      printf "  ratios loadlab / %s:\n", other[sec]
      ratio("  requests/s", l ":rps", o ":rps")
      ratio("  answers per load CPU-s, whole process", l ":cpu", o ":cpu")
      ratio("  requests per load CPU-s, in-window process", l ":win", o ":cpu")
      ratio("  requests per load CPU-s, engine threads", l ":eng", o ":cpu")
      ratio("  syscalls per answer", l ":sys", o ":sys")
    }
  }' "$results"
