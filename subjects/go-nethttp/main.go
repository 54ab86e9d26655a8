// Loadlab subject "go-nethttp": the subject contract on Go's standard library net/http alone
// (no modules, builds with `go build -o server main.go` and no go.mod).
//
//	server --port 8080 [--threads N] [--durability memory|fsync --dir DIR]
//	       [--protocol h1|h1-tls|h2-tls|h2c --cert FILE --key FILE]
//
// Protocols are Go's own (http.Server.Protocols, Go 1.24+): h1-tls serves HTTP/1.1 over TLS only,
// h2-tls offers h2 and http/1.1 in ALPN, h2c answers HTTP/2 with prior knowledge and HTTP/1.1 on one
// port. TLS is crypto/tls's defaults (1.2 and 1.3, session tickets), as a Go service ships.
//
// net/http serves each connection in its own goroutine and answers pipelined requests in order,
// so /delay/{ms} can simply sleep. --threads sets GOMAXPROCS. In fsync mode a PUT is answered
// only after its value is on disk (os.File.Sync, i.e. fsync). It prints "listening on PORT"
// once it accepts connections; SIGTERM ends it (Go's default signal action).
package main

import (
	"crypto/tls"
	"flag"
	"fmt"
	"hash/fnv"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

const maxBytes = 64 << 20

var (
	plaintext = []byte("Hello, World!")
	jsonBody  = []byte(`{"message":"Hello, World!"}`)
	// A multiple of 26 long, so consecutive copies continue the 'a' + i%26 pattern seamlessly.
	pattern = makePattern(26 * 40330) // just over 1 MiB

	kvMu sync.RWMutex
	kv   = map[string][]byte{}

	// fsync mode only: the folder of value files, and locks striped by file name so that two
	// PUTs of one key cannot interleave their writes (and the map ends in the disk's order).
	kvDir   string
	fileMus [256]sync.Mutex
)

func main() {
	port := flag.Int("port", 8080, "TCP port")
	threads := flag.Int("threads", runtime.NumCPU(), "GOMAXPROCS")
	durability := flag.String("durability", "memory", "memory or fsync")
	dir := flag.String("dir", "", "folder for values in fsync mode")
	protocol := flag.String("protocol", "h1", "h1, h1-tls, h2-tls or h2c")
	cert := flag.String("cert", "", "server certificate (PEM) for the TLS protocols")
	key := flag.String("key", "", "its private key (PEM)")
	flag.Parse()

	runtime.GOMAXPROCS(*threads)
	switch *durability {
	case "memory":
	case "fsync":
		if *dir == "" {
			fail("--durability fsync needs --dir DIR")
		}
		kvDir = filepath.Join(*dir, "kv")
		if err := os.MkdirAll(kvDir, 0o755); err != nil {
			fail(err.Error())
		}
	default:
		fail("durability must be memory or fsync, got '" + *durability + "'")
	}

	ln, err := net.Listen("tcp", fmt.Sprintf("0.0.0.0:%d", *port))
	if err != nil {
		fail(err.Error())
	}
	// Our own handler rather than ServeMux: no path cleaning or redirects in the hot path.
	srv := &http.Server{Handler: http.HandlerFunc(handle), MaxHeaderBytes: 64 << 10, Protocols: new(http.Protocols)}
	srv.Protocols.SetHTTP1(true)
	tlsOn := false
	switch *protocol {
	case "h1":
	case "h1-tls":
		tlsOn = true
	case "h2-tls":
		tlsOn = true
		srv.Protocols.SetHTTP2(true)
	case "h2c":
		srv.Protocols.SetUnencryptedHTTP2(true)
	default:
		fail("protocol must be h1, h1-tls, h2-tls or h2c, got '" + *protocol + "'")
	}
	fmt.Printf("listening on %d (GOMAXPROCS %d, %s, %s)\n", *port, *threads, *durability, *protocol)
	if tlsOn {
		if *cert == "" || *key == "" || *cert == "-" {
			fail("--protocol " + *protocol + " needs --cert FILE --key FILE")
		}
		srv.TLSConfig = &tls.Config{MinVersion: tls.VersionTLS12}
		fail(srv.ServeTLS(ln, *cert, *key).Error())
	}
	fail(srv.Serve(ln).Error())
}

func handle(w http.ResponseWriter, r *http.Request) {
	path := r.URL.Path
	get := r.Method == http.MethodGet || r.Method == http.MethodHead
	switch {
	case get && path == "/plaintext":
		send(w, http.StatusOK, "text/plain", plaintext)
	case get && path == "/json":
		send(w, http.StatusOK, "application/json", jsonBody)
	case get && strings.HasPrefix(path, "/bytes/"):
		n, err := strconv.Atoi(path[len("/bytes/"):])
		if err != nil || n < 0 || n > maxBytes {
			send(w, http.StatusBadRequest, "text/plain", []byte("n must be 0.."+strconv.Itoa(maxBytes)))
			return
		}
		sendBytes(w, n)
	case strings.HasPrefix(path, "/kv/") && len(path) > len("/kv/"):
		key := path[len("/kv/"):]
		switch {
		case r.Method == http.MethodPut:
			put(w, r, key)
		case get:
			kvMu.RLock()
			v, ok := kv[key]
			kvMu.RUnlock()
			if !ok {
				send(w, http.StatusNotFound, "text/plain", []byte("no such key"))
			} else {
				send(w, http.StatusOK, "application/octet-stream", v)
			}
		default:
			send(w, http.StatusMethodNotAllowed, "text/plain", []byte("use GET or PUT"))
		}
	case get && strings.HasPrefix(path, "/delay/"):
		ms, err := strconv.Atoi(path[len("/delay/"):])
		if err != nil || ms < 0 || ms > 60000 {
			send(w, http.StatusBadRequest, "text/plain", []byte("ms must be 0..60000"))
			return
		}
		// Only this connection's goroutine sleeps; the others go on.
		time.Sleep(time.Duration(ms) * time.Millisecond)
		send(w, http.StatusOK, "text/plain", plaintext)
	default:
		send(w, http.StatusNotFound, "text/plain", []byte("not found"))
	}
}

func put(w http.ResponseWriter, r *http.Request, key string) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBytes))
	if err != nil {
		send(w, http.StatusRequestEntityTooLarge, "text/plain", []byte("body too large or unreadable"))
		return
	}
	if kvDir != "" {
		name := fileName(key)
		mu := &fileMus[stripe(name)]
		mu.Lock()
		defer mu.Unlock()
		if err := writeDurably(name, body); err != nil {
			send(w, http.StatusInternalServerError, "text/plain", []byte(err.Error()))
			return
		}
	}
	kvMu.Lock()
	_, existed := kv[key]
	kv[key] = body
	kvMu.Unlock()
	if existed {
		send(w, http.StatusNoContent, "", nil)
	} else {
		send(w, http.StatusCreated, "text/plain", nil)
	}
}

