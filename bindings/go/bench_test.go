package jump

// The per-call cost of the binding: Client.IsSignedIn (jump_client_is_signed_in through cgo) against the same
// call of a static C no-op (noopCall). Run by bench.sh (`make bench`), not by the suite:
//   go test -run '^$' -bench 'IsSignedIn|Raw|Noop' -benchtime 2000000x (11 times)

import "testing"

var sink bool

func benchClient(b *testing.B) *Client {
	c, err := Open(map[string]any{KeyStorageDirectory: ":memory:"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	return c
}

func BenchmarkIsSignedIn(b *testing.B) {
	c := benchClient(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink = c.IsSignedIn()
	}
}

var isink int

func BenchmarkRaw(b *testing.B) {
	c := benchClient(b)
	h := c.h.Load()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		isink = rawIsSignedIn(h)
	}
}

func BenchmarkNoop(b *testing.B) {
	c := benchClient(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		sink = noopCall(c)
	}
}
