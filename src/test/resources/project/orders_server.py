"""A small orders API for the project tests: POST /api/orders/{id} answers 201 {"id": N}, GET
/api/orders answers 200 with a list, GET /healthz 200. After --wrong-after API requests it answers
wrong: --wrong status (500) or --wrong body (201 without an id), so that the expect check before the
rounds passes and the engine's check during them must catch it. Writes its pid to --pid-file."""
import argparse
import http.server
import json
import os
import threading

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--wrong", choices=["none", "status", "body"], default="none")
parser.add_argument("--wrong-after", type=int, default=0)
parser.add_argument("--pid-file")
args = parser.parse_args()

lock = threading.Lock()
served = 0


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in two writes: with Nagle on, the body waits for the client's delayed ACK
    # (40 ms), so a 1 s run made ~46 requests and too little CPU for the kernel's 10 ms ticks to show.
    disable_nagle_algorithm = True

    def log_message(self, *a):
        pass

    def answer(self, status, body):
        out = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)

    def api(self):
        global served
        with lock:
            served += 1
            n = served
        return args.wrong if n > args.wrong_after else "none"

    def do_GET(self):
        if self.path == "/healthz":
            return self.answer(200, "ok")
        wrong = self.api()
        if wrong == "status":
            return self.answer(500, '{"error": "wrong on purpose"}')
        self.answer(200, json.dumps([{"id": 1, "item": 42}] if wrong == "none" else []))

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        order = json.loads(self.rfile.read(length) or b"{}")
        wrong = self.api()
        if wrong == "status":
            return self.answer(500, '{"error": "wrong on purpose"}')
        self.answer(201, json.dumps({"id": 7, **order} if wrong == "none" else {"item": order.get("item")}))


server = http.server.ThreadingHTTPServer(("127.0.0.1", args.port), Handler)
server.daemon_threads = True
if args.pid_file:
    with open(args.pid_file + ".tmp", "w") as f:
        f.write(str(os.getpid()))
    os.replace(args.pid_file + ".tmp", args.pid_file)
server.serve_forever()
