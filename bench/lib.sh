# lib.sh: what the benchmarks that pit `loadlab load` against other load generators share.
# Sourced (not run) by bench/engine-vs-wrk.sh, protocols-vs-tools.sh, jvm-flags.sh and pace-slack.sh, after they set:
#   BENCH       the script's name, for messages;
#   here, root  bench/ and Loadlab's folder;
#   NGINX_CORE, LOAD_CORE, ROUNDS, RAW_DIR (see each script's --help).
# It gives: die, bench_need (tools), bench_setup (JSON reader, /usr/bin/time, perf, cores, temp dir,
# clean-up traps), bench_start_nginx, nginx_ticks, run_tool, the parsers (parse_wrk, parse_h2load,
# parse_loadlab: one line of figures per run), row (one printed row per run), bench_order and
# bench_summary (means over rounds, ratios of the means, and each ratio per round with n, mean,
# min, max and a 95% t interval). State: $tmp (the temp dir), $nginx_pid, $tool_pid, $results.

die() { echo "$BENCH: $*" >&2; exit 1; }

# bench_need TOOL... : exits 2 naming the missing ones and the packages that have them.
bench_need() {
  local t missing=()
  NGINX="$(command -v nginx 2>/dev/null || true)"
  [ -n "$NGINX" ] || { [ -x /usr/sbin/nginx ] && NGINX=/usr/sbin/nginx; } || true
  for t in "$@"; do
    if [ "$t" = nginx ]; then [ -n "$NGINX" ] || missing+=(nginx)
    else command -v "$t" >/dev/null 2>&1 || missing+=("$t"); fi
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "$BENCH: missing: ${missing[*]}" >&2
    echo "  install with: apt-get install -y wrk nginx-light util-linux nghttp2-client curl openssl" \
         "  (taskset is in util-linux, h2load in nghttp2-client)" >&2
    exit 2
  fi
}

# bench_setup: the JSON reader, the CPU-time source, perf, the cores, the temp dir and the traps.
bench_setup() {
  if command -v jq >/dev/null 2>&1; then JSON=jq
  elif command -v python3 >/dev/null 2>&1; then JSON=python3
  else die "jq or python3 is needed to read loadlab's JSON (apt-get install -y jq)"; fi
  TIME_BIN=""
  if [ -x /usr/bin/time ] && /usr/bin/time -f '%U %S' -o /dev/null true 2>/dev/null; then
    TIME_BIN=/usr/bin/time
  else
    echo "$BENCH: /usr/bin/time (GNU) not found, using the shell's 'times' instead" \
         "(apt-get install -y time for the usual way)" >&2
  fi
  local core
  for core in "$NGINX_CORE" "$LOAD_CORE"; do
    taskset -c "$core" true 2>/dev/null || die "cannot pin to core $core (this machine has $(nproc) cores)"
  done
  [ "$NGINX_CORE" != "$LOAD_CORE" ] || echo "$BENCH: warning: nginx and the load share core $NGINX_CORE" >&2
  TCK="$(getconf CLK_TCK 2>/dev/null || echo 100)"
  PERF=""
  if command -v perf >/dev/null 2>&1 && perf stat -e raw_syscalls:sys_enter -x, -o /dev/null true 2>/dev/null; then
    PERF=perf
  else
    echo "$BENCH: perf cannot count syscalls here (apt-get install -y linux-perf, run as root or lower" \
         "kernel.perf_event_paranoid); syscalls per answer are left out" >&2
  fi
  tmp="$(mktemp -d "${TMPDIR:-/tmp}/$BENCH.XXXXXX")"
  nginx_pid=""
  other_servers=()  # PIDs of servers besides nginx that a script started: cleanup stops them
  tool_pid=""
  cleaned=""
  results="$tmp/results"
  : >"$results"
  trap cleanup EXIT
  trap 'echo "$BENCH: interrupted" >&2; exit 130' INT
  trap 'echo "$BENCH: terminated" >&2; exit 143' TERM
}

