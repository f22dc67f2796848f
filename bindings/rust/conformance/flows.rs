//! The scenarios of issue 41 (Tests/conformance/README.md, loopback_social_sign_in ... api_key_mode): the
//! loopback social sign-in with a browser played over HTTP, host storage, the order of events, the merge flow
//! and API-key mode.
use std::collections::HashMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use jump::json::Value;
use jump::{Client, Status, Storage};

use super::{b, http_util, n, obj, record_email, s, status_of, Context, Outcome};

/// The browser of the loopback sign-in: the provider's start page, its form posted to .../callback (the
/// start URL's query kept) with the identity, then the provider's redirect to the listener; that landing
/// page's HTTP status.
fn browse(url: &str, identity: &Value) -> Result<u16, String> {
    let page = http_util::call("GET", url, &[], None)?;
    if page.status != 200 {
        return Err(format!("the provider's start page answered {}", page.status));
    }
    let (path, query) = match url.find('?') {
        Some(i) => (&url[..i], &url[i..]),
        None => (url, ""),
    };
    let callback = format!("{}{}", path.strip_suffix("/start").map_or(path.to_owned(), |p| format!("{}/callback", p)), query);
    let fields: Vec<(String, String)> = match identity {
        Value::Object(members) => members.iter().map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_owned())).collect(),
        _ => Vec::new(),
    };
    let form = http_util::form_encode(&fields);
    let answer = http_util::call("POST", &callback, &[], Some(("application/x-www-form-urlencoded", form.as_bytes())))?;
    match answer.header("location") {
        Some(location) if (300..400).contains(&answer.status) => {
            Ok(http_util::call("GET", &http_util::resolve(&callback, location), &[], None)?.status)
        }
        _ => Err(format!("the provider answered {} without a redirect", answer.status)),
    }
}

pub(crate) fn loopback_social_sign_in(cx: &Context, out: &mut Outcome) -> Result<(), String> {
    let client = cx.client().map_err(|e| e.to_string())?;
    let identity = cx.input("identity");
    let timeout = Duration::from_millis(cx.input("timeout_ms").as_i64().unwrap_or(30000) as u64);
    let (tx, rx) = mpsc::channel::<Option<u16>>();
    let result = client.social_sign_in_loopback(&cx.text("provider"), None, |url| {
        // hands the URL to the "browser" (a thread) and returns
        let (url, identity, tx) = (url.to_owned(), identity.clone(), tx.clone());
        std::thread::spawn(move || {
            let landed = browse(&url, &identity).map_err(|e| eprintln!("browser: {}", e)).ok();
            let _ = tx.send(landed);
        });
        Ok(())
    }, Some(timeout));
    let landing = rx.recv_timeout(Duration::from_secs(10)).ok().flatten();
    let r = result.as_ref().ok();
    out.push(("status".into(), status_of(&result)));
    out.push(("signed_in".into(), b(client.is_signed_in())));
    out.push(("is_new".into(), r.and_then(|v| v.is_new).map_or(Value::Null, b)));
    out.push(("provider".into(), r.map_or(Value::Null, |v| s(&v.provider))));
    out.push(("landing_status".into(), landing.map_or(Value::Null, |st| n(st as i64))));
    Ok(())
}

/// Host storage in a map shared by its clones, counting saves.
#[derive(Clone, Default)]
struct MapStorage {
    entries: Arc<Mutex<HashMap<String, Vec<u8>>>>,
    saves: Arc<AtomicUsize>,
}

impl Storage for MapStorage {
    fn load(&self, key: &str) -> Result<Option<Vec<u8>>, Status> {
        Ok(self.entries.lock().unwrap_or_else(|e| e.into_inner()).get(key).cloned())
    }
    fn save(&self, key: &str, data: &[u8]) -> Result<(), Status> {
        self.saves.fetch_add(1, Ordering::SeqCst);
        self.entries.lock().unwrap_or_else(|e| e.into_inner()).insert(key.to_owned(), data.to_vec());
        Ok(())
    }
    fn erase(&self, key: &str) -> Result<(), Status> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner()).remove(key);
        Ok(())
    }
}

pub(crate) fn host_storage(cx: &Context, out: &mut Outcome) -> Result<(), String> {
    let store = MapStorage::default();
    let hosted = || -> jump::Result<Client> {
        let mut config = cx.config()?;
        config.set_storage(Some(Box::new(store.clone())))?;
        Client::new(&config)
    };
    let first = hosted().map_err(|e| e.to_string())?;
    let registered = cx.register(&first);
    out.push(("register".into(), obj(&[("status", status_of(&registered))])));
    drop(first);
    let saved = store.saves.load(Ordering::SeqCst) >= 1 && !store.entries.lock().unwrap_or_else(|e| e.into_inner()).is_empty();
    out.push(("saved_entries".into(), b(saved)));
    let second = hosted().map_err(|e| e.to_string())?;
    let restored = second.restore();
    out.push(("restored".into(), obj(&[("status", status_of(&restored)), ("signed_in", b(second.is_signed_in())), ("record_email", record_email(&second))])));
    Ok(())
}

