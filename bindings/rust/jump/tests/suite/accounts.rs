//! Several accounts in one client (config key `accounts` = `"multiple"`), as
//! bindings/python/tests/test_accounts.py: two users signed in, listed, switched without a password (blocking
//! and async), one removed while the other stays signed in and usable, NotFound on an unknown uuid.
use std::collections::HashMap;
use std::sync::mpsc;
use std::sync::Mutex;
use std::time::Duration;

use crate::support::{scratch_dir, unique_email, Emulator, PASSWORD, SIGN_IN_PATH};
use crate::Test;
use jump::config_keys::ACCOUNTS;
use jump::{Client, Config, EventEvent, Status};

pub const TESTS: &[Test] = &[
    ("accounts_single_mode_lists_the_signed_in_user", single_mode_lists_the_signed_in_user),
    ("accounts_two_users_switch_and_one_is_removed", two_users_switch_and_one_is_removed),
    ("accounts_removing_the_active_one_signs_no_one_else_in", removing_the_active_one_signs_no_one_else_in),
];

/// A user made through the emulator's admin API: (email, uuid).
fn admin_user(emu: &Emulator, display_name: &str) -> (String, String) {
    let email = unique_email();
    let body = format!(
        "{{\"email\":{},\"password\":{},\"record\":{{\"displayName\":{}}}}}",
        jump::json::quote(&email),
        jump::json::quote(PASSWORD),
        jump::json::quote(display_name)
    );
    let answer = emu.admin("POST", "/emulator/users", Some(&body));
    let uuid = answer.get("user").and_then(|u| u.str_of("uuid")).expect("the new user's uuid");
    (email, uuid)
}

/// A client with accounts "multiple" on a storage directory of its own.
fn multi_client(emu: &Emulator) -> Client {
    let mut config = Config::from_json(&emu.capture_json(&scratch_dir())).expect("config");
    config.set_string(ACCOUNTS, Some("multiple")).expect("accounts");
    Client::new(&config).expect("a client")
}

/// uuid -> active, of the saved accounts.
fn uuids(client: &Client) -> HashMap<String, bool> {
    client.accounts().expect("accounts").accounts.into_iter().map(|a| (a.uuid, a.active)).collect()
}

fn record_email(client: &Client) -> Option<String> {
    client.record().expect("record").get_string("/email").expect("/email")
}

fn single_mode_lists_the_signed_in_user(emu: &Emulator) {
    let (a_email, a_uuid) = admin_user(emu, "Single A");
    let (_, b_uuid) = admin_user(emu, "Single B");
    let client = emu.client_at(&scratch_dir());
    let none = client.accounts().unwrap();
    assert!(none.accounts.is_empty() && none.active.is_none(), "{:?}", none.raw());
    client.sign_in(&a_email, PASSWORD).unwrap();
    let listed = uuids(&client);
    assert_eq!(listed.len(), 1);
    assert_eq!(listed.get(&a_uuid), Some(&true));
    assert_eq!(client.switch_account(&b_uuid).unwrap_err().status(), Status::NotFound);
}

