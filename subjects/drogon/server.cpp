// Loadlab subject "drogon": the subject contract (docs/architecture.md) on drogon 1.9 (Debian
// trixie's libdrogon1t64), registered with app().registerHandler as drogon's own examples do.
//
//   server --port 8080 [--threads N] [--durability memory|fsync --dir DIR]
//
// --threads is drogon's number of IO event loops (setThreadNum; drogon's default is 1). In fsync
// mode a PUT is answered only after fdatasync of the value's file, done on a task queue of its own
// (16 threads) so that no event loop blocks on the disk. /delay/{ms} is a timer on the request's own loop.
// drogon handles SIGTERM itself (it quits its loops and returns from run()).
#include <drogon/drogon.h>
#include <trantor/utils/ConcurrentTaskQueue.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <unordered_map>

using namespace drogon;

namespace {

using Callback = std::function<void(const HttpResponsePtr &)>;

constexpr size_t kMaxBytes = 64 << 20;
constexpr long kMaxDelayMs = 60000;
constexpr size_t kStripes = 256;

/// Values in memory, shared by every event loop; in fsync mode each also in its own file.
struct Store {
    std::shared_mutex mu;
    std::unordered_map<std::string, std::shared_ptr<const std::string>> map;
    std::string dir;               // empty in memory mode
    std::mutex stripes[kStripes];  // serialise fsync-mode PUTs of one file

    bool insert(const std::string &key, std::shared_ptr<const std::string> value) {
        std::unique_lock lock(mu);
        auto [it, added] = map.insert_or_assign(key, std::move(value));
        return !added;
    }

    std::shared_ptr<const std::string> get(const std::string &key) {
        std::shared_lock lock(mu);
        auto it = map.find(key);
        return it == map.end() ? nullptr : it->second;
    }
};

Store store;
/// Just over 1 MiB of the contract's pattern (byte i = 'a' + i % 26).
std::string pattern;

[[noreturn]] void usage(const std::string &problem) {
    std::cerr << "drogon: " << problem
              << "; usage: --port P [--threads N] [--durability memory|fsync --dir DIR]" << std::endl;
    std::exit(2);
}

/// A non-negative decimal number of at most 9 digits, or -1.
long number(const std::string &s) {
    if (s.empty() || s.size() > 9) return -1;
    long n = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return -1;
        n = n * 10 + (c - '0');
    }
    return n;
}

HttpResponsePtr text(HttpStatusCode code, const std::string &body) {
    auto r = HttpResponse::newHttpResponse(code, CT_TEXT_PLAIN);
    r->setBody(body);
    return r;
}

HttpResponsePtr octets(std::string body) {
    auto r = HttpResponse::newHttpResponse(k200OK, CT_APPLICATION_OCTET_STREAM);
    r->setBody(std::move(body));
    return r;
}

/// Keys come from URLs: every byte outside [A-Za-z0-9_-] becomes %XX (no "/", "." or ".."),
/// at most 80 of them, so that the name stays under 255 bytes.
std::string fileName(const std::string &key) {
    static const char hex[] = "0123456789ABCDEF";
    std::string s;
    for (size_t i = 0; i < key.size() && i < 80; i++) {
        unsigned char b = key[i];
        if (std::isalnum(b) || b == '_' || b == '-') {
            s += static_cast<char>(b);
        } else {
            s += '%';
            s += hex[b >> 4];
            s += hex[b & 15];
        }
    }
    return s;
}

/// Writes the value to its file and fdatasyncs it; an error message, or empty.
std::string writeDurably(const std::string &name, const std::string &value) {
    std::string path = store.dir + "/" + name;
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return std::string("open: ") + std::strerror(errno);
    size_t done = 0;
    while (done < value.size()) {
        ssize_t n = ::write(fd, value.data() + done, value.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            std::string e = std::string("write: ") + std::strerror(errno);
            ::close(fd);
            return e;
        }
        done += static_cast<size_t>(n);
    }
    std::string e = ::fdatasync(fd) == 0 ? "" : std::string("fdatasync: ") + std::strerror(errno);
    ::close(fd);
    return e;
}

HttpResponsePtr stored(bool existed) {
    return HttpResponse::newHttpResponse(existed ? k204NoContent : k201Created, CT_TEXT_PLAIN);
}

void put(const HttpRequestPtr &req, Callback &&cb, const std::string &key, trantor::ConcurrentTaskQueue *disk) {
    auto value = std::make_shared<const std::string>(req->body());
    if (store.dir.empty()) {
        cb(stored(store.insert(key, std::move(value))));
        return;
    }
    // fdatasync takes milliseconds: on the disk queue, whose answer drogon hands back to the
    // connection's loop (callbacks may be called from any thread), in request order.
    disk->runTaskInQueue([key, value, cb = std::move(cb)]() {
        std::string name = fileName(key);
        std::lock_guard lock(store.stripes[std::hash<std::string>{}(name) % kStripes]);
        std::string error = writeDurably(name, *value);
        if (!error.empty()) {
            cb(text(k500InternalServerError, error));
            return;
        }
        cb(stored(store.insert(key, value)));
    });
}

