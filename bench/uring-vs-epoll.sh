#!/usr/bin/env bash
# io_uring against epoll: loadlab load -t1 -c64 -d5s (default warm-up) against nginx (1 worker, core 0),
# the load on core 1, alternating N pairs; prints rps and requests per engine CPU-s per run.
# Usage: bench/uring-vs-epoll.sh [N]   (default 4 pairs; needs nginx-light, taskset, curl)
set -eu
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
N=${1:-4}
cache="${LOADLAB_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/loadlab}"
B=$(ls -d "$cache"/subjects/nginx/*/ 2>/dev/null | head -1)
[ -n "$B" ] || { echo "uring-vs-epoll: nginx's build is not in $cache yet: run ./loadlab subjects --check nginx once" >&2; exit 2; }
W=$(mktemp -d)
taskset -c 0 bash "$root"/subjects/nginx/start.sh 18666 1 "$W" "$B" > "$W/log" 2>&1 &
P=$!
trap 'kill $P 2>/dev/null; wait $P 2>/dev/null; rm -rf "$W"' EXIT
for i in $(seq 50); do curl -fs -o /dev/null http://127.0.0.1:18666/plaintext && break; sleep 0.1; done
for i in $(seq "$N"); do
  if [ $((i % 2)) -eq 1 ]; then order="epoll io_uring"; else order="io_uring epoll"; fi
  for t in $order; do
    taskset -c 1 "$root"/loadlab load -t1 -c64 -d5s --transport "$t" --json http://127.0.0.1:18666/plaintext > "$W/r.json"
    python3 -c "import json,sys; d=json.load(open('$W/r.json')); print(sys.argv[1], sys.argv[2], round(d['rps']), round(d['requests']/d['load_cpu_s']), d.get('transport'), d.get('steady'))" "$i" "$t"
  done
done
