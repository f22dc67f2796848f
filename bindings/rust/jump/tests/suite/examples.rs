//! The examples in examples/rust, built by run-tests.sh (cargo build --examples), run against the suite's
//! emulator as a user would run them. The loopback example opens "the browser" through $BROWSER: this
//! suite's own binary in --browser mode (main.rs), which drives the fake identity provider.
use std::process::Command;

use crate::support::{scratch_dir, Emulator};
use crate::Test;

pub const TESTS: &[Test] = &[
    ("quickstart_example", quickstart_example),
    ("loopback_sign_in_example", loopback_sign_in_example),
    ("sign_in_token_session_example", sign_in_token_session_example),
];

fn run(name: &str, args: &[&str], browser: Option<String>) -> String {
    let dir = std::env::var("JUMP_RUST_EXAMPLES").expect("JUMP_RUST_EXAMPLES (the built examples' directory; run-tests.sh sets it)");
    let mut command = Command::new(format!("{}/{}", dir, name));
    command.args(args);
    if let Some(b) = browser {
        command.env("BROWSER", b);
    }
    let out = command.output().unwrap_or_else(|e| panic!("{}: {}", name, e));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{} failed: {}{}", name, stdout, String::from_utf8_lossy(&out.stderr));
    stdout
}

fn quickstart_example(emu: &Emulator) {
    let dir = scratch_dir();
    let out = run("quickstart", &[&emu.url, &dir], None);
    assert!(out.contains("wrong password refused: JUMP_E_BAD_CREDENTIALS"), "{}", out);
    assert!(out.contains("signed in as ") && out.contains("givenName: Ada"), "{}", out);
    assert!(out.contains("event: signed_in"), "{}", out);
    assert!(out.contains("synced: [\"/aboutMe\"]"), "{}", out);
    assert!(out.contains("after restart: signed in true") && out.contains("aboutMe: Written by the Rust quickstart"), "{}", out);
    assert!(out.contains("signed out: true"), "{}", out);
    let _ = std::fs::remove_dir_all(&dir);
}

fn loopback_sign_in_example(emu: &Emulator) {
    let me = std::env::current_exe().unwrap().display().to_string();
    let out = run("loopback_sign_in", &[&emu.url, "google"], Some(format!("{} --browser", me)));
    assert!(out.contains("Opening your browser") && out.contains("signed in with google"), "{}", out);
    assert!(out.contains("linked: google"), "{}", out);
}

fn sign_in_token_session_example(emu: &Emulator) {
    let dir = scratch_dir();
    let out = run("sign_in_token_session", &[&emu.url, &dir], None);
    assert!(out.contains("identify: signed_in") && out.contains("the token is for "), "{}", out);
    assert!(out.contains("saved the profile: HTTP 200"), "{}", out);
    assert!(out.contains("after restart: identify none") && out.contains("visits"), "{}", out);
    assert!(out.contains("signed out: true"), "{}", out);
    let _ = std::fs::remove_dir_all(&dir);
}
