//! [`Client`]: one app installation's session (jump_client): state, sign-in, registration, the record,
//! sync and the profile and password forms. Social sign-in, sign-in tokens and events are in the
//! client_*.rs files.
use std::marker::PhantomData;
use std::os::raw::c_void;
use std::ptr;

use crate::config::Config;
use crate::error::{check, Result};
use crate::ffi::{c, c_opt, out_doc, ptr_of};
use crate::results_generated::{ClientState, SavedAccounts, SignInResult, SyncResult};
use crate::record::Record;
use crate::request::{start, Pending};
use jump_sys as sys;

/// The callback, userdata, userdata_free and out_request of an _async call.
pub(crate) type AsyncArgs = (sys::jump_callback, *mut c_void, sys::jump_free_fn, *mut *mut sys::jump_request);

/// A client. Dropping it cancels its operations in flight (their completions report
/// [`crate::Status::Cancelled`]) and releases its callbacks once no delivery needs them.
///
/// Every operation has a blocking form and an `_async` one that returns a [`Pending`] (a [`std::future::Future`]).
///
/// ```no_run
/// # fn main() -> jump::Result<()> {
/// let mut config = jump::Config::new()?;
/// config
///     .set_string("captureDomain", Some("https://my-app.us.janraincapture.com"))?
///     .set_string("captureClientId", Some("my-client"))?;
/// let client = jump::Client::new(&config)?;
/// match client.sign_in("ada@example.com", "correct horse 1") {
///     Ok(result) => println!("signed in as {}", result.uuid),
///     Err(e) if e.status() == jump::Status::BadCredentials => println!("{}", e.message()),
///     Err(e) => return Err(e),
/// }
/// client.record()?.set_string("/aboutMe", Some("hi"))?;
/// client.sync()?;
/// # Ok(())
/// # }
/// ```
pub struct Client {
    pub(crate) ptr: *mut sys::jump_client,
}

// SAFETY: jump.h: "every handle may be used from any thread at once; a client serializes its own state".
// The Client holds nothing else, so it may move to another thread...
unsafe impl Send for Client {}
// SAFETY: ...and be shared by several (every method takes &self and only calls libjump).
unsafe impl Sync for Client {}

impl Client {
    /// A client from a copy of `config`; restores the saved session, if any (no network).
    pub fn new(config: &Config) -> Result<Client> {
        let mut ptr = ptr::null_mut();
        // SAFETY: config's handle is alive for the call; ptr is a valid out-pointer.
        check(unsafe { sys::jump_client_new(config.ptr, &mut ptr) })?;
        Ok(Client { ptr })
    }

    /// A client from a JSON object of config keys.
    pub fn from_json(config: &str) -> Result<Client> {
        Client::new(&Config::from_json(config)?)
    }

    /// Starts an _async call with this crate's completion plumbing.
    pub(crate) fn pend<T>(&self, call: impl FnOnce(AsyncArgs) -> sys::jump_status) -> Result<Pending<T>> {
        start(|cb, ud, free, out| call((cb, ud, free, out)))
    }

    /// The client's state (jump_client_state: signed in, uuid, email, unsynced changes, ...).
    pub fn state(&self) -> Result<ClientState> {
        // SAFETY (every call in this file): self.ptr is alive while &self is; CStrings outlive the call;
        // out-pointers are valid.
        out_doc(|out| unsafe { sys::jump_client_state(self.ptr, out) })
    }

    /// Whether a user is signed in (memory only, no I/O).
    pub fn is_signed_in(&self) -> bool {
        unsafe { sys::jump_client_is_signed_in(self.ptr) == 1 }
    }

    /// Reads the saved session again (after a storage error at start-up).
    pub fn restore(&self) -> Result<()> {
        check(unsafe { sys::jump_client_restore(self.ptr) })
    }

    /// Erases the sessions set aside ("quarantine" in the state).
    pub fn erase_quarantine(&self) -> Result<()> {
        check(unsafe { sys::jump_client_erase_quarantine(self.ptr) })
    }

    /// Downloads the Capture flow now and caches it.
    pub fn load_flow(&self) -> Result<()> {
        check(unsafe { sys::jump_client_load_flow(self.ptr) })
    }

