//! Loadlab subject "zig-std": the subject contract (docs/architecture.md) on Zig's standard
//! library alone -- std.http.Server over std.Io.net, on the std.Io.Threaded implementation that
//! Zig 0.17's `main(init: std.process.Init)` hands out.
//!
//!   server --port 8080 [--threads N] [--durability memory|fsync --dir DIR]
//!
//! Each connection is served by `Io.Group.concurrent`, which gives it a thread of the Io's pool
//! (the pool grows as needed and keeps idle threads for later connections): a keep-alive
//! connection occupies its thread until it closes, and /delay/{ms} sleeps only that thread.
//! `Io.Group.async` (what `zig std` uses) would run a connection on the accepting thread once
//! the pool reached its limit (CPUs - 1), stalling every later connection, so it is not used.
//! Hence --threads is accepted and ignored, as in rust-std: the CPUs the server uses are set by
//! the harness's pinning. In fsync mode a PUT is answered only after fdatasync of the value's
//! file. Prints "listening on PORT" once it accepts; SIGTERM ends it (the default action).
const std = @import("std");
const Io = std.Io;

const max_bytes: usize = 64 << 20;
const max_delay_ms: u64 = 60_000;
const stripes = 256;

/// Values in memory behind one read-write lock; in fsync mode each also in its own file.
const Store = struct {
    lock: Io.RwLock = .init,
    map: std.StringHashMapUnmanaged([]u8) = .empty,
    /// The kv folder in fsync mode.
    dir: ?Io.Dir = null,
    /// Serialise fsync-mode PUTs of one file (truncate, write, fdatasync, then the map).
    file_locks: [stripes]Io.Mutex = @splat(.init),
};

const Context = struct {
    io: Io,
    gpa: std.mem.Allocator,
    store: Store = .{},
    /// Just over 1 MiB of the contract's pattern (byte i = 'a' + i % 26).
    pattern: []u8,
};

pub fn main(init: std.process.Init) !void {
    const io = init.io;
    const arena = init.arena.allocator();
    var port: u16 = 8080;
    var durability: []const u8 = "memory";
    var dir: ?[]const u8 = null;
    var args = try init.minimal.args.iterateAllocator(arena);
    _ = args.skip();
    while (args.next()) |a| {
        const value = args.next() orelse usage(io, "an option needs a value");
        if (std.mem.eql(u8, a, "--port")) {
            port = std.fmt.parseInt(u16, value, 10) catch usage(io, "--port needs a number");
        } else if (std.mem.eql(u8, a, "--threads")) {
            // Accepted for the common command line; see the file comment for why it is unused.
            _ = std.fmt.parseInt(u32, value, 10) catch usage(io, "--threads needs a number");
        } else if (std.mem.eql(u8, a, "--durability")) {
            durability = value;
        } else if (std.mem.eql(u8, a, "--dir")) {
            dir = value;
        } else usage(io, "unknown option");
    }
    const pattern = try arena.alloc(u8, 26 * 40330);
    for (pattern, 0..) |*b, i| b.* = @intCast('a' + i % 26);
    var ctx: Context = .{ .io = io, .gpa = init.gpa, .pattern = pattern };
    if (std.mem.eql(u8, durability, "fsync")) {
        const d = dir orelse usage(io, "--durability fsync needs --dir DIR");
        const base = Io.Dir.cwd().openDir(io, d, .{}) catch usage(io, "cannot open --dir");
        ctx.store.dir = base.createDirPathOpen(io, "kv", .{}) catch usage(io, "cannot create DIR/kv");
    } else if (!std.mem.eql(u8, durability, "memory")) {
        usage(io, "durability must be memory or fsync");
    }

    const address = Io.net.IpAddress{ .ip4 = .unspecified(port) };
    var listener = try address.listen(io, .{ .reuse_address = true, .kernel_backlog = 1024 });
    var line: [96]u8 = undefined;
    Io.File.stdout().writeStreamingAll(io, try std.fmt.bufPrint(&line, "listening on {d} ({s})\n", .{ port, durability })) catch {};

    var group: Io.Group = .init;
    defer group.cancel(io);
    while (true) {
        const stream = try listener.accept(io);
        group.concurrent(io, serve, .{ &ctx, stream }) catch stream.close(io);
    }
}

