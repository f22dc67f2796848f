//! Host code libjump runs: the event callback, queue mode, a dispatcher, the log callback, host storage;
//! boxed closures freed by userdata_free; a panic in a callback does not cross into libjump.
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::support::{Emulator, PASSWORD, SIGN_IN_PATH};
use crate::Test;
use jump::{Client, CompletionPayload, Config, FromValue, Job, Status, Storage};

pub const TESTS: &[Test] = &[
    ("event_callback_and_its_free", event_callback_and_its_free),
    ("queue_mode", queue_mode),
    ("dispatcher_runs_jobs_on_the_host_thread", dispatcher_runs_jobs_on_the_host_thread),
    ("log_callback", log_callback),
    ("host_storage", host_storage),
    ("a_panicking_callback_is_contained", a_panicking_callback_is_contained),
];

/// Counts its drops: shows that libjump's userdata_free dropped the boxed closure holding it.
struct DropCount(Arc<AtomicUsize>);
impl Drop for DropCount {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

fn wait_until(what: &str, mut f: impl FnMut() -> bool) {
    let start = Instant::now();
    while !f() {
        assert!(start.elapsed() < Duration::from_secs(10), "timed out waiting for {}", what);
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn event_callback_and_its_free(emu: &Emulator) {
    let (email, _) = emu.new_account();
    let client = emu.client();
    let (tx, rx) = mpsc::channel::<(String, String)>();
    let drops = Arc::new(AtomicUsize::new(0));
    let token = DropCount(drops.clone());
    let tx = Mutex::new(tx);
    client
        .set_event_callback(Some(Box::new(move |event| {
            let _keep = &token;
            let name = event.event.as_str().to_owned();
            let thread = std::thread::current().name().unwrap_or("").to_owned();
            let _ = tx.lock().unwrap().send((name, thread));
        })))
        .unwrap();
    client.sign_in(&email, PASSWORD).unwrap();
    let (name, thread) = rx.recv_timeout(Duration::from_secs(10)).expect("an event");
    assert_eq!(name, "signed_in");
    assert_ne!(thread, std::thread::current().name().unwrap_or("main"), "not on the caller's thread");
    client.set_event_callback(None).unwrap();
    wait_until("the event closure's drop", || drops.load(Ordering::SeqCst) == 1);
}

fn queue_mode(emu: &Emulator) {
    let (email, _) = emu.new_account();
    let client = emu.client();
    client.use_event_queue(true).unwrap();
    assert!(client.event_fd().unwrap() >= 0);
    let pending = client.sign_in_async(&email, PASSWORD).unwrap();
    let id = pending.id().unwrap();
    let (tx, rx) = mpsc::channel();
    pending.on_complete(move |r| {
        let _ = tx.send((r.is_ok(), std::thread::current().id()));
    });
    let mut documents = Vec::new();
    wait_until("the queued completion", || {
        while let Some(doc) = client.next_event().unwrap() {
            documents.push(doc);
        }
        pending.try_result().is_some()
    });
    // the completion ran inside next_event, on this thread
    let (ok, thread) = rx.try_recv().expect("on_complete ran");
    assert!(ok, "signed in");
    assert_eq!(thread, std::thread::current().id());
    assert!(pending.wait().is_ok());
    let completions: Vec<CompletionPayload> = documents
        .iter()
        .filter(|d| d.kind == jump::CallbackEnvelopeKind::Completion)
        .map(|d| CompletionPayload::from_value(d.raw()).expect("a completion document"))
        .collect();
    assert!(!completions.is_empty(), "the completion was queued");
    for doc in completions {
        assert_eq!(doc.request_id, Some(id as i64), "{:?}", doc);
        assert_eq!(doc.operation, "sign_in");
    }
    client.use_event_queue(false).unwrap();
    assert_eq!(client.next_event().unwrap_err().status(), Status::Unsupported);
}

fn dispatcher_runs_jobs_on_the_host_thread(emu: &Emulator) {
    let (email, _) = emu.new_account();
    let client = emu.client();
    let (tx, rx) = mpsc::channel::<Job>();
    let tx = Mutex::new(tx);
    client.set_dispatcher(Some(Arc::new(move |job: Job| {
        let _ = tx.lock().unwrap().send(job);
    }))).unwrap();
    let pending = client.sign_in_async(&email, PASSWORD).unwrap();
    let (done_tx, done_rx) = mpsc::channel();
    let me = std::thread::current().id();
    pending.on_complete(move |r| {
        let _ = done_tx.send((r.is_ok(), std::thread::current().id()));
    });
    let start = Instant::now();
    loop {
        if let Ok((ok, thread)) = done_rx.try_recv() {
            assert!(ok, "the sign-in succeeded");
            assert_eq!(thread, me, "the completion ran in a job on this thread");
            break;
        }
        if let Ok(job) = rx.recv_timeout(Duration::from_millis(50)) {
            job.run();
        }
        assert!(start.elapsed() < Duration::from_secs(10), "no completion through the dispatcher");
    }
    client.set_dispatcher(None).unwrap();
    // jobs still queued (userdata_free of the call) run too: a job dropped unrun would leak
    while let Ok(job) = rx.recv_timeout(Duration::from_millis(200)) {
        job.run();
    }
    client.sync_async().unwrap().wait().expect("libjump's own thread again");
}

fn log_callback(emu: &Emulator) {
    let lines = Arc::new(Mutex::new(Vec::<String>::new()));
    let sink = lines.clone();
    jump::set_log_callback(Some(Box::new(move |doc| {
        sink.lock().unwrap().push(doc.raw().to_string());
    })))
    .unwrap();
    let host = emu.url.trim_start_matches("http://").to_owned();
    let (email, _) = emu.new_account();
    // emulatorHost makes a client log one warning
    let client = Client::from_json(&format!("{{\"emulatorHost\":\"{}\",\"captureClientId\":\"jump-default-client\",\"storageDirectory\":\":memory:\"}}", host)).unwrap();
    let _ = client.sign_in(&email, PASSWORD);
    jump::set_log_callback(None).unwrap();
    let lines = lines.lock().unwrap();
    assert!(lines.iter().any(|l| l.contains("\"kind\":\"log\"")), "log lines: {}", lines.len());
    assert!(!lines.iter().any(|l| l.contains(PASSWORD)), "no password in a log line");
}

#[derive(Default)]
struct MapStorage {
    entries: Mutex<HashMap<String, Vec<u8>>>,
    _drops: Option<DropCount>,
}

impl Storage for MapStorage {
    fn load(&self, key: &str) -> Result<Option<Vec<u8>>, Status> {
        Ok(self.entries.lock().unwrap().get(key).cloned())
    }
    fn save(&self, key: &str, data: &[u8]) -> Result<(), Status> {
        self.entries.lock().unwrap().insert(key.to_owned(), data.to_vec());
        Ok(())
    }
    fn erase(&self, key: &str) -> Result<(), Status> {
        self.entries.lock().unwrap().remove(key);
        Ok(())
    }
}

/// A Storage sharing one map: each config gets its own box, the entries are the same.
struct Shared(Arc<MapStorage>);
impl Storage for Shared {
    fn load(&self, key: &str) -> Result<Option<Vec<u8>>, Status> {
        self.0.load(key)
    }
    fn save(&self, key: &str, data: &[u8]) -> Result<(), Status> {
        self.0.save(key, data)
    }
    fn erase(&self, key: &str) -> Result<(), Status> {
        self.0.erase(key)
    }
}

fn host_storage(emu: &Emulator) {
    let (email, uuid) = emu.new_account();
    let drops = Arc::new(AtomicUsize::new(0));
    let store = Arc::new(MapStorage { _drops: Some(DropCount(drops.clone())), ..MapStorage::default() });
    let make = |store: &Arc<MapStorage>| {
        let mut config = Config::from_json(&emu.capture_json(":memory:")).unwrap();
        config.set_storage(Some(Box::new(Shared(store.clone())))).unwrap();
        Client::new(&config).unwrap()
    };
    {
        let client = make(&store);
        client.sign_in(&email, PASSWORD).unwrap();
        assert!(store.entries.lock().unwrap().keys().any(|k| k.starts_with("session-")), "a session-* entry");
    }
    let client = make(&store);
    assert!(client.is_signed_in(), "restored from the host storage");
    assert_eq!(client.state().unwrap().uuid.as_deref(), Some(uuid.as_str()));
    assert_eq!(client.state().unwrap().secret_store, jump::ClientStateSecretStore::Host);
    drop(client);
    drop(store);
    // libjump frees each boxed Storage on its own thread once no config or client uses it
    wait_until("the storage's drop", || drops.load(Ordering::SeqCst) == 1);
    let mut config = Config::new().unwrap();
    config.set_storage(None).unwrap();
}

fn a_panicking_callback_is_contained(emu: &Emulator) {
    let client = emu.client();
    emu.delay(SIGN_IN_PATH, 300); // so that the closure is in place before the completion runs
    let pending = client.sign_in_async("nobody@example.com", "x").unwrap();
    pending.on_complete(|_| panic!("a host bug in a completion (expected by this test)"));
    // quiet while the expected panic happens (the default hook would print it and a backtrace)
    let hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let result = pending.wait();
    std::panic::set_hook(hook);
    emu.clear_faults();
    assert_eq!(result.unwrap_err().status(), Status::BadCredentials);
    // the process and libjump's thread go on
    let (email, _) = emu.new_account();
    client.sign_in_async(&email, PASSWORD).unwrap().wait().expect("still working");
}