void routes(trantor::ConcurrentTaskQueue *disk) {
    app().registerHandler("/plaintext", [](const HttpRequestPtr &, Callback &&cb) {
        auto r = HttpResponse::newHttpResponse(k200OK, CT_TEXT_PLAIN);
        r->setBody("Hello, World!");
        cb(r);
    }, {Get});
    app().registerHandler("/json", [](const HttpRequestPtr &, Callback &&cb) {
        Json::Value v;
        v["message"] = "Hello, World!";
        cb(HttpResponse::newHttpJsonResponse(v));
    }, {Get});
    app().registerHandler("/bytes/{n}", [](const HttpRequestPtr &, Callback &&cb, const std::string &ns) {
        long n = number(ns);
        if (n < 0 || static_cast<size_t>(n) > kMaxBytes) {
            cb(text(k400BadRequest, "n must be 0.." + std::to_string(kMaxBytes)));
            return;
        }
        std::string body;
        if (static_cast<size_t>(n) <= pattern.size()) {
            body.assign(pattern, 0, static_cast<size_t>(n));
        } else {
            body.resize(static_cast<size_t>(n));
            for (long i = 0; i < n; i++) body[i] = static_cast<char>('a' + i % 26);
        }
        cb(octets(std::move(body)));
    }, {Get});
    app().registerHandler("/kv/{key}", [disk](const HttpRequestPtr &req, Callback &&cb, const std::string &key) {
        if (req->method() == Put) {
            put(req, std::move(cb), key, disk);
            return;
        }
        auto v = store.get(key);
        cb(v ? octets(*v) : text(k404NotFound, "no such key"));
    }, {Get, Put});
    app().registerHandler("/delay/{ms}", [](const HttpRequestPtr &, Callback &&cb, const std::string &mss) {
        long ms = number(mss);
        if (ms < 0 || ms > kMaxDelayMs) {
            cb(text(k400BadRequest, "ms must be 0..60000"));
            return;
        }
        // A timer on this request's loop: the loop serves other connections meanwhile.
        trantor::EventLoop::getEventLoopOfCurrentThread()->runAfter(ms / 1000.0, [cb = std::move(cb)]() {
            cb(text(k200OK, "Hello, World!"));
        });
    }, {Get});
}

}  // namespace

int main(int argc, char **argv) {
    long port = 8080, threads = 1;
    std::string durability = "memory", dir;
    for (int i = 1; i < argc; i += 2) {
        std::string a = argv[i];
        if (i + 1 >= argc) usage(a + " needs a value");
        std::string v = argv[i + 1];
        if (a == "--port") port = number(v);
        else if (a == "--threads") threads = number(v);
        else if (a == "--durability") durability = v;
        else if (a == "--dir") dir = v;
        else usage("unknown option " + a);
    }
    if (port < 1 || port > 65535) usage("--port needs a number 1..65535 (drogon listens once per loop: never 0)");
    if (threads < 1) usage("--threads needs a number >= 1");
    if (durability == "fsync") {
        if (dir.empty()) usage("--durability fsync needs --dir DIR");
        store.dir = dir + "/kv";
        if (::mkdir(store.dir.c_str(), 0755) != 0 && errno != EEXIST) usage("cannot create " + store.dir);
    } else if (durability != "memory") {
        usage("durability must be memory or fsync, got '" + durability + "'");
    }
    pattern.resize(26 * 40330);
    for (size_t i = 0; i < pattern.size(); i++) pattern[i] = static_cast<char>('a' + i % 26);
    // Threads for fdatasync, made only in fsync mode.
    std::unique_ptr<trantor::ConcurrentTaskQueue> disk;
    if (!store.dir.empty()) disk = std::make_unique<trantor::ConcurrentTaskQueue>(16, "fsync");
    routes(disk.get());
    if (!dir.empty()) {
        // drogon creates its upload folder under the document root (the current folder by
        // default, here the subject's source folder): keep both in the scratch folder.
        app().setDocumentRoot(dir).setUploadPath(dir + "/uploads");
    }
    std::cout << "listening on " << port << " (" << threads << " event loops, " << durability << ")" << std::endl;
    app().addListener("0.0.0.0", static_cast<uint16_t>(port)).setThreadNum(static_cast<size_t>(threads)).run();
    return 0;
}
