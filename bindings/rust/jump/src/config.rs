//! [`Config`]: a client's settings (jump_config), and host storage in place of files.
use std::os::raw::{c_char, c_void};
use std::ptr;
use std::time::Duration;

use crate::error::{check, Error, Result};
use crate::ffi::{self, c, c_opt, guard, ptr_of, status_code};
use crate::json::{self, Value};
use crate::status::Status;
use jump_sys as sys;

/// Settings for a client (the keys are jump.h's: "captureDomain", "storageDirectory", ..., each a constant
/// of [`crate::config_keys`]).
///
/// ```
/// use jump::config_keys::{CAPTURE_DOMAIN, REQUEST_TIMEOUT_MS, STORAGE_DIRECTORY};
/// use std::time::Duration;
/// # fn main() -> jump::Result<()> {
/// let mut config = jump::Config::new()?;
/// config
///     .set_string(CAPTURE_DOMAIN, Some("https://my-app.us.janraincapture.com"))?
///     .set_string(STORAGE_DIRECTORY, Some(":memory:"))?
///     .set_duration(REQUEST_TIMEOUT_MS, Duration::from_secs(20))?;
/// assert_eq!(config.to_json()?.get(REQUEST_TIMEOUT_MS).and_then(|v| v.as_i64()), Some(20000));
/// // the same settings as a JSON object of keys
/// let same = jump::Config::from_json(&config.to_json()?.to_string())?;
/// # let _ = same;
/// # Ok(())
/// # }
/// ```
pub struct Config {
    pub(crate) ptr: *mut sys::jump_config,
}

// SAFETY: every libjump handle may be used from any thread at once (jump.h, "Thread safety"), so the
// config may move to another thread...
unsafe impl Send for Config {}
// SAFETY: ...and be read (to_json, Client::new) from several at once; setters take &mut self anyway.
unsafe impl Sync for Config {}

/// A host key-value store for the session (a keychain, keystore, encrypted preferences): see
/// jump_config_set_storage. Called on the thread of the jump_* call that needs it or a libjump thread,
/// possibly for several keys at once, hence `Send + Sync`. Errors are statuses (e.g. [`Status::Storage`]).
pub trait Storage: Send + Sync {
    /// The bytes saved under `key`, or `None` when nothing is.
    fn load(&self, key: &str) -> std::result::Result<Option<Vec<u8>>, Status>;
    /// Saves `data` under `key`, replacing what was there.
    fn save(&self, key: &str, data: &[u8]) -> std::result::Result<(), Status>;
    /// Deletes `key` (a missing key is fine).
    fn erase(&self, key: &str) -> std::result::Result<(), Status>;
}

type BoxedStorage = Box<dyn Storage>;

unsafe extern "C" fn storage_load(
    context: *mut c_void,
    key: *const c_char,
    sink: sys::jump_storage_sink,
    sink_context: *mut c_void,
) -> sys::jump_status {
    guard(sys::JUMP_E_INTERNAL, || {
        let store = &*(context as *const BoxedStorage);
        match store.load(&ffi::borrowed(key)) {
            Ok(Some(bytes)) => match sink {
                Some(sink) => {
                    sink(sink_context, bytes.as_ptr() as *const c_char, bytes.len());
                    sys::JUMP_OK
                }
                None => sys::JUMP_E_INTERNAL,
            },
            Ok(None) => sys::JUMP_E_NOT_FOUND,
            Err(s) => status_code(Err(s)),
        }
    })
}

unsafe extern "C" fn storage_save(context: *mut c_void, key: *const c_char, data: *const c_char, length: usize) -> sys::jump_status {
    guard(sys::JUMP_E_INTERNAL, || {
        let store = &*(context as *const BoxedStorage);
        let bytes = if data.is_null() { &[][..] } else { std::slice::from_raw_parts(data as *const u8, length) };
        status_code(store.save(&ffi::borrowed(key), bytes))
    })
}

unsafe extern "C" fn storage_erase(context: *mut c_void, key: *const c_char) -> sys::jump_status {
    guard(sys::JUMP_E_INTERNAL, || {
        let store = &*(context as *const BoxedStorage);
        status_code(store.erase(&ffi::borrowed(key)))
    })
}

unsafe extern "C" fn storage_free(context: *mut c_void) {
    guard((), || drop(Box::from_raw(context as *mut BoxedStorage)))
}

impl Config {
    /// A config holding the defaults.
    pub fn new() -> Result<Config> {
        let mut ptr = ptr::null_mut();
        // SAFETY: ptr is a valid out-pointer.
        check(unsafe { sys::jump_config_new(&mut ptr) })?;
        Ok(Config { ptr })
    }

    /// A config from a JSON object of keys.
    pub fn from_json(json: &str) -> Result<Config> {
        let json = c(json)?;
        let mut ptr = ptr::null_mut();
        // SAFETY: json is NUL-terminated and outlives the call; ptr is a valid out-pointer.
        check(unsafe { sys::jump_config_from_json(json.as_ptr(), &mut ptr) })?;
        Ok(Config { ptr })
    }

    /// Sets a string key (`None` restores its default).
    pub fn set_string(&mut self, key: &str, value: Option<&str>) -> Result<&mut Config> {
        let (key, value) = (c(key)?, c_opt(value)?);
        // SAFETY: our handle; strings borrowed for the call.
        check(unsafe { sys::jump_config_set_string(self.ptr, key.as_ptr(), ptr_of(&value)) })?;
        Ok(self)
    }

