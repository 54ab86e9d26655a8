#!/usr/bin/env bash
# protocols-vs-tools.sh: compare Loadlab's load engine over TLS and HTTP/2 with wrk and h2load,
# against one nginx.
#
# nginx (bench/nginx-tls.conf, 1 worker, "Hello, World!" from memory, a throw-away CA and server
# certificate made here with openssl) runs pinned to one core, the load generator to another.
# Sections, each in ROUNDS rounds that alternate which tool goes first:
#   h1-tls  wrk -t1 -cC https://... against loadlab load -t1 -cC --cacert CA https://...
#   h2-tls  h2load -t1 -cC -m M https://... (h2 by ALPN) against loadlab load --h2 -m M
#   h2c     h2load -t1 -cC -m M http://... (prior knowledge) against loadlab load --h2c -m M
#   h2-tls-rate, h2c-rate   a fixed RATE in all (not a default section): h2load --rps=RATE/C
#           (per client) against loadlab load -R RATE --pace-slack C/RATE, the rate's own grid (one
#           request per connection per point);
#   h2-tls-grid, h2c-grid   the same with loadlab's --pace-slack M*C/RATE: h2load's effective schedule
#           over h2, which sends about M requests per connection at once (docs/guide/load.md).
# Loadlab verifies nginx's certificate against the throw-away CA (--cacert, no --insecure); wrk and
# h2load do not verify. Each run is measured as in bench/engine-vs-wrk.sh (bench/lib.sh): requests/s,
# whole-process CPU-s from outside with every answer it got (Loadlab's warm-up included), Loadlab's
# in-window and event-loop CPU-s from --json, syscalls per answer (perf), nginx's CPU-s; then the
# ratios, of the means and per round (n, mean, min, max, 95% CI).
#
# Usage: bench/protocols-vs-tools.sh [-r ROUNDS] [-d SECONDS] [-c CONNECTIONS] [-m STREAMS]
#                                    [--sections h1-tls,h2-tls,h2c,h2-tls-rate,h2-tls-grid,h2c-rate,h2c-grid]
#                                    [--rate RPS]
#   or   ROUNDS=3 DURATION=10 CONNECTIONS=64 STREAMS=10 bench/protocols-vs-tools.sh
# Other environment: NGINX_CORE (0), LOAD_CORE (1): the cores to pin to;
#   SECTIONS (h1-tls,h2-tls,h2c); RATE (100000, the fixed-rate sections'); RAW_DIR: when set, the raw output of every run is copied there;
#   LOADLAB_ARGS: more options for every loadlab load (e.g. --tls-provider jdk);
#   LOADLAB_JAVA_OPTS: passed on to the JVM by ./loadlab. For a JFR profile add -Xlog:jfr+startup=off
#     (-XX:StartFlightRecording=filename=F.jfr,settings=profile), or its banner on stdout breaks the JSON.
set -euo pipefail
export LC_ALL=C

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
BENCH=protocols-vs-tools
# shellcheck source=bench/lib.sh
. "$here/lib.sh"

ROUNDS="${ROUNDS:-3}"
DURATION="${DURATION:-10}"
CONNECTIONS="${CONNECTIONS:-64}"
STREAMS="${STREAMS:-10}"
NGINX_CORE="${NGINX_CORE:-0}"
LOAD_CORE="${LOAD_CORE:-1}"
RAW_DIR="${RAW_DIR:-}"
SECTIONS="${SECTIONS:-h1-tls,h2-tls,h2c}"
RATE="${RATE:-100000}"
LOADLAB_ARGS="${LOADLAB_ARGS:-}"

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }

while [ $# -gt 0 ]; do
  case "$1" in
    -r|--rounds) ROUNDS="${2:?}"; shift 2 ;;
    -d|--duration) DURATION="${2:?}"; shift 2 ;;
    -c|--connections) CONNECTIONS="${2:?}"; shift 2 ;;
    -m|--streams) STREAMS="${2:?}"; shift 2 ;;
    --sections) SECTIONS="${2:?}"; shift 2 ;;
    --rate) RATE="${2:?}"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
DURATION="${DURATION%s}"
for v in ROUNDS DURATION CONNECTIONS STREAMS NGINX_CORE LOAD_CORE RATE; do
  [[ "${!v}" =~ ^[0-9]+$ ]] || die "$v must be a whole number (got '${!v}')"
done
[ "$ROUNDS" -ge 1 ] && [ "$DURATION" -ge 1 ] && [ "$CONNECTIONS" -ge 1 ] && [ "$STREAMS" -ge 1 ] \
  && [ "$RATE" -ge "$CONNECTIONS" ] \
  || die "ROUNDS, DURATION, CONNECTIONS and STREAMS must be at least 1, RATE at least CONNECTIONS"
