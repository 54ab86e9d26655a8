#!/usr/bin/env bash
# kernel-start.sh: how fast the Loadlab Jupyter kernel starts and answers, as a notebook sees it.
#
# Installs the kernelspec with the real launcher (`./loadlab kernel install --prefix` into a
# temporary folder, so the JVM flags and the class-data-sharing archive are the ones users get),
# then drives kernels with Debian's jupyter_client (bench/kernel_start.py): for each of STARTS
# kernels, the time from start_kernel() to the first kernel_info reply, the first cell, and CELLS
# more cells of `1+1` (request to reply, and to the idle status after it). Prints n, mean, CV,
# 95% CI and median of each figure; with -c 40 or more also the median of each further 20 cells
# (a kernel in use longer); and the host's steal time over the run.
#
# Usage: bench/kernel-start.sh [-n STARTS] [-c CELLS]     (defaults 5 and 20)
# Environment: KERNEL_CORE (1): the core, or CPU list (0-1), each kernel is pinned to (taskset in
#   its kernelspec);
#   DRIVER_CORE (0): the core of the Python driver; RAW_JSON: when set, every raw time is
#   written to that file; KERNEL_JAVA_OPTS: JVM flags added to the kernelspec's (after java), to
#   compare flags; KERNEL_DROP_JAVA_OPTS: prefixes of the kernelspec's JVM flags to leave out (e.g.
#   "-XX:CompilerDirectivesFile= -XX:+UnlockDiagnosticVMOptions"), to compare without them;
#   JAVA_HOME: the Java of the launcher, and so of the kernel.
set -euo pipefail
export LC_ALL=C

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/.." && pwd)"
STARTS=5
CELLS=20
KERNEL_CORE="${KERNEL_CORE:-1}"
DRIVER_CORE="${DRIVER_CORE:-0}"
usage() { sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; }
while [ $# -gt 0 ]; do
  case "$1" in
    -n) STARTS="${2:?}"; shift 2 ;;
    -c) CELLS="${2:?}"; shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) usage >&2; exit 2 ;;
  esac
done
for v in STARTS CELLS; do
  [[ "${!v}" =~ ^[0-9]+$ ]] || { echo "kernel-start: $v must be a whole number (got '${!v}')" >&2; exit 2; }
done
for v in KERNEL_CORE DRIVER_CORE; do
  [[ "${!v}" =~ ^[0-9]+([,-][0-9]+)*$ ]] || { echo "kernel-start: $v must be a CPU list for taskset, e.g. 1 or 0-1 (got '${!v}')" >&2; exit 2; }
done
[ "$CELLS" -ge 2 ] && [ "$STARTS" -ge 1 ] || { echo "kernel-start: need -n >= 1 and -c >= 2" >&2; exit 2; }
PY=/usr/bin/python3
if [ ! -x /usr/bin/jupyter ] || ! "$PY" -c 'import jupyter_client' 2>/dev/null; then
  echo "kernel-start: needs Debian's Jupyter: apt-get install -y jupyter-client jupyter-core" >&2
  exit 2
fi
for core in "$KERNEL_CORE" "$DRIVER_CORE"; do
  taskset -c "$core" true 2>/dev/null || { echo "kernel-start: cannot pin to core $core" >&2; exit 2; }
done

tmp="$(mktemp -d "${TMPDIR:-/tmp}/kernel-start.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
echo "kernel-start: building/checking loadlab..." >&2
"$root/loadlab" --version >&2
"$root/loadlab" kernel install --prefix "$tmp/prefix" --jupyter /usr/bin/jupyter >"$tmp/install.log" 2>&1 \
  || { cat "$tmp/install.log" >&2; exit 1; }
spec="$tmp/prefix/share/jupyter/kernels/loadlab/kernel.json"
# The kernel on its own core, as a load CPU; the driver elsewhere, so that it takes nothing from it.
"$PY" -c 'import json, sys
p, core, extra, drop = sys.argv[1], sys.argv[2], sys.argv[3].split(), tuple(sys.argv[4].split())
s = json.load(open(p)); a = s["argv"]
kept = [f for f in a[1:] if not (drop and f.startswith(drop))]
s["argv"] = ["taskset", "-c", core, a[0]] + extra + kept; json.dump(s, open(p, "w"), indent=1)' \
  "$spec" "$KERNEL_CORE" "${KERNEL_JAVA_OPTS:-}" "${KERNEL_DROP_JAVA_OPTS:-}"
echo "kernel-start: kernelspec: $(tr -d '\n' <"$spec" | tr -s ' ')" >&2
mkdir -p "$tmp/runtime"
cd "$tmp"
JUPYTER_PATH="$tmp/prefix/share/jupyter" JUPYTER_RUNTIME_DIR="$tmp/runtime" JUPYTER_CONFIG_DIR="$tmp/config" \
  JUPYTER_PLATFORM_DIRS=1 PYTHONDONTWRITEBYTECODE=1 \
  taskset -c "$DRIVER_CORE" "$PY" "$here/kernel_start.py" "$STARTS" "$CELLS" ${RAW_JSON:+"$RAW_JSON"}
