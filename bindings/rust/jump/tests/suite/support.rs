//! The suite's fixtures: a real jump-emulator process (as bindings/python/tests/emulator_process.py
//! starts one: --port 0 --db :memory:, its URL on the first stdout line), its admin API, and clients.
use std::io::{BufRead, BufReader, Read};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::http_util as http;
use jump::{Client, Config, Value};

pub const PASSWORD: &str = "correct horse 1";
/// Where a traditional sign-in goes (the path a "delay" fault names).
pub const SIGN_IN_PATH: &str = "/oauth/auth_native_traditional";

pub struct Emulator {
    child: Child,
    pub url: String,
}

impl Emulator {
    pub fn start() -> Result<Emulator, String> {
        let binary = std::env::var("JUMP_EMULATOR").map_err(|_| "JUMP_EMULATOR is not set (run bindings/rust/run-tests.sh)")?;
        let mut child = Command::new(&binary)
            .args(["--port", "0", "--db", ":memory:", "--password-hash-cost", "4"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {}", binary, e))?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let mut stderr = child.stderr.take().ok_or("no stderr")?;
        // Drained for good: an emulator writing to a full pipe would block.
        std::thread::spawn(move || {
            let mut sink = Vec::new();
            let _ = stderr.read_to_end(&mut sink);
        });
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            let _ = tx.send(lines.next().and_then(|l| l.ok()));
            for _ in lines {}
        });
        match rx.recv_timeout(Duration::from_secs(30)) {
            Ok(Some(line)) if line.starts_with("http") => Ok(Emulator { child, url: line.trim().trim_end_matches('/').to_owned() }),
            other => {
                let _ = child.kill();
                Err(format!("jump-emulator did not print its URL: {:?}", other))
            }
        }
    }

    /// An admin call (/emulator/...); the answer's JSON.
    pub fn admin(&self, method: &str, path: &str, body: Option<&str>) -> Value {
        let answer = http::call(method, &format!("{}{}", self.url, path), &[], body.map(|b| ("application/json", b.as_bytes())))
            .unwrap_or_else(|e| panic!("{} {}: {}", method, path, e));
        assert!(answer.status < 300, "{} {}: HTTP {} {}", method, path, answer.status, answer.body);
        jump::json::parse(&answer.body).unwrap_or(Value::Null)
    }

    /// Holds back the next answer to `path` by `ms` (a "delay" fault).
    pub fn delay(&self, path: &str, ms: u32) {
        self.admin("POST", "/emulator/faults", Some(&format!("{{\"kind\":\"delay\",\"count\":1,\"path\":\"{}\",\"delay_ms\":{}}}", path, ms)));
    }

    pub fn clear_faults(&self) {
        self.admin("DELETE", "/emulator/faults", None);
    }

    pub fn capture_json(&self, storage: &str) -> String {
        format!(
            "{{\"captureDomain\":\"{u}\",\"captureClientId\":\"jump-default-client\",\"captureAppId\":\"default-app\",\
             \"captureFlowName\":\"standard\",\"captureLocale\":\"en-US\",\"captureFlowDomain\":\"{u}\",\
             \"storageDirectory\":{s},\"requestTimeoutMs\":10000}}",
            u = self.url,
            s = jump::json::quote(storage)
        )
    }

    pub fn client(&self) -> Client {
        Client::from_json(&self.capture_json(":memory:")).expect("a client")
    }

    pub fn client_at(&self, storage: &str) -> Client {
        Client::from_json(&self.capture_json(storage)).expect("a client")
    }

    pub fn social_client(&self) -> Client {
        let mut config = Config::from_json(&self.capture_json(":memory:")).expect("config");
        config.set_string("engageAppId", Some("jump-default-engage")).unwrap();
        config.set_string("engageDomain", Some(&self.url)).unwrap();
        config.set_bool("captureEnableThinRegistration", true).unwrap();
        Client::new(&config).expect("a social client")
    }

    pub fn token_client(&self, storage: &str) -> Client {
        let json = format!(
            "{{\"signInTokenAuthBaseUrl\":\"{u}\",\"signInTokenApiBaseUrl\":\"{u}\",\"storageDirectory\":{s},\"requestTimeoutMs\":10000}}",
            u = self.url,
            s = jump::json::quote(storage)
        );
        Client::from_json(&json).expect("a token client")
    }

    /// Registers a new account through a throwaway client: (email, uuid).
    pub fn new_account(&self) -> (String, String) {
        let email = unique_email();
        let client = self.client();
        let attributes = format!(
            "{{\"email\":{},\"displayName\":\"Ada L\",\"givenName\":\"Ada\",\"familyName\":\"Lovelace\"}}",
            jump::json::quote(&email)
        );
        let result = client.register_traditional(&attributes, PASSWORD).expect("registration");
        (email, result.uuid)
    }

    /// A token-API user and a fresh sign-in token for it: (user_id, token).
    pub fn mint(&self, user: Option<&str>) -> (String, String) {
        let user = match user {
            Some(u) => u.to_owned(),
            None => {
                let body = format!("{{\"client_user_id\":\"{}\"}}", unique("rs"));
                let answer = http::backend_post(&self.url, "/v2/user", &body).expect("POST /v2/user");
                jump::json::parse(&answer.body).and_then(|v| v.str_of("user_id")).expect("user_id")
            }
        };
        let answer = http::backend_post(&self.url, &format!("/v2/user/{}/sign_in_token", user), "{}").expect("sign_in_token");
        let token = jump::json::parse(&answer.body).and_then(|v| v.str_of("sign_in_token")).expect("sign_in_token");
        (user, token)
    }
}

impl Drop for Emulator {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

static COUNTER: AtomicU64 = AtomicU64::new(0);

pub fn unique(prefix: &str) -> String {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_nanos()).unwrap_or(0);
    format!("{}{:x}{}", prefix, nanos & 0xffff_ffff_ffff, COUNTER.fetch_add(1, Ordering::Relaxed))
}

pub fn unique_email() -> String {
    format!("{}@example.com", unique("rs-"))
}

/// A fresh directory under the system's temporary one (removed by the caller or left to the OS).
pub fn scratch_dir() -> String {
    let dir: PathBuf = std::env::temp_dir().join(unique("jump-rust-"));
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir.display().to_string()
}
