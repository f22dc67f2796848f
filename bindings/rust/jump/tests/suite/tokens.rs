//! Sign-in tokens, identify, authorized requests and credentials against the emulator's token API.
use std::cell::Cell;
use std::time::Duration;

use crate::support::{scratch_dir, unique, Emulator};
use crate::Test;
use jump::{CredentialsKind, IdentifyResultAction, Status};

pub const TESTS: &[Test] = &[
    ("sign_in_token_session", sign_in_token_session),
    ("identify_external_user", identify_external_user),
    ("sign_in_token_async_cancel", sign_in_token_async_cancel),
    ("api_key_and_web_login", api_key_and_web_login),
];

fn sign_in_token_session(emu: &Emulator) {
    let (user, token) = emu.mint(None);
    let info = jump::decode_sign_in_token(&token).unwrap();
    assert_eq!(info.user_id, user);
    let client = emu.token_client(":memory:");
    assert!(!client.status().unwrap().signed_in);
    let result = client.sign_in_with_token(&token).expect("token sign-in");
    assert_eq!(result.user_id, user);
    assert!(result.changed);
    let status = client.status().unwrap();
    assert!(status.use_sign_in_token);
    let path = format!("/v2/user/{}/profile", user);
    let put = client.request("PUT", &path, Some("{\"Content-Type\":\"application/json\"}"), Some(b"{\"colour\":\"blue\"}")).unwrap();
    assert_eq!(put.status, 200, "PUT");
    let got = client.request_async("GET", &path, None, None).unwrap().wait().unwrap();
    assert!(got.body.unwrap_or_default().contains("blue"));
    let (other, _) = emu.mint(None);
    let denied = client.request("GET", &format!("/v2/user/{}/profile", other), None, None).unwrap();
    assert_eq!(denied.status, 403, "another user's data");
    assert!(!client.access_token().unwrap().is_empty());
    assert!(client.has_valid_credentials(Duration::ZERO));
    let credentials = client.credentials(Duration::ZERO, false).unwrap();
    assert_eq!(credentials.kind, CredentialsKind::SignInToken);
    assert!(!format!("{:?}", credentials).contains(&credentials.access_token), "Debug redacts the token");
    // a credential that lasts at least a minute: no refresh needed for this fresh one; more than it lasts: one
    let expires_in = credentials.expires_in_duration().expect("expires_in").as_secs();
    assert!(credentials.expires_at.expect("expires_at") > std::time::SystemTime::now());
    assert!(client.has_valid_credentials(Duration::from_secs(60)), "expires in {} s", expires_in);
    assert!(!client.has_valid_credentials(Duration::from_secs(expires_in as u64 + 60)));
    let kept = client.credentials(Duration::from_secs(60), false).unwrap();
    assert!(!kept.refreshed, "{:?}", kept);
    let forced = client.credentials_async(Duration::ZERO, true).unwrap().wait().unwrap();
    assert!(forced.refreshed);
    client.refresh_access_token().unwrap();
    // another user's token while signed in
    let (_, token2) = emu.mint(None);
    assert_eq!(client.sign_in_with_token(&token2).unwrap_err().status(), Status::AlreadySignedIn);
    client.sign_out().unwrap();
    assert!(!client.has_valid_credentials(Duration::ZERO));
}

fn identify_external_user(emu: &Emulator) {
    let dir = scratch_dir();
    let app_user = unique("app-");
    let calls = Cell::new(0);
    {
        let client = emu.token_client(&dir);
        let result = client
            .identify_external_user(&app_user, |asked| {
                calls.set(calls.get() + 1);
                assert_eq!(asked, app_user);
                let (_, token) = emu.mint(None);
                Ok(format!("{{\"type\":\"sign_in_token\",\"sign_in_token\":{}}}", jump::json::quote(&token)))
            })
            .unwrap();
        assert_eq!(result.action, IdentifyResultAction::SignedIn);
        assert_eq!(client.status().unwrap().external_user_id.as_deref(), Some(app_user.as_str()));
    }
    let client = emu.token_client(&dir);
    let again = client.identify_external_user(&app_user, |_| Err(Status::Unsupported)).unwrap();
    assert_eq!(again.action, IdentifyResultAction::None, "restored: nothing to do");
    assert_eq!(calls.get(), 1);
    // an authenticate that fails fails the identify with its status
    let refused = emu.token_client(":memory:").identify_external_user("someone", |_| Err(Status::Network)).unwrap_err();
    assert_eq!(refused.status(), Status::Network);
    let _ = std::fs::remove_dir_all(&dir);
}

fn sign_in_token_async_cancel(emu: &Emulator) {
    let (_, token) = emu.mint(None);
    let client = emu.token_client(":memory:");
    emu.delay("/v1/token", 3000);
    let pending = client.sign_in_with_token_async(&token).unwrap();
    std::thread::sleep(Duration::from_millis(150));
    pending.cancel().unwrap();
    assert_eq!(pending.wait().unwrap_err().status(), Status::Cancelled);
    emu.clear_faults();
    assert!(!client.is_signed_in());
}

fn api_key_and_web_login(emu: &Emulator) {
    let client = emu.token_client(":memory:");
    client.use_api_key("jump-team-key", None, "dev", "us").unwrap();
    let status = client.status().unwrap();
    assert!(status.use_api_key, "{:?}", status);
    assert_eq!(client.credentials(Duration::ZERO, false).unwrap().kind, CredentialsKind::ApiKey);
    assert_eq!(client.credentials(Duration::ZERO, true).unwrap_err().status(), Status::Unsupported);
    let web = emu.token_client(":memory:");
    let token = web.use_web_login(&format!("{}/login", emu.url), Some("oauth_token=abc123; other=1"), None).unwrap();
    assert_eq!(token, "abc123");
    assert_eq!(web.use_web_login(&emu.url, None, Some("no token here")).unwrap_err().status(), Status::NotFound);
}
