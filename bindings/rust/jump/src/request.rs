//! Asynchronous calls: [`Pending`] is the in-flight operation (jump_request). Its completion arrives on
//! libjump's callback thread and is kept in a slot shared with the C userdata: [`Pending::wait`] reads it,
//! the closure of [`Pending::on_complete`] gets it, and the task that awaits the [`Pending`] (it is a
//! [`Future`]) is woken. Dropping an unfinished [`Pending`] cancels the operation.
use std::future::Future;
use std::marker::PhantomData;
use std::os::raw::{c_char, c_void};
use std::pin::Pin;
use std::ptr;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::task::{Context, Poll, Waker};
use std::time::Duration;

use crate::error::{check, Error, Result};
use crate::ffi::{borrowed, guard};
use crate::json::{self, Value};
use crate::results::{decode, FromValue};
use crate::status::Status;
use jump_sys as sys;

/// What runs when an operation completes (on libjump's callback thread: it must be `Send`), given the
/// completion's "result" document undecoded ([`Pending::on_complete`] decodes it first).
pub type Completion = Box<dyn FnOnce(&Result<Value>) + Send>;

#[derive(Default)]
struct State {
    result: Option<Result<Value>>,
    then: Option<Completion>,
    /// The task awaiting the [`Pending`], woken by the completion.
    waker: Option<Waker>,
}

/// Where a completion goes: shared (Arc) by the [`Pending`] and the C userdata, so either may go first.
#[derive(Default)]
pub(crate) struct Slot {
    state: Mutex<State>,
    done: Condvar,
}

impl Slot {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn complete(&self, result: Result<Value>) {
        let (then, waker) = {
            let mut state = self.lock();
            state.result = Some(result.clone());
            (state.then.take(), state.waker.take())
        };
        self.done.notify_all();
        // Outside the lock: a waker or a closure may poll, wait on or drop the Pending at once.
        if let Some(w) = waker {
            w.wake();
        }
        if let Some(f) = then {
            f(&result);
        }
    }
}

