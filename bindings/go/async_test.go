package jump

import (
	"context"
	"errors"
	"math/rand"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

const signInPath = "/oauth/auth_native_traditional"

func delay(t *testing.T, path string, ms int) {
	admin(t, "POST", "/emulator/faults", map[string]any{"kind": "delay", "count": 1, "path": path, "delay_ms": ms}, nil)
}

func TestCancelDuringDelay(t *testing.T) {
	reset(t)
	acct := register(t, newClient(t, nil))
	delay(t, signInPath, 1500)
	c := newClient(t, map[string]any{KeyStorageDirectory: ":memory:"})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(200*time.Millisecond, cancel)
	started := time.Now()
	_, err := c.SignIn(ctx, acct.email, password)
	if !errors.Is(err, ErrCancelled) || !errors.Is(err, context.Canceled) {
		t.Fatalf("want ErrCancelled and context.Canceled, got %v", err)
	}
	if elapsed := time.Since(started); elapsed > 1400*time.Millisecond {
		t.Fatalf("waited for the server: %v", elapsed)
	}
	if c.IsSignedIn() {
		t.Fatal("signed in after the cancel")
	}
}

func TestDeadline(t *testing.T) {
	reset(t)
	acct := register(t, newClient(t, nil))
	delay(t, signInPath, 1500)
	c := newClient(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	defer cancel()
	if _, err := c.SignIn(ctx, acct.email, password); !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, ErrCancelled) {
		t.Fatalf("want a deadline error, got %v", err)
	}
	// A context already done starts nothing, for calls with and without an _async form.
	if err := c.LoadFlow(ctx); !errors.Is(err, ErrCancelled) {
		t.Fatalf("LoadFlow with a done context: %v", err)
	}
	if _, err := c.Sync(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Sync with a done context: %v", err)
	}
}

func TestCloseCancelsInFlight(t *testing.T) {
	reset(t)
	acct := register(t, newClient(t, nil))
	delay(t, signInPath, 1500)
	c := newClient(t, map[string]any{KeyStorageDirectory: ":memory:"})
	time.AfterFunc(200*time.Millisecond, func() { c.Close() })
	var err error
	within(t, 10*time.Second, "SignIn on a client closed meanwhile", func() {
		_, err = c.SignIn(context.Background(), acct.email, password)
	})
	if !errors.Is(err, ErrCancelled) || errors.Is(err, context.Canceled) {
		t.Fatalf("want ErrCancelled (not the context's), got %v", err)
	}
}

func TestAsyncFailureCarriesDetail(t *testing.T) {
	reset(t)
	c := newClient(t, nil)
	_, err := c.RegisterTraditional(context.Background(), map[string]any{"email": "not an email"}, password)
	var jerr *Error
	if !errors.As(err, &jerr) || jerr.Status != StatusValidation {
		t.Fatalf("want a validation error, got %v", err)
	}
	if fields, ok := jerr.Detail["invalid_fields"].(map[string]any); !ok || len(fields) == 0 {
		t.Fatalf("no invalid_fields in %s", jerr.DetailJSON)
	}
}

// Host safety: 1 000 goroutines each make an _async call (fetch, sync or credentials), half of them cancel theirs at a random moment.
// Every call returns once, with its result or ErrCancelled, every completion is delivered exactly once and
// every userdata released once; the process does not crash.
func TestThousandGoroutinesCancelHalf(t *testing.T) {
	reset(t)
	c := newClient(t, map[string]any{KeyStorageDirectory: ":memory:"})
	register(t, c)
	before := snapshot()
	const n = 1000
	var ok, cancelled, other int64
	var wg sync.WaitGroup
	within(t, 120*time.Second, "1 000 calls", func() {
		for i := 0; i < n; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				ctx := context.Background()
				if i%2 == 1 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithCancel(ctx)
					time.AfterFunc(time.Duration(1+rand.Intn(50))*time.Millisecond, cancel)
				}
				var err error
				switch i % 3 { // three _async calls, so the 1 000 do not all coalesce into one kind
				case 0:
					err = c.FetchRecord(ctx)
				case 1:
					_, err = c.Sync(ctx)
				default:
					_, err = c.Credentials(ctx, 0, false)
				}
				switch {
				case err == nil:
					atomic.AddInt64(&ok, 1)
				case errors.Is(err, ErrCancelled) && errors.Is(err, context.Canceled) && i%2 == 1:
					atomic.AddInt64(&cancelled, 1)
				default:
					atomic.AddInt64(&other, 1)
					t.Errorf("call %d: %v", i, err)
				}
			}(i)
		}
		wg.Wait()
	})
	if ok+cancelled != n || other != 0 {
		t.Fatalf("%d ok, %d cancelled, %d other of %d", ok, cancelled, other, n)
	}
	if cancelled == 0 {
		t.Fatal("no call was cancelled: the test did not test cancelling")
	}
	// Every call of the process so far (this test's and the earlier ones'): released last, after delivery.
	deadline := time.Now().Add(10 * time.Second)
	for snapshot().released < snapshot().started && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	after := snapshot()
	// A call whose context was done before it began starts nothing (and returns ErrCancelled at once).
	started := after.started - before.started
	if started > n || started < ok || after.delivered != after.started || after.duplicates != 0 ||
		after.released != after.started {
		t.Fatalf("this test started %d of %d (%d completed); in all: started %d, delivered %d, duplicates %d, released %d",
			started, n, ok, after.started, after.delivered, after.duplicates, after.released)
	}
	if cancelled <= n-started {
		t.Fatal("no call was cancelled in flight (jump_request_cancel): only before they started")
	}
	t.Logf("%d completed, %d cancelled (%d before they started)", ok, cancelled, n-started)
}

type counts struct{ started, delivered, duplicates, released int64 }

// counters count the _async calls of the test process (asyncTrace, set before any test runs).
var counters counts

func init() {
	asyncTrace = func(e asyncEvent) {
		switch e {
		case asyncStarted:
			atomic.AddInt64(&counters.started, 1)
		case asyncDelivered:
			atomic.AddInt64(&counters.delivered, 1)
		case asyncDuplicate:
			atomic.AddInt64(&counters.duplicates, 1)
		case asyncReleased:
			atomic.AddInt64(&counters.released, 1)
		}
	}
}

func snapshot() counts {
	return counts{atomic.LoadInt64(&counters.started), atomic.LoadInt64(&counters.delivered),
		atomic.LoadInt64(&counters.duplicates), atomic.LoadInt64(&counters.released)}
}