# --- clean-up: always stop nginx and any running tool, delete the temp dir ----
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
  if [ ${#other_servers[@]} -gt 0 ]; then
    stop_pids "${other_servers[@]}"
    wait "${other_servers[@]}" 2>/dev/null || true
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
answers() {  # URL [curl options] -> 0 when nginx gives 200 "Hello, World!"
  local u="$1"; shift
  if command -v curl >/dev/null 2>&1; then
    [ "$(curl -fsS --max-time 1 "$@" "$u" 2>/dev/null)" = "Hello, World!" ]
  else
    local r p="${u#http://127.0.0.1:}"; p="${p%%/*}"
    r="$(timeout 1 bash -c 'exec 3<>"/dev/tcp/127.0.0.1/$0"; printf "GET /plaintext HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" >&3; cat <&3' "$p" 2>/dev/null)" || return 1
    [[ "$r" == "HTTP/1.1 200"*"Hello, World!"* ]]
  fi
}
start_nginx_once() {  # TEMPLATE URL [curl options]; the template's @TMP@ and @VARS@ from $nginx_subst
  mkdir -p "$tmp/nginx"
  # shellcheck disable=SC2086
  sed -e "s|@TMP@|$tmp/nginx|g" $nginx_subst "$1" >"$tmp/nginx/nginx.conf"
  taskset -c "$NGINX_CORE" "$NGINX" -p "$tmp/nginx/" -e "$tmp/nginx/error.log" \
    -c "$tmp/nginx/nginx.conf" </dev/null >"$tmp/nginx/stdout" 2>&1 &
  nginx_pid=$!
  local i conf="$1"; shift
  for i in $(seq 100); do  # up to ~10 s
    if ! kill -0 "$nginx_pid" 2>/dev/null; then
      wait "$nginx_pid" 2>/dev/null || true
      nginx_pid=""
      return 1
    fi
    answers "$@" && return 0
    sleep 0.1
  done
  return 1
}
# bench_start_nginx TEMPLATE PORTVARS URLCMD [curl options]: picks a free port for each name in
# PORTVARS (space-separated, e.g. "PORT TLS_PORT"), sets them, replaces @NAME@ (and @TMP@, the
# folder of nginx's files, where a script may put a certificate) in the template, runs
# URLCMD (a function that sets $url from them) and waits until $url answers; 3 attempts.
bench_start_nginx() {
  local template="$1" vars="$2" urlcmd="$3" attempt v; shift 3
  for attempt in 1 2 3; do
    nginx_subst=""
    for v in $vars; do
      printf -v "$v" '%s' "$(pick_port)" || die "found no free port"
      nginx_subst="$nginx_subst -e s|@$v@|${!v}|g"
    done
    "$urlcmd"
    start_nginx_once "$template" "$url" "$@" && break
    echo "$BENCH: nginx did not come up on $url (attempt $attempt):" >&2
    cat "$tmp/nginx/stdout" "$tmp/nginx/error.log" 2>/dev/null | tail -5 >&2 || true
    if [ -n "$nginx_pid" ]; then stop_pids "$nginx_pid"; wait "$nginx_pid" 2>/dev/null || true; nginx_pid=""; fi
    [ "$attempt" -lt 3 ] || die "could not start nginx"
  done
  [ "$(cat "/proc/$nginx_pid/comm" 2>/dev/null)" = nginx ] || die "PID $nginx_pid is not nginx"
  echo "$BENCH: nginx PID $nginx_pid (workers: $(pgrep -P "$nginx_pid" | paste -sd' ')) on core $NGINX_CORE, $url" >&2
}

nginx_ticks() {  # utime+stime of the nginx master and its workers, in clock ticks
  server_ticks "$nginx_pid"
}
server_ticks() {  # PID -> utime+stime of that process and its children, in clock ticks
  local p t=0 f
  for p in "$1" $(pgrep -P "$1" 2>/dev/null || true); do
    f="$(cat "/proc/$p/stat" 2>/dev/null)" || continue
    f="${f##*) }"  # fields from 'state' on: utime and stime are the 12th and 13th
    t=$((t + $(awk '{print $12 + $13}' <<<"$f")))
  done
  echo "$t"
}

# steal_ticks: the hypervisor's steal time of every CPU so far, in clock ticks (/proc/stat): time this
# VM's CPUs were runnable but ran another guest. A run with steal measured a busy host, not the tools.
steal_ticks() {
  awk '$1 == "cpu" { print $9 + 0; exit }' /proc/stat 2>/dev/null || echo 0
}

# --- one measured run ----------------------------------------------------------
# run_tool NAME CMD... : runs CMD on LOAD_CORE; stdout/stderr in $tmp/NAME.out/.err,
# "user sys" CPU seconds of the whole process tree in $tmp/NAME.cpu, wall in $tmp/NAME.wall
run_tool() {
  local name="$1"; shift
  local rc=0 t0 t1 steal0
  steal0="$(steal_ticks)"
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
  awk -v a="$steal0" -v b="$(steal_ticks)" -v t="$TCK" 'BEGIN{printf "%.2f\n", (b-a)/t}' >"$tmp/$name.steal"
  if [ -n "$TIME_BIN" ]; then
    tail -n1 "$tmp/$name.time" >"$tmp/$name.cpu"
  else  # 2nd line of 'times': children's user and system time, like 0m1.230s 0m0.040s
    sed -n 2p "$tmp/$name.times" | awk '{
      for (i = 1; i <= 2; i++) { split($i, a, /[ms]/); printf "%.3f%s", a[1]*60 + a[2], (i == 1 ? " " : "\n") } }' \
      >"$tmp/$name.cpu"
  fi
  if [ -n "$RAW_DIR" ]; then
    mkdir -p "$RAW_DIR"
    for f in out err cpu wall perf steal; do cp "$tmp/$name.$f" "$RAW_DIR/$name.$f"; done
  fi
  if [ "$rc" -ne 0 ]; then
    echo "$BENCH: $name failed (exit $rc):" >&2
    tail -n 20 "$tmp/$name.err" "$tmp/$name.out" >&2 || true
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
    }' "$o" || { echo "$BENCH: cannot read wrk's output:" >&2; cat "$o" >&2; exit 1; }
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
    }' "$o" || { echo "$BENCH: cannot read h2load's output:" >&2; cat "$o" >&2; exit 1; }
}
# vegeta (Go; not in Debian): the version the benches use, built with `go install` from the Go module
# proxy into Loadlab's tools cache, where scripts/setup puts oha. vegeta_bin prints its path, building it
# once (about 15 s of CPU, outside any measurement).
VEGETA_VERSION=v12.13.0
# grid_slack RATE CONNECTIONS: loadlab's --pace-slack for h2load's own schedule, one request per
# connection per interval of C/RATE: that interval in whole µs, rounded down (at most 100 ms, the most
# --pace-slack takes).
grid_slack() {
  awk -v r="$1" -v c="$2" 'BEGIN { v = 1e6 * c / r; printf "%dus", (v > 100000 ? 100000 : v) }'
}