fn two_users_switch_and_one_is_removed(emu: &Emulator) {
    let (a_email, a_uuid) = admin_user(emu, "Multi A");
    let (b_email, b_uuid) = admin_user(emu, "Multi B");
    let client = multi_client(emu);
    let (tx, rx) = mpsc::channel::<String>();
    let tx = Mutex::new(tx);
    client
        .set_event_callback(Some(Box::new(move |event| {
            if event.event == EventEvent::AccountSwitched {
                let _ = tx.lock().unwrap().send(event.uuid.clone().unwrap_or_default());
            }
        })))
        .unwrap();
    client.sign_in(&a_email, PASSWORD).unwrap();
    client.sign_in(&b_email, PASSWORD).unwrap();

    let listed = client.accounts().unwrap();
    assert_eq!(listed.accounts.len(), 2);
    assert_eq!(listed.active.as_deref(), Some(b_uuid.as_str()), "the last sign-in is active");
    assert_eq!(listed.accounts[0].uuid, b_uuid, "the active one first");
    let a = listed.accounts.iter().find(|x| x.uuid == a_uuid).expect("A is listed");
    assert_eq!(a.email.as_deref(), Some(a_email.as_str()));
    assert_eq!(a.display_name.as_deref(), Some("Multi A"));
    assert!(a.signed_in && !a.active && !a.reauthentication_required);
    assert!(a.last_used.is_some());

    emu.admin("DELETE", "/emulator/counters", None);
    client.switch_account(&a_uuid).unwrap();
    assert!(client.is_signed_in());
    assert_eq!(client.state().unwrap().uuid.as_deref(), Some(a_uuid.as_str()));
    assert_eq!(record_email(&client).as_deref(), Some(a_email.as_str()));
    client.switch_account_async(&b_uuid).unwrap().wait().unwrap();
    assert_eq!(client.state().unwrap().uuid.as_deref(), Some(b_uuid.as_str()));
    assert_eq!(record_email(&client).as_deref(), Some(b_email.as_str()));
    client.switch_account(&a_uuid).unwrap();
    assert_eq!(record_email(&client).as_deref(), Some(a_email.as_str()));
    let counters = emu.admin("GET", "/emulator/counters", None);
    let sign_ins = counters.get("counters").and_then(|c| c.get(&format!("POST {}", SIGN_IN_PATH))).and_then(|v| v.as_i64());
    assert!(counters.get("counters").is_some(), "counters answer: {:?}", counters);
    assert_eq!(sign_ins.unwrap_or(0), 0, "no password, no sign-in request");
    // B's sign-in made B active (an event too); the last three are the switches
    let expected = vec![a_uuid.clone(), b_uuid.clone(), a_uuid.clone()];
    let mut switched: Vec<String> = Vec::new();
    while switched.len() < 3 || switched[switched.len() - 3..] != expected[..] {
        match rx.recv_timeout(Duration::from_secs(5)) {
            Ok(uuid) => switched.push(uuid),
            Err(_) => panic!("account_switched events: {:?}, expected to end with {:?}", switched, expected),
        }
    }

    client.remove_account(&b_uuid).unwrap();
    let left = uuids(&client);
    assert_eq!(left.len(), 1);
    assert_eq!(left.get(&a_uuid), Some(&true));
    assert!(client.is_signed_in(), "A stays signed in");
    client.record().unwrap().set_string("/aboutMe", Some("still usable")).unwrap();
    client.sync().unwrap();
    let stored = emu.admin("GET", &format!("/emulator/users/{}", a_uuid), None);
    assert_eq!(stored.get("user").and_then(|u| u.str_of("aboutMe")).as_deref(), Some("still usable"));

    assert_eq!(client.switch_account(&b_uuid).unwrap_err().status(), Status::NotFound);
    let pending = client.switch_account_async("no-such-uuid").unwrap();
    assert_eq!(pending.wait().unwrap_err().status(), Status::NotFound);
    assert_eq!(client.remove_account("no-such-uuid").unwrap_err().status(), Status::NotFound);
    assert_eq!(client.state().unwrap().uuid.as_deref(), Some(a_uuid.as_str()), "a refused switch changes nothing");
    client.set_event_callback(None).unwrap();
}

fn removing_the_active_one_signs_no_one_else_in(emu: &Emulator) {
    let (a_email, a_uuid) = admin_user(emu, "Active A");
    let (b_email, b_uuid) = admin_user(emu, "Active B");
    let client = multi_client(emu);
    client.sign_in(&a_email, PASSWORD).unwrap();
    client.sign_in(&b_email, PASSWORD).unwrap();
    client.remove_account(&b_uuid).unwrap();
    assert!(!client.is_signed_in(), "no user active");
    assert_eq!(client.accounts().unwrap().active, None);
    let left = uuids(&client);
    assert_eq!(left.len(), 1);
    assert_eq!(left.get(&a_uuid), Some(&false));
    client.switch_account(&a_uuid).unwrap();
    assert!(client.is_signed_in());
    assert_eq!(client.state().unwrap().uuid.as_deref(), Some(a_uuid.as_str()));
}