    /// Sets a boolean key.
    pub fn set_bool(&mut self, key: &str, value: bool) -> Result<&mut Config> {
        let key = c(key)?;
        // SAFETY: as in set_string.
        check(unsafe { sys::jump_config_set_bool(self.ptr, key.as_ptr(), value as i32) })?;
        Ok(self)
    }

    /// Sets an integer key.
    pub fn set_int(&mut self, key: &str, value: i64) -> Result<&mut Config> {
        let key = c(key)?;
        // SAFETY: as in set_string.
        check(unsafe { sys::jump_config_set_int(self.ptr, key.as_ptr(), value) })?;
        Ok(self)
    }

    /// Sets a duration key: one whose name gives its unit, milliseconds for `...Ms` ("connectTimeoutMs",
    /// "requestTimeoutMs") and seconds for `...Seconds` ("tokenRefreshMarginSeconds"). The conversion is
    /// exact: a duration that is not a whole number of the key's unit is refused with
    /// [`Status::InvalidArgument`], as is a key of another kind (and libjump refuses one out of the key's
    /// range).
    ///
    /// ```
    /// use std::time::Duration;
    /// # fn main() -> jump::Result<()> {
    /// let mut config = jump::Config::new()?;
    /// config.set_duration("connectTimeoutMs", Duration::from_millis(2500))?;
    /// config.set_duration("tokenRefreshMarginSeconds", Duration::from_secs(120))?;
    /// let refused = config.set_duration("tokenRefreshMarginSeconds", Duration::from_millis(1500));
    /// assert_eq!(refused.err().map(|e| e.status()), Some(jump::Status::InvalidArgument));
    /// # Ok(())
    /// # }
    /// ```
    pub fn set_duration(&mut self, key: &str, value: Duration) -> Result<&mut Config> {
        let units = duration_units(key, value)?;
        self.set_int(key, units)
    }

    /// Makes clients created from this config keep their session in `storage` (libjump drops it when no
    /// config or client uses it any more). `None` goes back to files.
    pub fn set_storage(&mut self, storage: Option<Box<dyn Storage>>) -> Result<&mut Config> {
        let status = match storage {
            // SAFETY: all NULL: no context to free.
            None => unsafe { sys::jump_config_set_storage(self.ptr, None, None, None, ptr::null_mut(), None) },
            Some(store) => {
                // A thin pointer to the fat Box<dyn Storage>; storage_free drops both.
                let context = Box::into_raw(Box::new(store)) as *mut c_void;
                // SAFETY: libjump owns context from here and frees it with storage_free exactly once (also
                // during this call if it fails).
                unsafe {
                    sys::jump_config_set_storage(
                        self.ptr,
                        Some(storage_load),
                        Some(storage_save),
                        Some(storage_erase),
                        context,
                        Some(storage_free),
                    )
                }
            }
        };
        check(status)?;
        Ok(self)
    }

    /// The effective settings, defaults included.
    pub fn to_json(&self) -> Result<Value> {
        // SAFETY: our handle; out is a valid out-pointer.
        ffi::out_json(|out| unsafe { sys::jump_config_to_json(self.ptr, out) })
    }
}

/// A duration in the unit a key's name gives (`...Ms`, `...Seconds`), when it is a whole number of it.
fn duration_units(key: &str, value: Duration) -> Result<i64> {
    let (nanos_per_unit, unit) = if key.ends_with("Ms") {
        (1_000_000u128, "milliseconds")
    } else if key.ends_with("Seconds") {
        (1_000_000_000u128, "seconds")
    } else {
        let message = format!("{} is not a duration key (one ending in Ms or Seconds)", json::quote(key));
        return Err(Error::local(Status::InvalidArgument, &message));
    };
    let nanos = value.as_nanos();
    if nanos % nanos_per_unit != 0 {
        let message = format!("{} takes whole {}: {:?} is not", key, unit, value);
        return Err(Error::local(Status::InvalidArgument, &message));
    }
    i64::try_from(nanos / nanos_per_unit)
        .map_err(|_| Error::local(Status::InvalidArgument, &format!("{:?} is too long for {}", value, key)))
}

impl Drop for Config {
    fn drop(&mut self) {
        // SAFETY: our handle, freed once; clients made from it keep their own copy.
        unsafe { sys::jump_config_free(self.ptr) }
    }
}

#[cfg(test)]
mod tests {
    use super::duration_units;
    use crate::Status;
    use std::time::Duration;

    #[test]
    fn durations_convert_exactly_or_not_at_all() {
        assert_eq!(duration_units("requestTimeoutMs", Duration::from_secs(3)).ok(), Some(3000));
        assert_eq!(duration_units("requestTimeoutMs", Duration::from_micros(2000)).ok(), Some(2));
        assert_eq!(duration_units("tokenRefreshMarginSeconds", Duration::from_millis(60_000)).ok(), Some(60));
        let inexact = duration_units("requestTimeoutMs", Duration::from_micros(1500)).unwrap_err();
        assert_eq!(inexact.status(), Status::InvalidArgument);
        assert!(inexact.message().contains("whole milliseconds"), "{}", inexact);
        assert!(duration_units("tokenRefreshMarginSeconds", Duration::from_millis(1500)).is_err());
        assert!(duration_units("maxRetries", Duration::from_secs(1)).is_err(), "not a duration key");
        assert!(duration_units("requestTimeoutMs", Duration::from_secs(u64::MAX)).is_err(), "beyond i64");
    }
}