fn usage(io: Io, problem: []const u8) noreturn {
    var buf: [256]u8 = undefined;
    const msg = std.fmt.bufPrint(&buf, "zig-std: {s}; usage: --port P [--threads N] [--durability memory|fsync --dir DIR]\n", .{problem}) catch "zig-std: bad usage\n";
    Io.File.stderr().writeStreamingAll(io, msg) catch {};
    std.process.exit(2);
}

/// Serves one connection, one request after the other (which keeps pipelined answers in order).
fn serve(ctx: *Context, stream: Io.net.Stream) void {
    const io = ctx.io;
    defer stream.close(io);
    var recv_buffer: [16 * 1024]u8 = undefined;
    var send_buffer: [16 * 1024]u8 = undefined;
    var conn_reader = stream.reader(io, &recv_buffer);
    var conn_writer = stream.writer(io, &send_buffer);
    var server = std.http.Server.init(&conn_reader.interface, &conn_writer.interface);
    while (server.reader.state == .ready) {
        var request = server.receiveHead() catch return;
        route(ctx, &request) catch return;
    }
}

const text_plain: []const std.http.Header = &.{.{ .name = "content-type", .value = "text/plain" }};
const octet_stream: []const std.http.Header = &.{.{ .name = "content-type", .value = "application/octet-stream" }};

fn text(request: *std.http.Server.Request, status: std.http.Status, body: []const u8) !void {
    try request.respond(body, .{ .status = status, .extra_headers = text_plain });
}

fn route(ctx: *Context, request: *std.http.Server.Request) !void {
    const target = request.head.target;
    const method = request.head.method;
    const get = method == .GET or method == .HEAD;
    if (get and std.mem.eql(u8, target, "/plaintext")) {
        try text(request, .ok, "Hello, World!");
    } else if (get and std.mem.eql(u8, target, "/json")) {
        // std.json, as a Zig user would serialise a struct.
        var buf: [64]u8 = undefined;
        var w: Io.Writer = .fixed(&buf);
        try std.json.Stringify.value(.{ .message = "Hello, World!" }, .{}, &w);
        try request.respond(w.buffered(), .{ .extra_headers = &.{.{ .name = "content-type", .value = "application/json" }} });
    } else if (get and std.mem.startsWith(u8, target, "/bytes/")) {
        const n = std.fmt.parseInt(usize, target["/bytes/".len..], 10) catch max_bytes + 1;
        if (n > max_bytes) return text(request, .bad_request, "n must be 0..67108864");
        if (n <= ctx.pattern.len) return request.respond(ctx.pattern[0..n], .{ .extra_headers = octet_stream });
        const body = try ctx.gpa.alloc(u8, n);
        defer ctx.gpa.free(body);
        for (body, 0..) |*b, i| b.* = @intCast('a' + i % 26);
        try request.respond(body, .{ .extra_headers = octet_stream });
    } else if (std.mem.startsWith(u8, target, "/kv/") and target.len > "/kv/".len) {
        if (method == .PUT) return put(ctx, request);
        if (!get) return text(request, .method_not_allowed, "use GET or PUT");
        return getValue(ctx, request, target["/kv/".len..]);
    } else if (get and std.mem.startsWith(u8, target, "/delay/")) {
        const ms = std.fmt.parseInt(u64, target["/delay/".len..], 10) catch max_delay_ms + 1;
        if (ms > max_delay_ms) return text(request, .bad_request, "ms must be 0..60000");
        // Only this connection's thread sleeps.
        try ctx.io.sleep(.fromMilliseconds(@intCast(ms)), .awake);
        try text(request, .ok, "Hello, World!");
    } else {
        try text(request, .not_found, "not found");
    }
}

