//! Social sign-in against the emulator's Engage app and fake identity provider: loopback (blocking and
//! async, cancelled), native provider tokens, two-step registration; and the profile and password forms.
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::http_util;
use crate::support::{unique_email, Emulator, PASSWORD};
use crate::Test;
use jump::{Config, SocialOutcomeOutcome, Status};

pub const TESTS: &[Test] = &[
    ("providers_and_engage_config", providers_and_engage_config),
    ("loopback_sign_in", loopback_sign_in),
    ("loopback_async_cancel", loopback_async_cancel),
    ("native_token_registration_required", native_token_registration_required),
    ("browser_begin_and_complete", browser_begin_and_complete),
    ("merge_required_then_sign_in_merge", merge_required_then_sign_in_merge),
    ("profile_and_password_forms", profile_and_password_forms),
];

fn providers_and_engage_config(emu: &Emulator) {
    let client = emu.social_client();
    let loaded = client.load_engage_config().unwrap();
    assert!(loaded.changed || loaded.from_cache, "a configuration, fetched or cached: {:?}", loaded);
    let providers = client.providers().unwrap();
    let names: Vec<String> = providers.sign_in.iter().map(|p| p.name.clone()).collect();
    assert!(names.iter().any(|n| n == "google"), "providers: {:?}", names);
}

/// A browser on its own thread: the fake provider's form, then the redirect to the listener.
fn browse(url: &str, email: &str) -> std::thread::JoinHandle<Result<u16, String>> {
    let (url, email) = (url.to_owned(), email.to_owned());
    std::thread::spawn(move || {
        let landing = http_util::fake_idp_finish(&url, "Lou Pback", &email)?;
        Ok(http_util::call("GET", &landing, &[], None)?.status)
    })
}

fn loopback_sign_in(emu: &Emulator) {
    let client = emu.social_client();
    let email = unique_email();
    let opened = Arc::new(Mutex::new(Vec::new()));
    let mut browser = None;
    let result = client
        .social_sign_in_loopback("google", None, |url| {
            opened.lock().unwrap().push(url.to_owned());
            browser = Some(browse(url, &email));
            Ok(())
        }, Some(Duration::from_secs(30)))
        .expect("loopback sign-in");
    assert_eq!(browser.expect("open_url ran").join().unwrap(), Ok(200), "the listener's page");
    assert_eq!(opened.lock().unwrap().len(), 1, "open_url called once");
    assert_eq!(result.outcome, SocialOutcomeOutcome::Registered, "{:?}", result);
    assert_eq!(result.provider, "google");
    assert!(client.is_signed_in());
    let linked = client.linked_profiles().unwrap();
    assert!(linked.iter().any(|p| p.provider.as_deref() == Some("google")), "{:?}", linked);
}

fn loopback_async_cancel(emu: &Emulator) {
    let client = emu.social_client();
    let (tx, rx) = std::sync::mpsc::channel::<String>();
    let tx = Mutex::new(tx);
    let dropped = Arc::new(Mutex::new(false));
    let guard = SetOnDrop(dropped.clone());
    let pending = client
        .social_sign_in_loopback_async("google", None, move |url| {
            let _keep = &guard;
            let _ = tx.lock().unwrap().send(url.to_owned()); // a browser that never comes back
            Ok(())
        }, Some(Duration::from_secs(30)))
        .unwrap();
    let url = rx.recv_timeout(Duration::from_secs(10)).expect("open_url ran on libjump's thread");
    assert!(url.starts_with("http"), "a sign-in URL");
    pending.cancel().unwrap();
    assert_eq!(pending.wait().unwrap_err().status(), Status::Cancelled);
    assert!(!client.is_signed_in());
    // userdata_free dropped the boxed open_url closure (it shares the userdata with the completion)
    let start = std::time::Instant::now();
    while !*dropped.lock().unwrap() {
        assert!(start.elapsed() < Duration::from_secs(10), "the open_url closure was never dropped");
        std::thread::sleep(Duration::from_millis(10));
    }
}

struct SetOnDrop(Arc<Mutex<bool>>);
impl Drop for SetOnDrop {
    fn drop(&mut self) {
        *self.0.lock().unwrap() = true;
    }
}

fn social_client_without_thin(emu: &Emulator) -> jump::Client {
    let mut config = Config::from_json(&emu.capture_json(":memory:")).unwrap();
    config.set_string("engageAppId", Some("jump-default-engage")).unwrap().set_string("engageDomain", Some(&emu.url)).unwrap();
    jump::Client::new(&config).unwrap()
}

