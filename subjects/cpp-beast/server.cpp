// Loadlab subject "cpp-beast": the subject contract on Boost.Beast + Boost.Asio (header-only, Boost
// 1.74), in the style of Beast's http_server_async example:
//   g++ -O2 -std=c++17 -o server server.cpp -pthread
//   ./server --port 8080 [--threads N] [--durability memory|fsync --dir DIR]
// One io_context run by N threads; one session per connection that reads a request, answers it,
// then reads the next (keep-alive; pipelined requests wait in the read buffer, so the answers
// come out in order). /delay waits on a steady_timer, never blocking a thread. In fsync mode a PUT
// is written and fdatasync'ed on a small separate thread pool, and answered only afterwards.
// Prints "listening on PORT" once it accepts connections; SIGTERM or SIGINT stops it.

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/span.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/span_body.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <sys/stat.h>
#include <thread>
#include <unordered_map>
#include <vector>

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = asio::ip::tcp;
using boost::system::error_code;

namespace {

constexpr std::size_t kMaxBytes = 64u << 20;   // largest /bytes/{n} and largest PUT body
constexpr long kMaxDelayMs = 60000;
const std::string kHello = "Hello, World!";
const std::string kJson = R"({"message":"Hello, World!"})";
const std::string kNotFound = "not found";
const std::string kBadRequest = "bad request";
const std::string kNoMethod = "method not allowed";
const std::string kEmpty;

/** 1 MiB of the /bytes pattern ('a' + i % 26): answers up to that size point into it, no copy. */
const std::string kPattern = [] {
    std::string s(1u << 20, '\0');
    for (std::size_t i = 0; i < s.size(); i++) s[i] = static_cast<char>('a' + i % 26);
    return s;
}();

/**
 * The key-value store. Values are immutable and shared, so a GET answers from the stored string
 * itself (the session holds a reference until the write completes) while a PUT may replace it.
 */
struct Store {
    std::shared_mutex lock;
    std::unordered_map<std::string, std::shared_ptr<const std::string>> map;

    /** @return true when the key was new */
    bool put(const std::string& key, std::shared_ptr<const std::string> value) {
        std::unique_lock<std::shared_mutex> g(lock);
        auto [it, inserted] = map.try_emplace(key, value);
        if (!inserted) it->second = std::move(value);
        return inserted;
    }

