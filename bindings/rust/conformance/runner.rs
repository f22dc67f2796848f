//! The Rust runner of the conformance suite (Tests/conformance/README.md is its contract): plays ONE
//! scenario of scenarios.json with the safe `jump` API and prints its outcome as one JSON line; run.py
//! judges it. Usage (run.py adds the name): conformance_runner SCENARIO
#[path = "../../../examples/rust/http_util.rs"]
mod http_util;
mod flows;

use std::time::{Duration, Instant};

use jump::json::{self, Value};
use jump::{Client, Config, Status};

type Outcome = Vec<(String, Value)>;

fn b(v: bool) -> Value {
    Value::Bool(v)
}
fn s(v: &str) -> Value {
    Value::String(v.to_owned())
}
fn n(v: i64) -> Value {
    Value::Number(v.to_string())
}
fn obj(members: &[(&str, Value)]) -> Value {
    Value::Object(members.iter().map(|(k, v)| (k.to_string(), v.clone())).collect())
}
/// "JUMP_OK", or the status name the binding's error reports.
fn status_of<T>(r: &jump::Result<T>) -> Value {
    s(match r {
        Ok(_) => "JUMP_OK",
        Err(e) => e.status().name(),
    })
}

struct Context {
    url: String,
    storage: String,
    user_id: Option<String>,
    api_key: Option<String>,
    input: Value,
    configs: Value,
}

impl Context {
    fn replace(&self, v: &Value) -> Value {
        match v {
            Value::String(text) => {
                let mut t = text.replace("${EMULATOR_URL}", &self.url).replace("${STORAGE_DIR}", &self.storage);
                if let Some(id) = &self.user_id {
                    t = t.replace("${USER_ID}", id);
                }
                if let Some(key) = &self.api_key {
                    t = t.replace("${API_KEY}", key);
                }
                Value::String(t)
            }
            Value::Array(items) => Value::Array(items.iter().map(|i| self.replace(i)).collect()),
            Value::Object(members) => Value::Object(members.iter().map(|(k, v)| (k.clone(), self.replace(v))).collect()),
            other => other.clone(),
        }
    }

    fn input(&self, key: &str) -> Value {
        self.replace(self.input.get(key).unwrap_or(&Value::Null))
    }

    fn text(&self, key: &str) -> String {
        self.input(key).as_str().unwrap_or_default().to_owned()
    }

    fn client(&self) -> jump::Result<Client> {
        Client::new(&self.config()?)
    }

    /// configs[input.config], placeholders replaced.
    fn config(&self) -> jump::Result<Config> {
        let name = self.text("config");
        let config = self.replace(self.configs.get(&name).unwrap_or(&Value::Null));
        Config::from_json(&config.to_string())
    }

    /// An admin request of the input ({"method","path","headers"?,"body"?,"result"?}): the answer's JSON,
    /// or its "result" member.
    fn admin(&self, key: &str) -> Result<Value, String> {
        self.send(&self.input(key))
    }

    /// Sends an admin request ({"method","path","headers"?,"body"?,"result"?}, placeholders replaced).
    fn send(&self, request: &Value) -> Result<Value, String> {
        let method = request.str_of("method").unwrap_or_else(|| "GET".into());
        let path = request.str_of("path").unwrap_or_default();
        let mut headers: Vec<(String, String)> = Vec::new();
        if let Some(Value::Object(h)) = request.get("headers") {
            for (k, v) in h {
                if !k.eq_ignore_ascii_case("content-type") {
                    headers.push((k.clone(), v.as_str().unwrap_or_default().to_owned()));
                }
            }
        }
        let body = request.get("body").map(|b| b.to_string());
        let header_refs: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        let answer = http_util::call(&method, &format!("{}{}", self.url, path), &header_refs, body.as_deref().map(|b| ("application/json", b.as_bytes())))?;
        if !(200..300).contains(&answer.status) {
            return Err(format!("{} {}: HTTP {}", method, path, answer.status));
        }
        let doc = if answer.body.trim().is_empty() { Value::Null } else { json::parse(&answer.body).ok_or("not JSON")? };
        Ok(match request.str_of("result") {
            Some(member) => doc.get(&member).cloned().unwrap_or(Value::Null),
            None => doc,
        })
    }