# h2load_rps RATE CONNECTIONS: h2load's --rps for RATE requests/s in all (its --rps is per client).
h2load_rps() {
  awk -v r="$1" -v c="$2" 'BEGIN { printf "%g", r / c }'
}

vegeta_bin() {
  local tools="${LOADLAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/loadlab}/tools/bin"
  if [ ! -x "$tools/vegeta" ]; then
    command -v go >/dev/null 2>&1 || die "vegeta needs go to build it (Go 1.22 or later on PATH)"
    echo "$BENCH: go install github.com/tsenart/vegeta/v12@$VEGETA_VERSION into $tools" >&2
    mkdir -p "$tools"
    GOBIN="$tools" go install "github.com/tsenart/vegeta/v12@$VEGETA_VERSION" >&2 \
      || die "could not build vegeta $VEGETA_VERSION (go install from the Go module proxy)"
  fi
  echo "$tools/vegeta"
}
# floor_bin: builds bench/pace-floor.c (the host's floor: a C loop on the load core that only sleeps
# to each due time of an even schedule) into $tmp and prints its path; prints nothing without cc.
floor_bin() {
  command -v cc >/dev/null 2>&1 || return 0
  cc -O2 -o "$tmp/pace-floor" "$(dirname "${BASH_SOURCE[0]}")/pace-floor.c" \
    || die "cannot build bench/pace-floor.c with cc"
  echo "$tmp/pace-floor"
}
# parse_vegeta NAME: reads the attack's results file ($tmp/NAME.bin) with `vegeta report -type=json`
# (after the run, so the report's CPU is not the attack's). Answers are the requests with a status code.
parse_vegeta() {
  local o="$tmp/$1.report" fields
  "$VEGETA" report -type=json "$tmp/$1.bin" >"$o" 2>>"$tmp/$1.err" \
    || { echo "$BENCH: vegeta report failed:" >&2; cat "$tmp/$1.err" >&2; exit 1; }
  if [ "$JSON" = jq ]; then
    fields="$(jq -r '[([.status_codes | to_entries[] | select(.key != "0") | .value] | add // 0),
      .throughput, (.requests - (.success * .requests | round))] | map(tostring) | join(" ")' "$o")"
  else
    fields="$(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
