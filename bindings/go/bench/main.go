// Command bench is the Go binding's per-call overhead benchmark, run by ../bench.sh (`make bench`): not part of
// the jump package, which ships no benchmark code. Three loops over a signed-out client (no network), run in
// interleaved rounds so a change in the machine's load falls on all three alike; prints the median of each:
//
//	Noop <ns> ns/call         a cgo call of a static C no-op with jump_client_is_signed_in's signature (the floor)
//	Raw <ns> ns/call          jump_client_is_signed_in called straight through cgo, no wrapper
//	IsSignedIn <ns> ns/call   the binding's Client.IsSignedIn
//
// Usage: bench [-calls N] [-rounds N]
package main

/*
#cgo pkg-config: jump
#include <stdlib.h>
#include <jump.h>

static int bench_noop(jump_client *client) { (void)client; return 0; }
*/
import "C"

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"time"
	"unsafe"

	"libjump.io/jump"
)

var sink int

// rawClient is a jump_client made through cgo here, for the Raw and Noop loops.
func rawClient() (*C.jump_client, error) {
	var config *C.jump_config
	if s := C.jump_config_new(&config); s != C.JUMP_OK {
		return nil, fmt.Errorf("jump_config_new: %d", int(s))
	}
	defer C.jump_config_free(config)
	key, value := C.CString("storageDirectory"), C.CString(":memory:")
	defer C.free(unsafe.Pointer(key))
	defer C.free(unsafe.Pointer(value))
	if s := C.jump_config_set_string(config, key, value); s != C.JUMP_OK {
		return nil, fmt.Errorf("jump_config_set_string: %d", int(s))
	}
	var client *C.jump_client
	if s := C.jump_client_new(config, &client); s != C.JUMP_OK {
		return nil, fmt.Errorf("jump_client_new: %d", int(s))
	}
	return client, nil
}

func nsPerCall(calls int, loop func(n int)) float64 {
	t0 := time.Now()
	loop(calls)
	return float64(time.Since(t0).Nanoseconds()) / float64(calls)
}

func median(v []float64) float64 {
	sort.Float64s(v)
	return v[len(v)/2]
}

func main() {
	calls := flag.Int("calls", 2000000, "calls per round")
	rounds := flag.Int("rounds", 11, "rounds (the median is printed)")
	flag.Parse()
	client, err := jump.Open(map[string]any{jump.KeyStorageDirectory: ":memory:"})
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	defer client.Close()
	raw, err := rawClient()
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	defer C.jump_client_free(raw)

	names := []string{"Noop", "Raw", "IsSignedIn"}
	loops := []func(n int){
		func(n int) {
			for i := 0; i < n; i++ {
				sink += int(C.bench_noop(raw))
			}
		},
		func(n int) {
			for i := 0; i < n; i++ {
				sink += int(C.jump_client_is_signed_in(raw))
			}
		},
		func(n int) {
			for i := 0; i < n; i++ {
				if client.IsSignedIn() {
					sink++
				}
			}
		},
	}
	for _, loop := range loops { // warm-up
		nsPerCall(*calls/10+1, loop)
	}
	samples := make([][]float64, len(loops))
	for r := 0; r < *rounds; r++ {
		for i, loop := range loops {
			samples[i] = append(samples[i], nsPerCall(*calls, loop))
		}
	}
	for i, name := range names {
		fmt.Printf("%s %.2f ns/call\n", name, median(samples[i]))
	}
	if sink == 42 {
		fmt.Println()
	}
}
