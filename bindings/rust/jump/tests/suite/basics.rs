//! Sign-in, registration, statuses and errors, the record and sync, restart from storage.
use std::collections::HashSet;
use std::time::Duration;

use crate::support::{scratch_dir, unique_email, Emulator, PASSWORD};
use crate::Test;
use jump::{Config, Status};

pub const TESTS: &[Test] = &[
    ("version_and_abi", version_and_abi),
    ("every_status_maps", every_status_maps),
    ("errors_carry_libjumps_detail", errors_carry_libjumps_detail),
    ("sign_in_and_bad_password", sign_in_and_bad_password),
    ("register_and_validation", register_and_validation),
    ("edit_and_sync", edit_and_sync),
    ("record_plurals_and_reverts", record_plurals_and_reverts),
    ("storage_restart", storage_restart),
    ("config_keys", config_keys),
    ("strings_with_nul_are_refused", strings_with_nul_are_refused),
];

fn version_and_abi(_: &Emulator) {
    assert!(!jump::version().is_empty());
    assert_eq!(jump::abi_version(), jump_sys::JUMP_ABI_VERSION);
    let n = jump::version_number();
    assert_eq!(jump::version(), format!("{}.{}.{}", n >> 16, (n >> 8) & 0xff, n & 0xff));
}

fn every_status_maps(_: &Emulator) {
    let mut names = HashSet::new();
    let mut texts = HashSet::new();
    for s in Status::ALL {
        assert_eq!(Status::from_code(s.code()), Some(s), "{:?}", s);
        assert!(s.name().starts_with("JUMP_"), "{}", s.name());
        assert!(!s.meaning().is_empty());
        names.insert(s.name());
        texts.insert(jump::status_str(s.code()));
    }
    assert_eq!(names.len(), Status::ALL.len(), "names are distinct");
    assert_eq!(texts.len(), Status::ALL.len(), "libjump describes each status its own way");
    // the generated constants of jump-sys and the enum agree
    assert_eq!(Status::AlreadySignedIn.code(), jump_sys::JUMP_E_ALREADY_SIGNED_IN);
    // success is no status; a code from a newer libjump is still one, with its code
    assert_eq!(Status::from_code(jump_sys::JUMP_OK), None);
    let newer = Status::from_code(-1000).expect("a status");
    assert_eq!(newer, Status::Unknown(-1000));
    assert_eq!((newer.code(), newer.name()), (-1000, "JUMP_E_UNKNOWN"));
    assert!(!newer.meaning().is_empty());
    assert!(!Status::ALL.contains(&newer));
    assert_eq!(Status::BadCredentials.to_string(), "JUMP_E_BAD_CREDENTIALS");
    assert!(!jump::status_str(-1000).is_empty(), "an unknown code still has a description");
}

/// Failures provoked for real: each Error's status is the one libjump's own detail names.
fn errors_carry_libjumps_detail(emu: &Emulator) {
    let mut seen = Vec::new();
    let mut expect = |r: jump::Result<()>, status: Status| {
        let e = r.expect_err(status.name());
        assert_eq!(e.status(), status, "{}", e);
        assert_eq!(e.detail().get("status_name").and_then(|v| v.as_str()), Some(status.name()), "{}", e);
        assert_eq!(e.detail().get("status").and_then(|v| v.as_i64()), Some(status.code() as i64));
        assert!(!e.message().is_empty(), "a message for {}", status.name());
        seen.push(status);
    };
    expect(Config::from_json("{\"storageDirectory\":3}").map(|_| ()), Status::InvalidArgument);
    let client = emu.client();
    expect(client.record().map(|_| ()), Status::NotSignedIn);
    expect(client.sign_in("nobody@example.com", "wrong").map(|_| ()), Status::BadCredentials);
    expect(client.event_fd().map(|_| ()), Status::Unsupported);
    expect(client.sync().map(|_| ()), Status::NotSignedIn);
    expect(jump::decode_sign_in_token("not base64 !").map(|_| ()), Status::InvalidArgument);
    let (email, _) = emu.new_account();
    client.sign_in(&email, PASSWORD).expect("sign-in");
    expect(client.record().and_then(|r| r.get("/noSuchAttribute")).map(|_| ()), Status::NotFound);
    let offline = jump::Client::from_json(
        "{\"captureDomain\":\"http://127.0.0.1:9\",\"captureClientId\":\"x\",\"captureFlowDomain\":\"http://127.0.0.1:9\",\
         \"captureAppId\":\"a\",\"captureFlowName\":\"standard\",\"storageDirectory\":\":memory:\",\"connectTimeoutMs\":2000}",
    )
    .unwrap();
    expect(offline.sign_in("a@example.com", "x").map(|_| ()), Status::Network);
    assert!(seen.len() >= 8);
}

