//! The safe Rust API of libjump (the raw one is the `jump-sys` crate).
//!
//! Every fallible call returns [`Result`]: [`Error`] carries the [`Status`] and libjump's JSON detail,
//! read right after the failing call on its own thread. Handles ([`Config`], [`Client`], [`Record`],
//! [`Pending`]) free themselves on drop and are `Send + Sync`, as libjump lets any handle be used from any
//! thread at once. Closures libjump calls later (completions, events, storage, the log) are boxed and
//! `Send` (and `Sync` where libjump may call them on several threads at once); they are freed when libjump
//! drops them (userdata_free). JSON crosses as text in; the documents libjump returns come out as typed
//! structs generated from include/jump_api.json ([`SignInResult`], [`ClientState`], ...; each keeps the
//! whole [`Value`] in `raw()`), record values as [`Value`]. Durations are
//! [`std::time::Duration`]s, converted to libjump's unit as each function says.
//!
//! ```no_run
//! use jump::config_keys::{CAPTURE_APP_ID, CAPTURE_CLIENT_ID, CAPTURE_DOMAIN, CAPTURE_FLOW_NAME};
//! # fn main() -> jump::Result<()> {
//! let mut config = jump::Config::new()?; // the keys: jump::config_keys, generated from jump_api.json
//! config
//!     .set_string(CAPTURE_DOMAIN, Some("https://my-app.us.janraincapture.com"))?
//!     .set_string(CAPTURE_CLIENT_ID, Some("my-client"))?
//!     .set_string(CAPTURE_APP_ID, Some("my-app"))?
//!     .set_string(CAPTURE_FLOW_NAME, Some("standard"))?;
//! let client = jump::Client::new(&config)?;
//! match client.sign_in("ada@example.com", "correct horse 1") {
//!     Err(e) if e.status() == jump::Status::BadCredentials => println!("{}", e.message()),
//!     other => {
//!         other?;
//!     }
//! }
//! client.record()?.set_string("/aboutMe", Some("hi"))?;
//! let pending = client.sync_async()?; // cancel() it, wait() for it, or .await it
//! let synced = pending.wait()?;       // a jump::SyncResult: synced.changed
//! # let _ = synced;
//! # Ok(())
//! # }
//! ```
//!
//! Asynchronous calls return a [`Pending`], a [`std::future::Future`] any executor drives (the crate
//! depends on no runtime); dropping it before it completes cancels the operation:
//!
//! ```no_run
//! async fn refresh_profile(client: &jump::Client) -> jump::Result<jump::Value> {
//!     client.fetch_record_async()?.await?;
//!     client.record()?.get("/")
//! }
//! ```
#![deny(missing_docs)]
use std::os::raw::{c_char, c_void};

mod client;
mod client_events;
mod client_session;
mod client_social;
mod config;
#[path = "config_keys_generated.rs"]
pub mod config_keys;
mod error;
mod ffi;
pub mod json;
mod record;
mod request;
mod results;
mod results_generated;
mod status;

pub use client::Client;
pub use client_events::{Dispatcher, EventCallback, Job};
pub use client_session::decode_sign_in_token;
pub use config::{Config, Storage};
pub use error::{Error, Result};
pub use json::Value;
pub use record::Record;
pub use request::{Completion, Pending};
pub use results::FromValue;
pub use results_generated::*;
pub use status::Status;

use jump_sys as sys;

/// The library's version, e.g. "0.1.0".
pub fn version() -> String {
    // SAFETY: static storage, never NULL.
    unsafe { ffi::borrowed(sys::jump_version()) }
}

/// The library's version as (major << 16) | (minor << 8) | patch.
pub fn version_number() -> u32 {
    // SAFETY: no arguments.
    unsafe { sys::jump_version_number() }
}

/// The library's ABI version; a host should refuse a library whose ABI differs from
/// `jump_sys::JUMP_ABI_VERSION`.
pub fn abi_version() -> i32 {
    // SAFETY: no arguments.
    unsafe { sys::jump_abi_version() }
}

/// libjump's own description of a status code (any code, unknown ones included).
pub fn status_str(code: i32) -> String {
    // SAFETY: static storage, never NULL, for every code.
    unsafe { ffi::borrowed(sys::jump_status_str(code)) }
}

/// The process-wide log callback: may run on any thread, concurrently, hence `Fn + Send + Sync`; it must
/// not call a client's functions (it may run under that client's lock).
pub type LogCallback = Box<dyn Fn(&LogLine) + Send + Sync>;

unsafe extern "C" fn on_log(userdata: *mut c_void, text: *const c_char) {
    ffi::guard((), || {
        let f = &*(userdata as *const LogCallback);
        if let Some(doc) = json::parse(&ffi::borrowed(text)).and_then(|v| LogLine::from_value(&v).ok()) {
            f(&doc)
        }
    })
}

unsafe extern "C" fn free_log(userdata: *mut c_void) {
    ffi::guard((), || drop(Box::from_raw(userdata as *mut LogCallback)))
}

/// Installs the log callback (a [`LogLine`]: its level and redacted message; None removes it).
pub fn set_log_callback(callback: Option<LogCallback>) -> Result<()> {
    let status = match callback {
        // SAFETY: removing: no userdata.
        None => unsafe { sys::jump_set_log_callback(None, std::ptr::null_mut(), None) },
        Some(f) => {
            let userdata = Box::into_raw(Box::new(f)) as *mut c_void;
            // SAFETY: libjump owns userdata from here and frees it with free_log exactly once.
            unsafe { sys::jump_set_log_callback(Some(on_log), userdata, Some(free_log)) }
        }
    };
    error::check(status)
}
