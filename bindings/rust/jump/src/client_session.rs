//! Sign-in tokens, API keys, identify, authorized requests and credentials (jump.h, "Sign-in tokens and
//! API keys" and "Authorized requests").
use std::os::raw::{c_char, c_void};
use std::ptr;
use std::time::Duration;

use crate::client::Client;
use crate::error::{check, Result};
use crate::ffi::{borrowed, c, c_opt, guard, out_doc, out_string, ptr_of};
use crate::request::Pending;
use crate::results_generated::{Credentials, HttpResponse, IdentifyResult, SignInStatus, SignInTokenInfo, SignInWithTokenResult};
use crate::status::Status;
use jump_sys as sys;

/// Decodes a sign-in token without using it: its user, team, environment, region and expiry.
pub fn decode_sign_in_token(sign_in_token: &str) -> Result<SignInTokenInfo> {
    let t = c(sign_in_token)?;
    // SAFETY: t outlives the call; out is a valid out-pointer.
    out_doc(|out| unsafe { sys::jump_sign_in_token_decode(t.as_ptr(), out) })
}

/// The app's answer for identify: the credential as JSON ({"type":"sign_in_token","sign_in_token":..}
/// or {"type":"api_key",..}), or a status that fails the identify.
pub type Authenticate<'a> = dyn FnMut(&str) -> std::result::Result<String, Status> + 'a;

