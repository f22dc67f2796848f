//! How callbacks reach the host: the event callback, a host dispatcher, or queue mode (jump.h,
//! "Callbacks" and jump_client_use_event_queue).
use std::os::raw::{c_char, c_int, c_void};
use std::sync::{Arc, Mutex};

use crate::client::Client;
use crate::error::{check, Result};
use crate::ffi::{borrowed, guard, out_string};
use crate::json;
use crate::results::FromValue;
use crate::results_generated::{CallbackEnvelope, Event};
use crate::status::Status;
use jump_sys as sys;

/// The event callback: runs on libjump's callback thread, one event at a time and in order (so `FnMut`,
/// and `Send` because that thread is not the caller's). An event this crate cannot decode is not delivered.
pub type EventCallback = Box<dyn FnMut(&Event) + Send>;

/// The userdata of the event callback. libjump's own thread calls it one event at a time, but a host
/// dispatcher may run jobs on several threads at once, so the FnMut is reached through a lock: never two
/// `&mut` at once.
type EventUserdata = Mutex<EventCallback>;

unsafe extern "C" fn on_event(userdata: *mut c_void, text: *const c_char) {
    guard((), || {
        let callback = &*(userdata as *const EventUserdata);
        if let Some(doc) = json::parse(&borrowed(text)).and_then(|v| Event::from_value(&v).ok()) {
            let mut f = callback.lock().unwrap_or_else(|e| e.into_inner());
            f(&doc)
        }
    })
}

unsafe extern "C" fn free_event(userdata: *mut c_void) {
    guard((), || drop(Box::from_raw(userdata as *mut EventUserdata)))
}

/// A unit of libjump's work a dispatcher must run on the host's thread, exactly once ([`Job::run`]);
/// a Job dropped without running leaks what libjump allocated for it.
pub struct Job {
    job: unsafe extern "C" fn(*mut c_void),
    arg: *mut c_void,
}

// SAFETY: moving the job to another thread is the point of a dispatcher (jump_dispatch_fn: "run
// job(arg) later on the host's thread"); libjump made it to run on any host thread. Not Sync: it runs
// once, by value.
unsafe impl Send for Job {}

impl Job {
    /// Runs the job (the callbacks it delivers run inside).
    pub fn run(self) {
        // SAFETY: job and arg came together from libjump's dispatch call, and run consumes the Job: once.
        unsafe { (self.job)(self.arg) }
    }
}

/// A host dispatcher: called on libjump's threads (possibly several at once), it must arrange for the
/// Job to run later on the host's thread.
pub type Dispatcher = Arc<dyn Fn(Job) + Send + Sync>;

unsafe extern "C" fn dispatch(context: *mut c_void, job: Option<unsafe extern "C" fn(*mut c_void)>, arg: *mut c_void) {
    guard((), || {
        let dispatcher = &*(context as *const Dispatcher);
        if let Some(job) = job {
            dispatcher(Job { job, arg })
        }
    })
}

impl Client {
    /// Sets the event callback (None removes it): an [`Event`] (signed in, signed out, token refreshed, ...).
    pub fn set_event_callback(&self, callback: Option<EventCallback>) -> Result<()> {
        let status = match callback {
            // SAFETY: removing: no userdata.
            None => unsafe { sys::jump_client_set_event_callback(self.ptr, None, std::ptr::null_mut(), None) },
            Some(f) => {
                let userdata = Box::into_raw(Box::new(Mutex::new(f))) as *mut c_void;
                // SAFETY: libjump owns userdata from here and frees it with free_event exactly once.
                unsafe { sys::jump_client_set_event_callback(self.ptr, Some(on_event), userdata, Some(free_event)) }
            }
        };
        check(status)
    }

    /// Routes this client's callbacks through `dispatcher` (None: libjump's own thread again). libjump
    /// never says when it has stopped using a dispatcher (jump_client_set_dispatcher has no free
    /// function), so each one installed stays allocated for the life of the process: install one, once.
    pub fn set_dispatcher(&self, dispatcher: Option<Dispatcher>) -> Result<()> {
        let status = match dispatcher {
            // SAFETY: removing: no context.
            None => unsafe { sys::jump_client_set_dispatcher(self.ptr, None, std::ptr::null_mut()) },
            Some(d) => {
                let context = Box::into_raw(Box::new(d)) as *mut c_void; // leaked on purpose, see above
                // SAFETY: context stays valid for ever.
                unsafe { sys::jump_client_set_dispatcher(self.ptr, Some(dispatch), context) }
            }
        };
        check(status)
    }

    /// Queue mode: completions and events wait for [`Client::next_event`] instead of running on libjump's
    /// thread (false delivers what still waits to the callbacks).
    pub fn use_event_queue(&self, enabled: bool) -> Result<()> {
        // SAFETY: our handle.
        check(unsafe { sys::jump_client_use_event_queue(self.ptr, enabled as i32) })
    }

    /// A descriptor readable while the queue holds a document (queue mode only).
    pub fn event_fd(&self) -> Result<c_int> {
        let mut fd: c_int = -1;
        // SAFETY: our handle; fd is a valid out-pointer.
        check(unsafe { sys::jump_client_event_fd(self.ptr, &mut fd) })?;
        Ok(fd)
    }

    /// The oldest queued document (a completion or an event: its `kind`; an event decodes to an [`Event`]
    /// with `Event::from_value(envelope.raw())`), or None when none waits (never blocks). An async call's
    /// completion also reaches its [`crate::Pending`] here, on this thread.
    pub fn next_event(&self) -> Result<Option<CallbackEnvelope>> {
        // SAFETY: our handle; out is a valid out-pointer.
        match out_string(|out| unsafe { sys::jump_client_next_event(self.ptr, out) }) {
            Ok(text) => text.and_then(|t| json::parse(&t)).map(|v| CallbackEnvelope::from_value(&v)).transpose(),
            Err(e) if e.status() == Status::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }
}
