#!/usr/bin/env python3
"""A stand-in server of known service time and capacity, for the latency-sweep tests (SweepRunTest).

    python3 paced_server.py --port P --service-ms S [--pids FILE]

Answers GET /plaintext with "Hello, World!" over keep-alive HTTP/1.1. One worker serves the
requests of all connections one at a time, in arrival order, and each takes exactly S ms: the
worker's clock advances by S from the moment it was free (or the request arrived, if later), and the
answer leaves when that clock is reached. So the capacity is exactly 1000 / S requests/s however late
a sleep wakes up (a late wake-up delays one answer, not the next), and a request that finds the worker
idle takes S ms plus one sleep's overshoot. --pids appends this process's pid to FILE.
"""

import argparse
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


def worker(work, service):
    free = 0.0
    while True:
        conn, arrived = work.get()
        free = max(free, arrived) + service
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
    a = p.parse_args()
    if a.pids:
        with open(a.pids, "a") as f:
            f.write("server %d\n" % os.getpid())
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", a.port))
    s.listen(128)
    work = queue.Queue()
    threading.Thread(target=worker, args=(work, a.service_ms / 1000.0), daemon=True).start()
    print("listening on %d" % a.port, flush=True)
    while True:
        conn, _ = s.accept()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=read_requests, args=(conn, work), daemon=True).start()


if __name__ == "__main__":
    sys.exit(main())
