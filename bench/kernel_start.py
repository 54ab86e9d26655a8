"""Times the Loadlab kernel as a notebook sees it, through jupyter_client (Debian's python3).

Run by bench/kernel-start.sh with JUPYTER_PATH pointing at a prefix where `loadlab kernel install
--prefix` wrote the kernelspec. For each of STARTS kernels: the seconds from start_kernel() to the
first kernel_info reply (wait_for_ready), then the first cell, then CELLS more cells of `1+1`,
each timed from the execute_request to its execute_reply and to the idle status after it.
Prints a summary (n, mean, CV, 95% CI, median of each figure); with a third argument, also writes
every raw time to that JSON file. Asserts nothing.
"""

import json
import os
import statistics
import sys
import time

from jupyter_client import KernelManager

STARTS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
CELLS = int(sys.argv[2]) if len(sys.argv) > 2 else 20
CODE = "1+1"
BLOCK = 20


def run_cell(kc, code):
    """Seconds to the execute_reply and to the idle status that follows; the reply's status and text result.

    Blocking reads (no polling loop that would take CPU from the kernel): the reply first, then the
    iopub messages of the request up to its idle status, which the kernel sends after the reply."""
    start = time.monotonic()
    msg_id = kc.execute(code)
    while True:
        reply = kc.get_shell_msg(timeout=120)
        if reply["parent_header"].get("msg_id") == msg_id:
            break
    reply_s = time.monotonic() - start
    result = None
    while True:
        msg = kc.get_iopub_msg(timeout=120)
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if msg["msg_type"] == "execute_result":
            result = msg["content"]["data"].get("text/plain")
        if msg["msg_type"] == "status" and msg["content"]["execution_state"] == "idle":
            break
    return reply_s, time.monotonic() - start, reply["content"]["status"], result


def steal_s():
    """The hypervisor's steal time of all CPUs so far, in seconds (/proc/stat; 0 where there is none)."""
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()
        return int(fields[8]) / os.sysconf("SC_CLK_TCK") if fields[0] == "cpu" and len(fields) > 8 else 0.0
    except OSError:
        return 0.0


def one_kernel():
    km = KernelManager(kernel_name="loadlab")
    steal0 = steal_s()
    start = time.monotonic()
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    try:
        kc.wait_for_ready(timeout=120)
        ready = time.monotonic() - start
        first = run_cell(kc, CODE)
        cells = [run_cell(kc, CODE) for _ in range(CELLS)]
        return {"ready_s": ready, "first_cell": first, "cells": cells, "steal_s": steal_s() - steal0}
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=False)


# Two-sided 95% Student t quantiles by degrees of freedom (1..30); 1.96 beyond.
T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
       2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
       2.045, 2.042]


def line(label, values, unit_ms):
    n = len(values)
    mean = statistics.fmean(values)
    sd = statistics.stdev(values) if n > 1 else 0.0
    half = (T95[n - 2] if n - 1 <= len(T95) else 1.96) * sd / n ** 0.5 if n > 1 else 0.0
    scale = 1000 if unit_ms else 1
    unit = "ms" if unit_ms else "s"
    fmt = "{:.0f}" if unit_ms else "{:.2f}"
    f = lambda x: fmt.format(x * scale)
    print(f"  {label:<44} n={n:<3} mean {f(mean)} {unit}, CV {100 * sd / mean:.1f}%, 95% CI [{f(mean - half)}, "
          f"{f(mean + half)}] {unit}, median {f(statistics.median(values))} {unit}, min {f(min(values))}, max {f(max(values))}")


def main():
    runs = [one_kernel() for _ in range(STARTS)]
    if len(sys.argv) > 3:
        with open(sys.argv[3], "w") as out:
            json.dump({"code": CODE, "runs": runs}, out)
    bad = [c for r in runs for c in [r["first_cell"]] + r["cells"] if c[2] != "ok" or c[3] != "2"]
    print(f"Loadlab kernel through jupyter_client: {STARTS} kernel start(s), then the cell '{CODE}' once "
          f"and {CELLS} times more on each" + (f"; {len(bad)} cell(s) did not answer 2: {bad[:3]}" if bad else ""))
    line("start to ready (kernel_info reply)", [r["ready_s"] for r in runs], False)
    line("first cell, request to reply", [r["first_cell"][0] for r in runs], True)
    line("start to the first cell's reply", [r["ready_s"] + r["first_cell"][0] for r in runs], False)
    # The headline: the first 20 warm cells (all of them with -c below 20).
    head = min(CELLS, BLOCK)
    medians = [statistics.median(c[0] for c in r["cells"][:head]) for r in runs]
    line(f"warm cell, request to reply (median of {head})", medians, True)
    idle_medians = [statistics.median(c[1] for c in r["cells"][:head]) for r in runs]
    line(f"warm cell, request to idle (median of {head})", idle_medians, True)
    # Later cells, for a kernel in use longer (-c 40 and more): the median of each further 20.
    for first in range(BLOCK, CELLS - BLOCK + 1, BLOCK):
        line(f"warm cells {first + 1}-{first + BLOCK}, median", [statistics.median(c[0] for c in r["cells"][first:first + BLOCK])
                                                              for r in runs], True)
    every = [c[0] for r in runs for c in r["cells"]]
    print(f"  every warm cell: median {1000 * statistics.median(every):.0f} ms, "
          f"90th percentile {1000 * statistics.quantiles(every, n=10)[-1]:.0f} ms, max {1000 * max(every):.0f} ms")
    steals = [r["steal_s"] for r in runs]
    print(f"  host steal (/proc/stat, all CPUs): {sum(steals):.2f} s over the run, at most {max(steals):.2f} s "
          f"in one kernel's; above 0 the host was busy too")


if __name__ == "__main__":
    main()
