//! [`Record`]: a live view of the signed-in user's record (jump_record). Paths: "/", "/aboutMe",
//! "/primaryAddress/city", "/photos#12/value". Edits are local (and saved) until [`crate::Client::sync`].
use std::marker::PhantomData;
use std::os::raw::c_int;

use crate::client::Client;
use crate::error::{check, Result};
use crate::ffi::{c, c_opt, out_doc, out_json, out_string, ptr_of};
use crate::json::Value;
use crate::results_generated::RecordChanges;
use jump_sys as sys;

/// A record view; it borrows its client, so the client outlives it.
///
/// ```no_run
/// # fn main() -> jump::Result<()> {
/// # let client = jump::Client::from_json("{\"storageDirectory\":\":memory:\"}")?;
/// let record = client.record()?; // needs a signed-in user
/// println!("{:?}", record.get_string("/givenName")?);
/// record.set_string("/aboutMe", Some("hi"))?;
/// let photo = record.append("/photos", "{\"type\":\"avatar\",\"value\":\"https://example.com/a.png\"}")?;
/// client.sync()?; // sends both edits; the photo gets the server's id
/// # let _ = photo;
/// # Ok(())
/// # }
/// ```
pub struct Record<'c> {
    pub(crate) ptr: *mut sys::jump_record,
    pub(crate) client: PhantomData<&'c Client>,
}

// SAFETY: a jump_record may be used from any thread at once (jump.h, "Thread safety"); the borrow of the
// client is Send and Sync since Client is.
unsafe impl Send for Record<'_> {}
// SAFETY: as above; every method takes &self and only calls libjump.
unsafe impl Sync for Record<'_> {}

impl Record<'_> {
    /// The value at path ([`crate::Status::NotFound`] when it does not exist).
    pub fn get(&self, path: &str) -> Result<Value> {
        let p = c(path)?;
        // SAFETY (every call in this file): self.ptr is alive while &self is; CStrings outlive the call;
        // out-pointers are valid.
        out_json(|out| unsafe { sys::jump_record_get(self.ptr, p.as_ptr(), out) })
    }

    /// The string at path (None for JSON null).
    pub fn get_string(&self, path: &str) -> Result<Option<String>> {
        let p = c(path)?;
        out_string(|out| unsafe { sys::jump_record_get_string(self.ptr, p.as_ptr(), out) })
    }

    /// The number at path as an i64 (a JSON integer, or a real with an integral value within i64);
    /// [`crate::Status::NotFound`] for JSON null.
    pub fn get_i64(&self, path: &str) -> Result<i64> {
        let (p, mut v) = (c(path)?, 0i64);
        check(unsafe { sys::jump_record_get_int64(self.ptr, p.as_ptr(), &mut v) })?;
        Ok(v)
    }

    /// The number at path as an f64 (integers converted); [`crate::Status::NotFound`] for JSON null.
    pub fn get_f64(&self, path: &str) -> Result<f64> {
        let (p, mut v) = (c(path)?, 0f64);
        check(unsafe { sys::jump_record_get_double(self.ptr, p.as_ptr(), &mut v) })?;
        Ok(v)
    }

    /// The boolean at path; [`crate::Status::NotFound`] for JSON null.
    pub fn get_bool(&self, path: &str) -> Result<bool> {
        let (p, mut v) = (c(path)?, 0 as c_int);
        check(unsafe { sys::jump_record_get_bool(self.ptr, p.as_ptr(), &mut v) })?;
        Ok(v != 0)
    }

    /// Sets the attribute at path to a JSON value (text).
    pub fn set(&self, path: &str, value_json: &str) -> Result<()> {
        let (p, v) = (c(path)?, c(value_json)?);
        check(unsafe { sys::jump_record_set(self.ptr, p.as_ptr(), v.as_ptr()) })
    }

    /// Sets the attribute at path to a string (None: JSON null).
    pub fn set_string(&self, path: &str, value: Option<&str>) -> Result<()> {
        let (p, v) = (c(path)?, c_opt(value)?);
        check(unsafe { sys::jump_record_set_string(self.ptr, p.as_ptr(), ptr_of(&v)) })
    }

    /// Clears the value at path.
    pub fn clear(&self, path: &str) -> Result<()> {
        let p = c(path)?;
        check(unsafe { sys::jump_record_clear(self.ptr, p.as_ptr()) })
    }

    /// Appends an element (a JSON object) to a plural; returns its path ("/photos#-1").
    pub fn append(&self, plural_path: &str, element_json: &str) -> Result<String> {
        let (p, e) = (c(plural_path)?, c(element_json)?);
        Ok(out_string(|out| unsafe { sys::jump_record_append(self.ptr, p.as_ptr(), e.as_ptr(), out) })?.unwrap_or_default())
    }

    /// Removes a plural element ("/photos#12").
    pub fn remove(&self, element_path: &str) -> Result<()> {
        let p = c(element_path)?;
        check(unsafe { sys::jump_record_remove(self.ptr, p.as_ptr()) })
    }

    /// Replaces every element of a plural with `elements_json` (a JSON array of objects).
    pub fn replace_plural(&self, plural_path: &str, elements_json: &str) -> Result<()> {
        let (p, e) = (c(plural_path)?, c(elements_json)?);
        check(unsafe { sys::jump_record_replace_plural(self.ptr, p.as_ptr(), e.as_ptr()) })
    }

    /// The number of elements of a plural.
    pub fn element_count(&self, plural_path: &str) -> Result<usize> {
        let (p, mut n) = (c(plural_path)?, 0usize);
        check(unsafe { sys::jump_record_element_count(self.ptr, p.as_ptr(), &mut n) })?;
        Ok(n)
    }

    /// The paths of a plural's elements, in order.
    pub fn element_paths(&self, plural_path: &str) -> Result<Vec<String>> {
        let p = c(plural_path)?;
        out_doc(|out| unsafe { sys::jump_record_element_paths(self.ptr, p.as_ptr(), out) })
    }

    /// The unsynced changes: the paths changed, the root's entity.update attributes, the requests a sync
    /// would send now.
    pub fn changes(&self) -> Result<RecordChanges> {
        out_doc(|out| unsafe { sys::jump_record_changes(self.ptr, out) })
    }

    /// Drops the unsynced edits at path and below.
    pub fn revert(&self, path: &str) -> Result<()> {
        let p = c(path)?;
        check(unsafe { sys::jump_record_revert(self.ptr, p.as_ptr()) })
    }

    /// Drops every unsynced change.
    pub fn discard_changes(&self) -> Result<()> {
        check(unsafe { sys::jump_record_discard_changes(self.ptr) })
    }
}

impl Drop for Record<'_> {
    fn drop(&mut self) {
        // SAFETY: our view, freed once (the record itself belongs to the client).
        unsafe { sys::jump_record_free(self.ptr) }
    }
}