ok = sum(v for k, v in (d.get("status_codes") or {}).items() if k != "0")
print(ok, repr(float(d["throughput"])), d["requests"] - round(d["success"] * d["requests"]))' "$o")"
  fi || { echo "$BENCH: cannot read vegeta's report:" >&2; cat "$o" >&2; exit 1; }
  awk -v f="$fields" -v cpu="$(cat "$tmp/$1.cpu")" -v wall="$(cat "$tmp/$1.wall")" -v sys="$(syscalls_of "$1")" 'BEGIN {
    split(f, a, " "); split(cpu, c, " ")
    printf "%d %d %s %d %s %.2f - - %s\n", a[1], a[1], a[2], a[3], wall, c[1] + c[2], sys }'
}
# oha_bin: oha from Loadlab's tools cache (scripts/setup test builds it there with cargo) or the PATH.
oha_bin() {
  local cached="${LOADLAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/loadlab}/tools/bin/oha"
  if [ -x "$cached" ]; then echo "$cached"
  elif command -v oha >/dev/null 2>&1; then command -v oha
  else die "oha is missing: scripts/setup test builds it into Loadlab's tools cache (cargo install oha)"; fi
}
# parse_oha NAME: oha's --output-format json. Answers are the requests with a status code; requests/s
# are those answers over oha's own run time (summary.total), as the importer reads it; errors leave out
# the requests oha itself cut at its deadline ("aborted due to deadline"), as the importer does.
parse_oha() {
  local o="$tmp/$1.out" fields
  fields="$(python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
ok = sum((d.get("statusCodeDistribution") or {}).values())
errs = sum(v for k, v in (d.get("errorDistribution") or {}).items() if "aborted due to deadline" not in k.lower())
print(ok, repr(ok / d["summary"]["total"]), errs)' "$o")" \
    || { echo "$BENCH: cannot read oha's JSON:" >&2; cat "$o" >&2; exit 1; }
  awk -v f="$fields" -v cpu="$(cat "$tmp/$1.cpu")" -v wall="$(cat "$tmp/$1.wall")" -v sys="$(syscalls_of "$1")" 'BEGIN {
    split(f, a, " "); split(cpu, c, " ")
    printf "%d %d %s %d %s %.2f - - %s\n", a[1], a[1], a[2], a[3], wall, c[1] + c[2], sys }'
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
  fi || { echo "$BENCH: cannot read loadlab's JSON:" >&2; cat "$o" >&2; exit 1; }
  awk -v f="$fields" -v cpu="$(cat "$tmp/$1.cpu")" -v wall="$(cat "$tmp/$1.wall")" -v sys="$(syscalls_of "$1")" 'BEGIN {
    split(f, a, " "); split(cpu, c, " ")
    printf "%d %d %s %d %s %.2f %s %s %s\n", a[1], a[1] + a[2], a[3], a[4], wall, c[1] + c[2], a[5], a[6], sys }'
}

# --- printing --------------------------------------------------------------------
fmt='%-9s %-5s %-8s %9s %6s %6s %7s %10s %8s %10s %8s %10s %8s %10s %9s %7s\n'
header() {
  # shellcheck disable=SC2059
  printf "$fmt" section round tool req/s errors wall-s CPU-s req/CPU-s win-CPU-s req/win-s eng-CPU-s req/eng-s \
    server-s ans/srv-s sys/ans steal-s
}
row() {  # section round tool requests answers rps errors wall cpu win_cpu eng_cpu syscalls server_cpu steal
  awk -v fmt="$fmt" -v sec="$1" -v r="$2" -v t="$3" -v req="$4" -v ans="$5" -v rps="$6" -v err="$7" \
      -v wall="$8" -v cpu="$9" -v win="${10}" -v eng="${11}" -v sys="${12}" -v ngx="${13}" -v steal="${14:--}" '
    function per(n, d) { return (d == "-" || d + 0 <= 0) ? "-" : sprintf("%.0f", n / d) }
    function num(x, p) { return x == "-" ? "-" : sprintf("%." p "f", x) }
    BEGIN {
      printf fmt, sec, r, t, sprintf("%.0f", rps), err, num(wall, 1), num(cpu, 2), per(ans, cpu),
             num(win, 2), per(req, win), num(eng, 2), per(req, eng), num(ngx, 2), per(ans, ngx),
             (sys == "-" ? "-" : sprintf("%.3f", sys / ans)), steal
    }'
}

