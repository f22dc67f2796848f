//! Social sign-in (Engage): providers, browser and loopback sign-in, native tokens, two-step registration,
//! merge, linking and sharing (jump.h, "Social sign-in").
use std::os::raw::{c_char, c_void};
use std::time::Duration;

use crate::client::Client;
use crate::error::{check, Result};
use crate::ffi::{borrowed, c, c_opt, guard, out_doc, ptr_of, status_code};
use crate::results_generated::{EngageConfigResult, LinkedProfile, ShareContent, ShareResult, SignInResult, SocialBegin, SocialOutcome, SocialProviders};
use crate::request::{millis_ceil, start_with, Pending, WithExtra};
use crate::status::Status;
use jump_sys as sys;

/// The host's "open this URL in the system browser" (Ok once it is opened or handed over).
pub type OpenUrl<'a> = dyn FnMut(&str) -> std::result::Result<(), Status> + 'a;

/// open_url of the blocking call: it runs on the calling thread, so a borrowed closure will do.
unsafe extern "C" fn open_url_borrowed(userdata: *mut c_void, url: *const c_char) -> sys::jump_status {
    guard(sys::JUMP_E_INTERNAL, || {
        let f = &mut *(userdata as *mut &mut OpenUrl<'_>);
        status_code(f(&borrowed(url)))
    })
}

type OwnedOpenUrl = Box<dyn FnMut(&str) -> std::result::Result<(), Status> + Send>;

/// open_url of the _async call: it shares its userdata with the completion (jump.h: open_url runs on a
/// libjump thread first, then the callback; userdata_free after both), so the closure sits beside the slot.
unsafe extern "C" fn open_url_owned(userdata: *mut c_void, url: *const c_char) -> sys::jump_status {
    guard(sys::JUMP_E_INTERNAL, || {
        let data = &mut *(userdata as *mut WithExtra<OwnedOpenUrl>);
        status_code((data.extra)(&borrowed(url)))
    })
}

/// The loopback sign-in's `int32_t timeout_ms`: 0 (libjump's default, 5 minutes) for `None`, else whole
/// milliseconds rounded up (at least 1: 0 would mean the default), at most i32::MAX (24.8 days).
fn timeout_ms(timeout: Option<Duration>) -> i32 {
    timeout.map_or(0, |t| millis_ceil(t).max(1))
}

impl Client {
    /// Fetches the Engage configuration: whether it changed, whether the cached copy is in use.
    pub fn load_engage_config(&self) -> Result<EngageConfigResult> {
        // SAFETY (every call in this file): self.ptr is alive while &self is; CStrings outlive the call;
        // out-pointers are valid.
        out_doc(|out| unsafe { sys::jump_client_load_engage_config(self.ptr, out) })
    }

    /// The sign-in and sharing providers.
    pub fn providers(&self) -> Result<SocialProviders> {
        out_doc(|out| unsafe { sys::jump_client_providers(self.ptr, out) })
    }

    /// Begins a browser sign-in: the URL to open, and how the sign-in ends.
    pub fn social_begin(&self, provider: &str, options_json: Option<&str>) -> Result<SocialBegin> {
        let (p, o) = (c(provider)?, c_opt(options_json)?);
        out_doc(|out| unsafe { sys::jump_client_social_begin(self.ptr, p.as_ptr(), ptr_of(&o), out) })
    }

    /// Completes a begun sign-in with the URL the browser ended on.
    pub fn social_complete(&self, url: &str) -> Result<SocialOutcome> {
        let u = c(url)?;
        out_doc(|out| unsafe { sys::jump_client_social_complete(self.ptr, u.as_ptr(), out) })
    }

    /// [`Client::social_complete`] as a [`Pending`] (await it, or wait on it).
    pub fn social_complete_async(&self, url: &str) -> Result<Pending<SocialOutcome>> {
        let u = c(url)?;
        self.pend(|(cb, ud, free, out)| unsafe { sys::jump_client_social_complete_async(self.ptr, u.as_ptr(), cb, ud, free, out) })
    }

    /// Browser sign-in through a loopback listener: `open_url` is called once, on this thread, with the
    /// sign-in URL. How long to wait for the browser: `timeout` (rounded up to whole milliseconds, at most
    /// i32::MAX ms), `None` for libjump's default, 5 minutes; then [`Status::Timeout`].
    ///
    /// ```no_run
    /// # fn main() -> jump::Result<()> {
    /// # let client = jump::Client::from_json("{\"storageDirectory\":\":memory:\"}")?;
    /// use std::time::Duration;
    /// let result = client.social_sign_in_loopback("google", None, |url| {
    ///     println!("open {} in your browser", url);
    ///     Ok(())
    /// }, Some(Duration::from_secs(120)))?;
    /// println!("{}", result.outcome.as_str());
    /// # Ok(())
    /// # }
    /// ```
    pub fn social_sign_in_loopback(
        &self,
        provider: &str,
        options_json: Option<&str>,
        mut open_url: impl FnMut(&str) -> std::result::Result<(), Status>,
        timeout: Option<Duration>,
    ) -> Result<SocialOutcome> {
        let (p, o) = (c(provider)?, c_opt(options_json)?);
        let mut f: &mut OpenUrl<'_> = &mut open_url;
        let userdata = &mut f as *mut &mut OpenUrl<'_> as *mut c_void;
        out_doc(|out| unsafe {
            sys::jump_client_social_sign_in_loopback(
                self.ptr,
                p.as_ptr(),
                ptr_of(&o),
                Some(open_url_borrowed),
                userdata,
                timeout_ms(timeout),
                out,
            )
        })
    }

    /// The asynchronous loopback sign-in: `open_url` runs on a libjump thread; cancelling (or dropping the
    /// [`Pending`]) stops the wait. `timeout` as for [`Client::social_sign_in_loopback`].
    pub fn social_sign_in_loopback_async(
        &self,
        provider: &str,
        options_json: Option<&str>,
        open_url: impl FnMut(&str) -> std::result::Result<(), Status> + Send + 'static,
        timeout: Option<Duration>,
    ) -> Result<Pending<SocialOutcome>> {
        let (p, o) = (c(provider)?, c_opt(options_json)?);
        let open: OwnedOpenUrl = Box::new(open_url);
        start_with(open, |cb, ud, free, out| unsafe {
            sys::jump_client_social_sign_in_loopback_async(
                self.ptr,
                p.as_ptr(),
                ptr_of(&o),
                Some(open_url_owned),
                timeout_ms(timeout),
                cb,
                ud,
                free,
                out,
            )
        })
    }

    /// Signs in with a provider SDK's own token.
    pub fn social_sign_in_native(&self, provider: &str, token: &str, token_secret: Option<&str>, options_json: Option<&str>) -> Result<SocialOutcome> {
        let (p, t, s, o) = (c(provider)?, c(token)?, c_opt(token_secret)?, c_opt(options_json)?);
        out_doc(|out| unsafe {
            sys::jump_client_social_sign_in_native(self.ptr, p.as_ptr(), t.as_ptr(), ptr_of(&s), ptr_of(&o), out)
        })
    }

    /// [`Client::social_sign_in_native`] as a [`Pending`] (await it, or wait on it).
    pub fn social_sign_in_native_async(
        &self,
        provider: &str,
        token: &str,
        token_secret: Option<&str>,
        options_json: Option<&str>,
    ) -> Result<Pending<SocialOutcome>> {
        let (p, t, s, o) = (c(provider)?, c(token)?, c_opt(token_secret)?, c_opt(options_json)?);
        self.pend(|(cb, ud, free, out)| unsafe {
            sys::jump_client_social_sign_in_native_async(self.ptr, p.as_ptr(), t.as_ptr(), ptr_of(&s), ptr_of(&o), cb, ud, free, out)
        })
    }

    /// Engage-only mode: the token URL (None removes it).
    pub fn set_token_url(&self, url: Option<&str>) -> Result<()> {
        let u = c_opt(url)?;
        check(unsafe { sys::jump_client_set_token_url(self.ptr, ptr_of(&u)) })
    }

    /// Two-step social registration after [`Status::RegistrationRequired`].
    pub fn register_social(&self, social_registration_token: &str, attributes_json: &str) -> Result<SignInResult> {
        let (t, a) = (c(social_registration_token)?, c(attributes_json)?);
        out_doc(|out| unsafe { sys::jump_client_register_social(self.ptr, t.as_ptr(), a.as_ptr(), out) })
    }

    /// [`Client::register_social`] as a [`Pending`] (await it, or wait on it).
    pub fn register_social_async(&self, social_registration_token: &str, attributes_json: &str) -> Result<Pending<SignInResult>> {
        let (t, a) = (c(social_registration_token)?, c(attributes_json)?);
        self.pend(|(cb, ud, free, out)| unsafe {
            sys::jump_client_register_social_async(self.ptr, t.as_ptr(), a.as_ptr(), cb, ud, free, out)
        })
    }

    /// Signs in and merges `merge_token`'s identity into the account.
    pub fn sign_in_merge(&self, user: &str, password: &str, merge_token: &str) -> Result<SignInResult> {
        let (u, p, m) = (c(user)?, c(password)?, c(merge_token)?);
        out_doc(|out| unsafe { sys::jump_client_sign_in_merge(self.ptr, u.as_ptr(), p.as_ptr(), m.as_ptr(), out) })
    }

    /// [`Client::sign_in_merge`] as a [`Pending`] (await it, or wait on it).
    pub fn sign_in_merge_async(&self, user: &str, password: &str, merge_token: &str) -> Result<Pending<SignInResult>> {
        let (u, p, m) = (c(user)?, c(password)?, c(merge_token)?);
        self.pend(|(cb, ud, free, out)| unsafe {
            sys::jump_client_sign_in_merge_async(self.ptr, u.as_ptr(), p.as_ptr(), m.as_ptr(), cb, ud, free, out)
        })
    }

    /// The signed-in user's linked identities.
    pub fn linked_profiles(&self) -> Result<Vec<LinkedProfile>> {
        out_doc(|out| unsafe { sys::jump_client_linked_profiles(self.ptr, out) })
    }

    /// Unlinks an identity.
    pub fn unlink_account(&self, identifier: &str) -> Result<()> {
        let i = c(identifier)?;
        check(unsafe { sys::jump_client_unlink_account(self.ptr, i.as_ptr()) })
    }

    /// [`Client::unlink_account`] as a [`Pending`] (await it, or wait on it).
    pub fn unlink_account_async(&self, identifier: &str) -> Result<Pending<()>> {
        let i = c(identifier)?;
        self.pend(|(cb, ud, free, out)| unsafe { sys::jump_client_unlink_account_async(self.ptr, i.as_ptr(), cb, ud, free, out) })
    }

    /// Shares an activity to providers: each provider's outcome.
    pub fn share(&self, activity_json: &str, providers_json: &str) -> Result<ShareResult> {
        let (a, p) = (c(activity_json)?, c(providers_json)?);
        out_doc(|out| unsafe { sys::jump_client_share(self.ptr, a.as_ptr(), p.as_ptr(), out) })
    }

    /// [`Client::share`] as a [`Pending`] (await it, or wait on it).
    pub fn share_async(&self, activity_json: &str, providers_json: &str) -> Result<Pending<ShareResult>> {
        let (a, p) = (c(activity_json)?, c(providers_json)?);
        self.pend(|(cb, ud, free, out)| unsafe { sys::jump_client_share_async(self.ptr, a.as_ptr(), p.as_ptr(), cb, ud, free, out) })
    }

    /// Email and SMS content for an activity.
    pub fn share_content(&self, activity_json: &str) -> Result<ShareContent> {
        let a = c(activity_json)?;
        out_doc(|out| unsafe { sys::jump_client_share_content(self.ptr, a.as_ptr(), out) })
    }
}