fn getValue(ctx: *Context, request: *std.http.Server.Request, key: []const u8) !void {
    const io = ctx.io;
    // Copy the value out so that the lock is not held while the answer is written.
    ctx.store.lock.lockSharedUncancelable(io);
    const copy: ?[]u8 = if (ctx.store.map.get(key)) |v| ctx.gpa.dupe(u8, v) catch null else null;
    ctx.store.lock.unlockShared(io);
    if (copy) |c| {
        defer ctx.gpa.free(c);
        try request.respond(c, .{ .extra_headers = octet_stream });
    } else {
        try text(request, .not_found, "no such key");
    }
}

fn put(ctx: *Context, request: *std.http.Server.Request) !void {
    const io = ctx.io;
    const gpa = ctx.gpa;
    // The head's slices are invalid once the body is read: keep the key first.
    const key = try gpa.dupe(u8, request.head.target["/kv/".len..]);
    defer gpa.free(key);
    var body_buffer: [16 * 1024]u8 = undefined;
    const body_reader = try request.readerExpectContinue(&body_buffer);
    const value = body_reader.allocRemaining(gpa, .limited(max_bytes)) catch
        return text(request, .payload_too_large, "body too large or unreadable");
    var kept = false;
    defer if (!kept) gpa.free(value);
    var name_buf: [256]u8 = undefined;
    const name = fileName(key, &name_buf);
    const file_lock = &ctx.store.file_locks[std.hash.Wyhash.hash(0, name) % stripes];
    if (ctx.store.dir) |d| {
        file_lock.lockUncancelable(io);
        writeDurably(io, d, name, value) catch |err| {
            file_lock.unlock(io);
            return text(request, .internal_server_error, @errorName(err));
        };
    }
    ctx.store.lock.lockUncancelable(io);
    const entry = ctx.store.map.getOrPut(gpa, key) catch |err| {
        ctx.store.lock.unlock(io);
        if (ctx.store.dir != null) file_lock.unlock(io);
        return err;
    };
    const existed = entry.found_existing;
    if (existed) {
        gpa.free(entry.value_ptr.*);
    } else {
        entry.key_ptr.* = gpa.dupe(u8, key) catch |err| {
            _ = ctx.store.map.remove(key);
            ctx.store.lock.unlock(io);
            if (ctx.store.dir != null) file_lock.unlock(io);
            return err;
        };
    }
    entry.value_ptr.* = value;
    kept = true;
    ctx.store.lock.unlock(io);
    if (ctx.store.dir != null) file_lock.unlock(io);
    try request.respond("", .{ .status = if (existed) .no_content else .created, .extra_headers = text_plain });
}

/// Writes the value to its own file and returns once fdatasync has.
fn writeDurably(io: Io, dir: Io.Dir, name: []const u8, value: []const u8) !void {
    const f = try dir.createFile(io, name, .{ .truncate = true });
    defer f.close(io);
    try f.writeStreamingAll(io, value);
    try std.posix.fdatasync(f.handle);
}

/// Keys come from URLs: every byte outside [A-Za-z0-9_-] becomes %XX (no "/", "." or ".."), at
/// most 80 bytes of the key, so that the name stays under 255 bytes.
fn fileName(key: []const u8, buf: *[256]u8) []const u8 {
    const hex = "0123456789ABCDEF";
    var n: usize = 0;
    for (key[0..@min(key.len, 80)]) |b| {
        if (std.ascii.isAlphanumeric(b) or b == '_' or b == '-') {
            buf[n] = b;
            n += 1;
        } else {
            buf[n] = '%';
            buf[n + 1] = hex[b >> 4];
            buf[n + 2] = hex[b & 15];
            n += 3;
        }
    }
    return buf[0..n];
}