    /// Registers a traditional account (`attributes_json`: a JSON object of record attributes) and
    /// signs it in (`is_new` true).
    pub fn register_traditional(&self, attributes_json: &str, password: &str) -> Result<SignInResult> {
        let (a, p) = (c(attributes_json)?, c(password)?);
        out_doc(|out| unsafe { sys::jump_client_register_traditional(self.ptr, a.as_ptr(), p.as_ptr(), out) })
    }

    /// [`Client::register_traditional`] as a [`Pending`] (await it, or wait on it).
    pub fn register_traditional_async(&self, attributes_json: &str, password: &str) -> Result<Pending<SignInResult>> {
        let (a, p) = (c(attributes_json)?, c(password)?);
        self.pend(|(cb, ud, free, out)| unsafe {
            sys::jump_client_register_traditional_async(self.ptr, a.as_ptr(), p.as_ptr(), cb, ud, free, out)
        })
    }

    /// Signs in with an email or user name and a password (`is_new` false).
    pub fn sign_in(&self, user: &str, password: &str) -> Result<SignInResult> {
        let (u, p) = (c(user)?, c(password)?);
        out_doc(|out| unsafe { sys::jump_client_sign_in(self.ptr, u.as_ptr(), p.as_ptr(), out) })
    }

    /// [`Client::sign_in`] as a [`Pending`]: await it in async code (any executor), or wait on it.
    ///
    /// ```no_run
    /// async fn sign_in(client: &jump::Client) -> jump::Result<String> {
    ///     let result = client.sign_in_async("ada@example.com", "correct horse 1")?.await?;
    ///     Ok(result.uuid)
    /// }
    /// ```
    pub fn sign_in_async(&self, user: &str, password: &str) -> Result<Pending<SignInResult>> {
        let (u, p) = (c(user)?, c(password)?);
        self.pend(|(cb, ud, free, out)| unsafe { sys::jump_client_sign_in_async(self.ptr, u.as_ptr(), p.as_ptr(), cb, ud, free, out) })
    }

    /// Signs out of everything (memory and storage).
    pub fn sign_out(&self) -> Result<()> {
        check(unsafe { sys::jump_client_sign_out(self.ptr) })
    }

    /// The saved accounts (config key `accounts` = `"multiple"`), the active one first, then the most
    /// recently used, and the active account's uuid (None when no user is active). With `"single"`: the
    /// signed-in user, if any. Reads the index of saved accounts on storage again (no network).
    pub fn accounts(&self) -> Result<SavedAccounts> {
        out_doc(|out| unsafe { sys::jump_client_accounts(self.ptr, out) })
    }

    /// Makes the saved account of `uuid` the active one, without a password: the client's calls go to it
    /// from now on, and the event `account_switched` tells the app. Its token is refreshed first when stale;
    /// unsynced edits stay with the account that made them. [`crate::Status::NotFound`] when no saved
    /// account has `uuid`.
    ///
    /// ```no_run
    /// fn switch_to(client: &jump::Client, email: &str) -> jump::Result<()> {
    ///     let saved = client.accounts()?;
    ///     if let Some(account) = saved.accounts.iter().find(|a| a.email.as_deref() == Some(email)) {
    ///         client.switch_account(&account.uuid)?;
    ///     }
    ///     Ok(())
    /// }
    /// ```
    pub fn switch_account(&self, uuid: &str) -> Result<()> {
        let u = c(uuid)?;
        check(unsafe { sys::jump_client_switch_account(self.ptr, u.as_ptr()) })
    }

    /// [`Client::switch_account`] as a [`Pending`] (await it, or wait on it).
    pub fn switch_account_async(&self, uuid: &str) -> Result<Pending<()>> {
        let u = c(uuid)?;
        self.pend(|(cb, ud, free, out)| unsafe { sys::jump_client_switch_account_async(self.ptr, u.as_ptr(), cb, ud, free, out) })
    }

    /// Signs the saved account of `uuid` out and erases everything of it on storage (its session, its
    /// unsynced edits, its quarantine and secrets); the other accounts stay signed in and usable. A removed
    /// active account leaves no user active ([`Client::is_signed_in`] false until a sign-in or a switch).
    /// [`crate::Status::NotFound`] when no saved account has `uuid`.
    pub fn remove_account(&self, uuid: &str) -> Result<()> {
        let u = c(uuid)?;
        check(unsafe { sys::jump_client_remove_account(self.ptr, u.as_ptr()) })
    }