    /// The emulator's count of the requests the input's `name_key` names (the admin request "counters").
    fn counter(&self, name_key: &str) -> Result<i64, String> {
        let counters = self.admin("counters")?;
        Ok(counters.get("counters").and_then(|m| m.get(&self.text(name_key))).and_then(Value::as_i64).unwrap_or(0))
    }

    fn register(&self, client: &Client) -> jump::Result<jump::SignInResult> {
        client.register_traditional(&self.input("user").to_string(), &self.text("password"))
    }
}

fn record_email(client: &Client) -> Value {
    client.record().and_then(|r| r.get_string("/email")).ok().flatten().map_or(Value::Null, Value::String)
}

fn register_sign_in_bad_password(cx: &Context, out: &mut Outcome) -> Result<(), String> {
    let a = cx.client().map_err(|e| e.to_string())?;
    let reg = cx.register(&a);
    let u = reg.as_ref().ok().map(|r| r.uuid.clone());
    out.push(("register".into(), obj(&[("status", status_of(&reg)), ("is_new", reg.as_ref().ok().map_or(Value::Null, |r| b(r.is_new))), ("signed_in", b(a.is_signed_in()))])));
    let so = a.sign_out();
    out.push(("sign_out".into(), obj(&[("status", status_of(&so)), ("signed_in", b(a.is_signed_in()))])));
    let user = cx.input("user").str_of(&cx.text("sign_in_with")).unwrap_or_default();
    let si = a.sign_in(&user, &cx.text("password"));
    let same = si.as_ref().ok().map(|r| r.uuid.clone()).is_some() && si.as_ref().ok().map(|r| r.uuid.clone()) == u;
    out.push(("sign_in".into(), obj(&[("status", status_of(&si)), ("is_new", si.as_ref().ok().map_or(Value::Null, |r| b(r.is_new))), ("same_uuid", b(same)), ("signed_in", b(a.is_signed_in()))])));
    out.push(("record_email".into(), record_email(&a)));
    let wrong = a.sign_in(&user, &cx.text("wrong_password"));
    out.push(("wrong_password".into(), obj(&[("status", status_of(&wrong)), ("signed_in", b(a.is_signed_in()))])));
    Ok(())
}

fn changed_of(r: &jump::Result<jump::SyncResult>) -> Value {
    Value::Array(r.as_ref().map(|v| v.changed.iter().map(|p| s(p)).collect()).unwrap_or_default())
}