// writeDurably writes the value to its own file and returns once fsync has.
func writeDurably(name string, value []byte) error {
	f, err := os.OpenFile(filepath.Join(kvDir, name), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
	if err != nil {
		return err
	}
	if _, err = f.Write(value); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// fileName keeps keys, which come from URLs, to a safe alphabet; the "k-" prefix rules out
// "." and "..". Distinct keys may share a file: reads come from memory, the file is only the
// durable copy whose cost the fsync variant measures.
func fileName(key string) string {
	b := []byte(key)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	if len(b) > 200 {
		b = b[:200]
	}
	return "k-" + string(b)
}

func stripe(name string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(name))
	return h.Sum32() % uint32(len(fileMus))
}

// send sets Content-Length itself: without it net/http switches to chunked encoding for
// bodies larger than its 4 KiB buffer. (204 carries neither a body nor a length, per RFC 9110.)
func send(w http.ResponseWriter, status int, contentType string, body []byte) {
	h := w.Header()
	if contentType != "" {
		h.Set("Content-Type", contentType)
	}
	if status != http.StatusNoContent {
		h.Set("Content-Length", strconv.Itoa(len(body)))
	}
	w.WriteHeader(status)
	if len(body) > 0 {
		w.Write(body)
	}
}

// sendBytes streams n bytes of the pattern in pattern-sized slices (no per-request buffer).
func sendBytes(w http.ResponseWriter, n int) {
	h := w.Header()
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Content-Length", strconv.Itoa(n))
	w.WriteHeader(http.StatusOK)
	for n > 0 {
		k := n
		if k > len(pattern) {
			k = len(pattern)
		}
		if _, err := w.Write(pattern[:k]); err != nil {
			return
		}
		n -= k
	}
}

func makePattern(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + i%26)
	}
	return b
}

func fail(msg string) {
	fmt.Fprintln(os.Stderr, "go-nethttp:", msg)
	os.Exit(2)
}