IFS=, read -r -a sections <<<"$SECTIONS"
need=(nginx taskset awk openssl curl)
for sec in "${sections[@]}"; do
  case "$sec" in
    h1-tls) need+=(wrk) ;;
    h2-tls|h2c|h2-tls-rate|h2-tls-grid|h2c-rate|h2c-grid) need+=(h2load) ;;
    *) die "--sections takes h1-tls, h2-tls, h2c, h2-tls-rate, h2-tls-grid, h2c-rate and h2c-grid, got '$sec'" ;;
  esac
done
bench_need "${need[@]}"
bench_setup

echo "$BENCH: building/checking loadlab..." >&2
"$root/loadlab" --version >&2 || die "./loadlab --version failed"

# --- a throw-away CA and a server certificate for 127.0.0.1, in nginx's folder ------
make_cert() {
  local d="$tmp/nginx"
  mkdir -p "$d"
  {
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 2 \
      -subj "/CN=loadlab bench CA" -keyout "$d/ca.key" -out "$d/ca.pem"
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -subj "/CN=127.0.0.1" \
      -keyout "$d/server.key" -out "$d/server.csr"
    printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n' >"$d/ext.cnf"
    openssl x509 -req -in "$d/server.csr" -CA "$d/ca.pem" -CAkey "$d/ca.key" -CAcreateserial -days 2 \
      -extfile "$d/ext.cnf" -out "$d/server.crt"
  } >"$d/openssl.log" 2>&1 || { cat "$d/openssl.log" >&2; die "openssl could not make the certificates"; }
  cat "$d/server.crt" "$d/ca.pem" >"$d/server.pem"
  CA="$d/ca.pem"
}
make_cert

tls_url() { url="https://127.0.0.1:$TLS_PORT/plaintext"; }
bench_start_nginx "$here/nginx-tls.conf" "TLS_PORT H2C_PORT" tls_url --cacert "$CA"
tls="$url"
h2c="http://127.0.0.1:$H2C_PORT/plaintext"
answers "$h2c" --http2-prior-knowledge || die "nginx does not answer h2c with prior knowledge on $h2c"

url_of() { case "$1" in h2c*) echo "$h2c" ;; *) echo "$tls" ;; esac; }
# The fixed-rate sections: h2load's --rps is per client; Loadlab's slack is the rate's own grid (C/RATE)
# or h2load's effective one over h2 (M*C/RATE), in whole µs (bench/lib.sh grid_slack).
per_client="$(h2load_rps "$RATE" "$CONNECTIONS")"
rate_slack="$(grid_slack "$RATE" "$CONNECTIONS")"
h2_slack="$(grid_slack "$RATE" $((CONNECTIONS * STREAMS)))"
if [[ ",$SECTIONS," == *-grid,* ]] && [ $((CONNECTIONS * STREAMS * 10)) -gt "$RATE" ]; then
  echo "$BENCH: warning: M*C/RATE is above 100 ms, the most --pace-slack takes: the -grid sections send on a" \
       "finer grid than h2load's" >&2
fi

loadlab() {  # NAME ARGS... : one loadlab load run, with the common flags
  local name="$1"; shift
  # shellcheck disable=SC2086
  run_tool "$name" "$root/loadlab" load -t1 -c"$CONNECTIONS" -d"${DURATION}s" --json $LOADLAB_ARGS "$@"
}