fn edit_sync_plural_append(cx: &Context, out: &mut Outcome) -> Result<(), String> {
    let c = cx.client().map_err(|e| e.to_string())?;
    cx.register(&c).map_err(|e| e.to_string())?;
    let record = c.record().map_err(|e| e.to_string())?;
    let edit = cx.input("edit");
    let (path, value) = (edit.str_of("path").unwrap_or_default(), edit.str_of("value").unwrap_or_default());
    record.set_string(&path, Some(&value)).map_err(|e| e.to_string())?;
    let synced = c.sync();
    out.push(("sync_edit".into(), obj(&[("status", status_of(&synced)), ("changed", changed_of(&synced))])));
    let append = cx.input("append");
    let plural = append.str_of("plural").unwrap_or_default();
    let element = append.get("element").cloned().unwrap_or(Value::Null).to_string();
    let appended = record.append(&plural, &element).map_err(|e| e.to_string())?;
    out.push(("append_path".into(), s(&appended)));
    let synced = c.sync();
    let pairs: Vec<(String, String)> = synced.as_ref().map(|v| v.renamed.clone().into_iter().collect()).unwrap_or_default();
    let mut from: Vec<String> = pairs.iter().map(|(k, _)| k.clone()).collect();
    from.sort();
    let server_ids = pairs.iter().all(|(_, v)| {
        v.strip_prefix(&format!("{}#", plural)).and_then(|id| id.parse::<i64>().ok()).map_or(false, |id| id > 0)
    });
    out.push(("sync_append".into(), obj(&[("status", status_of(&synced)), ("changed", changed_of(&synced)),
        ("renamed_from", Value::Array(from.iter().map(|k| s(k)).collect())), ("renamed_to_server_id", b(server_ids))])));
    let fetched = c.fetch_record();
    out.push(("fetch".into(), obj(&[("status", status_of(&fetched))])));
    out.push(("edited_value".into(), record.get_string(&path).ok().flatten().map_or(Value::Null, Value::String)));
    out.push(("plural_count".into(), n(record.element_count(&plural).map_err(|e| e.to_string())? as i64)));
    let paths = record.element_paths(&plural).map_err(|e| e.to_string())?;
    let member = append.str_of("member").unwrap_or_default();
    let members = paths.iter().map(|p| record.get_string(&format!("{}/{}", p, member)).ok().flatten().map_or(Value::Null, Value::String)).collect();
    out.push(("plural_members".into(), Value::Array(members)));
    let renamed_to: Vec<String> = pairs.iter().map(|(_, v)| v.clone()).collect();
    out.push(("element_paths_are_renamed".into(), b(paths == renamed_to)));
    let state = c.state().map_err(|e| e.to_string())?;
    out.push(("unsynced_changes".into(), b(state.unsynced_changes)));
    Ok(())
}

fn refresh_after_clock_moves(cx: &Context, out: &mut Outcome) -> Result<(), String> {
    let c = cx.client().map_err(|e| e.to_string())?;
    cx.register(&c).map_err(|e| e.to_string())?;
    cx.admin("clear_counters")?;
    cx.admin("advance_clock")?;
    let fetched = c.fetch_record();
    out.push(("fetch".into(), obj(&[("status", status_of(&fetched))])));
    let refreshes = cx.counter("refresh_counter")?;
    out.push(("refresh_requests".into(), n(refreshes)));
    out.push(("signed_in".into(), b(c.is_signed_in())));
    out.push(("record_email".into(), record_email(&c)));
    Ok(())
}

fn passing_server_error(cx: &Context, out: &mut Outcome) -> Result<(), String> {
    let c = cx.client().map_err(|e| e.to_string())?;
    cx.register(&c).map_err(|e| e.to_string())?;
    cx.admin("clear_counters")?;
    cx.admin("fault_once")?;
    let passing = c.fetch_record();
    out.push(("passing".into(), obj(&[("status", status_of(&passing))])));
    out.push(("entity_requests_passing".into(), n(cx.counter("entity_counter")?)));
    cx.admin("fault_lasting")?;
    let lasting = c.fetch_record();
    out.push(("lasting".into(), obj(&[("status", status_of(&lasting))])));
    out.push(("entity_requests".into(), n(cx.counter("entity_counter")?)));
    out.push(("signed_in".into(), b(c.is_signed_in())));
    Ok(())
}

fn sign_out_restart(cx: &Context, out: &mut Outcome) -> Result<(), String> {
    let a = cx.client().map_err(|e| e.to_string())?;
    let reg = cx.register(&a);
    let u = reg.as_ref().ok().map(|r| r.uuid.clone());
    out.push(("first".into(), obj(&[("status", status_of(&reg)), ("signed_in", b(a.is_signed_in()))])));
    drop(a);
    let restored = cx.client().map_err(|e| e.to_string())?;
    let uuid = restored.state().ok().and_then(|st| st.uuid);
    out.push(("restored".into(), obj(&[("signed_in", b(restored.is_signed_in())), ("same_uuid", b(uuid.is_some() && uuid == u)), ("record_email", record_email(&restored))])));
    let so = restored.sign_out();
    out.push(("sign_out".into(), obj(&[("status", status_of(&so)), ("signed_in", b(restored.is_signed_in()))])));
    drop(restored);
    let third = cx.client().map_err(|e| e.to_string())?;
    out.push(("after_sign_out".into(), obj(&[("signed_in", b(third.is_signed_in()))])));
    Ok(())
}