# record SECTION ROUND TOOL FIGURES SERVER_CPU REBUILT: appends the run to $results and prints its row.
record() {
  local sec="$1" r="$2" tool="$3" m="$4" ngx="$5" rebuilt="$6"
  echo "$sec $r $tool $m $ngx $rebuilt" >>"$results"
  # shellcheck disable=SC2086
  set -- $m
  row "$sec" "$r" "$tool$([ "$rebuilt" = 0 ] || echo '!')" "$1" "$2" "$3" "$4" "$5" "$6" "$7" "$8" "$9" "$ngx" \
    "$(cat "$tmp/$sec-r$r-$tool.steal" 2>/dev/null || echo -)"
}

# loadlab_prebuild: the launcher rebuilds when the sources changed since the jar; let it do so, untimed.
loadlab_prebuild() {
  "$root/loadlab" --version >/dev/null 2>"$tmp/prebuild.err" \
    || { cat "$tmp/prebuild.err" >&2; die "./loadlab --version failed"; }
}
# loadlab_rebuilt NAME ROUND: 1 (with a warning) when the launcher rebuilt the jar inside that run.
loadlab_rebuilt() {
  if grep -q 'loadlab: building' "$tmp/$1.err"; then
    echo "$BENCH: warning: loadlab rebuilt itself in round $2 (sources changed meanwhile);" \
         "its whole-process CPU-s includes Maven and is left out of the summary" >&2
    echo 1
  else
    echo 0
  fi
}
nginx_cpu_since() {  # TICKS_BEFORE -> nginx CPU-s since then
  server_cpu_since "$1" "$nginx_pid"
}
server_cpu_since() {  # TICKS_BEFORE PID -> that server's CPU-s since then
  awk -v a="$1" -v b="$(server_ticks "$2")" -v t="$TCK" 'BEGIN{printf "%.2f", (b-a)/t}'
}

# bench_order ROUND OTHER: the two tools of a round, alternating which goes first.
bench_order() {
  if [ $(($1 % 2)) -eq 1 ]; then echo "$2 loadlab"; else echo "loadlab $2"; fi
}