unsafe extern "C" fn authenticate(
    userdata: *mut c_void,
    external_user_id: *const c_char,
    sink: sys::jump_storage_sink,
    sink_context: *mut c_void,
) -> sys::jump_status {
    guard(sys::JUMP_E_INTERNAL, || {
        let f = &mut *(userdata as *mut &mut Authenticate<'_>);
        match (f(&borrowed(external_user_id)), sink) {
            (Ok(credential), Some(sink)) => {
                sink(sink_context, credential.as_ptr() as *const c_char, credential.len());
                sys::JUMP_OK
            }
            (Ok(_), None) => sys::JUMP_E_INTERNAL,
            (Err(s), _) => crate::ffi::status_code(Err(s)),
        }
    })
}

/// A minimum lifetime as jump.h's `int64_t min_ttl_seconds`: whole seconds, a fraction rounded up (a
/// credential that must last 1.5 s must last 2 s), at most i64::MAX.
fn ttl_seconds(min_ttl: Duration) -> i64 {
    let seconds = min_ttl.as_secs().saturating_add(u64::from(min_ttl.subsec_nanos() != 0));
    seconds.min(i64::MAX as u64) as i64
}

/// An HTTP body for [`Client::request`].
fn body_parts(body: Option<&[u8]>) -> (*const c_char, usize) {
    body.map_or((ptr::null(), 0), |b| (b.as_ptr() as *const c_char, b.len()))
}

impl Client {
    /// Exchanges a sign-in token for a session: the user, whether it changed, whether an API-key session
    /// of the same user became this one.
    pub fn sign_in_with_token(&self, sign_in_token: &str) -> Result<SignInWithTokenResult> {
        let t = c(sign_in_token)?;
        // SAFETY (every call in this file): self.ptr is alive while &self is; CStrings and slices outlive
        // the call; out-pointers are valid.
        out_doc(|out| unsafe { sys::jump_client_sign_in_with_token(self.ptr, t.as_ptr(), out) })
    }

    /// [`Client::sign_in_with_token`] as a [`Pending`] (await it, or wait on it).
    pub fn sign_in_with_token_async(&self, sign_in_token: &str) -> Result<Pending<SignInWithTokenResult>> {
        let t = c(sign_in_token)?;
        self.pend(|(cb, ud, free, out)| unsafe { sys::jump_client_sign_in_with_token_async(self.ptr, t.as_ptr(), cb, ud, free, out) })
    }

    /// API-key mode (`user_id` may be None).
    pub fn use_api_key(&self, api_key: &str, user_id: Option<&str>, environment: &str, region: &str) -> Result<()> {
        let (k, u, e, r) = (c(api_key)?, c_opt(user_id)?, c(environment)?, c(region)?);
        check(unsafe { sys::jump_client_use_api_key(self.ptr, k.as_ptr(), ptr_of(&u), e.as_ptr(), r.as_ptr()) })
    }

    /// The sign-in status (configured, signed in, sign-in token or API-key mode, the user, ...).
    pub fn status(&self) -> Result<SignInStatus> {
        out_doc(|out| unsafe { sys::jump_client_status(self.ptr, out) })
    }

    /// Makes the signed-in user the one of `external_user_id`; `authenticate` (run on this thread, only
    /// when a credential is needed) supplies it. What it did, and the user.
    pub fn identify_external_user(
        &self,
        external_user_id: &str,
        mut authenticate_with: impl FnMut(&str) -> std::result::Result<String, Status>,
    ) -> Result<IdentifyResult> {
        let id = c(external_user_id)?;
        let mut f: &mut Authenticate<'_> = &mut authenticate_with;
        let userdata = &mut f as *mut &mut Authenticate<'_> as *mut c_void;
        out_doc(|out| unsafe {
            sys::jump_client_identify_external_user(self.ptr, id.as_ptr(), Some(authenticate), userdata, out)
        })
    }

    /// An authorized HTTP request with the client's credential: the server's answer (any HTTP status).
    pub fn request(&self, method: &str, url: &str, headers_json: Option<&str>, body: Option<&[u8]>) -> Result<HttpResponse> {
        let (m, u, h) = (c(method)?, c(url)?, c_opt(headers_json)?);
        let (b, n) = body_parts(body);
        out_doc(|out| unsafe { sys::jump_client_request(self.ptr, m.as_ptr(), u.as_ptr(), ptr_of(&h), b, n, out) })
    }

    /// [`Client::request`] as a [`Pending`] (await it, or wait on it).
    pub fn request_async(&self, method: &str, url: &str, headers_json: Option<&str>, body: Option<&[u8]>) -> Result<Pending<HttpResponse>> {
        let (m, u, h) = (c(method)?, c(url)?, c_opt(headers_json)?);
        let (b, n) = body_parts(body);
        self.pend(|(cb, ud, free, out)| unsafe {
            sys::jump_client_request_async(self.ptr, m.as_ptr(), u.as_ptr(), ptr_of(&h), b, n, cb, ud, free, out)
        })
    }

    /// Web login: keeps the token a login page left in its cookies or title; returns it (a secret).
    pub fn use_web_login(&self, page_url: &str, cookies: Option<&str>, title: Option<&str>) -> Result<String> {
        let (p, k, t) = (c(page_url)?, c_opt(cookies)?, c_opt(title)?);
        let token = out_string(|out| unsafe { sys::jump_client_use_web_login(self.ptr, p.as_ptr(), ptr_of(&k), ptr_of(&t), out) })?;
        Ok(token.unwrap_or_default())
    }

    /// A valid access token (a secret: do not log it).
    pub fn access_token(&self) -> Result<String> {
        Ok(out_string(|out| unsafe { sys::jump_client_access_token(self.ptr, out) })?.unwrap_or_default())
    }

    /// Refreshes the session's access token now.
    pub fn refresh_access_token(&self) -> Result<()> {
        check(unsafe { sys::jump_client_refresh_access_token(self.ptr) })
    }

    /// The credential a request would send (its kind, the access token, when it expires, whether this call
    /// refreshed it), refreshed first when it has `min_ttl` or less left, or always
    /// with `force_refresh`. libjump counts whole seconds: a fraction of `min_ttl` is rounded up.
    ///
    /// ```no_run
    /// # fn main() -> jump::Result<()> {
    /// # let client = jump::Client::from_json("{\"storageDirectory\":\":memory:\"}")?;
    /// use std::time::Duration;
    /// // a token that lasts at least another minute, refreshed first if need be
    /// let credential = client.credentials(Duration::from_secs(60), false)?;
    /// let token = &credential.access_token; // a secret: do not log it ({:?} shows <redacted>)
    /// # let _ = token;
    /// # Ok(())
    /// # }
    /// ```
    pub fn credentials(&self, min_ttl: Duration, force_refresh: bool) -> Result<Credentials> {
        let flags = if force_refresh { sys::JUMP_CREDENTIALS_FORCE_REFRESH } else { 0 };
        out_doc(|out| unsafe { sys::jump_client_credentials(self.ptr, ttl_seconds(min_ttl), flags, out) })
    }

    /// [`Client::credentials`] as a [`Pending`] (await it, or wait on it).
    pub fn credentials_async(&self, min_ttl: Duration, force_refresh: bool) -> Result<Pending<Credentials>> {
        let flags = if force_refresh { sys::JUMP_CREDENTIALS_FORCE_REFRESH } else { 0 };
        let ttl = ttl_seconds(min_ttl);
        self.pend(|(cb, ud, free, out)| unsafe { sys::jump_client_credentials_async(self.ptr, ttl, flags, cb, ud, free, out) })
    }

    /// Whether the credential held now lasts more than `min_ttl` (whole seconds, a fraction rounded up;
    /// memory only: no network, no storage).
    pub fn has_valid_credentials(&self, min_ttl: Duration) -> bool {
        unsafe { sys::jump_client_has_valid_credentials(self.ptr, ttl_seconds(min_ttl)) == 1 }
    }
}

#[cfg(test)]
mod tests {
    use super::ttl_seconds;
    use std::time::Duration;

    #[test]
    fn ttl_is_whole_seconds_rounded_up() {
        assert_eq!(ttl_seconds(Duration::ZERO), 0);
        assert_eq!(ttl_seconds(Duration::from_secs(60)), 60);
        assert_eq!(ttl_seconds(Duration::from_millis(1500)), 2);
        assert_eq!(ttl_seconds(Duration::from_nanos(1)), 1);
        assert_eq!(ttl_seconds(Duration::MAX), i64::MAX);
    }
}