fn token_signed_in(c: &Client) -> Value {
    c.status().ok().map_or(Value::Null, |st| b(st.signed_in))
}

fn sign_in_token_session(cx: &mut Context, out: &mut Outcome) -> Result<(), String> {
    let user = cx.admin("create_user")?.as_str().ok_or("no user_id")?.to_owned();
    cx.user_id = Some(user.clone());
    let token = cx.admin("mint")?.as_str().ok_or("no sign_in_token")?.to_owned();
    let decoded = jump::decode_sign_in_token(&token);
    let d = decoded.as_ref().ok();
    out.push(("decode".into(), obj(&[("status", status_of(&decoded)), ("user_id_matches", b(d.map(|v| v.user_id.as_str()) == Some(user.as_str()))),
        ("environment", d.map_or(Value::Null, |v| s(v.environment.as_str()))), ("region", d.map_or(Value::Null, |v| s(v.region.as_str())))])));
    let c = cx.client().map_err(|e| e.to_string())?;
    out.push(("before".into(), obj(&[("signed_in", token_signed_in(&c))])));
    let si = c.sign_in_with_token(&token);
    let r = si.as_ref().ok();
    out.push(("sign_in".into(), obj(&[("status", status_of(&si)), ("user_id_matches", b(r.map(|v| v.user_id.as_str()) == Some(user.as_str()))),
        ("changed", r.map_or(Value::Null, |v| b(v.changed))), ("migrated", r.map_or(Value::Null, |v| b(v.migrated)))])));
    let st = c.status().map_err(|e| e.to_string())?;
    out.push(("status".into(), obj(&[("signed_in", b(st.signed_in)), ("use_sign_in_token", b(st.use_sign_in_token)), ("use_api_key", b(st.use_api_key)),
        ("user_id_matches", b(st.user_id.as_deref() == Some(user.as_str())))])));
    let path = cx.text("profile_path");
    let put = c.request("PUT", &path, Some("{\"Content-Type\":\"application/json\"}"), Some(cx.input("profile").to_string().as_bytes()));
    let http = |r: &jump::Result<jump::HttpResponse>| r.as_ref().ok().map_or(Value::Null, |v| n(v.status));
    out.push(("put".into(), obj(&[("status", status_of(&put)), ("http_status", http(&put))])));
    let got = c.request("GET", &path, None, None);
    let data = got.as_ref().ok().and_then(|v| v.body.as_deref()).and_then(json::parse).and_then(|v| v.get("data").cloned()).unwrap_or(Value::Null);
    out.push(("get".into(), obj(&[("status", status_of(&got)), ("http_status", http(&got)), ("data", data)])));
    let token2 = cx.admin("mint")?.as_str().ok_or("no sign_in_token")?.to_owned();
    let again = c.sign_in_with_token(&token2);
    out.push(("sign_in_again".into(), obj(&[("status", status_of(&again)), ("changed", again.as_ref().ok().map_or(Value::Null, |v| b(v.changed)))])));
    let so = c.sign_out();
    out.push(("sign_out".into(), obj(&[("status", status_of(&so))])));
    out.push(("after_sign_out".into(), obj(&[("signed_in", token_signed_in(&c))])));
    Ok(())
}

