#!/usr/bin/env bash
# jvm-flags.sh: which JVM flags suit the load engine, by measurement.
#
# nginx (bench/nginx.conf, 1 worker) runs pinned to NGINX_CORE, `./loadlab load -t1 -cC -dDs --json`
# (its default flags otherwise: steady warm-up) to LOAD_CORE. In each round every flag set runs
# once per mode, in an order that rotates from round to round; the flags are added after the
# launcher's through LOADLAB_JAVA_OPTS. Modes: closed (one request in flight per connection),
# pipelined (--pipeline PIPELINE) and fixed (-R RATE, with --pace-slack PACE_SLACK when it is set:
# an open loop, where the JIT's own CPU is a larger part of the whole process). For every run it
# records:
#   - requests/s (the JSON's rps);
#   - whole-process CPU-s: utime+stime of the JVM's process from /proc/PID/stat, read when it has
#     exited but before it is reaped (so start-up, JIT, warm-up and shutdown are all in it), and
#     the answers it got (window and warm-up: warmup_rps x 0.5 s, as engine-vs-wrk.sh counts);
#   - in-window CPU-s (process_cpu_s), the event loops' (load_cpu_s), GC time in the window (gc_s).
# Results are appended to RESULTS (one line a run), so that several invocations (each inside its own
# quiet-lock acquisition) make one sample: --first-round numbers the rounds, --summary prints, for
# each set and mode, means and 95% CIs of the ratios to 'current' (else the first set seen) (a t interval on the log of
# the per-round ratios, rounds paired).
#
# Usage: bench/jvm-flags.sh [-r ROUNDS] [--first-round N] [-d SECONDS] [-c CONNECTIONS]
#                           [--modes closed,pipelined,fixed] [--sets NAME,...] [--results FILE]
#   or   bench/jvm-flags.sh --summary FILE
# Sets:
#   current   the launcher's flags as they are
#   serial    -XX:-UseG1GC -XX:-UseParallelGC -XX:+UseSerialGC (the launcher's choice on <= 4 CPUs)
#   g1        -XX:-UseSerialGC -XX:+UseG1GC
#   parallel  -XX:-UseSerialGC -XX:+UseParallelGC
#   c1        -XX:TieredStopAtLevel=1 (C1 only)
#   smallheap -Xms32m -Xmx512m
#   pretouch  -Xms64m -Xmx512m -XX:+AlwaysPreTouch
#   NAME=FLAGS any other set, named by what precedes '=' (e.g. big=-Xmn256m; spaces separate flags).
#             FLAGS may start with JAVA_HOME=DIR: that set runs the launcher with that Java (its
#             own class-data-sharing archive is made before the first round), e.g.
#             jdk25=JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
# Environment: NGINX_CORE (0), LOAD_CORE (1), PIPELINE (16), RATE (20000), PACE_SLACK (unset: the
#   engine's default); RESULTS (default: a temp file, printed).
set -euo pipefail
export LC_ALL=C

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
ROUNDS=3
FIRST=1
DURATION=10
CONNECTIONS=64
MODES=closed,pipelined
SETS=current,g1,parallel,c1,smallheap,pretouch
NGINX_CORE="${NGINX_CORE:-0}"
LOAD_CORE="${LOAD_CORE:-1}"
PIPELINE="${PIPELINE:-16}"
RATE="${RATE:-20000}"
PACE_SLACK="${PACE_SLACK:-}"
RESULTS="${RESULTS:-}"
SUMMARY=""

BENCH=jvm-flags
# shellcheck source=bench/lib.sh
. "$here/lib.sh"

usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }
while [ $# -gt 0 ]; do
  case "$1" in
    -r|--rounds) ROUNDS="${2:?}"; shift 2 ;;
    --first-round) FIRST="${2:?}"; shift 2 ;;
    -d|--duration) DURATION="${2%s}"; shift 2 ;;
    -c|--connections) CONNECTIONS="${2:?}"; shift 2 ;;
    --modes) MODES="${2:?}"; shift 2 ;;
    --sets) SETS="${2:?}"; shift 2 ;;
    --results) RESULTS="${2:?}"; shift 2 ;;
    --summary) SUMMARY="${2:?}"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
command -v python3 >/dev/null 2>&1 || die "python3 is needed (apt-get install -y python3)"

