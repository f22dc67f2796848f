//! The Rust binding's suite against a real jump-emulator (one for the whole run). A harness of its own
//! (Cargo.toml: harness = false) so that the emulator is started once and stopped at the end, and the run
//! ends with the line "N passed, N failed" that scripts/run-tests.sh reads.
//!   suite [FILTER]         runs the tests whose name contains FILTER
//!   suite --browser URL    plays the system browser for the loopback example: drives the emulator's
//!                          fake identity provider from URL and lands on the loopback listener
#[path = "../../../../../examples/rust/http_util.rs"]
mod http_util;

mod accounts;
mod async_calls;
mod basics;
mod callbacks;
mod conformance;
mod examples;
mod install;
mod social;
mod support;
mod tokens;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Instant;

use support::Emulator;

pub type Test = (&'static str, fn(&Emulator));

fn browser(url: &str) -> i32 {
    let email = support::unique_email();
    match http_util::fake_idp_finish(url, "Ex Ample", &email).and_then(|landing| http_util::call("GET", &landing, &[], None)) {
        Ok(answer) if answer.status == 200 => 0,
        Ok(answer) => {
            eprintln!("browser: the listener answered HTTP {}", answer.status);
            1
        }
        Err(e) => {
            eprintln!("browser: {}", e);
            1
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("--browser") {
        std::process::exit(browser(args.get(1).map(String::as_str).unwrap_or("")));
    }
    let filter = args.iter().find(|a| !a.starts_with('-')).cloned().unwrap_or_default();
    let emulator = match Emulator::start() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("{}", e);
            println!("0 passed, 1 failed");
            std::process::exit(1);
        }
    };
    let mut tests: Vec<Test> = Vec::new();
    for group in [basics::TESTS, callbacks::TESTS, async_calls::TESTS, accounts::TESTS, tokens::TESTS, social::TESTS, examples::TESTS, install::TESTS] {
        tests.extend_from_slice(group);
    }
    let (mut passed, mut failed) = (0, 0);
    let started = Instant::now();
    for (name, test) in tests.iter().filter(|(n, _)| n.contains(&filter)) {
        let t = Instant::now();
        match catch_unwind(AssertUnwindSafe(|| test(&emulator))) {
            Ok(()) => {
                passed += 1;
                println!("ok   {} ({} ms)", name, t.elapsed().as_millis());
            }
            Err(_) => {
                failed += 1;
                println!("FAIL {} ({} ms)", name, t.elapsed().as_millis());
            }
        }
    }
    // The conformance scenarios, one test each; skipped (and counted so) where Tests/conformance is absent.
    let mut skipped = 0;
    match conformance::directory() {
        Some(dir) => match conformance::run(&dir, &filter) {
            Ok(verdicts) => {
                for (name, ok, line) in verdicts {
                    if ok {
                        passed += 1;
                        println!("ok   conformance::{}", name);
                    } else {
                        failed += 1;
                        println!("FAIL conformance::{}: {}", name, line);
                    }
                }
            }
            Err(e) => {
                failed += 1;
                println!("FAIL conformance: {}", e);
            }
        },
        None => {
            skipped += 1;
            println!("skip conformance: no Tests/conformance in this checkout (set JUMP_CONFORMANCE_DIR)");
        }
    }
    println!("({:.1} s)", started.elapsed().as_secs_f64());
    if skipped > 0 {
        println!("{} passed, {} failed, {} skipped", passed, failed, skipped);
    } else {
        println!("{} passed, {} failed", passed, failed);
    }
    drop(emulator);
    std::process::exit(if failed == 0 { 0 } else { 1 });
}
