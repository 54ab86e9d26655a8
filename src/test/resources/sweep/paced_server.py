#!/usr/bin/env python3
"""A stand-in server of known service time and capacity, for the latency-sweep tests (SweepRunTest).

    python3 paced_server.py --port P --service-ms S [--pids FILE]

Answers GET /plaintext with "Hello, World!" over keep-alive HTTP/1.1. One worker serves the
requests of all connections one at a time, in arrival order, and each takes exactly S ms: the
worker's clock advances by S from the moment it was free (or the request arrived, if later), and the
answer leaves when that clock is reached. So the capacity is exactly 1000 / S requests/s however late
a sleep wakes up (a late wake-up delays one answer, not the next), and a request that finds the worker
idle takes S ms plus one sleep's overshoot. --pids appends this process's pid to FILE.

    --plateau-s P --plateau-ms S2   a stand-in for a JIT server (WarmupCompilersTest): for the first
                                    P s after its first request each takes S2 ms, a flat plateau, while
                                    a thread named like HotSpot's C2 compiler burns CPU; then S ms, and
                                    the "compiler" is done.
"""

import argparse
import hashlib
import os
import queue
import socket
import sys
import threading
import time

ANSWER = (b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 13\r\n\r\nHello, World!")


def read_requests(conn, work):
    """Queues every request of a connection as it arrives; the worker answers them."""
    buf = b""
    while True:
        try:
            data = conn.recv(65536)
        except OSError:
            return
        if not data:
            return
        buf += data
        while b"\r\n\r\n" in buf:
            _, buf = buf.split(b"\r\n\r\n", 1)
            work.put((conn, time.monotonic()))


def compiler(plateau_end):
    """Burns CPU until the plateau ends, under the name /proc shows for a HotSpot compiler thread."""
    with open("/proc/self/task/%d/comm" % threading.get_native_id(), "w") as f:
        f.write("C2 CompilerThread0")
    block = b"x" * (1 << 20)
    while plateau_end[0] is None or time.monotonic() < plateau_end[0]:
        hashlib.sha256(block).digest()  # hashlib lets go of the GIL for large inputs: the server still serves


def worker(work, service, plateau_s, plateau_service, plateau_end):
    free = 0.0
    while True:
        conn, arrived = work.get()
        if plateau_end[0] is None:
            plateau_end[0] = arrived + plateau_s
        free = max(free, arrived) + (plateau_service if arrived < plateau_end[0] else service)
        delay = free - time.monotonic()
        if delay > 0:
            time.sleep(delay)
        try:
            conn.sendall(ANSWER)
        except OSError:
            pass  # the client closed the connection (the end of a window): nothing to answer


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--service-ms", type=float, required=True)
    p.add_argument("--pids")
    p.add_argument("--plateau-s", type=float, default=0.0)
    p.add_argument("--plateau-ms", type=float, default=0.0)
    a = p.parse_args()
    if a.pids:
        with open(a.pids, "a") as f:
            f.write("server %d\n" % os.getpid())
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", a.port))
    s.listen(128)
    work = queue.Queue()
    plateau_end = [None]  # set at the first request
    threading.Thread(target=worker, args=(work, a.service_ms / 1000.0, a.plateau_s, a.plateau_ms / 1000.0,
                                          plateau_end), daemon=True).start()
    if a.plateau_s > 0:
        threading.Thread(target=compiler, args=(plateau_end,), daemon=True).start()
    print("listening on %d" % a.port, flush=True)
    while True:
        conn, _ = s.accept()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=read_requests, args=(conn, work), daemon=True).start()


if __name__ == "__main__":
    sys.exit(main())