fn sign_in_and_bad_password(emu: &Emulator) {
    let (email, uuid) = emu.new_account();
    let client = emu.client();
    assert!(!client.is_signed_in());
    let wrong = client.sign_in(&email, "not the password").expect_err("a wrong password");
    assert_eq!(wrong.status(), Status::BadCredentials);
    assert!(!wrong.to_string().contains("not the password"), "no secret in the message: {}", wrong);
    assert!(!client.is_signed_in());
    let result = client.sign_in(&email, PASSWORD).expect("sign-in");
    assert_eq!(result.uuid, uuid);
    assert!(!result.is_new);
    assert!(client.is_signed_in());
    let state = client.state().unwrap();
    assert!(state.signed_in);
    assert_eq!(state.email.as_deref(), Some(email.as_str()));
    client.sign_out().unwrap();
    assert!(!client.is_signed_in());
}

fn register_and_validation(emu: &Emulator) {
    let client = emu.client();
    let email = unique_email();
    let attributes = format!("{{\"email\":{},\"displayName\":\"Reg Ister\",\"givenName\":\"Reg\",\"familyName\":\"Ister\"}}", jump::json::quote(&email));
    let result = client.register_traditional(&attributes, PASSWORD).expect("registration");
    assert!(result.is_new);
    assert!(client.is_signed_in());
    assert_eq!(client.record().unwrap().get_string("/email").unwrap().as_deref(), Some(email.as_str()));
    // the same email again: the form refuses it, field by field
    let other = emu.client();
    let again = other.register_traditional(&attributes, PASSWORD).expect_err("a taken email");
    assert_eq!(again.status(), Status::Validation, "{}", again);
    assert!(again.detail().get("invalid_fields").is_some(), "invalid_fields: {}", again.detail());
    let fields = again.details().and_then(|d| d.invalid_fields).expect("typed invalid_fields");
    assert!(!fields.is_empty(), "{:?}", fields);
}

fn edit_and_sync(emu: &Emulator) {
    let (email, uuid) = emu.new_account();
    let client = emu.client();
    client.sign_in(&email, PASSWORD).unwrap();
    let record = client.record().unwrap();
    assert_eq!(record.get_string("/givenName").unwrap().as_deref(), Some("Ada"));
    record.set_string("/aboutMe", Some("from Rust")).unwrap();
    record.set("/familyName", "\"Byron\"").unwrap();
    let changes = record.changes().unwrap();
    let changed = &changes.changed;
    assert!(changed.iter().any(|p| p == "/aboutMe") && changed.iter().any(|p| p == "/familyName"), "changes: {:?}", changes);
    assert!(client.state().unwrap().unsynced_changes);
    let synced = client.sync().expect("sync");
    assert!(synced.changed.iter().any(|p| p == "/aboutMe"), "{:?}", synced);
    let server = emu.admin("GET", &format!("/emulator/users/{}", uuid), None);
    assert_eq!(server.at(&["user", "aboutMe"]).and_then(|v| v.as_str()), Some("from Rust"), "the server's record");
    assert_eq!(server.at(&["user", "familyName"]).and_then(|v| v.as_str()), Some("Byron"));
    // another client of the same user fetches it
    let other = emu.client();
    other.sign_in(&email, PASSWORD).unwrap();
    other.fetch_record().unwrap();
    assert_eq!(other.record().unwrap().get_string("/aboutMe").unwrap().as_deref(), Some("from Rust"));
    let synced = client.sync_async().unwrap().wait().expect("an empty sync");
    assert_eq!(synced.requests, 0, "nothing left: {:?}", synced);
}

fn record_plurals_and_reverts(emu: &Emulator) {
    let (email, _) = emu.new_account();
    let client = emu.client();
    client.sign_in(&email, PASSWORD).unwrap();
    client.load_schema().expect("schema");
    let record = client.record().unwrap();
    let before = record.element_count("/photos").unwrap();
    let path = record.append("/photos", "{\"type\":\"avatar\",\"value\":\"https://example.com/a.png\"}").expect("append");
    assert!(path.starts_with("/photos#-"), "{}", path);
    assert_eq!(record.element_count("/photos").unwrap(), before + 1);
    assert!(record.element_paths("/photos").unwrap().contains(&path));
    let synced = client.sync().unwrap();
    let renamed = synced.renamed.get(&path).expect("renamed").to_owned();
    record.remove(&renamed).unwrap();
    record.replace_plural("/photos", "[{\"type\":\"other\",\"value\":\"x\"}]").unwrap();
    record.discard_changes().unwrap();
    assert_eq!(record.element_paths("/photos").unwrap(), vec![renamed.clone()]);
    record.set_string("/aboutMe", Some("edit")).unwrap();
    record.revert("/aboutMe").unwrap();
    assert_ne!(record.get_string("/aboutMe").unwrap().as_deref(), Some("edit"));
    record.clear("/aboutMe").unwrap();
    assert_eq!(record.get_string("/aboutMe").unwrap(), None);
    assert!(record.get_i64("/id").unwrap() > 0);
    assert!(record.get_f64("/id").unwrap() > 0.0);
    assert_eq!(record.get_bool("/email").unwrap_err().status(), Status::InvalidArgument);
}

