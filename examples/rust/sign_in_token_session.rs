//! A sign-in-token session: the app's backend mints a sign-in token for its user, identify exchanges it
//! for a session (only when needed), authorized requests use it, and a restart keeps it.
//!
//!     cargo run --example sign_in_token_session -- http://127.0.0.1:9080 [STORAGE_DIR]
#[path = "http_util.rs"]
mod http_util;

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use jump::{Client, Config, Status};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let api = match args.first().cloned().or_else(|| std::env::var("JUMP_EMULATOR_URL").ok()) {
        Some(url) => url,
        None => {
            eprintln!("usage: sign_in_token_session EMULATOR_URL [STORAGE_DIR] (or set JUMP_EMULATOR_URL)");
            std::process::exit(2);
        }
    };
    let nonce = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    let storage = args.get(1).cloned().unwrap_or_else(|| std::env::temp_dir().join(format!("jump-token-session-{}", nonce)).display().to_string());
    let app_user = format!("app-user-{:x}", nonce & 0xffff_ffff);
    let outcome = first_run(&api, &storage, &app_user).and_then(|_| restart(&api, &storage, &app_user));
    if args.get(1).is_none() {
        let _ = std::fs::remove_dir_all(&storage);
    }
    if let Err(e) = outcome {
        eprintln!("failed: {}", e);
        std::process::exit(1);
    }
}

fn client(api: &str, storage: &str) -> jump::Result<Client> {
    let mut config = Config::new()?;
    config
        .set_string("signInTokenAuthBaseUrl", Some(api))?
        .set_string("signInTokenApiBaseUrl", Some(api))?
        .set_string("storageDirectory", Some(storage))?;
    Client::new(&config)
}

/// The app's backend: creates (or finds) the user and mints a sign-in token (the emulator's team key).
fn backend_login(api: &str, app_user: &str) -> Result<String, Status> {
    println!("asking the backend for a sign-in token for {}", app_user);
    let user = http_util::backend_post(api, "/v2/user", &format!("{{\"client_user_id\":{}}}", jump::json::quote(app_user)))
        .ok()
        .and_then(|a| jump::json::parse(&a.body))
        .and_then(|v| v.str_of("user_id"))
        .ok_or(Status::Network)?;
    let token = http_util::backend_post(api, &format!("/v2/user/{}/sign_in_token", user), "{}")
        .ok()
        .and_then(|a| jump::json::parse(&a.body))
        .and_then(|v| v.str_of("sign_in_token"))
        .ok_or(Status::Network)?;
    // What the token says, without using it (no network); the token itself is a secret: not printed.
    if let Ok(info) = jump::decode_sign_in_token(&token) {
        println!(
            "the token is for {} ({}, {})",
            info.user_id,
            info.environment.as_str(),
            info.region.as_str()
        );
    }
    Ok(format!("{{\"type\":\"sign_in_token\",\"sign_in_token\":{}}}", jump::json::quote(&token)))
}

fn first_run(api: &str, storage: &str, app_user: &str) -> jump::Result<()> {
    let client = client(api, storage)?;
    let identified = client.identify_external_user(app_user, |user| backend_login(api, user))?;
    let status = client.status()?;
    let user_id = status.user_id.unwrap_or_default();
    println!("identify: {}; signed in as {}", identified.action.as_str(), user_id);
    let credentials = client.credentials_async(Duration::from_secs(60), false)?.wait()?;
    println!("credential: {}", credentials.kind.as_str());
    let put = client.request(
        "PUT",
        &format!("/v2/user/{}/profile", user_id),
        Some("{\"Content-Type\":\"application/json\"}"),
        Some(b"{\"visits\":1}"),
    )?;
    println!("saved the profile: HTTP {}", put.status);
    Ok(())
}

fn restart(api: &str, storage: &str, app_user: &str) -> jump::Result<()> {
    let client = client(api, storage)?;
    // The saved session is this app user's: no credential needed, so authenticate is not called.
    let again = client.identify_external_user(app_user, |_| Err(Status::Unsupported))?;
    let user_id = client.status()?.user_id.unwrap_or_default();
    let profile = client.request("GET", &format!("/v2/user/{}/profile", user_id), None, None)?;
    println!("after restart: identify {}; profile {}", again.action.as_str(), profile.body.unwrap_or_default());
    client.sign_out()?;
    println!("signed out: {}", !client.status()?.signed_in);
    Ok(())
}
