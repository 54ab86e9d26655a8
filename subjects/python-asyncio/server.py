#!/usr/bin/env python3
"""Loadlab subject "python-asyncio": the subject contract on the Python standard library alone.

    python3 server.py --port 8080 [--threads N] [--durability memory|fsync --dir DIR]

HTTP/1.1 is parsed by hand on an asyncio.Protocol (the stdlib has no asyncio HTTP server, and
http.server is thread-per-connection and blocking). It prints "listening on PORT" once it accepts
connections, and stops on SIGTERM.

One event loop in one process: --threads is accepted for the common command line but not used.
Python threads would not run the parsing in parallel (the GIL), and several processes could not
share the in-memory key-value store that get-kv reads back.

Requests on a connection are handled strictly one after another, which keeps pipelined answers in
order: while an answer is pending (a /delay timer, an fsync in a thread), the requests behind it
wait in the buffer, and other connections go on as usual.
"""

import argparse
import asyncio
import os
import signal
import threading
from concurrent.futures import ThreadPoolExecutor

MAX_HEAD = 64 * 1024      # request line and headers
MAX_BODY = 64 << 20
MAX_BYTES = 64 << 20      # largest /bytes/{n}
MAX_KEY_BYTES = 100       # keeps the hex file name of a key under the usual 255-byte limit
INPUT_LIMIT = 1 << 20     # stop reading a connection whose queued requests exceed this

HELLO = b"Hello, World!"
JSON = b'{"message":"Hello, World!"}'
# byte i = 'a' + i % 26, about 1 MiB of it; a whole number of periods, so that longer answers
# can repeat it without breaking the pattern.
PATTERN = memoryview(b"abcdefghijklmnopqrstuvwxyz" * 40330)

REASONS = {200: "OK", 201: "Created", 204: "No Content", 400: "Bad Request", 404: "Not Found",
           405: "Method Not Allowed", 413: "Content Too Large",
           431: "Request Header Fields Too Large", 500: "Internal Server Error",
           501: "Not Implemented"}

KV = {}
KV_DIR = None             # set in fsync mode: one file per key
DISK = None               # the threads that wait for the disk, so the loop never does
FILE_LOCKS = [threading.Lock() for _ in range(64)]  # two PUTs of one key must not interleave


def head(status, ctype, length, keep_alive):
    lines = ["HTTP/1.1 %d %s" % (status, REASONS[status])]
    if status != 204:     # HTTP forbids a body, and so Content-Length, on 204
        lines.append("Content-Type: " + ctype)
        lines.append("Content-Length: %d" % length)
    if not keep_alive:
        lines.append("Connection: close")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


# The two hottest answers, prebuilt.
PLAINTEXT_OK = head(200, "text/plain", len(HELLO), True) + HELLO
JSON_OK = head(200, "application/json", len(JSON), True) + JSON


def number(s, limit):
    """The decimal s if it is 0..limit, else -1."""
    if not (s.isascii() and s.isdigit()) or len(s) > 12:
        return -1
    n = int(s)
    return n if n <= limit else -1


def write_durably(path, value):
    """Runs in a DISK thread: writes the file and returns once fdatasync says it is on disk."""
    with FILE_LOCKS[hash(path) % len(FILE_LOCKS)]:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        try:
            view = memoryview(value)
            while view:
                view = view[os.write(fd, view):]
            os.fdatasync(fd)
        finally:
            os.close(fd)


