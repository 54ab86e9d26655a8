// Command server is the example project's tiny orders API: POST /api/orders/{id} takes a JSON
// order and answers 201 with its id, GET /api/orders lists ten, GET /healthz says it is up.
package main

import (
	"crypto/sha256"
	"encoding/json"
	"flag"
	"io"
	"log"
	"net/http"
	"sync/atomic"
)

// checksumRounds is the work each answer does before it is sent. make-repo.sh's first revision (v1)
// sets it to 1000, a deliberately slow version, and its second (HEAD) keeps this 0.
const checksumRounds = 0

// maxOrderBytes bounds what a request body may hold.
const maxOrderBytes = 64 << 10

type order struct {
	ID   int64 `json:"id"`
	Item int   `json:"item"`
	Qty  int   `json:"qty"`
}

var (
	nextID atomic.Int64
	// sink keeps the checksums observable, so that the compiler cannot drop their work.
	sink atomic.Uint32
)

func checksum(b []byte) {
	sum := sha256.Sum256(b)
	for i := 0; i < checksumRounds; i++ {
		sum = sha256.Sum256(sum[:])
	}
	sink.Add(uint32(sum[0]))
}

func create(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "POST an order", http.StatusMethodNotAllowed)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxOrderBytes))
	var o order
	if err != nil || json.Unmarshal(body, &o) != nil || o.Qty < 1 {
		http.Error(w, `{"error": "send {\"item\": N, \"qty\": N >= 1}"}`, http.StatusBadRequest)
		return
	}
	checksum(body)
	o.ID = nextID.Add(1)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusCreated)
	_ = json.NewEncoder(w).Encode(o)
}

func list(w http.ResponseWriter, r *http.Request) {
	orders := make([]order, 10)
	for i := range orders {
		orders[i] = order{ID: int64(i + 1), Item: 42, Qty: 1}
	}
	out, _ := json.Marshal(orders)
	checksum(out)
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out)
}

func main() {
	addr := flag.String("addr", "127.0.0.1:8080", "host:port to listen on")
	flag.Parse()
	http.HandleFunc("/api/orders/", create)
	http.HandleFunc("/api/orders", list)
	http.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) { _, _ = io.WriteString(w, "ok\n") })
	log.Fatal(http.ListenAndServe(*addr, nil))
}
