"""Loadlab subject "python-sanic": the subject contract (docs/architecture.md) on Sanic, with its
own HTTP protocol on uvloop and httptools (both installed with it, as Sanic installs them).

    python server.py --port 8080 [--threads N] [--durability memory|fsync --dir DIR]

--threads is Sanic's number of worker processes (app.run(workers=N)); Sanic's main process
starts and supervises them, and they share the listening socket. Because a request may reach
any worker, the key-value store lives where every worker sees it: one file per key in
DIR/kv (written to a temporary file and renamed into place, so a reader never sees half a
value). In the memory variant the files are not synced (they stay in the page cache); in the
fsync variant a PUT is answered only after os.fdatasync of the value's file, done in the
event loop's thread pool so that the loop goes on. Sanic handles SIGTERM itself: the main
process stops its workers, then exits.
"""
import argparse
import asyncio
import errno
import itertools
import os
import sys

from sanic import Sanic
from sanic.response import empty, json, raw, text

MAX_BYTES = 64 << 20
MAX_DELAY_MS = 60_000
# Just over 1 MiB of the contract's pattern (byte i = 'a' + i % 26).
PATTERN = bytes(ord("a") + i % 26 for i in range(26 * 40330))
SAFE = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def parse_args(argv):
    p = argparse.ArgumentParser(prog="python-sanic")
    p.add_argument("--port", type=int, default=8080)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--durability", choices=["memory", "fsync"], default="memory")
    p.add_argument("--dir", required=True)
    a = p.parse_args(argv)
    if a.threads < 1:
        p.error("--threads needs a number >= 1")
    return a


# Sanic's workers are new interpreters that import this module again with the parent's argv.
ARGS = parse_args(sys.argv[1:])
KV_DIR = os.path.join(ARGS.dir, "kv")
FSYNC = ARGS.durability == "fsync"
app = Sanic("loadlab_sanic")
# Temporary file names unique across workers and requests.
_tmp_names = itertools.count()


def file_name(key):
    """Keys come from URLs: every byte outside [A-Za-z0-9_-] becomes %XX (no "/", "." or "..")."""
    out = []
    for b in key.encode("utf-8")[:80]:
        out.append(chr(b) if b in SAFE else "%%%02X" % b)
    return "".join(out)


def store(name, value):
    """Writes the value under its name; True when the key existed. Synced first in fsync mode."""
    final = os.path.join(KV_DIR, name)
    tmp = os.path.join(KV_DIR, ".tmp-%d-%d" % (os.getpid(), next(_tmp_names)))
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    try:
        view = memoryview(value)
        while view:
            view = view[os.write(fd, view):]
        if FSYNC:
            os.fdatasync(fd)
    finally:
        os.close(fd)
    # link() fails when the name exists, which tells new keys from replaced ones atomically.
    try:
        os.link(tmp, final)
    except FileExistsError:
        os.replace(tmp, final)
        return True
    os.unlink(tmp)
    return False


@app.get("/plaintext")
async def plaintext(request):
    return text("Hello, World!")


@app.get("/json")
async def json_(request):
    return json({"message": "Hello, World!"})


@app.get("/bytes/<n:int>")
async def bytes_(request, n):
    if n < 0 or n > MAX_BYTES:
        return text("n must be 0..%d" % MAX_BYTES, status=400)
    body = PATTERN[:n] if n <= len(PATTERN) else bytes(ord("a") + i % 26 for i in range(n))
    return raw(body, content_type="application/octet-stream")


@app.route("/kv/<key>", methods=["GET", "PUT"])
async def kv(request, key):
    name = file_name(key)
    if request.method == "PUT":
        if FSYNC:
            # fdatasync takes milliseconds: in the loop's thread pool, not on the loop.
            existed = await asyncio.get_running_loop().run_in_executor(None, store, name, request.body)
        else:
            existed = store(name, request.body)
        return empty(status=204 if existed else 201)
    try:
        with open(os.path.join(KV_DIR, name), "rb") as f:
            return raw(f.read(), content_type="application/octet-stream")
    except FileNotFoundError:
        return text("no such key", status=404)


@app.get("/delay/<ms:int>")
async def delay(request, ms):
    if ms < 0 or ms > MAX_DELAY_MS:
        return text("ms must be 0..60000", status=400)
    await asyncio.sleep(ms / 1000)
    return text("Hello, World!")


if __name__ == "__main__":
    try:
        os.makedirs(KV_DIR, exist_ok=True)
    except OSError as e:
        sys.exit("python-sanic: cannot create %s: %s" % (KV_DIR, e.strerror or errno.errorcode.get(e.errno)))
    print("listening on %d (%d workers, %s)" % (ARGS.port, ARGS.threads, ARGS.durability), flush=True)
    app.run(host="0.0.0.0", port=ARGS.port, workers=ARGS.threads)
