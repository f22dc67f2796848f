//! What a call through the Rust binding costs, against a Rust FFI call of a C no-op with the same
//! signature (benchmarks/noop.c's noop_ptr, in build/bench/libnoop.so, loaded with dlopen so that both
//! calls cross into a shared library). Rows: the raw jump_sys call (libjump's own cost) and the safe
//! crate's Client::is_signed_in. No network: the client is signed out. Run by benchmarks/run.sh (`make
//! bench`) as: overhead LIBNOOP [CALLS]; prints "<what> <ns> ns/call" lines, medians of 11 rounds.
use std::ffi::CString;
use std::os::raw::{c_char, c_int, c_void};
use std::time::Instant;

use jump_sys as sys;

extern "C" {
    fn dlopen(filename: *const c_char, flags: c_int) -> *mut c_void;
    fn dlsym(handle: *mut c_void, symbol: *const c_char) -> *mut c_void;
}
const RTLD_NOW: c_int = 2;
const ROUNDS: usize = 11;

fn median(calls: u32, mut body: impl FnMut(u32) -> i64) -> f64 {
    body(calls / 10 + 1); // warm-up: lazy binding, caches
    let mut samples: Vec<f64> = (0..ROUNDS)
        .map(|_| {
            let start = Instant::now();
            let sink = body(calls);
            let ns = start.elapsed().as_nanos() as f64 / calls as f64;
            if sink == i64::MIN {
                println!("unreachable"); // keeps sink alive without black_box (Rust 1.66+)
            }
            ns
        })
        .collect();
    samples.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
    samples[ROUNDS / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let library = args.first().cloned().unwrap_or_else(|| "build/bench/libnoop.so".to_owned());
    let calls: u32 = args.get(1).and_then(|n| n.parse().ok()).unwrap_or(2_000_000);
    let path = CString::new(library.clone()).expect("path");
    // SAFETY: dlopen/dlsym with valid C strings; noop_ptr's signature is int(void *), as declared.
    let noop_ptr: extern "C" fn(*mut c_void) -> c_int = unsafe {
        let handle = dlopen(path.as_ptr(), RTLD_NOW);
        assert!(!handle.is_null(), "cannot dlopen {}", library);
        let symbol = dlsym(handle, b"noop_ptr\0".as_ptr() as *const c_char);
        assert!(!symbol.is_null(), "no noop_ptr in {}", library);
        std::mem::transmute(symbol)
    };
    let client = jump::Client::from_json("{\"storageDirectory\":\":memory:\"}").expect("a client");
    let config = jump::Config::from_json("{\"storageDirectory\":\":memory:\"}").expect("a config");
    let raw = {
        // a second client through jump_sys alone, for the raw row
        let mut raw = std::ptr::null_mut();
        let json = CString::new("{\"storageDirectory\":\":memory:\"}").unwrap();
        let mut cfg = std::ptr::null_mut();
        // SAFETY: valid C string and out-pointers; freed below.
        unsafe {
            assert_eq!(sys::jump_config_from_json(json.as_ptr(), &mut cfg), sys::JUMP_OK);
            assert_eq!(sys::jump_client_new(cfg, &mut raw), sys::JUMP_OK);
            sys::jump_config_free(cfg);
        }
        raw
    };
    drop(config);
    let handle = raw as *mut c_void;
    let floor = median(calls, |n| (0..n).map(|_| noop_ptr(handle) as i64).sum());
    // SAFETY: raw is a live client until freed below.
    let raw_ns = median(calls, |n| (0..n).map(|_| unsafe { sys::jump_client_is_signed_in(raw) } as i64).sum());
    let safe_ns = median(calls, |n| (0..n).map(|_| client.is_signed_in() as i64).sum());
    println!("noop_ptr(void *) via dlopen {:.1} ns/call", floor);
    println!("jump_client_is_signed_in raw (jump-sys) {:.1} ns/call", raw_ns);
    println!("Client::is_signed_in (jump) {:.1} ns/call", safe_ns);
    // SAFETY: freed once, nothing uses it after.
    unsafe { sys::jump_client_free(raw) };
}
