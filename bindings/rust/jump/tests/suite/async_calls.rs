//! Async calls: wait, on_complete, cancel mid-request, a client dropped with calls in flight, and many
//! threads starting calls on one client and cancelling half of them; `Pending` as a Future under an
//! executor of the test's own, and dropping one unfinished (cancelled), detached (not), or racing its
//! completion.
use std::future::Future;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll, Wake, Waker};
use std::time::{Duration, Instant};

use crate::support::{Emulator, PASSWORD, SIGN_IN_PATH};
use crate::Test;
use jump::Status;

pub const TESTS: &[Test] = &[
    ("async_sign_in_wait_and_on_complete", async_sign_in_wait_and_on_complete),
    ("cancel_mid_request", cancel_mid_request),
    ("dropping_the_client_cancels", dropping_the_client_cancels),
    ("wait_timeout", wait_timeout),
    ("many_threads_cancel_half", many_threads_cancel_half),
    ("error_detail_is_per_thread", error_detail_is_per_thread),
    ("await_sign_in_under_a_minimal_executor", await_sign_in_under_a_minimal_executor),
    ("dropping_a_pending_future_cancels_it", dropping_a_pending_future_cancels_it),
    ("detach_lets_the_operation_go_on", detach_lets_the_operation_go_on),
    ("drops_racing_completions", drops_racing_completions),
];

/// The smallest executor there is: polls one future on this thread, parking it between polls; the waker
/// unparks it (from libjump's callback thread) and counts its wakes.
struct Unpark {
    thread: std::thread::Thread,
    wakes: AtomicUsize,
}

impl Wake for Unpark {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref()
    }
    fn wake_by_ref(self: &Arc<Self>) {
        self.wakes.fetch_add(1, Ordering::SeqCst);
        self.thread.unpark();
    }
}

struct Executor {
    unpark: Arc<Unpark>,
    waker: Waker,
    polls: usize,
}

impl Executor {
    fn new() -> Executor {
        let unpark = Arc::new(Unpark { thread: std::thread::current(), wakes: AtomicUsize::new(0) });
        Executor { waker: Waker::from(unpark.clone()), unpark, polls: 0 }
    }

    fn poll<F: Future + Unpin>(&mut self, future: &mut F) -> Poll<F::Output> {
        self.polls += 1;
        std::pin::Pin::new(future).poll(&mut Context::from_waker(&self.waker))
    }

    /// Drives `future` to its end (at most 30 s).
    fn block_on<F: Future>(&mut self, future: F) -> F::Output {
        let mut future = Box::pin(future);
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if let Poll::Ready(out) = self.poll(&mut future) {
                return out;
            }
            let now = Instant::now();
            assert!(now < deadline, "the future was never woken to completion");
            std::thread::park_timeout(deadline - now); // a spurious unpark only costs a poll
        }
    }

    fn wakes(&self) -> usize {
        self.unpark.wakes.load(Ordering::SeqCst)
    }
}

/// `client.sign_in_async(..)?.await` in an async block, under the executor above: the first poll finds the
/// sign-in running (the emulator holds it back), the completion wakes the task, which then has the result.
/// Then a chain of awaits with `?`, as application code would write it.
fn await_sign_in_under_a_minimal_executor(emu: &Emulator) {
    let (email, uuid) = emu.new_account();
    let client = emu.client();
    emu.delay(SIGN_IN_PATH, 300);
    let mut executor = Executor::new();
    let result = executor.block_on(async { client.sign_in_async(&email, PASSWORD)?.await });
    emu.clear_faults();
    let result = result.expect("signed in");
    assert_eq!(result.uuid, uuid);
    assert!(client.is_signed_in());
    assert!(executor.polls >= 2, "pending at first, ready once woken: {} polls", executor.polls);
    assert!(executor.wakes() >= 1, "the completion woke the task");
    // several awaits in one task; a failure comes out of `?` as the Error
    let chained = executor.block_on(async {
        client.record()?.set_string("/aboutMe", Some("awaited"))?;
        let synced = client.sync_async()?.await?;
        client.fetch_record_async()?.await?;
        Ok::<_, jump::Error>(synced)
    });
    let synced = chained.expect("synced");
    assert!(synced.changed.iter().any(|p| p == "/aboutMe"), "{:?}", synced);
    let wrong = executor.block_on(emu.client().sign_in_async(&email, "wrong").unwrap()).unwrap_err();
    assert_eq!(wrong.status(), Status::BadCredentials);
    // a completed Pending is Ready at once, every time it is polled
    let mut done = client.sync_async().unwrap();
    done.wait().unwrap();
    assert!(matches!(executor.poll(&mut done), Poll::Ready(Ok(_))));
    assert!(matches!(executor.poll(&mut done), Poll::Ready(Ok(_))));
}

