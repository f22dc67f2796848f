//! Asynchronous calls: [`Pending`] is the in-flight operation (jump_request); its completion arrives on
//! libjump's callback thread, is kept for [`Pending::wait`], and goes to the closure of
//! [`Pending::on_complete`], if any.
use std::os::raw::{c_char, c_void};
use std::ptr;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use crate::error::{check, Error, Result};
use crate::ffi::{borrowed, guard};
use crate::json::{self, Value};
use crate::status::Status;
use jump_sys as sys;

/// What runs when an operation completes (on libjump's callback thread: it must be `Send`).
pub type Completion = Box<dyn FnOnce(&Result<Value>) + Send>;

#[derive(Default)]
struct State {
    result: Option<Result<Value>>,
    then: Option<Completion>,
}

#[derive(Default)]
pub(crate) struct Slot {
    state: Mutex<State>,
    done: Condvar,
}

impl Slot {
    fn complete(&self, result: Result<Value>) {
        let then = {
            let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
            state.result = Some(result.clone());
            state.then.take()
        };
        self.done.notify_all();
        if let Some(f) = then {
            f(&result);
        }
    }
}

/// The completion document: {"status":0,"result":..} or {"status":<negative>,"error":{<detail>}}.
pub(crate) fn completion_result(text: &str) -> Result<Value> {
    let doc = json::parse(text).ok_or_else(|| Error::local(Status::Internal, "unreadable completion document"))?;
    let status = doc.get("status").and_then(Value::as_i64).unwrap_or(sys::JUMP_E_INTERNAL as i64) as i32;
    if status == sys::JUMP_OK {
        Ok(doc.get("result").cloned().unwrap_or(Value::Null))
    } else {
        Err(Error::from_detail(status, doc.get("error").cloned().unwrap_or(Value::Null)))
    }
}

/// An operation in flight. Dropping it releases the handle only: the operation goes on (cancel it first
/// to stop it), and its completion still reaches `on_complete`.
pub struct Pending {
    request: *mut sys::jump_request,
    slot: Arc<Slot>,
}

// SAFETY: a jump_request may be used from any thread at once (jump.h, "Thread safety"); the rest is an
// Arc<Slot>, whose Mutex and Condvar are Send and Sync.
unsafe impl Send for Pending {}
// SAFETY: as above: cancel, wait and id may run on several threads at once on one jump_request.
unsafe impl Sync for Pending {}

/// The userdata of an _async call: the slot its completion goes to.
struct Userdata {
    slot: Arc<Slot>,
}

unsafe extern "C" fn on_completion(userdata: *mut c_void, text: *const c_char) {
    guard((), || {
        let data = &*(userdata as *const Userdata);
        data.slot.complete(completion_result(&borrowed(text)));
    })
}

unsafe extern "C" fn free_userdata(userdata: *mut c_void) {
    guard((), || drop(Box::from_raw(userdata as *mut Userdata)))
}

/// Starts an _async call: `call(callback, userdata, userdata_free, out_request)`. libjump owns the
/// userdata from then on and frees it with userdata_free once the callback ran (exactly once, also when the
/// call fails to start, in which case the error is returned here and the slot gets it too).
pub(crate) fn start(
    call: impl FnOnce(sys::jump_callback, *mut c_void, sys::jump_free_fn, *mut *mut sys::jump_request) -> sys::jump_status,
) -> Result<Pending> {
    let slot = Arc::new(Slot::default());
    let userdata = Box::into_raw(Box::new(Userdata { slot: slot.clone() })) as *mut c_void;
    let mut request: *mut sys::jump_request = ptr::null_mut();
    let status = call(Some(on_completion), userdata, Some(free_userdata), &mut request);
    let started = check(status);
    let pending = Pending { request, slot };
    started.map(|_| pending)
}

/// Like [`start`] for the calls whose userdata also serves another function pointer (the loopback
/// sign-in's open_url): `extra` is kept beside the slot and reachable from that function.
pub(crate) struct WithExtra<T> {
    slot: Arc<Slot>,
    pub(crate) extra: T,
}

unsafe extern "C" fn on_completion_extra<T>(userdata: *mut c_void, text: *const c_char) {
    guard((), || {
        let data = &*(userdata as *const WithExtra<T>);
        data.slot.complete(completion_result(&borrowed(text)));
    })
}

