//! Async calls: wait, on_complete, cancel mid-request, a client dropped with calls in flight, and many
//! threads starting calls on one client and cancelling half of them.
use std::sync::mpsc;
use std::sync::Arc;
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
];

fn async_sign_in_wait_and_on_complete(emu: &Emulator) {
    let (email, uuid) = emu.new_account();
    let client = emu.client();
    let pending = client.sign_in_async(&email, PASSWORD).unwrap();
    assert!(pending.id().unwrap() > 0);
    let (tx, rx) = mpsc::channel();
    pending.on_complete(move |r| {
        let _ = tx.send(r.as_ref().ok().and_then(|v| v.str_of("uuid")));
    });
    let result = pending.wait().expect("signed in");
    assert_eq!(result.str_of("uuid").as_deref(), Some(uuid.as_str()));
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