/// A Pending future polled once (its sign-in held back 3 s by the emulator) and dropped, as a select! or a
/// timeout gives up on one: the operation is cancelled, so its completion (the on_complete closure) reports
/// Cancelled at once and the client never signs in. Without the cancel in Drop it would end Ok after 3 s.
fn dropping_a_pending_future_cancels_it(emu: &Emulator) {
    let (email, _) = emu.new_account();
    let client = emu.client();
    emu.delay(SIGN_IN_PATH, 3000);
    let mut pending = client.sign_in_async(&email, PASSWORD).unwrap();
    let (tx, rx) = mpsc::channel();
    let tx = Mutex::new(tx);
    pending.on_complete(move |r| {
        let _ = tx.lock().unwrap().send(r.as_ref().map(|_| ()).map_err(|e| e.status()));
    });
    let mut executor = Executor::new();
    std::thread::sleep(Duration::from_millis(200)); // the request is on its way
    assert!(executor.poll(&mut pending).is_pending(), "held back by the emulator");
    let dropped = Instant::now();
    drop(pending);
    let completion = rx.recv_timeout(Duration::from_secs(10)).expect("a completion");
    assert_eq!(completion, Err(Status::Cancelled), "dropping the unfinished future cancelled it");
    assert!(dropped.elapsed() < Duration::from_secs(2), "without waiting for the server: {:?}", dropped.elapsed());
    // once the server would have answered: still signed out
    std::thread::sleep(Duration::from_millis(3300).saturating_sub(dropped.elapsed()));
    emu.clear_faults();
    assert!(!client.is_signed_in(), "the dropped sign-in did not complete");
    // the same for a Pending never polled, dropped as the end of its scope
    emu.delay(SIGN_IN_PATH, 3000);
    let (tx, rx) = mpsc::channel();
    let tx = Mutex::new(tx);
    {
        let pending = client.sign_in_async(&email, PASSWORD).unwrap();
        pending.on_complete(move |r| {
            let _ = tx.lock().unwrap().send(r.as_ref().map(|_| ()).map_err(|e| e.status()));
        });
        std::thread::sleep(Duration::from_millis(200));
    }
    assert_eq!(rx.recv_timeout(Duration::from_secs(2)).expect("a completion"), Err(Status::Cancelled));
    emu.clear_faults();
    assert!(!client.is_signed_in());
}

/// detach(): the handle goes, the operation goes on and its completion still reaches on_complete.
fn detach_lets_the_operation_go_on(emu: &Emulator) {
    let (email, uuid) = emu.new_account();
    let client = emu.client();
    emu.delay(SIGN_IN_PATH, 500);
    let (tx, rx) = mpsc::channel();
    let tx = Mutex::new(tx);
    let pending = client.sign_in_async(&email, PASSWORD).unwrap();
    pending.on_complete(move |r| {
        let _ = tx.lock().unwrap().send(r.as_ref().ok().map(|v| v.uuid.clone()));
    });
    pending.detach();
    let got = rx.recv_timeout(Duration::from_secs(10)).expect("a completion");
    emu.clear_faults();
    assert_eq!(got.as_deref(), Some(uuid.as_str()), "completed, not cancelled");
    assert!(client.is_signed_in());
}