    /// A view of the signed-in user's record; it cannot outlive the client.
    pub fn record(&self) -> Result<Record<'_>> {
        let mut ptr = ptr::null_mut();
        check(unsafe { sys::jump_client_record(self.ptr, &mut ptr) })?;
        Ok(Record { ptr, client: PhantomData })
    }

    /// Fetches the record from the server, keeping unsynced local edits on top.
    pub fn fetch_record(&self) -> Result<()> {
        check(unsafe { sys::jump_client_fetch_record(self.ptr) })
    }

    /// [`Client::fetch_record`] as a [`Pending`] (await it, or wait on it).
    pub fn fetch_record_async(&self) -> Result<Pending<()>> {
        self.pend(|(cb, ud, free, out)| unsafe { sys::jump_client_fetch_record_async(self.ptr, cb, ud, free, out) })
    }

    /// Sends the record's unsynced changes: the paths sent, the number of requests, the renamed elements.
    pub fn sync(&self) -> Result<SyncResult> {
        out_doc(|out| unsafe { sys::jump_client_sync(self.ptr, out) })
    }

    /// [`Client::sync`] as a [`Pending`] (await it, or wait on it).
    pub fn sync_async(&self) -> Result<Pending<SyncResult>> {
        self.pend(|(cb, ud, free, out)| unsafe { sys::jump_client_sync_async(self.ptr, cb, ud, free, out) })
    }

    /// Downloads the record schema (needs a signed-in user).
    pub fn load_schema(&self) -> Result<()> {
        check(unsafe { sys::jump_client_load_schema(self.ptr) })
    }

    /// Updates the profile through the edit-profile form (`attributes_json` may be None).
    pub fn update_profile(&self, attributes_json: Option<&str>) -> Result<()> {
        let a = c_opt(attributes_json)?;
        check(unsafe { sys::jump_client_update_profile(self.ptr, ptr_of(&a)) })
    }

    /// [`Client::update_profile`] as a [`Pending`] (await it, or wait on it).
    pub fn update_profile_async(&self, attributes_json: Option<&str>) -> Result<Pending<()>> {
        let a = c_opt(attributes_json)?;
        self.pend(|(cb, ud, free, out)| unsafe { sys::jump_client_update_profile_async(self.ptr, ptr_of(&a), cb, ud, free, out) })
    }

    /// Changes the signed-in user's password.
    pub fn change_password(&self, current: &str, new: &str) -> Result<()> {
        let (a, b) = (c(current)?, c(new)?);
        check(unsafe { sys::jump_client_change_password(self.ptr, a.as_ptr(), b.as_ptr()) })
    }

    /// [`Client::change_password`] as a [`Pending`] (await it, or wait on it).
    pub fn change_password_async(&self, current: &str, new: &str) -> Result<Pending<()>> {
        let (a, b) = (c(current)?, c(new)?);
        self.pend(|(cb, ud, free, out)| unsafe {
            sys::jump_client_change_password_async(self.ptr, a.as_ptr(), b.as_ptr(), cb, ud, free, out)
        })
    }

    /// Asks for a password-reset email.
    pub fn forgot_password(&self, email: &str) -> Result<()> {
        let e = c(email)?;
        check(unsafe { sys::jump_client_forgot_password(self.ptr, e.as_ptr()) })
    }

    /// [`Client::forgot_password`] as a [`Pending`] (await it, or wait on it).
    pub fn forgot_password_async(&self, email: &str) -> Result<Pending<()>> {
        let e = c(email)?;
        self.pend(|(cb, ud, free, out)| unsafe { sys::jump_client_forgot_password_async(self.ptr, e.as_ptr(), cb, ud, free, out) })
    }

    /// Asks for the email-verification message again.
    pub fn resend_verification_email(&self, email: &str) -> Result<()> {
        let e = c(email)?;
        check(unsafe { sys::jump_client_resend_verification_email(self.ptr, e.as_ptr()) })
    }

    /// [`Client::resend_verification_email`] as a [`Pending`] (await it, or wait on it).
    pub fn resend_verification_email_async(&self, email: &str) -> Result<Pending<()>> {
        let e = c(email)?;
        self.pend(|(cb, ud, free, out)| unsafe {
            sys::jump_client_resend_verification_email_async(self.ptr, e.as_ptr(), cb, ud, free, out)
        })
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        // SAFETY: our handle, freed once; no Record can be alive (they borrow the client).
        unsafe { sys::jump_client_free(self.ptr) }
    }
}
