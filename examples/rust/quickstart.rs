//! The Rust quickstart: register, sign in (a wrong password first), edit the record and sync it, then
//! restart from the saved session. Against a jump-emulator:
//!
//!     build/bin/jump-emulator --port 9080 &
//!     JUMP_LIB_DIR=build/lib LD_LIBRARY_PATH=build/lib cargo run --manifest-path bindings/rust/Cargo.toml \
//!         --example quickstart -- http://127.0.0.1:9080 [STORAGE_DIR]
use std::time::{SystemTime, UNIX_EPOCH};

use jump::{Client, Config, Status};

const PASSWORD: &str = "correct horse battery";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let url = match args.first().cloned().or_else(|| std::env::var("JUMP_EMULATOR_URL").ok()) {
        Some(url) => url,
        None => {
            eprintln!("usage: quickstart EMULATOR_URL [STORAGE_DIR] (or set JUMP_EMULATOR_URL)");
            std::process::exit(2);
        }
    };
    let nonce = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    let storage = args.get(1).cloned().unwrap_or_else(|| std::env::temp_dir().join(format!("jump-quickstart-{}", nonce)).display().to_string());
    println!("libjump {}", jump::version());
    let outcome = run(&url, &storage, nonce);
    if args.get(1).is_none() {
        let _ = std::fs::remove_dir_all(&storage);
    }
    if let Err(e) = outcome {
        eprintln!("failed: {}", e); // a status and a message: never a secret
        std::process::exit(1);
    }
}

fn config(url: &str, storage: &str) -> jump::Result<Config> {
    let mut config = Config::new()?;
    config
        .set_string("captureDomain", Some(url))?
        .set_string("captureFlowDomain", Some(url))?
        .set_string("captureClientId", Some("jump-default-client"))?
        .set_string("captureAppId", Some("default-app"))?
        .set_string("captureFlowName", Some("standard"))?
        .set_string("captureLocale", Some("en-US"))?
        .set_string("storageDirectory", Some(storage))?;
    Ok(config)
}

fn run(url: &str, storage: &str, nonce: u128) -> jump::Result<()> {
    let email = format!("quickstart-{:x}@example.com", nonce & 0xffff_ffff);
    {
        let client = Client::new(&config(url, storage)?)?;
        client.set_event_callback(Some(Box::new(|event| {
            println!("event: {}", event.event.as_str())
        })))?;
        let attributes = format!(
            "{{\"email\":{},\"displayName\":\"Ada L\",\"givenName\":\"Ada\",\"familyName\":\"Lovelace\"}}",
            jump::json::quote(&email)
        );
        client.register_traditional(&attributes, PASSWORD)?;
        client.sign_out()?;

        match client.sign_in(&email, "not the password") {
            Err(e) if e.status() == Status::BadCredentials => println!("wrong password refused: {}", e.status().name()),
            Err(e) => return Err(e),
            Ok(_) => println!("a wrong password was accepted?"),
        }

        // An async call: a Pending to wait on, cancel or .await (a Future; dropped unfinished, it cancels
        // the call); the completion runs on libjump's thread.
        let signed_in = client.sign_in_async(&email, PASSWORD)?.wait()?;
        println!("signed in as {}", signed_in.uuid);

        let record = client.record()?;
        println!("givenName: {}", record.get_string("/givenName")?.unwrap_or_default());
        record.set_string("/aboutMe", Some("Written by the Rust quickstart"))?;
        let synced = client.sync_async()?.wait()?;
        println!("synced: {:?}", synced.changed);
    }
    // A new client on the same storage: the session was saved.
    let client = Client::new(&config(url, storage)?)?;
    println!("after restart: signed in {}", client.is_signed_in());
    println!("aboutMe: {}", client.record()?.get_string("/aboutMe")?.unwrap_or_default());
    client.sign_out()?;
    println!("signed out: {}", !client.is_signed_in());
    Ok(())
}