unsafe extern "C" fn free_extra<T>(userdata: *mut c_void) {
    guard((), || drop(Box::from_raw(userdata as *mut WithExtra<T>)))
}

pub(crate) fn start_with<T: Send + 'static>(
    extra: T,
    call: impl FnOnce(sys::jump_callback, *mut c_void, sys::jump_free_fn, *mut *mut sys::jump_request) -> sys::jump_status,
) -> Result<Pending> {
    let slot = Arc::new(Slot::default());
    let userdata = Box::into_raw(Box::new(WithExtra { slot: slot.clone(), extra })) as *mut c_void;
    let mut request: *mut sys::jump_request = ptr::null_mut();
    let status = call(Some(on_completion_extra::<T>), userdata, Some(free_extra::<T>), &mut request);
    let started = check(status);
    let pending = Pending { request, slot };
    started.map(|_| pending)
}

impl Pending {
    /// Asks the operation to stop: it completes with [`Status::Cancelled`] unless it had finished.
    pub fn cancel(&self) -> Result<()> {
        // SAFETY: request is this Pending's own handle, freed only in Drop.
        check(unsafe { sys::jump_request_cancel(self.request) })
    }

    /// The request's id (the "request_id" of its completion in queue mode).
    pub fn id(&self) -> Result<u64> {
        let mut id = 0u64;
        // SAFETY: as in cancel; id is a valid out-pointer.
        check(unsafe { sys::jump_request_id(self.request, &mut id) })?;
        Ok(id)
    }

    /// Waits for the completion and returns its result (a copy: wait may be called again).
    /// [`Status::Busy`] on libjump's callback thread (it would wait for itself). In queue mode the
    /// completion runs when the host pumps [`crate::Client::next_event`]: pump first, or wait on another thread.
    pub fn wait(&self) -> Result<Value> {
        self.wait_timeout(None).unwrap_or_else(|| Err(Error::local(Status::Timeout, "not completed")))
    }

    /// [`Pending::wait`] for at most `timeout` (`None`: no limit); `None` when it has not completed.
    pub fn wait_timeout(&self, timeout: Option<Duration>) -> Option<Result<Value>> {
        let ms = timeout.map_or(-1, |t| t.as_millis().min(i32::MAX as u128) as i32);
        // SAFETY: as in cancel.
        match check(unsafe { sys::jump_request_wait(self.request, ms) }) {
            Ok(()) => {}
            Err(e) if e.status() == Status::Timeout => return None,
            Err(e) => return Some(Err(e)),
        }
        let state = self.slot.state.lock().unwrap_or_else(|e| e.into_inner());
        match &state.result {
            Some(r) => Some(r.clone()),
            // queue mode: queued, but the callback runs only once the host pumps it
            None => Some(Err(Error::local(Status::Busy, "the completion is queued: pump Client::next_event first"))),
        }
    }

    /// The result if the operation has completed, without waiting.
    pub fn try_result(&self) -> Option<Result<Value>> {
        self.slot.state.lock().unwrap_or_else(|e| e.into_inner()).result.clone()
    }

    /// Blocks on the completion itself (not jump_request_wait): for a thread that is not libjump's
    /// while another thread pumps the queue.
    pub fn wait_completion(&self, timeout: Duration) -> Option<Result<Value>> {
        let state = self.slot.state.lock().unwrap_or_else(|e| e.into_inner());
        let (state, _) = self
            .slot
            .done
            .wait_timeout_while(state, timeout, |s| s.result.is_none())
            .unwrap_or_else(|e| e.into_inner());
        state.result.clone()
    }

    /// Runs `f` with the result once the operation completes: at once, on this thread, when it already
    /// has; otherwise on the thread that delivers the completion.
    pub fn on_complete(&self, f: impl FnOnce(&Result<Value>) + Send + 'static) {
        let mut state = self.slot.state.lock().unwrap_or_else(|e| e.into_inner());
        match state.result.clone() {
            Some(r) => {
                drop(state);
                f(&r);
            }
            None => state.then = Some(Box::new(f)),
        }
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        // SAFETY: the handle is this Pending's own; NULL (a call that failed to start) is a no-op.
        unsafe { sys::jump_request_free(self.request) }
    }
}