one_run() {  # SECTION ROUND TOOL
  local sec="$1" r="$2" tool="$3" name="$1-r$2-$3" before m rebuilt=0 ngx
  [ "$tool" != loadlab ] || loadlab_prebuild
  echo "$BENCH: $sec, round $r/$ROUNDS: $tool (${DURATION}s, $CONNECTIONS connections)..." >&2
  before="$(nginx_ticks)"
  case "$sec:$tool" in
    h1-tls:wrk) run_tool "$name" wrk -t1 -c"$CONNECTIONS" -d"${DURATION}s" "$tls"
         m="$(parse_wrk "$name")" ;;
    h2-tls:h2load) run_tool "$name" h2load -t1 -c"$CONNECTIONS" -m"$STREAMS" -D "$DURATION" "$tls"
         m="$(parse_h2load "$name")" ;;
    h2c:h2load) run_tool "$name" h2load -t1 -c"$CONNECTIONS" -m"$STREAMS" -D "$DURATION" "$h2c"
         m="$(parse_h2load "$name")" ;;
    h1-tls:loadlab) loadlab "$name" --cacert "$CA" "$tls"
         m="$(parse_loadlab "$name")" ;;
    h2-tls:loadlab) loadlab "$name" --h2 -m "$STREAMS" --cacert "$CA" "$tls"
         m="$(parse_loadlab "$name")" ;;
    h2c:loadlab) loadlab "$name" --h2c -m "$STREAMS" "$h2c"
         m="$(parse_loadlab "$name")" ;;
    h2-tls-*:h2load|h2c-*:h2load)
         run_tool "$name" h2load -t1 -c"$CONNECTIONS" -m"$STREAMS" --rps="$per_client" -D "$DURATION" "$(url_of "$sec")"
         m="$(parse_h2load "$name")" ;;
    h2-tls-rate:loadlab) loadlab "$name" --h2 -m "$STREAMS" -R "$RATE" --pace-slack "$rate_slack" --cacert "$CA" "$tls"
         m="$(parse_loadlab "$name")" ;;
    h2-tls-grid:loadlab) loadlab "$name" --h2 -m "$STREAMS" -R "$RATE" --pace-slack "$h2_slack" --cacert "$CA" "$tls"
         m="$(parse_loadlab "$name")" ;;
    h2c-rate:loadlab) loadlab "$name" --h2c -m "$STREAMS" -R "$RATE" --pace-slack "$rate_slack" "$h2c"
         m="$(parse_loadlab "$name")" ;;
    h2c-grid:loadlab) loadlab "$name" --h2c -m "$STREAMS" -R "$RATE" --pace-slack "$h2_slack" "$h2c"
         m="$(parse_loadlab "$name")" ;;
  esac
  ngx="$(nginx_cpu_since "$before")"
  kill -0 "$nginx_pid" 2>/dev/null || die "nginx died during the run"
  if [ "$tool" = loadlab ]; then
    rebuilt="$(loadlab_rebuilt "$name" "$r")"
    describe_loadlab "$name" "$sec" >>"$tmp/protocols"
    echo "$sec $(alloc_of "$name")" >>"$tmp/alloc"
  fi
  record "$sec" "$r" "$tool" "$m" "$ngx" "$rebuilt"
}

describe_loadlab() {  # NAME SECTION -> "SECTION protocol provider (library) version cipher" from loadlab's JSON
  python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
t = d.get("tls_session") or {}
print(sys.argv[2], d.get("protocol"), t.get("provider", "-"), "(" + str(t.get("library", "-")) + ")",
      t.get("version", "-"), t.get("cipher", "-"))' "$tmp/$1.out" "$2" 2>/dev/null || echo "$2 (unreadable JSON)"
}
alloc_of() {  # NAME -> loop_alloc_bytes_per_request from loadlab's JSON
  python3 -c 'import json,sys; v = json.load(open(sys.argv[1])).get("loop_alloc_bytes_per_request")
print("-" if v is None else "%.1f" % v)' "$tmp/$1.out" 2>/dev/null || echo -
}

echo "Loadlab engine vs wrk and h2load over TLS and HTTP/2: nginx 1 worker on core $NGINX_CORE, load on core" \
     "$LOAD_CORE, $CONNECTIONS connections, 1 thread, $STREAMS streams per h2 connection, ${DURATION}s per run," \
     "$ROUNDS round(s) per section; $tls (TLS, h1 and h2) and $h2c (h2c)."
echo "Fixed-rate sections: $RATE requests/s in all, h2load --rps=$per_client per client; loadlab -R $RATE" \
     "--pace-slack $rate_slack (-rate) or $h2_slack (-grid)."
echo "Columns as in bench/engine-vs-wrk.sh: CPU-s = user+sys of the whole load-generator process from outside;"
echo "req/CPU-s divides every answer it got (loadlab: window and warm-up) by it; win = loadlab's process_cpu_s"
echo "(whole JVM, window only); eng = loadlab's load_cpu_s (event loops); sys/ans = syscalls per answer (perf)."
echo
header
: >"$tmp/protocols"
: >"$tmp/alloc"
for sec in "${sections[@]}"; do
  case "$sec" in h1-tls) other=wrk ;; *) other=h2load ;; esac
  for r in $(seq "$ROUNDS"); do
    for tool in $(bench_order "$r" "$other"); do
      one_run "$sec" "$r" "$tool"
      sleep 1  # let connections close before the next run
    done
  done
done
echo
echo "loadlab's JSON, per distinct value: section, protocol, TLS provider (library), version, cipher:"
sort "$tmp/protocols" | uniq -c | sed 's/^/  /'
echo "loadlab's event loops' bytes allocated per request (loop_alloc_bytes_per_request), per run:"
awk '{ a[$1] = a[$1] " " $2 } END { for (s in a) printf "  %-7s%s\n", s, a[s] }' "$tmp/alloc" | sort

bench_summary "h1-tls h2-tls h2c h2-tls-rate h2-tls-grid h2c-rate h2c-grid"