fn native_token_registration_required(emu: &Emulator) {
    let client = social_client_without_thin(emu);
    let email = unique_email();
    let token = format!("{{\"email\":{},\"display_name\":\"Nat Ive\"}}", jump::json::quote(&email));
    let e = client.social_sign_in_native("facebook", &token, None, None).unwrap_err();
    assert_eq!(e.status(), Status::RegistrationRequired, "{}", e);
    let registration = e.detail().str_of("social_registration_token").expect("social_registration_token");
    let mut attributes = e.detail().get("prereg_record").cloned().unwrap_or(jump::Value::Object(vec![]));
    if let jump::Value::Object(members) = &mut attributes {
        members.retain(|(k, _)| k != "displayName");
        members.push(("displayName".into(), jump::Value::String("Nat Ive".into())));
    }
    let result = client.register_social_async(&registration, &attributes.to_string()).unwrap().wait().expect("registered");
    assert!(result.is_new, "{:?}", result);
    client.sign_out().unwrap();
    // the same identity signs in now, also asynchronously
    let again = client.social_sign_in_native_async("facebook", &token, None, None).unwrap().wait().expect("signed in");
    assert_eq!(again.outcome, SocialOutcomeOutcome::SignedIn, "{:?}", again);
    let spent = client.register_social(&registration, &attributes.to_string()).unwrap_err();
    assert_eq!(spent.status(), Status::InvalidArgument, "a spent token: {}", spent);
}

fn browser_begin_and_complete(emu: &Emulator) {
    let client = emu.social_client();
    let begun = client.social_begin("google", None).unwrap();
    let url = begun.url.clone();
    let landing = http_util::fake_idp_finish(&url, "Bro Wser", &unique_email()).expect("the provider");
    let result = client.social_complete(&landing).expect("completed");
    assert!(matches!(result.outcome, SocialOutcomeOutcome::Registered | SocialOutcomeOutcome::SignedIn), "{:?}", result);
    let e = client.social_complete_async(&landing).unwrap().wait().unwrap_err();
    assert_eq!(e.status(), Status::InvalidArgument, "a used completion: {}", e);
}

fn profile_and_password_forms(emu: &Emulator) {
    let (email, uuid) = emu.new_account();
    let client = emu.client();
    client.sign_in(&email, PASSWORD).unwrap();
    client.load_flow().unwrap();
    client.update_profile(Some("{\"displayName\":\"Ada Renamed\"}")).expect("update_profile");
    let server = emu.admin("GET", &format!("/emulator/users/{}", uuid), None);
    assert_eq!(server.at(&["user", "displayName"]).and_then(|v| v.as_str()), Some("Ada Renamed"));
    client.update_profile_async(None).unwrap().wait().expect("update_profile_async");
    let new_password = "another horse 2";
    client.change_password(PASSWORD, new_password).expect("change_password");
    client.sign_out().unwrap();
    assert_eq!(client.sign_in(&email, PASSWORD).unwrap_err().status(), Status::BadCredentials);
    client.sign_in(&email, new_password).unwrap();
    client.change_password_async(new_password, PASSWORD).unwrap().wait().expect("change back");
    client.forgot_password(&email).expect("forgot_password");
    client.forgot_password_async(&email).unwrap().wait().expect("forgot_password_async");
    client.resend_verification_email(&email).expect("resend");
    client.resend_verification_email_async(&email).unwrap().wait().expect("resend async");
}

/// POST /emulator/merge_conflict: a password account and a facebook identity with the same email.
fn merge_required_then_sign_in_merge(emu: &Emulator) {
    let email = unique_email();
    let body = format!("{{\"email\":{},\"existing_provider\":\"capture\",\"provider\":\"facebook\",\"password\":{}}}",
        jump::json::quote(&email), jump::json::quote(PASSWORD));
    let stage = emu.admin("POST", "/emulator/merge_conflict", Some(&body));
    let uuid = stage.at(&["user", "uuid"]).and_then(|v| v.as_str()).expect("uuid").to_owned();
    let token = stage.at(&["conflicting_identity", "token"]).and_then(|v| v.as_str()).expect("token").to_owned();
    let client = social_client_without_thin(emu);
    let e = client.social_sign_in_native("facebook", &token, None, None).unwrap_err();
    assert_eq!(e.status(), Status::MergeRequired, "{}", e);
    assert_eq!(e.detail().str_of("existing_provider").as_deref(), Some("capture"));
    let merge_token = e.detail().str_of("merge_token").expect("merge_token");
    assert!(!format!("{:?}", e).contains(&merge_token), "Debug redacts the merge token");
    assert!(!e.to_string().contains(&merge_token), "so does Display");
    let bad = client.sign_in_merge(&email, "not the password", &merge_token).unwrap_err();
    assert_eq!(bad.status(), Status::BadCredentials);
    let merged = client.sign_in_merge_async(&email, PASSWORD, &merge_token).unwrap().wait().expect("merged");
    assert_eq!(merged.merged, Some(true), "{:?}", merged);
    assert_eq!(merged.uuid, uuid);
    client.sign_out().unwrap();
    let again = client.social_sign_in_native("facebook", &token, None, None).expect("facebook signs in to the account now");
    assert_eq!(again.uuid.as_deref(), Some(uuid.as_str()));
    let profiles = client.linked_profiles().unwrap();
    let identifier = profiles.first().map(|p| p.identifier.clone()).expect("a linked identity");
    client.unlink_account_async(&identifier).unwrap().wait().expect("unlinked");
    assert_eq!(client.unlink_account(&identifier).unwrap_err().status(), Status::NotFound, "already unlinked");
}
