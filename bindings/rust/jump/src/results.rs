//! Typed results: [`FromValue`], how a document of libjump becomes a struct of results_generated.rs (one per
//! document of include/jump_api.json), and its impls for the JSON types those structs are made of.
use std::collections::BTreeMap;
use std::fmt;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::error::{Error, Result};
use crate::json::Value;
use crate::status::Status;

/// A type a JSON [`Value`] of libjump decodes to: every result struct (e.g. [`crate::SignInResult`]), the
/// JSON types they are made of, and `()` for a call that returns no document (any value decodes to it).
/// A value of another type than expected is an error ([`Status::Internal`]).
///
/// ```
/// use jump::FromValue;
/// let v = jump::json::parse(r#"{"is_new":false,"uuid":"a1","authorization_code":"secret","kept_changes":[]}"#).unwrap();
/// let result = jump::SignInResult::from_value(&v).unwrap();
/// assert_eq!(result.uuid, "a1");
/// assert!(!format!("{:?}", result).contains("secret"), "Debug redacts the secrets");
/// assert_eq!(result.raw(), &v);
/// ```
pub trait FromValue: Sized {
    /// Decodes `value`.
    fn from_value(value: &Value) -> Result<Self>;
}

fn mismatch(expected: &str, value: &Value) -> Error {
    let shown: String = value.to_string().chars().take(40).collect();
    Error::local(Status::Internal, &format!("libjump's document holds {} where {} was expected", shown, expected))
}

/// Checks that a document is an object (its members are read with [`member`]).
pub(crate) fn object(value: &Value, document: &str) -> Result<()> {
    match value {
        Value::Object(_) => Ok(()),
        other => Err(mismatch(&format!("a {} object", document), other)),
    }
}

/// The member `key` of an object decoded as `T`; an absent key reads as null (None for an Option).
pub(crate) fn member<T: FromValue>(object: &Value, key: &str) -> Result<T> {
    const NULL: Value = Value::Null;
    T::from_value(object.get(key).unwrap_or(&NULL)).map_err(|e| {
        Error::local(Status::Internal, &format!("\"{}\": {}", key, e.message()))
    })
}

/// How Debug shows a secret.
pub(crate) struct Redacted;

impl fmt::Debug for Redacted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

impl FromValue for Value {
    fn from_value(value: &Value) -> Result<Value> {
        Ok(value.clone())
    }
}

/// A call that returns no document.
impl FromValue for () {
    fn from_value(_: &Value) -> Result<()> {
        Ok(())
    }
}

impl FromValue for String {
    fn from_value(value: &Value) -> Result<String> {
        value.as_str().map(str::to_owned).ok_or_else(|| mismatch("a string", value))
    }
}

impl FromValue for bool {
    fn from_value(value: &Value) -> Result<bool> {
        value.as_bool().ok_or_else(|| mismatch("a boolean", value))
    }
}

impl FromValue for i64 {
    fn from_value(value: &Value) -> Result<i64> {
        value.as_i64().ok_or_else(|| mismatch("an integer", value))
    }
}

impl FromValue for f64 {
    fn from_value(value: &Value) -> Result<f64> {
        value.as_f64().ok_or_else(|| mismatch("a number", value))
    }
}

/// Epoch seconds (jump_api.json's unit "epoch_seconds"; before 1970 too).
impl FromValue for SystemTime {
    fn from_value(value: &Value) -> Result<SystemTime> {
        let seconds = i64::from_value(value)?;
        let offset = Duration::from_secs(seconds.unsigned_abs());
        let time = if seconds >= 0 { UNIX_EPOCH.checked_add(offset) } else { UNIX_EPOCH.checked_sub(offset) };
        time.ok_or_else(|| mismatch("a time this system can hold", value))
    }
}

/// null is None.
impl<T: FromValue> FromValue for Option<T> {
    fn from_value(value: &Value) -> Result<Option<T>> {
        match value {
            Value::Null => Ok(None),
            other => T::from_value(other).map(Some),
        }
    }
}

impl<T: FromValue> FromValue for Vec<T> {
    fn from_value(value: &Value) -> Result<Vec<T>> {
        match value {
            Value::Array(items) => items.iter().map(T::from_value).collect(),
            other => Err(mismatch("an array", other)),
        }
    }
}

impl<T: FromValue> FromValue for BTreeMap<String, T> {
    fn from_value(value: &Value) -> Result<BTreeMap<String, T>> {
        match value {
            Value::Object(members) => members.iter().map(|(k, v)| Ok((k.clone(), T::from_value(v)?))).collect(),
            other => Err(mismatch("an object", other)),
        }
    }
}

/// A call's outcome with its document decoded.
pub(crate) fn decode<T: FromValue>(outcome: &Result<Value>) -> Result<T> {
    outcome.as_ref().map_err(Error::clone).and_then(T::from_value)
}

#[cfg(test)]
mod tests {
    use super::FromValue;
    use crate::json::parse;
    use crate::results_generated::{Credentials, CredentialsKind, SignInTokenInfo, SignInTokenInfoRegion, SyncResult};
    use crate::status::Status;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn decodes_leniently() {
        // an unknown key is ignored, an unknown value of a "values" key is Unknown, nothing is lost from raw()
        let v = parse(r#"{"user_id":"u1","team_id":null,"environment":"sandbox","region":"mars","expires_at":86400,"new":1}"#).unwrap();
        let info = SignInTokenInfo::from_value(&v).unwrap();
        assert_eq!(info.user_id, "u1");
        assert_eq!(info.team_id, None);
        assert_eq!(info.region, SignInTokenInfoRegion::Unknown("mars".into()));
        assert_eq!(info.region.as_str(), "mars");
        assert_eq!(info.expires_at, Some(UNIX_EPOCH + Duration::from_secs(86400)));
        assert_eq!(info.raw().get("new").and_then(|n| n.as_i64()), Some(1));
    }

    #[test]
    fn refuses_a_key_of_another_type() {
        let e = SyncResult::from_value(&parse(r#"{"changed":"/a","requests":1,"renamed":{}}"#).unwrap()).unwrap_err();
        assert_eq!(e.status(), Status::Internal);
        assert!(e.message().contains("\"changed\""), "{}", e);
        assert!(SyncResult::from_value(&parse("[]").unwrap()).is_err(), "not an object");
    }

    #[test]
    fn debug_redacts_secrets() {
        let v = parse(r#"{"kind":"capture","access_token":"s3cr3t","expires_at":null,"expires_in":-5,"refreshed":false}"#).unwrap();
        let c = Credentials::from_value(&v).unwrap();
        assert_eq!(c.kind, CredentialsKind::Capture);
        assert_eq!(c.expires_in_duration(), None, "negative: no Duration");
        let shown = format!("{:?}", c);
        assert!(!shown.contains("s3cr3t") && shown.contains("<redacted>"), "{}", shown);
    }
}