/// Pendings dropped at every moment of their operation (before, during and after its completion, from
/// several threads): each completion runs exactly once, Ok or Cancelled, and nothing is freed twice or used
/// after it is freed (which would crash the suite, or trip the sanitizers of `make sanitize`).
fn drops_racing_completions(emu: &Emulator) {
    let (email, _) = emu.new_account();
    let client = Arc::new(emu.client());
    client.sign_in(&email, PASSWORD).unwrap();
    let completions = Arc::new(AtomicUsize::new(0));
    let outcomes = Arc::new(Mutex::new(Vec::new()));
    let threads: Vec<_> = (0..4)
        .map(|t| {
            let (client, completions, outcomes) = (client.clone(), completions.clone(), outcomes.clone());
            std::thread::spawn(move || {
                for i in 0..12u64 {
                    let pending = client.fetch_record_async().expect("started");
                    let (completions, outcomes) = (completions.clone(), outcomes.clone());
                    pending.on_complete(move |r| {
                        completions.fetch_add(1, Ordering::SeqCst);
                        outcomes.lock().unwrap().push(r.as_ref().map(|_| ()).map_err(|e| e.status()));
                    });
                    // 0 (dropped at once: cancelled before any answer), 2, 4, .. 10 ms
                    std::thread::sleep(Duration::from_millis((i * 7 + t * 3) % 6 * 2));
                    drop(pending);
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("a thread");
    }
    let start = Instant::now();
    while completions.load(Ordering::SeqCst) < 48 {
        assert!(start.elapsed() < Duration::from_secs(20), "{} of 48 completions", completions.load(Ordering::SeqCst));
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(200));
    assert_eq!(completions.load(Ordering::SeqCst), 48, "each completion ran once");
    let outcomes = outcomes.lock().unwrap();
    assert!(outcomes.iter().all(|r| matches!(r, Ok(()) | Err(Status::Cancelled))), "{:?}", outcomes);
    assert!(outcomes.iter().any(|r| r.is_err()), "some were cancelled by their drop");
    assert!(client.is_signed_in());
    client.sync_async().unwrap().wait().expect("the client goes on");
}

fn async_sign_in_wait_and_on_complete(emu: &Emulator) {
    let (email, uuid) = emu.new_account();
    let client = emu.client();
    let pending = client.sign_in_async(&email, PASSWORD).unwrap();
    assert!(pending.id().unwrap() > 0);
    let (tx, rx) = mpsc::channel();
    pending.on_complete(move |r| {
        let _ = tx.send(r.as_ref().ok().map(|v| v.uuid.clone()));
    });
    let result = pending.wait().expect("signed in");
    assert_eq!(result.uuid, uuid);
    assert_eq!(rx.recv_timeout(Duration::from_secs(5)).unwrap().as_deref(), Some(uuid.as_str()));
    assert!(client.is_signed_in());
    // on_complete after completion runs at once, and wait may be asked again
    let (tx, rx) = mpsc::channel();
    pending.on_complete(move |r| {
        let _ = tx.send(r.is_ok());
    });
    assert_eq!(rx.try_recv(), Ok(true));
    assert!(pending.wait().is_ok());
    // failures arrive as errors with the detail of the completion
    let e = client.sign_in_async(&email, "wrong").unwrap().wait().unwrap_err();
    assert_eq!(e.status(), Status::BadCredentials);
    assert_eq!(e.detail().str_of("status_name").as_deref(), Some("JUMP_E_BAD_CREDENTIALS"));
}

fn cancel_mid_request(emu: &Emulator) {
    let (email, _) = emu.new_account();
    let client = emu.client();
    emu.delay(SIGN_IN_PATH, 3000);
    let pending = client.sign_in_async(&email, PASSWORD).unwrap();
    std::thread::sleep(Duration::from_millis(200));
    assert!(pending.try_result().is_none(), "still running");
    let start = Instant::now();
    pending.cancel().unwrap();
    let e = pending.wait().unwrap_err();
    assert_eq!(e.status(), Status::Cancelled, "{}", e);
    assert!(start.elapsed() < Duration::from_secs(2), "did not wait for the server: {:?}", start.elapsed());
    assert!(!client.is_signed_in());
    emu.clear_faults();
    // cancelling a finished call changes nothing
    let done = client.sign_in_async(&email, PASSWORD).unwrap();
    assert!(done.wait().is_ok());
    done.cancel().unwrap();
    assert!(done.wait().is_ok());
}

fn dropping_the_client_cancels(emu: &Emulator) {
    let (email, _) = emu.new_account();
    let client = emu.client();
    emu.delay(SIGN_IN_PATH, 3000);
    let pending = client.sign_in_async(&email, PASSWORD).unwrap();
    std::thread::sleep(Duration::from_millis(100));
    drop(client);
    let e = pending.wait_completion(Duration::from_secs(5)).expect("completed").unwrap_err();
    assert_eq!(e.status(), Status::Cancelled);
    emu.clear_faults();
}

fn wait_timeout(emu: &Emulator) {
    let (email, _) = emu.new_account();
    let client = emu.client();
    emu.delay(SIGN_IN_PATH, 1000);
    let pending = client.sign_in_async(&email, PASSWORD).unwrap();
    assert!(pending.wait_timeout(Some(Duration::from_millis(50))).is_none(), "not yet");
    assert!(pending.wait_timeout(Some(Duration::from_secs(10))).expect("completed").is_ok());
    emu.clear_faults();
}

/// 8 threads share one client and each starts 6 fetches, cancelling every other one at once: the kept
/// ones succeed, the cancelled ones end Cancelled (or Ok when they won the race), every one completes.
fn many_threads_cancel_half(emu: &Emulator) {
    let (email, _) = emu.new_account();
    let client = Arc::new(emu.client());
    client.sign_in(&email, PASSWORD).unwrap();
    let threads: Vec<_> = (0..8)
        .map(|_| {
            let client = client.clone();
            std::thread::spawn(move || {
                let calls: Vec<_> = (0..6).map(|i| (i % 2 == 0, client.fetch_record_async().expect("started"))).collect();
                for (cancel, pending) in &calls {
                    if *cancel {
                        pending.cancel().unwrap();
                    }
                }
                calls
                    .iter()
                    .map(|(cancel, pending)| (*cancel, pending.wait().map(|_| ()).map_err(|e| e.status())))
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut cancelled = 0;
    for t in threads {
        for (cancel, result) in t.join().expect("a thread") {
            match (cancel, result) {
                (false, r) => assert_eq!(r, Ok(()), "a kept call"),
                (true, Err(Status::Cancelled)) => cancelled += 1,
                (true, r) => assert_eq!(r, Ok(()), "a cancelled call ends Cancelled or, finished first, Ok"),
            }
        }
    }
    assert!(cancelled > 0, "at least one call was stopped by its cancel");
    assert!(client.is_signed_in());
}

/// jump_error_last is thread-local: threads failing at once, each in its own way, each read their own detail.
fn error_detail_is_per_thread(emu: &Emulator) {
    let client = Arc::new(emu.client());
    let threads: Vec<_> = (0..6)
        .map(|t| {
            let client = client.clone();
            std::thread::spawn(move || {
                for _ in 0..20 {
                    let (e, want) = if t % 2 == 0 {
                        (jump::decode_sign_in_token("not base64 !").unwrap_err(), Status::InvalidArgument)
                    } else {
                        (client.sync().unwrap_err(), Status::NotSignedIn)
                    };
                    assert_eq!(e.status(), want);
                    assert_eq!(e.detail().str_of("status_name").as_deref(), Some(want.name()), "this thread's own detail");
                }
            })
        })
        .collect();
    for t in threads {
        t.join().expect("a thread");
    }
}