summary() {  # RESULTS -> the table of ratios to the first set
  python3 - "$1" <<'PY'
import math, statistics, sys
from collections import defaultdict
# two-sided 95% t quantiles by degrees of freedom
T = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262, 10: 2.228}
rows = [l.split() for l in open(sys.argv[1]) if l.strip() and not l.startswith("#")]
# round mode set rps requests warm_answers whole_cpu win_cpu load_cpu gc_s gc_count flags...
runs, order = defaultdict(dict), []
flags = {}
for r in rows:
    rnd, mode, name = r[0], r[1], r[2]
    v = list(map(float, r[3:11]))
    rps, req, warm, whole, win, load, gc, gcn = v
    runs[(mode, name)][rnd] = {
        "rps": rps, "whole": (req + warm) / whole, "win": req / win, "load": req / load,
        "outside": (win - load), "gc": gc * 1000, "gcn": gcn, "wholecpu": whole}
    flags[name] = " ".join(r[11:]) or "(launcher's)"
    if name not in order:
        order.append(name)
if "current" in order:  # the baseline of the ratios
    order.remove("current")
    order.insert(0, "current")
metrics = [("rps", "req/s"), ("whole", "answers/whole-CPU-s"), ("win", "req/window-CPU-s"),
           ("load", "req/loop-CPU-s")]
print("Means (n = rounds); ratios to '%s' paired by round, 95%% CI from a t interval on log ratios." % order[0])
for mode in sorted({m for m, _ in runs}):
    base = runs.get((mode, order[0]), {})
    print("\n%s:" % mode)
    print("  %-10s %3s %9s %9s %9s %9s %8s %7s %6s" % ("set", "n", "req/s", "ans/whole", "req/win",
          "req/loop", "outside", "gc-ms", "gc-n"))
    for name in order:
        d = runs.get((mode, name))
        if not d:
            continue
        mean = lambda k: statistics.mean(x[k] for x in d.values())
        print("  %-10s %3d %9.0f %9.0f %9.0f %9.0f %8.2f %7.1f %6.1f" % (name, len(d), mean("rps"), mean("whole"),
              mean("win"), mean("load"), mean("outside"), mean("gc"), mean("gcn")))
    for name in order[1:]:
        d = runs.get((mode, name), {})
        paired = sorted(set(d) & set(base))
        if not paired:
            continue
        parts = []
        for k, label in metrics:
            logs = [math.log(d[r][k] / base[r][k]) for r in paired]
            m = statistics.mean(logs)
            if len(logs) > 1:
                h = T.get(len(logs) - 1, 1.96) * statistics.stdev(logs) / math.sqrt(len(logs))
                parts.append("%s %.3f [%.3f, %.3f]" % (label, math.exp(m), math.exp(m - h), math.exp(m + h)))
            else:
                parts.append("%s %.3f" % (label, math.exp(m)))
        print("  %s/%s (n=%d): %s" % (name, order[0], len(paired), "; ".join(parts)))
print("\nFlags: " + "; ".join("%s = %s" % (n, flags[n]) for n in order))
print("outside = in-window CPU-s of the threads that are not event loops (process_cpu_s - load_cpu_s).")
PY
}
if [ -n "$SUMMARY" ]; then
  [ -s "$SUMMARY" ] || die "no results in $SUMMARY"
  summary "$SUMMARY"
  exit 0
fi

for v in ROUNDS FIRST DURATION CONNECTIONS NGINX_CORE LOAD_CORE PIPELINE RATE; do
  [[ "${!v}" =~ ^[0-9]+$ ]] || die "$v must be a whole number (got '${!v}')"
done
flags_of() {  # SET -> its flags
  case "$1" in
    current) echo "" ;;
    serial) echo "-XX:-UseG1GC -XX:-UseParallelGC -XX:+UseSerialGC" ;;
    g1) echo "-XX:-UseSerialGC -XX:+UseG1GC" ;;
    parallel) echo "-XX:-UseSerialGC -XX:+UseParallelGC" ;;
    c1) echo "-XX:TieredStopAtLevel=1" ;;
    smallheap) echo "-Xms32m -Xmx512m" ;;
    pretouch) echo "-Xms64m -Xmx512m -XX:+AlwaysPreTouch" ;;
    *=*) echo "${1#*=}" ;;
    *) return 1 ;;
  esac
}
IFS=, read -r -a sets <<<"$SETS"
IFS=, read -r -a modes <<<"$MODES"
for s in "${sets[@]}"; do flags_of "$s" >/dev/null || die "unknown set '$s' (see --help)"; done
for m in "${modes[@]}"; do case "$m" in closed|pipelined|fixed) ;; *) die "unknown mode '$m'" ;; esac; done
[[ -z "$PACE_SLACK" || "$PACE_SLACK" =~ ^[0-9]+(us|ms|s)$ ]] || die "PACE_SLACK must be a duration like 3200us (got '$PACE_SLACK')"
java_of() {  # FLAGS -> the JAVA_HOME it starts with, if any
  case "$1" in JAVA_HOME=*) local first="${1%% *}"; echo "${first#JAVA_HOME=}" ;; esac
}
for s in "${sets[@]}"; do
  j="$(java_of "$(flags_of "$s")")"
  [ -z "$j" ] || [ -x "$j/bin/java" ] || die "set '$s': no $j/bin/java"
