//! [`Error`]: a failed call's status and libjump's JSON detail of it.
use std::ffi::CStr;
use std::fmt;

use crate::json::{self, Value};
use crate::status::Status;
use jump_sys as sys;

/// What every fallible call returns.
pub type Result<T> = std::result::Result<T, Error>;

/// A failure: its [`Status`] and the detail libjump gave (jump_error_last: "status", "status_name",
/// "message", and per status "invalid_fields", "merge_token", "conflicts", ...). Never holds a secret the
/// caller passed; a merge or social registration token in the detail is one to hand back, not to log.
#[derive(Clone, PartialEq)]
pub struct Error {
    code: i32,
    detail: Value,
}

impl Error {
    /// The status; a code newer than this crate is [`Status::Unknown`] with that code.
    ///
    /// ```
    /// let e = jump::Config::from_json("{\"noSuchKey\":1}").err().expect("an unknown key is refused");
    /// assert_eq!(e.status(), jump::Status::InvalidArgument);
    /// assert_eq!(e.code(), -1);
    /// assert!(!e.message().is_empty());
    /// ```
    pub fn status(&self) -> Status {
        // an Error never holds JUMP_OK (0); were it to, that would be a bug, hence Internal
        Status::from_code(self.code).unwrap_or(Status::Internal)
    }

    /// The C code, as libjump returned it.
    pub fn code(&self) -> i32 {
        self.code
    }

    /// The detail object.
    pub fn detail(&self) -> &Value {
        &self.detail
    }

    /// The detail typed ([`crate::ErrorDetail`]: the invalid fields, conflicts, merge or registration
    /// tokens, ...); `None` only for a detail that is not libjump's document.
    ///
    /// ```
    /// let e = jump::Config::from_json("{\"noSuchKey\":1}").err().expect("an unknown key is refused");
    /// let detail = e.details().expect("libjump's detail");
    /// assert_eq!(detail.status_name, "JUMP_E_INVALID_ARGUMENT");
    /// assert_eq!(detail.status, i64::from(e.code()));
    /// ```
    pub fn details(&self) -> Option<crate::ErrorDetail> {
        crate::FromValue::from_value(&self.detail).ok()
    }

    /// The detail's human-readable "message".
    pub fn message(&self) -> &str {
        self.detail.get("message").and_then(Value::as_str).unwrap_or("")
    }

    /// An error made from a detail object (a failed completion's "error").
    pub(crate) fn from_detail(code: i32, detail: Value) -> Error {
        Error { code, detail }
    }

    /// An error found by this crate before calling libjump (e.g. a string holding a NUL byte).
    pub(crate) fn local(status: Status, message: &str) -> Error {
        let text = format!(
            "{{\"status\":{},\"status_name\":{},\"message\":{}}}",
            status.code(),
            json::quote(status.name()),
            json::quote(message)
        );
        Error { code: status.code(), detail: json::parse(&text).unwrap_or(Value::Null) }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({}): {}", self.status().name(), self.code, self.message())
    }
}

/// The detail members that are secrets (jump.h: "The social registration and merge tokens are secrets: hand
/// them back, do not log them"): Debug shows them as "<redacted>", so `{:?}`, `unwrap()` and `expect()`
/// print no secret. [`Error::detail`] still holds them, for the call that needs them.
const SECRET_MEMBERS: [&str; 2] = ["merge_token", "social_registration_token"];

fn redacted(v: &Value) -> Value {
    match v {
        Value::Object(members) => Value::Object(
            members
                .iter()
                .map(|(k, v)| {
                    let shown = if SECRET_MEMBERS.contains(&k.as_str()) { Value::String("<redacted>".into()) } else { redacted(v) };
                    (k.clone(), shown)
                })
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(redacted).collect()),
        other => other.clone(),
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Error").field("code", &self.code).field("detail", &format_args!("{}", redacted(&self.detail))).finish()
    }
}

impl std::error::Error for Error {}

/// The enumerator's name, e.g. `JUMP_E_NETWORK` (see [`Status::name`]).
impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A [`Status`] is an error in its own right: host callbacks ([`crate::Storage`], open_url, authenticate)
/// fail with one.
impl std::error::Error for Status {}

/// `Ok(())` for JUMP_OK, else the error with jump_error_last's detail. Called right after the failing
/// call, on its thread, before any other jump_* call: the detail is thread-local and the next call
/// replaces it.
pub(crate) fn check(code: sys::jump_status) -> Result<()> {
    if code == sys::JUMP_OK {
        return Ok(());
    }
    // SAFETY: jump_error_last never returns NULL; the text stays valid until the next jump_* call on this
    // thread, and it is copied before any.
    let text = unsafe { CStr::from_ptr(sys::jump_error_last()) }.to_string_lossy().into_owned();
    let detail = json::parse(&text).unwrap_or_else(|| Value::Object(vec![("message".into(), Value::String(text))]));
    Err(Error { code, detail })
}