/// A wait as jump_request_wait takes it: whole milliseconds, rounded up (never shorter than asked), at
/// most i32::MAX.
pub(crate) fn millis_ceil(d: Duration) -> i32 {
    let nanos = d.as_nanos();
    let ms = nanos / 1_000_000 + u128::from(nanos % 1_000_000 != 0);
    ms.min(i32::MAX as u128) as i32
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

/// An operation in flight (a jump_request), returned by every `_async` call; `T` is its result: the typed
/// document of the blocking call (e.g. [`crate::SignInResult`] for [`crate::Client::sign_in_async`]), `()`
/// for a call that returns none. Three ways to its result:
///
/// - `.await` it: it is a [`Future`] (no runtime needed: tokio, async-std, smol or
///   `futures::executor::block_on` all drive it; the completion wakes the task);
/// - block on it: [`Pending::wait`], [`Pending::wait_timeout`], [`Pending::wait_completion`];
/// - [`Pending::on_complete`]: a closure run with the result.
///
/// Dropping a `Pending` whose operation has not completed **cancels** the operation (as
/// [`Pending::cancel`]; its completion reports [`Status::Cancelled`] unless it had already finished), as
/// dropping a future does in Rust: a `select!` or timeout that gives up on it stops it. A closure given to
/// [`Pending::on_complete`] still runs, with that result. To let an operation go on without its handle,
/// [`Pending::detach`] it.
///
/// ```no_run
/// # fn main() -> jump::Result<()> {
/// # let client = jump::Client::from_json("{\"storageDirectory\":\":memory:\"}")?;
/// // blocking
/// let signed_in = client.sign_in_async("ada@example.com", "correct horse 1")?.wait()?;
/// println!("{}", signed_in.uuid);
/// # Ok(())
/// # }
/// // in async code (any executor)
/// async fn sync_now(client: &jump::Client) -> jump::Result<jump::SyncResult> {
///     client.sync_async()?.await
/// }
/// ```
#[must_use = "dropping a Pending cancels its operation: await it, wait on it, or detach it"]
pub struct Pending<T = Value> {
    request: *mut sys::jump_request,
    slot: Arc<Slot>,
    /// Set by [`Pending::detach`]: the drop frees the handle without cancelling.
    detached: bool,
    /// The slot holds the completion's document as a Value; each way to the result decodes it into a T.
    result: PhantomData<fn() -> T>,
}

// SAFETY: a jump_request may be used from any thread at once (jump.h, "Thread safety"); the rest is an
// Arc<Slot>, whose Mutex and Condvar are Send and Sync.
unsafe impl<T> Send for Pending<T> {}
// SAFETY: as above: cancel, wait and id may run on several threads at once on one jump_request.
unsafe impl<T> Sync for Pending<T> {}

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
pub(crate) fn start<T>(
    call: impl FnOnce(sys::jump_callback, *mut c_void, sys::jump_free_fn, *mut *mut sys::jump_request) -> sys::jump_status,
) -> Result<Pending<T>> {
    let slot = Arc::new(Slot::default());
    let userdata = Box::into_raw(Box::new(Userdata { slot: slot.clone() })) as *mut c_void;
    let mut request: *mut sys::jump_request = ptr::null_mut();
    let status = call(Some(on_completion), userdata, Some(free_userdata), &mut request);
    let started = check(status);
    let pending = Pending { request, slot, detached: false, result: PhantomData };
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

pub(crate) fn start_with<T: Send + 'static, R>(
    extra: T,
    call: impl FnOnce(sys::jump_callback, *mut c_void, sys::jump_free_fn, *mut *mut sys::jump_request) -> sys::jump_status,
) -> Result<Pending<R>> {
    let slot = Arc::new(Slot::default());
    let userdata = Box::into_raw(Box::new(WithExtra { slot: slot.clone(), extra })) as *mut c_void;
    let mut request: *mut sys::jump_request = ptr::null_mut();
    let status = call(Some(on_completion_extra::<T>), userdata, Some(free_extra::<T>), &mut request);
    let started = check(status);
    let pending = Pending { request, slot, detached: false, result: PhantomData };
    started.map(|_| pending)
}

impl<T> Pending<T> {
    /// Asks the operation to stop: it completes with [`Status::Cancelled`] unless it had finished (a
    /// request waiting on the network stops within about 100 ms). The handle stays usable: wait on it or
    /// await it for that completion.
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

    /// Lets the operation go on without this handle: it is released, not cancelled, and the completion
    /// still reaches the closure of [`Pending::on_complete`] (if one was given).
    ///
    /// ```no_run
    /// # fn main() -> jump::Result<()> {
    /// # let client = jump::Client::from_json("{\"storageDirectory\":\":memory:\"}")?;
    /// client.forgot_password_async("ada@example.com")?.detach(); // sent, whatever becomes of this code
    /// # Ok(())
    /// # }
    /// ```
    pub fn detach(mut self) {
        self.detached = true;
    }
}

impl<T: FromValue> Pending<T> {
    /// Waits for the completion and returns its result (a copy: wait may be called again).
    /// [`Status::Busy`] on libjump's callback thread (it would wait for itself). In queue mode the
    /// completion runs when the host pumps [`crate::Client::next_event`]: pump first, or wait on another thread.
    ///
    /// ```no_run
    /// # fn main() -> jump::Result<()> {
    /// # let client = jump::Client::from_json("{\"storageDirectory\":\":memory:\"}")?;
    /// let pending = client.sync_async()?;
    /// let synced = pending.wait()?;
    /// println!("changed: {:?}", synced.changed);
    /// # Ok(())
    /// # }
    /// ```
    pub fn wait(&self) -> Result<T> {
        self.wait_timeout(None).unwrap_or_else(|| Err(Error::local(Status::Timeout, "not completed")))
    }

    /// [`Pending::wait`] for at most `timeout` (`None`: no limit); `None` when it has not completed. The
    /// timeout is rounded up to whole milliseconds (libjump's unit): the wait is never shorter than asked.
    pub fn wait_timeout(&self, timeout: Option<Duration>) -> Option<Result<T>> {
        // jump_request_wait takes at most i32::MAX ms (24.8 days) at once: a longer timeout waits in turns.
        let turn = Duration::from_millis(i32::MAX as u64);
        let mut left = timeout;
        loop {
            let ms = left.map_or(-1, millis_ceil);
            // SAFETY: as in cancel.
            match check(unsafe { sys::jump_request_wait(self.request, ms) }) {
                Ok(()) => break,
                Err(e) if e.status() == Status::Timeout => match left {
                    Some(t) if t > turn => left = Some(t - turn),
                    _ => return None,
                },
                Err(e) => return Some(Err(e)),
            }
        }
        match &self.slot.lock().result {
            Some(r) => Some(decode(r)),
            // queue mode: queued, but the callback runs only once the host pumps it
            None => Some(Err(Error::local(Status::Busy, "the completion is queued: pump Client::next_event first"))),
        }
    }

    /// The result if the operation has completed, without waiting.
    pub fn try_result(&self) -> Option<Result<T>> {
        self.slot.lock().result.as_ref().map(decode)
    }

    /// Blocks on the completion itself (not jump_request_wait) for at most `timeout`: for a thread that
    /// is not libjump's while another thread pumps the queue. `None` when it has not completed.
    pub fn wait_completion(&self, timeout: Duration) -> Option<Result<T>> {
        let state = self.slot.lock();
        let (state, _) = self
            .slot
            .done
            .wait_timeout_while(state, timeout, |s| s.result.is_none())
            .unwrap_or_else(|e| e.into_inner());
        state.result.as_ref().map(decode)
    }

    /// Runs `f` with the result once the operation completes: at once, on this thread, when it already
    /// has; otherwise on the thread that delivers the completion. Keep the `Pending` (or
    /// [`Pending::detach`] it) until then: dropping it cancels the operation, and `f` gets
    /// [`Status::Cancelled`].
    ///
    /// ```no_run
    /// # fn main() -> jump::Result<()> {
    /// # let client = jump::Client::from_json("{\"storageDirectory\":\":memory:\"}")?;
    /// let pending = client.sync_async()?;
    /// pending.on_complete(|result| match result {
    ///     Ok(synced) => println!("synced: {:?}", synced.changed),
    ///     Err(e) => eprintln!("sync failed: {}", e),
    /// });
    /// pending.detach(); // or keep `pending` until then
    /// # Ok(())
    /// # }
    /// ```
    pub fn on_complete(&self, f: impl FnOnce(&Result<T>) + Send + 'static) {
        let mut state = self.slot.lock();
        match state.result.as_ref().map(decode) {
            Some(r) => {
                drop(state);
                f(&r);
            }
            None => state.then = Some(Box::new(move |r: &Result<Value>| f(&decode(r)))),
        }
    }
}

/// Awaiting a `Pending` gives the operation's result. The completion wakes the task from libjump's
/// callback thread (or from [`crate::Client::next_event`] in queue mode, or a job of the host dispatcher).
/// Polling again after `Ready` gives the same result again.
impl<T: FromValue> Future for Pending<T> {
    type Output = Result<T>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Result<T>> {
        let mut state = self.slot.lock();
        if let Some(r) = &state.result {
            return Poll::Ready(decode(r));
        }
        // Under the lock, so a completion cannot slip between the check above and this: it takes the waker
        // once it has stored the result, and this poll saw none.
        match &state.waker {
            Some(w) if w.will_wake(cx.waker()) => {}
            _ => state.waker = Some(cx.waker().clone()),
        }
        Poll::Pending
    }
}

impl<T> Drop for Pending<T> {
    fn drop(&mut self) {
        if self.request.is_null() {
            return; // a call that failed to start: no handle (its completion still comes, to the slot)
        }
        // Cancel what has not completed. A completion racing with this is harmless: cancelling a finished
        // operation changes nothing, and the callback only touches the slot, never this handle.
        if !self.detached && self.slot.lock().result.is_none() {
            // SAFETY: our handle, still alive: it is freed just below, once. The status is of no use here.
            unsafe { sys::jump_request_cancel(self.request) };
        }
        // SAFETY: the handle is this Pending's own and freed once; the operation's userdata (which holds
        // its own Arc of the slot) is libjump's, freed by userdata_free after the callback.
        unsafe { sys::jump_request_free(self.request) }
    }
}

#[cfg(test)]
mod tests {
    use super::millis_ceil;
    use std::time::Duration;

    #[test]
    fn waits_are_whole_milliseconds_rounded_up() {
        assert_eq!(millis_ceil(Duration::ZERO), 0);
        assert_eq!(millis_ceil(Duration::from_millis(250)), 250);
        assert_eq!(millis_ceil(Duration::from_micros(1500)), 2);
        assert_eq!(millis_ceil(Duration::from_nanos(1)), 1);
        assert_eq!(millis_ceil(Duration::from_secs(30 * 24 * 3600)), i32::MAX, "at most i32::MAX");
    }
}