done
bench_need nginx taskset curl
bench_setup
[ -n "$RESULTS" ] || RESULTS="$tmp/results"
touch "$RESULTS"

echo "jvm-flags: building/checking loadlab..." >&2
"$root/loadlab" --version >&2 || die "./loadlab --version failed"
for s in "${sets[@]}"; do  # another Java makes its own archive now, not in a measured run
  j="$(java_of "$(flags_of "$s")")"
  [ -z "$j" ] || JAVA_HOME="$j" "$root/loadlab" --version >&2 || die "./loadlab --version failed with $j"
done
plain_url() { url="http://127.0.0.1:$PORT/plaintext"; }
bench_start_nginx "$here/nginx.conf" PORT plain_url
echo "jvm-flags: results in $RESULTS" >&2

# Runs the command, waits for its exit without reaping it (waitid WNOWAIT: a zombie's
# /proc/PID/stat still holds its utime and stime, all threads summed), prints them in seconds.
cpu_of_exited() {
  python3 - "$@" <<'PY'
import os, subprocess, sys
p = subprocess.Popen(sys.argv[1:], stdin=subprocess.DEVNULL)
os.waitid(os.P_PID, p.pid, os.WEXITED | os.WNOWAIT)
stat = open("/proc/%d/stat" % p.pid).read()
f = stat[stat.rindex(")") + 2:].split()  # from the state field on: utime, stime are the 12th, 13th
print("%.3f" % ((int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")), file=sys.stderr)
sys.exit(p.wait())
PY
}

one_run() {  # ROUND MODE SET
  local r="$1" mode="$2" set="$3" flags extra=() out="$tmp/run.json" whole fields java opts
  flags="$(flags_of "$set")"
  java="$(java_of "$flags")"
  opts="$flags"
  [ -z "$java" ] || { opts="${flags#JAVA_HOME="$java"}"; opts="${opts# }"; }
  case "$mode" in
    pipelined) extra=(--pipeline "$PIPELINE") ;;
    fixed) extra=(-R "$RATE"); [ -z "$PACE_SLACK" ] || extra+=(--pace-slack "$PACE_SLACK") ;;
  esac
  echo "jvm-flags: round $r, $mode, $set (${flags:-the launcher flags})..." >&2
  if ! JAVA_HOME="${java:-${JAVA_HOME:-}}" LOADLAB_JAVA_OPTS="$opts" cpu_of_exited taskset -c "$LOAD_CORE" "$root/loadlab" load -t1 \
      -c"$CONNECTIONS" "${extra[@]}" -d"${DURATION}s" --json "$url" >"$out" 2>"$tmp/run.err"; then
    cat "$tmp/run.err" >&2
    die "the run failed"
  fi
  whole="$(tail -n1 "$tmp/run.err")"
  fields="$(python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
errors = sum(d["errors"].values())
if errors: sys.exit("jvm-flags: %d errors in the run" % errors)
print(d["rps"], d["requests"], round(sum(d.get("warmup_rps") or []) * 0.5), sys.argv[2], d["process_cpu_s"],
      d["load_cpu_s"], d["gc_s"], d["gc_count"])' "$out" "$whole")" || die "cannot read the run's JSON"
  echo "$r $mode ${set%%=*} $fields $flags" >>"$RESULTS"
  echo "jvm-flags:   $fields" >&2
}

for r in $(seq "$FIRST" $((FIRST + ROUNDS - 1))); do
  n=${#sets[@]}
  for mode in "${modes[@]}"; do
    for i in $(seq 0 $((n - 1))); do  # the order rotates by one set each round
      one_run "$r" "$mode" "${sets[$(((i + r) % n))]}"
      sleep 1
    done
  done
done
summary "$RESULTS"