class HttpConnection(asyncio.Protocol):

    def connection_made(self, transport):
        self.transport = transport
        self.loop = asyncio.get_running_loop()
        self.buf = bytearray()
        self.pending = False       # an answer is on its way (timer or disk); later requests wait
        self.write_paused = False  # the transport's send buffer is full: stop producing answers
        self.read_paused = False
        self.eof = False
        self.timer = None

    def data_received(self, data):
        self.buf += data
        self.process()

    def eof_received(self):
        # The client will send no more; finish what it already sent, then close.
        self.eof = True
        self.process()
        return True  # keep the transport; process() closes it

    def connection_lost(self, exc):
        if self.timer is not None:
            self.timer.cancel()

    def pause_writing(self):
        self.write_paused = True

    def resume_writing(self):
        self.write_paused = False
        self.process()

    def process(self):
        """Answers the complete requests in the buffer, in order, until one has to wait."""
        # is_closing(): we closed it, or a write found the client gone (connection_lost comes
        # later); either way nothing more is written.
        while not (self.pending or self.write_paused or self.transport.is_closing()):
            request = self.parse()
            if request is None:
                break
            self.dispatch(*request)
        if self.transport.is_closing():
            return
        blocked = self.pending or self.write_paused
        if self.eof and not blocked:
            self.close()   # whatever is left in the buffer is an incomplete request
            return
        # Backpressure: a client that keeps pipelining behind a waiting answer is not read further.
        want_pause = blocked and len(self.buf) > INPUT_LIMIT
        if want_pause != self.read_paused:
            self.read_paused = want_pause
            if want_pause:
                self.transport.pause_reading()
            else:
                self.transport.resume_reading()

    def parse(self):
        """Takes one complete request off the buffer: (method, target, body, keep_alive), or None."""
        buf = self.buf
        while buf.startswith(b"\r\n"):  # RFC 9112: ignore empty lines before a request line
            del buf[:2]
        end = buf.find(b"\r\n\r\n")
        if end < 0:
            if len(buf) > MAX_HEAD:
                self.fail(431)
            return None
        lines = buf[:end].decode("latin-1").split("\r\n")
        parts = lines[0].split(" ")
        if len(parts) != 3 or not parts[2].startswith("HTTP/1."):
            self.fail(400)
            return None
        method, target, version = parts
        length = 0
        connection = ""
        for line in lines[1:]:
            name, _, value = line.partition(":")
            name = name.lower()
            if name == "content-length":
                length = number(value.strip(), MAX_BODY)
                if length < 0:
                    self.fail(413 if value.strip().isdigit() else 400)
                    return None
            elif name == "connection":
                connection = value.lower()
            elif name == "transfer-encoding":
                self.fail(501)  # only Content-Length bodies are supported
                return None
        start = end + 4
        if len(buf) < start + length:
            return None    # the body is still on its way
        body = bytes(buf[start:start + length])
        del buf[:start + length]
        if version == "HTTP/1.1":
            keep_alive = "close" not in connection
        else:
            keep_alive = "keep-alive" in connection
        return method, target, body, keep_alive

    def dispatch(self, method, target, body, keep_alive):
        path = target.partition("?")[0]
        if method == "GET":
            if path == "/plaintext":
                if keep_alive:
                    self.transport.write(PLAINTEXT_OK)
                else:
                    self.send(200, "text/plain", HELLO, False)
            elif path == "/json":
                if keep_alive:
                    self.transport.write(JSON_OK)
                else:
                    self.send(200, "application/json", JSON, False)
            elif path.startswith("/bytes/"):
                n = number(path[7:], MAX_BYTES)
                if n < 0:
                    self.send(400, "text/plain", b"n must be 0..%d" % MAX_BYTES, keep_alive)
                else:
                    self.send_pattern(n, keep_alive)
            elif path.startswith("/kv/") and len(path) > 4:
                value = KV.get(path[4:])
                if value is None:
                    self.send(404, "text/plain", b"no such key", keep_alive)
                else:
                    self.send(200, "application/octet-stream", value, keep_alive)
            elif path.startswith("/delay/"):
                ms = number(path[7:], 60_000)
                if ms < 0:
                    self.send(400, "text/plain", b"ms must be 0..60000", keep_alive)
                else:
                    self.pending = True
                    self.timer = self.loop.call_later(ms / 1000, self.finish, 200, "text/plain",
                                                      HELLO, keep_alive)
            else:
                self.send(404, "text/plain", b"not found", keep_alive)
        elif method == "PUT" and path.startswith("/kv/") and len(path) > 4:
            self.put(path[4:], body, keep_alive)
        elif path.startswith("/kv/") and len(path) > 4:
            self.send(405, "text/plain", b"use GET or PUT", keep_alive)
        else:
            self.send(404, "text/plain", b"not found", keep_alive)

    def put(self, key, body, keep_alive):
        if KV_DIR is None:
            status = 204 if key in KV else 201
            KV[key] = body
            self.send(status, "text/plain", b"", keep_alive)
            return
        name = key.encode()
        if len(name) > MAX_KEY_BYTES:
            self.send(400, "text/plain", b"keys are at most %d bytes" % MAX_KEY_BYTES, keep_alive)
            return
        # Hex keeps any key a safe, distinct file name.
        path = os.path.join(KV_DIR, name.hex())
        self.pending = True
        done = self.loop.run_in_executor(DISK, write_durably, path, body)
        done.add_done_callback(lambda f: self.put_done(f, key, body, keep_alive))

    def put_done(self, future, key, body, keep_alive):
        if future.exception() is not None:
            self.finish(500, "text/plain", b"write failed", keep_alive)
        else:
            status = 204 if key in KV else 201
            KV[key] = body
            self.finish(status, "text/plain", b"", keep_alive)

    def finish(self, status, ctype, body, keep_alive):
        """Sends a pending answer and goes on with the requests that waited behind it."""
        self.pending = False
        self.timer = None
        if self.transport.is_closing():
            return
        self.send(status, ctype, body, keep_alive)
        self.process()

    def send(self, status, ctype, body, keep_alive):
        if len(body) < 16384:   # one segment for small answers
            self.transport.write(head(status, ctype, len(body), keep_alive) + body)
        else:                   # no copy of large ones
            self.transport.write(head(status, ctype, len(body), keep_alive))
            self.transport.write(body)
        if not keep_alive:
            self.close()

    def send_pattern(self, n, keep_alive):
        self.transport.write(head(200, "application/octet-stream", n, keep_alive))
        for offset in range(0, n, len(PATTERN)):
            self.transport.write(PATTERN[:min(len(PATTERN), n - offset)])
        if not keep_alive:
            self.close()

    def fail(self, status):
        """Answers a request we cannot parse and closes: the framing of what follows is unknown."""
        self.send(status, "text/plain", REASONS[status].encode(), False)

    def close(self):
        self.transport.close()  # sends what is buffered first


async def serve(port):
    loop = asyncio.get_running_loop()
    server = await loop.create_server(HttpConnection, "0.0.0.0", port, backlog=1024,
                                      reuse_address=True)
    stop = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    print("listening on %d (asyncio, one event loop)" % port, flush=True)
    await stop.wait()
    server.close()


def main():
    global KV_DIR, DISK
    p = argparse.ArgumentParser(description="Loadlab subject python-asyncio")
    p.add_argument("--port", type=int, default=8080)
    p.add_argument("--threads", type=int, default=os.cpu_count(),
                   help="accepted for the common command line; one event loop is used")
    p.add_argument("--durability", choices=["memory", "fsync"], default="memory")
    p.add_argument("--dir")
    args = p.parse_args()
    if args.durability == "fsync":
        if not args.dir:
            p.error("--durability fsync needs --dir DIR")
        KV_DIR = os.path.join(args.dir, "kv")
        os.makedirs(KV_DIR, exist_ok=True)
        DISK = ThreadPoolExecutor(max_workers=8, thread_name_prefix="disk")
    asyncio.run(serve(args.port))


if __name__ == "__main__":
    main()
