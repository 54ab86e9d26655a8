#!/usr/bin/env python3
"""A subject that misbehaves on request, for the harness fault tests (HarnessFaultsTest).

    python3 fault_server.py --port P [--pids FILE] [--status N | --silent | --silent-after N] [--squat]

Answers every GET with "Hello, World!" (or --status N) over keep-alive HTTP/1.1. --pids appends
this process's pid to FILE first. --silent accepts connections and never answers; --silent-after N
answers the first N requests (the readiness probe) and then none. --squat first
starts a detached process (its own session, re-parented away from this one) that takes the port
and answers 200, then tries the port itself, says "Address already in use" and stays up without
listening: a server that lost its port to another program.
"""

import argparse
import os
import socket
import sys
import threading
import time

HELLO = b"Hello, World!"
# --silent-after: how many more requests are answered, over all connections.
budget = [None]
budget_lock = threading.Lock()


def spend():
    """Whether one more request may be answered."""
    with budget_lock:
        if budget[0] is None:
            return True
        if budget[0] <= 0:
            return False
        budget[0] -= 1
        return True


def answer(conn, status, silent):
    with conn:
        buf = b""
        while True:
            try:
                data = conn.recv(65536)
            except OSError:
                return
            if not data:
                return
            if silent:
                continue
            buf += data
            while b"\r\n\r\n" in buf:
                _, buf = buf.split(b"\r\n\r\n", 1)
                if not spend():
                    buf = b""
                    break
                body = HELLO if status == 200 else b"failing on purpose"
                conn.sendall(b"HTTP/1.1 %d X\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n%s"
                             % (status, len(body), body))


def serve(sock, status, silent):
    while True:
        conn, _ = sock.accept()
        threading.Thread(target=answer, args=(conn, status, silent), daemon=True).start()


def listen(port):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", port))
    s.listen(128)
    return s


def squat(port, pids):
    """Forks a squatter in a session of its own that holds the port; returns once it listens."""
    ready_r, ready_w = os.pipe()
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            s = listen(port)
            if pids:
                with open(pids, "a") as f:
                    f.write("squatter %d\n" % os.getpid())
            os.write(ready_w, b"x")
            serve(s, 200, False)
        os._exit(0)
    os.read(ready_r, 1)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--pids")
    p.add_argument("--status", type=int, default=200)
    p.add_argument("--silent", action="store_true")
    p.add_argument("--squat", action="store_true")
    p.add_argument("--silent-after", type=int)
    a = p.parse_args()
    budget[0] = a.silent_after
    if a.pids:
        with open(a.pids, "a") as f:
            f.write("server %d\n" % os.getpid())
    if a.squat:
        squat(a.port, a.pids)
    try:
        s = listen(a.port)
    except OSError as e:
        print("cannot listen on port %d: %s; waiting" % (a.port, e.strerror), flush=True)
        while True:
            time.sleep(1000)
    print("listening on %d" % s.getsockname()[1], flush=True)
    serve(s, a.status, a.silent)


if __name__ == "__main__":
    sys.exit(main())