fn storage_restart(emu: &Emulator) {
    let dir = scratch_dir();
    let (email, uuid) = emu.new_account();
    {
        let client = emu.client_at(&dir);
        client.sign_in(&email, PASSWORD).unwrap();
        client.record().unwrap().set_string("/aboutMe", Some("unsynced")).unwrap();
    } // dropped: freed
    let client = emu.client_at(&dir);
    assert!(client.is_signed_in(), "restored from {}", dir);
    assert_eq!(client.state().unwrap().uuid.as_deref(), Some(uuid.as_str()));
    assert_eq!(client.record().unwrap().get_string("/aboutMe").unwrap().as_deref(), Some("unsynced"), "edits survive");
    client.restore().expect("restore again");
    client.erase_quarantine().unwrap();
    client.sign_out().unwrap();
    drop(client);
    assert!(!emu.client_at(&dir).is_signed_in(), "signed out for good");
    let _ = std::fs::remove_dir_all(&dir);
}

fn config_keys(emu: &Emulator) {
    use jump::config_keys::{self as keys, CAPTURE_DOMAIN, CAPTURE_ENABLE_THIN_REGISTRATION, REQUEST_TIMEOUT_MS};
    // the generated constants (jump_api.json's config_keys) are exactly the keys libjump knows
    let defaults = Config::new().unwrap().to_json().unwrap();
    let known: HashSet<&str> = match &defaults {
        jump::Value::Object(members) => members.iter().map(|(k, _)| k.as_str()).collect(),
        other => panic!("to_json is no object: {:?}", other),
    };
    assert_eq!(known, keys::ALL.iter().copied().collect::<HashSet<&str>>(), "config_keys::ALL against the library's keys");
    assert_eq!((REQUEST_TIMEOUT_MS, keys::STORAGE_DIRECTORY), ("requestTimeoutMs", "storageDirectory"));
    let mut config = Config::new().unwrap();
    config.set_string(CAPTURE_DOMAIN, Some(&emu.url)).unwrap().set_int(REQUEST_TIMEOUT_MS, 1234).unwrap().set_bool(CAPTURE_ENABLE_THIN_REGISTRATION, true).unwrap();
    let json = config.to_json().unwrap();
    assert_eq!(json.get(REQUEST_TIMEOUT_MS).and_then(|v| v.as_i64()), Some(1234));
    assert_eq!(json.get(CAPTURE_ENABLE_THIN_REGISTRATION).and_then(|v| v.as_bool()), Some(true));
    config.set_string(CAPTURE_DOMAIN, None).unwrap();
    assert!(config.to_json().unwrap().get(CAPTURE_DOMAIN).map_or(true, |v| v.is_null()));
    assert_eq!(config.set_int("noSuchKey", 1).err().map(|e| e.status()), Some(Status::InvalidArgument));
    // durations: in the unit the key names, exactly
    config.set_duration("requestTimeoutMs", Duration::from_millis(2500)).unwrap().set_duration("tokenRefreshMarginSeconds", Duration::from_secs(90)).unwrap();
    let json = config.to_json().unwrap();
    assert_eq!(json.get("requestTimeoutMs").and_then(|v| v.as_i64()), Some(2500));
    assert_eq!(json.get("tokenRefreshMarginSeconds").and_then(|v| v.as_i64()), Some(90));
    let inexact = config.set_duration("requestTimeoutMs", Duration::from_micros(2500500)).err().expect("not whole milliseconds");
    assert_eq!(inexact.status(), Status::InvalidArgument);
    assert_eq!(config.to_json().unwrap().get("requestTimeoutMs").and_then(|v| v.as_i64()), Some(2500), "unchanged");
    let out_of_range = config.set_duration("requestTimeoutMs", Duration::from_secs(3600)).err().expect("over 600000 ms");
    assert_eq!(out_of_range.status(), Status::InvalidArgument, "libjump's own range check: {}", out_of_range);
}

fn strings_with_nul_are_refused(emu: &Emulator) {
    let client = emu.client();
    let e = client.sign_in("a\0b@example.com", "x").unwrap_err();
    assert_eq!(e.status(), Status::InvalidArgument);
    assert_eq!(e.detail().str_of("status_name").as_deref(), Some("JUMP_E_INVALID_ARGUMENT"));
}