    std::shared_ptr<const std::string> get(const std::string& key) {
        std::shared_lock<std::shared_mutex> g(lock);
        auto it = map.find(key);
        return it == map.end() ? nullptr : it->second;
    }
};

Store store;

/** Set in fsync mode: the folder for the values and the threads that wait for the disk. */
std::string kvDir;
std::unique_ptr<asio::thread_pool> disk;
/**
 * PUTs of the same key from different connections must reach the file and the map in the same
 * order, or the map could end up holding a value other than the one on disk: a striped lock,
 * held around both, keeps them in step without one global lock.
 */
std::array<std::mutex, 64> keyLocks;

/** Keys come from URLs: an injective escape keeps file names to a safe alphabet (and no "..."). */
std::string fileName(const std::string& key) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (std::size_t i = 0; i < key.size(); i++) {
        unsigned char c = static_cast<unsigned char>(key[i]);
        if (std::isalnum(c) || c == '_' || c == '-' || (c == '.' && i > 0)) {
            out += static_cast<char>(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

/** Writes the value to its own file and returns only after fdatasync; false on any failure. */
bool writeDurably(const std::string& key, const std::string& value) {
    std::string path = kvDir + "/" + fileName(key);
    int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) return false;
    const char* p = value.data();
    std::size_t left = value.size();
    bool ok = true;
    while (left > 0) {
        ssize_t n = ::write(fd, p, left);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) { ok = false; break; }
        p += n;
        left -= static_cast<std::size_t>(n);
    }
    if (ok && ::fdatasync(fd) != 0) ok = false;
    if (::close(fd) != 0) ok = false;
    return ok;
}

/** A decimal number of at most 12 digits, or -1. */
long long number(beast::string_view s) {
    if (s.empty() || s.size() > 12) return -1;
    long long v = 0;
    for (char c : s) {
        if (c < '0' || c > '9') return -1;
        v = v * 10 + (c - '0');
    }
    return v;
}

bool startsWith(beast::string_view s, beast::string_view prefix) {
    return s.size() >= prefix.size() && s.substr(0, prefix.size()) == prefix;
}

/**
 * One connection. Exactly one chain of operations is in flight per session at any time
 * (read -> handle -> [timer | disk] -> write -> read), so its handlers never run concurrently
 * even with several io threads, and no strand is needed.
 */
class Session : public std::enable_shared_from_this<Session> {
public:
    explicit Session(tcp::socket socket) : socket_(std::move(socket)), timer_(socket_.get_executor()) {}

    void read() {
        // A parser serves one message only; a fresh one per request also resets the body limit.
        parser_.emplace();
        parser_->body_limit(kMaxBytes);
        http::async_read(socket_, buffer_, *parser_,
                [self = shared_from_this()](error_code ec, std::size_t) { self->onRead(ec); });
    }

private:
    tcp::socket socket_;
    beast::flat_buffer buffer_;
    std::optional<http::request_parser<http::string_body>> parser_;
    asio::steady_timer timer_;
    bool keepAlive_ = true;
    unsigned version_ = 11;
    /** The answer being written; its body points into a constant or into owner_. */
    http::response<http::span_body<const char>> res_;
    std::shared_ptr<const std::string> owner_;

    void onRead(error_code ec) {
        if (ec == http::error::end_of_stream) {
            socket_.shutdown(tcp::socket::shutdown_send, ec);
            return;
        }
        if (ec) {
            // A malformed request or a reset: drop the connection (the socket closes with us).
            return;
        }
        auto& req = parser_->get();
        keepAlive_ = req.keep_alive();
        version_ = req.version();
        handle(req);
    }

    void handle(http::request<http::string_body>& req) {
        beast::string_view path = req.target();
        auto q = path.find('?');
        if (q != beast::string_view::npos) path = path.substr(0, q);
        bool get = req.method() == http::verb::get;

        if (get && path == "/plaintext") {
            send(http::status::ok, "text/plain", kHello);
        } else if (get && path == "/json") {
            send(http::status::ok, "application/json", kJson);
        } else if (get && startsWith(path, "/bytes/")) {
            long long n = number(path.substr(7));
            if (n < 0 || static_cast<std::size_t>(n) > kMaxBytes) {
                send(http::status::bad_request, "text/plain", kBadRequest);
            } else if (static_cast<std::size_t>(n) <= kPattern.size()) {
                send(http::status::ok, "application/octet-stream", kPattern, static_cast<std::size_t>(n));
            } else {
                auto big = std::make_shared<std::string>(static_cast<std::size_t>(n), '\0');
                for (std::size_t i = 0; i < big->size(); i++) (*big)[i] = static_cast<char>('a' + i % 26);
                sendOwned(http::status::ok, "application/octet-stream", std::move(big));
            }
        } else if (startsWith(path, "/kv/") && path.size() > 4) {
            std::string key(path.substr(4));
            if (req.method() == http::verb::put) {
                auto value = std::make_shared<const std::string>(std::move(req.body()));
                if (!disk) {
                    bool created = store.put(key, std::move(value));
                    send(created ? http::status::created : http::status::no_content, "text/plain", kEmpty);
                } else {
                    putDurably(std::move(key), std::move(value));
                }
            } else if (get) {
                auto value = store.get(key);
                if (value) {
                    sendOwned(http::status::ok, "application/octet-stream", std::move(value));
                } else {
                    send(http::status::not_found, "text/plain", kNotFound);
                }
            } else {
                send(http::status::method_not_allowed, "text/plain", kNoMethod);
            }
        } else if (get && startsWith(path, "/delay/")) {
            long long ms = number(path.substr(7));
            if (ms < 0 || ms > kMaxDelayMs) {
                send(http::status::bad_request, "text/plain", kBadRequest);
            } else {
                // The io thread goes on serving other sessions while this one waits.
                timer_.expires_after(std::chrono::milliseconds(ms));
                timer_.async_wait([self = shared_from_this()](error_code ec) {
                    if (!ec) self->send(http::status::ok, "text/plain", kHello);
                });
            }
        } else {
            send(http::status::not_found, "text/plain", kNotFound);
        }
    }

    /**
     * fsync mode: fdatasync takes milliseconds, so it runs on the disk pool rather than on an io
     * thread (which would stall every other connection of that thread); the answer is posted back
     * to the io_context once the value is on disk and in the map.
     */
    void putDurably(std::string key, std::shared_ptr<const std::string> value) {
        asio::post(*disk, [self = shared_from_this(), key = std::move(key), value = std::move(value)]() mutable {
            http::status status;
            {
                std::lock_guard<std::mutex> g(keyLocks[std::hash<std::string>{}(key) % keyLocks.size()]);
                if (writeDurably(key, *value)) {
                    status = store.put(key, std::move(value)) ? http::status::created : http::status::no_content;
                } else {
                    status = http::status::internal_server_error;
                }
            }
            asio::post(self->socket_.get_executor(), [self, status] {
                self->send(status, "text/plain", kEmpty);
            });
        });
    }

    /** Answers with (a prefix of) a string that outlives the session, such as a constant. */
    void send(http::status status, beast::string_view type, const std::string& body) {
        send(status, type, body, body.size());
    }

    void send(http::status status, beast::string_view type, const std::string& body, std::size_t n) {
        owner_.reset();
        write(status, type, body.data(), n);
    }

    /** Answers with a string the session keeps alive until it is written. */
    void sendOwned(http::status status, beast::string_view type, std::shared_ptr<const std::string> body) {
        owner_ = std::move(body);
        write(status, type, owner_->data(), owner_->size());
    }

    void write(http::status status, beast::string_view type, const char* data, std::size_t n) {
        res_ = {};
        res_.result(status);
        res_.version(version_);
        res_.set(http::field::content_type, type);
        res_.body() = beast::span<const char>(data, n);
        // Content-Length on every answer (0 for 201/204 too), as the contract asks.
        res_.content_length(n);
        res_.keep_alive(keepAlive_);
        http::async_write(socket_, res_, [self = shared_from_this()](error_code ec, std::size_t) {
            self->onWrite(ec);
        });
    }

    void onWrite(error_code ec) {
        owner_.reset();
        if (ec) return;
        if (!keepAlive_) {
            socket_.shutdown(tcp::socket::shutdown_send, ec);
            return;
        }
        read();
    }
};

/** Accepts connections forever, each into its own session. */
class Listener : public std::enable_shared_from_this<Listener> {
public:
    Listener(asio::io_context& ioc, tcp::endpoint at) : ioc_(ioc), acceptor_(ioc) {
        acceptor_.open(at.protocol());
        acceptor_.set_option(asio::socket_base::reuse_address(true));
        acceptor_.bind(at);
        acceptor_.listen(asio::socket_base::max_listen_connections);
    }

    void accept() {
        acceptor_.async_accept(ioc_, [self = shared_from_this()](error_code ec, tcp::socket socket) {
            if (!ec) {
                error_code ignored;
                // Small answers must leave at once rather than wait for Nagle's delayed ACK.
                socket.set_option(tcp::no_delay(true), ignored);
                std::make_shared<Session>(std::move(socket))->read();
            }
            self->accept();
        });
    }

private:
    asio::io_context& ioc_;
    tcp::acceptor acceptor_;
};

[[noreturn]] void usage(const std::string& why) {
    std::cerr << "cpp-beast: " << why
              << "; usage: --port P [--threads N] [--durability memory|fsync --dir DIR]" << std::endl;
    std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
    int port = 8080;
    int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    std::string durability = "memory";
    std::string dir;
    for (int i = 1; i < argc; i++) {
        std::string a = argv[i];
        if (i + 1 >= argc) usage("argument " + a + " needs a value");
        std::string v = argv[++i];
        if (a == "--port") port = std::atoi(v.c_str());
        else if (a == "--threads") threads = std::max(1, std::atoi(v.c_str()));
        else if (a == "--durability") durability = v;
        else if (a == "--dir") dir = v;
        else usage("unknown argument " + a);
    }
    if (durability == "fsync") {
        if (dir.empty()) usage("--durability fsync needs --dir DIR");
        kvDir = dir + "/kv";
        if (::mkdir(kvDir.c_str(), 0755) != 0 && errno != EEXIST) {
            std::cerr << "cpp-beast: cannot create " << kvDir << ": " << std::strerror(errno) << std::endl;
            return 1;
        }
        disk = std::make_unique<asio::thread_pool>(8);
    } else if (durability != "memory") {
        usage("durability must be memory or fsync, got '" + durability + "'");
    }

    asio::io_context ioc(threads);
    try {
        std::make_shared<Listener>(ioc, tcp::endpoint(asio::ip::address_v4::any(),
                static_cast<unsigned short>(port)))->accept();
    } catch (const boost::system::system_error& e) {
        std::cerr << "cpp-beast: cannot listen on port " << port << ": " << e.what() << std::endl;
        return 1;
    }
    asio::signal_set signals(ioc, SIGINT, SIGTERM);
    signals.async_wait([&](error_code, int) { ioc.stop(); });

    std::cout << "listening on " << port << " (" << threads << " threads, " << durability << ")" << std::endl;

    std::vector<std::thread> pool;
    for (int i = 1; i < threads; i++) pool.emplace_back([&ioc] { ioc.run(); });
    ioc.run();
    for (auto& t : pool) t.join();
    // Stop the disk threads (dropping their queued work, which holds sessions) while the
    // io_context, which those sessions' sockets belong to, still exists.
    disk.reset();
    return 0;
}
