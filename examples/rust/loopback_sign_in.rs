//! Social sign-in from a command-line app (RFC 8252): libjump listens on 127.0.0.1, this program opens the
//! provider's page in the browser ($BROWSER, else xdg-open), and the sign-in completes when the browser
//! comes back to the listener. Thin registration makes the account of a new identity.
//!
//!     cargo run --example loopback_sign_in -- http://127.0.0.1:9080 [PROVIDER]
//!
//! Against the emulator the "provider" is its fake identity provider page: create an identity there.
use std::process::Command;
use std::time::Duration;

use jump::{Client, Config, Status};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let url = match args.first().cloned().or_else(|| std::env::var("JUMP_EMULATOR_URL").ok()) {
        Some(url) => url,
        None => {
            eprintln!("usage: loopback_sign_in EMULATOR_URL [PROVIDER] (or set JUMP_EMULATOR_URL)");
            std::process::exit(2);
        }
    };
    let provider = args.get(1).cloned().unwrap_or_else(|| "google".to_owned());
    if let Err(e) = run(&url, &provider) {
        eprintln!("failed: {}", e);
        std::process::exit(1);
    }
}

/// The system browser: $BROWSER (a command line, the URL appended), else xdg-open. Started, not waited
/// for: a browser returns when it likes.
fn open_in_browser(url: &str) -> Result<(), Status> {
    println!("Opening your browser to sign in. If nothing opens, visit:\n  {}", url);
    let browser = std::env::var("BROWSER").unwrap_or_else(|_| "xdg-open".to_owned());
    let mut words = browser.split_whitespace();
    let program = words.next().ok_or(Status::Unsupported)?;
    match Command::new(program).args(words).arg(url).spawn() {
        Ok(_) => Ok(()),
        Err(_) => {
            println!("(no browser could be started: open the URL above yourself)");
            Ok(())
        }
    }
}

fn run(url: &str, provider: &str) -> jump::Result<()> {
    let mut config = Config::new()?;
    config
        .set_string("captureDomain", Some(url))?
        .set_string("captureFlowDomain", Some(url))?
        .set_string("captureClientId", Some("jump-default-client"))?
        .set_string("captureAppId", Some("default-app"))?
        .set_string("captureFlowName", Some("standard"))?
        .set_string("engageAppId", Some("jump-default-engage"))?
        .set_string("engageDomain", Some(url))?
        .set_string("storageDirectory", Some(":memory:"))?
        .set_bool("captureEnableThinRegistration", true)?;
    let client = Client::new(&config)?;
    let result = client.social_sign_in_loopback(provider, None, open_in_browser, Some(Duration::from_secs(120)))?;
    println!(
        "signed in with {} ({}): {}",
        result.provider,
        result.outcome.as_str(),
        result.uuid.unwrap_or_default()
    );
    let linked = client.linked_profiles()?;
    let names: Vec<String> = linked.into_iter().filter_map(|p| p.provider).collect();
    println!("linked: {}", names.join(", "));
    Ok(())
}