fn cancel_async(cx: &Context, out: &mut Outcome) -> Result<(), String> {
    let c = cx.client().map_err(|e| e.to_string())?;
    cx.register(&c).map_err(|e| e.to_string())?;
    cx.admin("clear_counters")?;
    cx.admin("delay")?;
    let completions = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let pending = c.fetch_record_async().map_err(|e| e.to_string())?;
    let count = completions.clone();
    pending.on_complete(move |_| {
        count.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    });
    let limit = Duration::from_millis(cx.input("reach_timeout_ms").as_i64().unwrap_or(10000) as u64);
    let start = Instant::now();
    while cx.counter("reached_counter")? < 1 {
        if start.elapsed() > limit {
            return Err("the request never reached the emulator".into());
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    out.push(("pending_before_cancel".into(), b(pending.try_result().is_none())));
    pending.cancel().map_err(|e| e.to_string())?;
    let cancelled_at = Instant::now();
    let result = pending.wait_timeout(Some(Duration::from_secs(10))).ok_or("no completion within 10 s")?;
    let took = cancelled_at.elapsed();
    out.push(("status".into(), status_of(&result)));
    let deadline = cx.input("cancel_deadline_ms").as_i64().unwrap_or(2000) as u128;
    out.push(("within_deadline".into(), b(took.as_millis() < deadline)));
    std::thread::sleep(Duration::from_millis(cx.input("settle_ms").as_i64().unwrap_or(500) as u64));
    out.push(("completions".into(), n(completions.load(std::sync::atomic::Ordering::SeqCst) as i64)));
    out.push(("signed_in".into(), b(c.is_signed_in())));
    Ok(())
}

fn status_errors(cx: &Context, out: &mut Outcome) -> Result<(), String> {
    // The binding's own mapping from a code: Status::from_code, the table an Error's status() uses.
    let names = cx.input("statuses").as_array().unwrap_or(&[]).iter()
        .map(|st| st.get("code").and_then(Value::as_i64).and_then(|code| Status::from_code(code as i32)).map_or(Value::Null, |s| Value::String(s.name().into())))
        .collect();
    out.push(("names".into(), Value::Array(names)));
    Ok(())
}

/// count, active_email (null when no account is active) and emails (sorted) of a list of saved accounts.
fn account_facts(saved: &jump::SavedAccounts) -> (Value, Value, Value) {
    let active = saved.accounts.iter().find(|a| Some(&a.uuid) == saved.active.as_ref());
    let email = |e: &Option<String>| e.clone().map_or(Value::Null, Value::String);
    let mut emails: Vec<Option<String>> = saved.accounts.iter().map(|a| a.email.clone()).collect();
    emails.sort();
    (n(saved.accounts.len() as i64), active.map_or(Value::Null, |a| email(&a.email)), Value::Array(emails.iter().map(email).collect()))
}

fn several_accounts(cx: &Context, out: &mut Outcome) -> Result<(), String> {
    let users = cx.input("users");
    let users = users.as_array().unwrap_or(&[]);
    let (ann, bob) = match users {
        [ann, bob, ..] => (ann.str_of("email").unwrap_or_default(), bob.str_of("email").unwrap_or_default()),
        _ => return Err("input.users needs two users".into()),
    };
    let password = cx.text("password");
    let client = cx.client().map_err(|e| e.to_string())?;
    // each registration signs its user in (a second account with "multiple")
    for user in users {
        client.register_traditional(&user.to_string(), &password).map_err(|e| format!("registering a user: {}", e.status().name()))?;
    }
    for email in [&ann, &bob] {
        client.sign_in(email, &password).map_err(|e| e.to_string())?;
    }
    let saved = client.accounts().map_err(|e| e.to_string())?;
    let (count, active_email, emails) = account_facts(&saved);
    out.push(("after_two_sign_ins".into(), obj(&[("count", count), ("active_email", active_email), ("emails", emails)])));
    let uuid_of = |email: &str| saved.accounts.iter().find(|a| a.email.as_deref() == Some(email)).map(|a| a.uuid.clone()).unwrap_or_default();
    let switched = client.switch_account(&uuid_of(&ann));
    out.push(("switch".into(), obj(&[("status", status_of(&switched)), ("record_email", record_email(&client))])));
    let removed = client.remove_account(&uuid_of(&bob));
    let (count, active_email, _) = account_facts(&client.accounts().map_err(|e| e.to_string())?);
    out.push(("remove".into(), obj(&[("status", status_of(&removed)), ("count", count), ("signed_in", b(client.is_signed_in())), ("active_email", active_email)])));
    let again = client.switch_account(&uuid_of(&bob));
    out.push(("switch_removed".into(), obj(&[("status", status_of(&again))])));
    Ok(())
}

fn main() {
    let name = std::env::args().next_back().unwrap_or_default();
    let line = match play(&name) {
        Ok(outcome) => obj(&[("scenario", s(&name)), ("outcome", Value::Object(outcome))]),
        Err(e) => obj(&[("scenario", s(&name)), ("error", s(&e))]),
    };
    println!("{}", line);
}

fn play(name: &str) -> Result<Outcome, String> {
    let env = |k: &str| std::env::var(k).map_err(|_| format!("{} is not set", k));
    let text = std::fs::read_to_string(env("JUMP_CONFORMANCE_SCENARIOS")?).map_err(|e| e.to_string())?;
    let doc = json::parse(&text).ok_or("scenarios.json is not JSON")?;
    let scenario = doc.get("scenarios").and_then(Value::as_array).unwrap_or(&[]).iter()
        .find(|sc| sc.str_of("name").as_deref() == Some(name)).ok_or_else(|| format!("no scenario {}", name))?;
    let mut cx = Context {
        url: env("JUMP_EMULATOR_URL")?,
        storage: format!("{}/storage", env("JUMP_CONFORMANCE_TMP")?),
        user_id: None,
        api_key: None,
        input: scenario.get("input").cloned().unwrap_or(Value::Null),
        configs: doc.get("configs").cloned().unwrap_or(Value::Null),
    };
    let mut out = Outcome::new();
    if cx.input.get("steps").is_some() {
        play_steps(&cx, &mut out)?;
        return Ok(out);
    }
    match name {
        "register_sign_in_bad_password" => register_sign_in_bad_password(&cx, &mut out)?,
        "edit_sync_plural_append" => edit_sync_plural_append(&cx, &mut out)?,
        "refresh_after_clock_moves" => refresh_after_clock_moves(&cx, &mut out)?,
        "passing_server_error" => passing_server_error(&cx, &mut out)?,
        "sign_out_restart" => sign_out_restart(&cx, &mut out)?,
        "sign_in_token_session" => sign_in_token_session(&mut cx, &mut out)?,
        "cancel_async" => cancel_async(&cx, &mut out)?,
        "status_errors" => status_errors(&cx, &mut out)?,
        "several_accounts" => several_accounts(&cx, &mut out)?,
        "loopback_social_sign_in" => flows::loopback_social_sign_in(&cx, &mut out)?,
        "host_storage" => flows::host_storage(&cx, &mut out)?,
        "event_order" => flows::event_order(&cx, &mut out)?,
        "merge_flow" => flows::merge_flow(&cx, &mut out)?,
        "api_key_mode" => flows::api_key_mode(&mut cx, &mut out)?,
        other => return Err(format!("this runner does not know the scenario {}", other)),
    }
    Ok(out)
}

// The generic steps (Tests/conformance/README.md, "Step scenarios"): a scenario whose input has "steps" is
// played step by step, each step one call of the safe API.

/// {"status", the detail facts the step asks for} of a call's result.
fn step_status<T>(step: &Value, r: &jump::Result<T>) -> Vec<(String, Value)> {
    let null = Value::Null;
    let detail = match r {
        Ok(_) => &null,
        Err(e) => e.detail(),
    };
    let mut fact = vec![("status".to_string(), status_of(r))];
    if let Some(names) = step.get("detail").and_then(Value::as_array) {
        let picked = names.iter().map(|k| {
            let key = k.as_str().unwrap_or_default().to_owned();
            let v = detail.get(&key).cloned().unwrap_or(Value::Null);
            (key, v)
        }).collect();
        fact.push(("detail".into(), Value::Object(picked)));
    }
    if let Some(member) = step.str_of("detail_keys") {
        let keys = match detail.get(&member) {
            Some(Value::Object(m)) => {
                let mut k: Vec<String> = m.iter().map(|(k, _)| k.clone()).collect();
                k.sort();
                Value::Array(k.iter().map(|k| s(k)).collect())
            }
            _ => Value::Null,
        };
        fact.push(("detail_keys".into(), keys));
    }
    if let Some(member) = step.str_of("detail_paths") {
        let paths = match detail.get(&member) {
            Some(Value::Array(l)) => Value::Array(l.iter().map(|e| e.get("path").cloned().unwrap_or(Value::Null)).collect()),
            _ => Value::Null,
        };
        fact.push(("detail_paths".into(), paths));
    }
    fact
}

fn play_steps(cx: &Context, out: &mut Outcome) -> Result<(), String> {
    let mut clients: Vec<(String, Client)> = Vec::new();
    let steps = cx.input.get("steps").and_then(Value::as_array).unwrap_or(&[]).to_vec();
    for raw in &steps {
        let step = cx.replace(raw);
        let text = |k: &str| step.str_of(k).unwrap_or_default();
        let name = text("client");
        let do_ = text("do");
        if do_ == "open" {
            let config_name = step.str_of("config").unwrap_or_else(|| cx.text("config"));
            let config = cx.replace(cx.configs.get(&config_name).unwrap_or(&Value::Null));
            let client = Client::new(&Config::from_json(&config.to_string()).map_err(|e| e.to_string())?).map_err(|e| e.to_string())?;
            clients.push((name, client));
            continue;
        }
        if do_ == "close" {
            clients.retain(|(n, _)| *n != name);
            continue;
        }
        let client = clients.iter().find(|(n, _)| *n == name).map(|(_, c)| c);
        let c = || client.ok_or_else(|| format!("no client {}", name));
        let fact: Value = match do_.as_str() {
            "register" => {
                let c = c()?;
                let r = c.register_traditional(&step.get("user").cloned().unwrap_or(Value::Null).to_string(), &text("password"));
                let mut f = step_status(&step, &r);
                f.push(("signed_in".into(), b(c.is_signed_in())));
                Value::Object(f)
            }
            "sign_in" => {
                let c = c()?;
                let r = c.sign_in(&text("login"), &text("password"));
                let mut f = step_status(&step, &r);
                f.push(("signed_in".into(), b(c.is_signed_in())));
                Value::Object(f)
            }
            "sign_out" => {
                let c = c()?;
                let r = c.sign_out();
                let mut f = step_status(&step, &r);
                f.push(("signed_in".into(), b(c.is_signed_in())));
                Value::Object(f)
            }
            "sync" => {
                let r = c()?.sync();
                let mut f = step_status(&step, &r);
                f.push(("changed".into(), r.as_ref().ok().map_or(Value::Null, |v| Value::Array(v.changed.iter().map(|p| s(p)).collect()))));
                Value::Object(f)
            }
            "fetch" => Value::Object(step_status(&step, &c()?.fetch_record())),
            "request" => {
                let headers = step.get("headers").map(|h| h.to_string());
                let body = step.str_of("body");
                let r = c()?.request(&text("method"), &text("path"), headers.as_deref(), body.as_deref().map(str::as_bytes));
                let mut f = step_status(&step, &r);
                f.push(("http_status".into(), r.as_ref().ok().map_or(Value::Null, |v| n(v.status))));
                Value::Object(f)
            }
            "set" => {
                let record = c()?.record().map_err(|e| e.to_string())?;
                record.set_string(&text("path"), Some(&text("value"))).map_err(|e| e.to_string())?;
                Value::Null
            }
            "get" => c()?.record().and_then(|r| r.get_string(&text("path"))).ok().flatten().map_or(Value::Null, Value::String),
            "signed_in" => b(c()?.is_signed_in()),
            "admin" => {
                let answer = cx.send(step.get("request").unwrap_or(&Value::Null))?;
                match step.str_of("counter") {
                    Some(counter) => n(answer.get("counters").and_then(|m| m.get(&counter)).and_then(Value::as_i64).unwrap_or(0)),
                    None => Value::Null,
                }
            }
            other => return Err(format!("unknown step {}", other)),
        };
        if let Some(key) = step.str_of("out") {
            out.push((key, fact));
        }
    }
    Ok(())
}
