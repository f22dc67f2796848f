//! Crossing the C ABI: strings in and out, and running host closures from C without unwinding into it.
use std::ffi::{CStr, CString};
use std::os::raw::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::ptr;

use crate::error::{check, Error, Result};
use crate::json::{self, Value};
use crate::results::FromValue;
use crate::status::Status;
use jump_sys as sys;

/// A borrowed string as C wants it; a NUL inside would cut it short, so it is refused.
pub(crate) fn c(s: &str) -> Result<CString> {
    CString::new(s).map_err(|_| Error::local(Status::InvalidArgument, "a string argument holds a NUL byte"))
}

/// An optional string: None is NULL (see [`ptr_of`]).
pub(crate) fn c_opt(s: Option<&str>) -> Result<Option<CString>> {
    s.map(c).transpose()
}

pub(crate) fn ptr_of(s: &Option<CString>) -> *const c_char {
    s.as_ref().map_or(ptr::null(), |s| s.as_ptr())
}

/// Copies a string libjump handed over and frees it with jump_string_free.
pub(crate) unsafe fn take(p: *mut c_char) -> Option<String> {
    if p.is_null() {
        return None;
    }
    let s = CStr::from_ptr(p).to_string_lossy().into_owned();
    sys::jump_string_free(p);
    Some(s)
}

/// Text libjump lends (static, or valid during a callback): copied.
pub(crate) unsafe fn borrowed(p: *const c_char) -> String {
    if p.is_null() {
        String::new()
    } else {
        CStr::from_ptr(p).to_string_lossy().into_owned()
    }
}

/// Runs a call with a `char **out`; the status is checked (and the error detail read) before anything
/// else touches libjump, then the string is taken.
pub(crate) fn out_string(call: impl FnOnce(*mut *mut c_char) -> sys::jump_status) -> Result<Option<String>> {
    let mut out: *mut c_char = ptr::null_mut();
    let status = check(call(&mut out));
    // SAFETY: out is NULL or a string libjump returned for the caller to free.
    let text = unsafe { take(out) };
    status.map(|_| text)
}

/// [`out_string`] for the calls whose out-string is a JSON document.
pub(crate) fn out_json(call: impl FnOnce(*mut *mut c_char) -> sys::jump_status) -> Result<Value> {
    let text = out_string(call)?.unwrap_or_else(|| "null".to_owned());
    json::parse(&text).ok_or_else(|| Error::local(Status::Internal, "libjump returned JSON this crate cannot read"))
}

/// [`out_json`] decoded as the call's typed result.
pub(crate) fn out_doc<T: FromValue>(call: impl FnOnce(*mut *mut c_char) -> sys::jump_status) -> Result<T> {
    out_json(call).and_then(|v| T::from_value(&v))
}

/// Runs host code called from C: a panic must not unwind into libjump (undefined behaviour), so it is
/// caught and becomes `fallback` (for callbacks that return a status: JUMP_E_INTERNAL).
pub(crate) fn guard<T>(fallback: T, f: impl FnOnce() -> T) -> T {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(fallback)
}

/// A status for C from a host callback's outcome.
pub(crate) fn status_code(r: std::result::Result<(), Status>) -> sys::jump_status {
    match r {
        Ok(()) => sys::JUMP_OK,
        Err(s) if s.code() < 0 => s.code(),
        Err(_) => sys::JUMP_E_INTERNAL, // "failed with 0" (Status::Unknown(0)) is a host bug, not a success
    }
}
