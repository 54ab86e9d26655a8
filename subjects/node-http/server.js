// Loadlab subject "node-http": the subject contract on Node's built-in `http` module alone.
//
//   node server.js --port 8080 [--threads N] [--durability memory|fsync --dir DIR]
//
// One process, one event loop: --threads is accepted for the common command line but not used
// (a multi-core Node server would need `cluster`, whose processes could not share the in-memory
// key-value store). /delay/{ms} is a timer, so it never blocks the loop. In fsync mode a PUT is
// answered only after FileHandle.datasync() (fdatasync), which runs on libuv's thread pool,
// again off the loop. It prints "listening on PORT" once it accepts connections; SIGTERM ends
// it (Node's default signal action).
'use strict';

const http = require('http');
const fs = require('fs');
const path = require('path');

const MAX_BYTES = 64 << 20;
const PLAINTEXT = Buffer.from('Hello, World!');
const JSON_BODY = Buffer.from('{"message":"Hello, World!"}');
// A multiple of 26 long (just over 1 MiB), so consecutive copies continue 'a' + i % 26.
const PATTERN = Buffer.alloc(26 * 40330);
for (let i = 0; i < PATTERN.length; i++) PATTERN[i] = 97 + (i % 26);

const kv = new Map();
let kvDir = null; // set in fsync mode
// fsync mode: the last pending write per file, so that two PUTs of one key write in turn (and
// the map ends in the disk's order) while different keys proceed concurrently.
const fileTails = new Map();

function usage(msg) {
  process.stderr.write(`node-http: ${msg}; usage: --port P [--threads N] [--durability memory|fsync --dir DIR]\n`);
  process.exit(2);
}

let port = 8080;
let durability = 'memory';
let dir = null;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const a = argv[i];
  const v = argv[++i];
  if (v === undefined) usage(`${a} needs a value`);
  if (a === '--port') port = Number(v);
  else if (a === '--threads') { /* single event loop; see the header */ }
  else if (a === '--durability') durability = v;
  else if (a === '--dir') dir = v;
  else usage(`unknown argument ${a}`);
}
if (durability === 'fsync') {
  if (!dir) usage('--durability fsync needs --dir DIR');
  kvDir = path.join(dir, 'kv');
  fs.mkdirSync(kvDir, { recursive: true });
} else if (durability !== 'memory') {
  usage(`durability must be memory or fsync, got '${durability}'`);
}

// Content-Length always set by us, so no answer is chunked.
function send(res, status, type, body) {
  const headers = { 'Content-Length': body.length };
  if (type) headers['Content-Type'] = type;
  res.writeHead(status, headers);
  res.end(body);
}

// Strict decimal (Number() would accept '', ' 1', '1e3', '0x10').
function number(s) {
  return /^[0-9]{1,12}$/.test(s) ? Number(s) : -1;
}

// Keys come from URLs: keep file names to a safe alphabet, "k-" rules out "." and "..".
// Distinct keys may share a file: reads come from memory, the file is only the durable copy.
function fileName(key) {
  return 'k-' + key.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 200);
}

async function writeDurably(name, value) {
  const fh = await fs.promises.open(path.join(kvDir, name), 'w');
  try {
    await fh.writeFile(value);
    await fh.datasync();
  } finally {
    await fh.close();
  }
}

function store(res, key, body) {
  const existed = kv.has(key);
  kv.set(key, body);
  if (existed) {
    res.writeHead(204); // no body, hence no Content-Length (RFC 9110)
    res.end();
  } else {
    send(res, 201, 'text/plain', Buffer.alloc(0));
  }
}

// Resolves (never rejects) once the PUT is answered.
function put(req, res, key) {
  return new Promise((resolve) => {
    const chunks = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c) => {
      size += c.length;
      if (size > MAX_BYTES) tooLarge = true;
      else chunks.push(c);
    });
    req.on('error', resolve); // aborted upload: nothing stored, nothing to answer
    req.on('end', () => {
      if (tooLarge) {
        send(res, 413, 'text/plain', Buffer.from('body too large'));
        resolve();
        return;
      }
      const body = Buffer.concat(chunks, size);
      if (!kvDir) {
        store(res, key, body);
        resolve();
        return;
      }
      const name = fileName(key);
      const prev = fileTails.get(name) || Promise.resolve();
      const done = prev.then(() => writeDurably(name, body)).then(
        () => store(res, key, body),
        (err) => send(res, 500, 'text/plain', Buffer.from(String(err))));
      fileTails.set(name, done);
      done.then(() => {
        if (fileTails.get(name) === done) fileTails.delete(name);
        resolve();
      });
    });
  });
}

// Node emits 'request' for every pipelined request as soon as it is parsed, before an earlier
// PUT has its body (or, in fsync mode, its disk write) done. So that a pipelined PUT-then-GET
// reads its own write, a connection's requests wait behind its unfinished PUT. Answers are in
// order anyway: Node queues each connection's responses.
function handle(req, res) {
  const sock = req.socket;
  const run = () => route(req, res);
  const p = sock.kvPending ? sock.kvPending.then(run) : run();
  if (p) {
    sock.kvPending = p;
    p.then(() => { if (sock.kvPending === p) sock.kvPending = null; });
  }
}

// Answers one request; returns a promise only for a PUT (see handle).
function route(req, res) {
  const q = req.url.indexOf('?');
  const p = q < 0 ? req.url : req.url.slice(0, q);
  const get = req.method === 'GET' || req.method === 'HEAD';
  if (get && p === '/plaintext') {
    send(res, 200, 'text/plain', PLAINTEXT);
  } else if (get && p === '/json') {
    send(res, 200, 'application/json', JSON_BODY);
  } else if (get && p.startsWith('/bytes/')) {
    const n = number(p.slice(7));
    if (n < 0 || n > MAX_BYTES) {
      send(res, 400, 'text/plain', Buffer.from(`n must be 0..${MAX_BYTES}`));
      return;
    }
    res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': n });
    // Slices share PATTERN's memory: no per-request copy.
    let left = n;
    while (left > PATTERN.length) {
      res.write(PATTERN);
      left -= PATTERN.length;
    }
    res.end(PATTERN.subarray(0, left));
  } else if (p.startsWith('/kv/') && p.length > 4) {
    const key = p.slice(4);
    if (req.method === 'PUT') {
      return put(req, res, key);
    } else if (get) {
      const v = kv.get(key);
      if (v === undefined) send(res, 404, 'text/plain', Buffer.from('no such key'));
      else send(res, 200, 'application/octet-stream', v);
    } else {
      send(res, 405, 'text/plain', Buffer.from('use GET or PUT'));
    }
  } else if (get && p.startsWith('/delay/')) {
    const ms = number(p.slice(7));
    if (ms < 0 || ms > 60000) {
      send(res, 400, 'text/plain', Buffer.from('ms must be 0..60000'));
      return;
    }
    setTimeout(() => send(res, 200, 'text/plain', PLAINTEXT), ms);
  } else {
    send(res, 404, 'text/plain', Buffer.from('not found'));
  }
}

const server = http.createServer(handle);
// Node closes idle keep-alive connections after 5 s by default; a load generator pausing
// between phases would then race the close. Keep them open as long as the client wants.
server.keepAliveTimeout = 120000;
server.headersTimeout = 125000; // must exceed keepAliveTimeout
server.listen(port, '0.0.0.0', () => {
  process.stdout.write(`listening on ${port} (node ${process.version}, ${durability})\n`);
});