# --- summary ---------------------------------------------------------------------
# bench_summary "SECTION..." : from $results (section round tool requests answers rps errors wall cpu
# win eng syscalls server rebuilt), per section: means over rounds (min, max), the ratios of the means,
# then each ratio taken per round (loadlab's run against the other tool's in the same round) with n,
# mean, min, max and a 95% t interval of the mean.
# AWK_T95: an awk function, t95(df), Student's t for a two-sided 95% interval: the table to 30 degrees
# of freedom, then z + (z^3 + z) / (4 df). The summaries prepend it to their awk programs.
AWK_T95='function t95(df,    t) {
  if (df > 30) return 1.96 + 2.3735 / df
  split("12.706 4.303 3.182 2.776 2.571 2.447 2.365 2.306 2.262 2.228 2.201 2.179 2.160 2.145 2.131 2.120 2.110 2.101 2.093 2.086 2.080 2.074 2.069 2.064 2.060 2.056 2.052 2.048 2.045 2.042", t, " ")
  return t[df] + 0
}'
bench_summary() {
  echo
  awk -v million=1000000 -v order="$1" "$AWK_T95"'
    function mean(k) { return n[k] ? s[k] / n[k] : 0 }
    function add(k, v) { s[k] += v; n[k]++; if (!(k in lo) || v < lo[k]) lo[k] = v; if (!(k in hi) || v > hi[k]) hi[k] = v }
    function line(label, k, p) { if (n[k]) printf "  %-52s %12." p "f   (min %." p "f, max %." p "f)\n", label, mean(k), lo[k], hi[k] }
    function ratio(label, a, b) { if (n[a] && mean(b) > 0) printf "  %-52s %12.3f\n", label, mean(a) / mean(b) }
    function perround(label, sec, lk, ok,    r, k, m, v, cnt, sum, ss, mn, mx, sd, ci) {
      cnt = 0; sum = 0; ss = 0
      for (r = 1; r <= maxr[sec]; r++) {
        if (!((sec ":" r ":loadlab" lk) in val) || !((sec ":" r ":o" ok) in val)) continue
        m = val[sec ":" r ":o" ok]; if (m <= 0) continue
        v = val[sec ":" r ":loadlab" lk] / m
        cnt++; sum += v; ss += v * v
        if (cnt == 1 || v < mn) mn = v; if (cnt == 1 || v > mx) mx = v
      }
      if (!cnt) return
      m = sum / cnt
      if (cnt > 1) {
        sd = (ss - cnt * m * m) / (cnt - 1); sd = sd > 0 ? sqrt(sd) : 0
        ci = sprintf("95%% CI %.3f..%.3f, CV %.1f%%", m - t95(cnt - 1) * sd / sqrt(cnt), m + t95(cnt - 1) * sd / sqrt(cnt), m > 0 ? 100 * sd / m : 0)
      } else ci = "one round: no interval"
      printf "  %-44s n=%d mean %.3f (min %.3f, max %.3f; %s)\n", label, cnt, m, mn, mx, ci
    }
    {
      k = $1 ":" $3
      seen[$1] = 1; other[$1] = ($3 == "loadlab") ? other[$1] : $3
      if ($2 > maxr[$1]) maxr[$1] = $2
      who = $1 ":" $2 ":" ($3 == "loadlab" ? "loadlab" : "o")
      add(k ":rps", $6); add(k ":errors", $7); val[who ":rps"] = $6
      if ($9 > 0 && $14 == 0) { add(k ":cpu", $5 / $9); add(k ":cpum", million * $9 / $5); val[who ":cpu"] = $5 / $9 }
      if ($10 != "-" && $10 > 0) { add(k ":win", $4 / $10); val[who ":win"] = $4 / $10 }
      if ($11 != "-" && $11 > 0) { add(k ":eng", $4 / $11); val[who ":eng"] = $4 / $11 }
      if ($12 != "-" && $5 > 0) { add(k ":sys", $12 / $5); val[who ":sys"] = $12 / $5 }
      # The server CPU is taken over the whole run of the tool (warm-up included), so it is set against every
      # answer of that run, not only the requests in the window.
      if ($13 > 0) add(k ":ngx", $5 / $13)
    }
    END {
      print "Summary (means over rounds; ratios are ratios of the means):"
      ns = split(order, sections, " ")
      for (i = 1; i <= ns; i++) {
        sec = sections[i]; if (!(sec in seen)) continue
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
        line(other[sec] " answers per server CPU-s (whole run)", o ":ngx", 0)
        line("loadlab answers per server CPU-s (whole run)", l ":ngx", 0)
        if (s[o ":errors"] + s[l ":errors"] > 0)
          printf "  errors: %s %d, loadlab %d (in total)\n", other[sec], s[o ":errors"], s[l ":errors"]
        printf "  ratios loadlab / %s:\n", other[sec]
        ratio("  requests/s", l ":rps", o ":rps")
        ratio("  answers per load CPU-s, whole process", l ":cpu", o ":cpu")
        ratio("  requests per load CPU-s, in-window process", l ":win", o ":cpu")
        ratio("  requests per load CPU-s, engine threads", l ":eng", o ":cpu")
        ratio("  syscalls per answer", l ":sys", o ":sys")
        printf "  the same ratios per round (loadlab / %s of the same round):\n", other[sec]
        perround("  requests/s", sec, ":rps", ":rps")
        perround("  answers per load CPU-s, whole process", sec, ":cpu", ":cpu")
        perround("  requests per load CPU-s, in-window process", sec, ":win", ":cpu")
        perround("  requests per load CPU-s, engine threads", sec, ":eng", ":cpu")
        perround("  syscalls per answer", sec, ":sys", ":sys")
      }
    }' "$results"
}