pub(crate) fn event_order(cx: &Context, out: &mut Outcome) -> Result<(), String> {
    let client = cx.client().map_err(|e| e.to_string())?;
    let events = Arc::new(Mutex::new(Vec::<String>::new()));
    let seen = events.clone();
    client
        .set_event_callback(Some(Box::new(move |event| {
            seen.lock().unwrap_or_else(|e| e.into_inner()).push(event.event.as_str().to_owned());
        })))
        .map_err(|e| e.to_string())?;
    let registered = cx.register(&client);
    out.push(("register".into(), obj(&[("status", status_of(&registered))])));
    let edit = cx.input("edit");
    let record = client.record().map_err(|e| e.to_string())?;
    record.set_string(&edit.str_of("path").unwrap_or_default(), Some(&edit.str_of("value").unwrap_or_default())).map_err(|e| e.to_string())?;
    drop(record);
    let synced = client.sync();
    out.push(("sync".into(), obj(&[("status", status_of(&synced))])));
    let signed_out = client.sign_out();
    out.push(("sign_out".into(), obj(&[("status", status_of(&signed_out))])));
    // events arrive on libjump's callback thread
    let last = cx.text("last_event");
    let wait = Duration::from_millis(cx.input("wait_ms").as_i64().unwrap_or(5000) as u64);
    let start = Instant::now();
    while !events.lock().unwrap_or_else(|e| e.into_inner()).contains(&last) && start.elapsed() < wait {
        std::thread::sleep(Duration::from_millis(10));
    }
    std::thread::sleep(Duration::from_millis(cx.input("settle_ms").as_i64().unwrap_or(300) as u64));
    let names = events.lock().unwrap_or_else(|e| e.into_inner()).iter().map(|e| s(e)).collect();
    out.push(("events".into(), Value::Array(names)));
    Ok(())
}

pub(crate) fn merge_flow(cx: &Context, out: &mut Outcome) -> Result<(), String> {
    let stage = cx.admin("stage")?;
    let account = stage.at(&["user", "uuid"]).and_then(Value::as_str).ok_or("no user.uuid")?.to_owned();
    let token = stage.at(&["conflicting_identity", "token"]).and_then(Value::as_str).ok_or("no conflicting_identity.token")?.to_owned();
    let client = cx.client().map_err(|e| e.to_string())?;
    let social = client.social_sign_in_native(&cx.text("provider"), &token, None, None);
    let merge_token = social.as_ref().err().and_then(|e| e.details()).and_then(|d| d.merge_token);
    out.push(("social".into(), obj(&[("status", status_of(&social)), ("has_merge_token", b(merge_token.as_deref().map_or(false, |t| !t.is_empty()))),
        ("signed_in", b(client.is_signed_in()))])));
    let merged = client.sign_in_merge(&cx.text("login"), &cx.text("password"), merge_token.as_deref().unwrap_or(""));
    let m = merged.as_ref().ok();
    out.push(("merge".into(), obj(&[("status", status_of(&merged)), ("signed_in", b(client.is_signed_in())),
        ("same_uuid_as_password_account", b(m.map_or(false, |v| v.uuid == account))), ("merged", m.and_then(|v| v.merged).map_or(Value::Null, b))])));
    Ok(())
}

pub(crate) fn api_key_mode(cx: &mut Context, out: &mut Outcome) -> Result<(), String> {
    let key = cx.admin("create_team")?.as_str().ok_or("no api_key")?.to_owned();
    cx.api_key = Some(key.clone());
    let user = cx.admin("create_user")?.as_str().ok_or("no user_id")?.to_owned();
    cx.user_id = Some(user.clone());
    let client = cx.client().map_err(|e| e.to_string())?;
    let used = client.use_api_key(&key, Some(&user), &cx.text("environment"), &cx.text("region"));
    out.push(("use_api_key".into(), obj(&[("status", status_of(&used))])));
    let st = client.status().map_err(|e| e.to_string())?;
    out.push(("status".into(), obj(&[("use_api_key", b(st.use_api_key)), ("use_sign_in_token", b(st.use_sign_in_token)), ("signed_in", b(st.signed_in)),
        ("user_id_matches", b(st.user_id.as_deref() == Some(user.as_str())))])));
    let answer = client.request("GET", &cx.text("user_path"), None, None);
    out.push(("request".into(), obj(&[("status", status_of(&answer)), ("http_status", answer.as_ref().ok().map_or(Value::Null, |v| n(v.status)))])));
    let signed_out = client.sign_out();
    let st = client.status().map_err(|e| e.to_string())?;
    out.push(("sign_out".into(), obj(&[("status", status_of(&signed_out)), ("use_api_key", b(st.use_api_key)), ("signed_in", b(st.signed_in))])));
    Ok(())
}
