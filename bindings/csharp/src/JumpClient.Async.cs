// JumpClient.Async.cs - Task-returning calls and how their completions (and the client's events) arrive.
//
// Every client runs in libjump's queue mode (jump_client_use_event_queue): each _async call is started with
// NULL callbacks, its jump_request's id (jump_request_id) keys a pending entry, and PumpQueue pops queued
// documents (jump_client_next_event) on the calling thread: a completion finishes the Task whose request_id
// it carries, an event raises Event. No client code ever runs on a thread of libjump's, and libjump never
// holds a pointer into managed code. Who pumps is the delivery mode (JumpDelivery):
//  - Automatic (default): the binding's one delivery thread for the whole process (DeliveryThread,
//    "jump-csharp-events"), shared by every Automatic client, sleeps in poll(2) on all their queue fds and
//    delivers at once, each client's documents in order; one client's slow Event handler delays the others.
//    Tasks use RunContinuationsAsynchronously, so awaiting code never runs on (and never holds up) that thread.
//    Not libjump's own callback thread: Mono attaches a foreign thread on its first callback and then waits
//    at exit until it ends, which for libjump's thread ("jump-events", idle timeout 3 s) delays every
//    process exit by up to 3 s; a managed thread blocked in poll is interrupted at once.
//  - Pumped: the app calls Pump() (Unity: Update(), the main thread), or StartBackgroundPump(); completions
//    and events arrive on that thread, and continuations without a SynchronizationContext run there too.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace Jump
{
    public sealed partial class JumpClient
    {
        /// <summary>The Task of one call, typed by its result and completed directly by the delivering thread
        /// (no intermediate await), so a Pumped client's continuations run inside Pump(). Converting the result
        /// runs there too: a bad document fails the Task instead of throwing into the pump.</summary>
        abstract class Completion
        {
            public abstract void SetResult(string json);
            public abstract void SetException(Exception error);
            public abstract void SetCanceled(CancellationToken token);
        }

        sealed class Completion<T> : Completion
        {
            public readonly TaskCompletionSource<T> Source;
            readonly Func<string, T> _convert;

            public Completion(TaskCreationOptions options, Func<string, T> convert)
            {
                Source = new TaskCompletionSource<T>(options);
                _convert = convert;
            }

            public override void SetResult(string json)
            {
                T value;
                try { value = _convert(json); }
                catch (Exception e) { Source.TrySetException(e); return; }
                Source.TrySetResult(value);
            }

            public override void SetException(Exception error) { Source.TrySetException(error); }
            public override void SetCanceled(CancellationToken token) { Source.TrySetCanceled(token); }
        }

        sealed class Pending
        {
            public Completion Completion;
            public JumpRequestHandle Request;
            public CancellationToken Token;
            public CancellationTokenRegistration Registration;
            public bool HasRegistration;
            public bool CancelRequested;
            public HostCall Host;
        }

        delegate int StartFn(out JumpRequestHandle request);

        // Guards _pending; held across starting a call and registering its id, so a pump on another thread
        // that already popped the completion waits until the Task is registered.
        readonly object _pendingLock = new object();
        readonly Dictionary<ulong, Pending> _pending = new Dictionary<ulong, Pending>();
        // Serializes pumps so documents are delivered in queue order even when two threads pump.
        readonly object _pumpLock = new object();
        // Guards _backgroundPump (separate from _pumpLock, which a running Pump holds).
        readonly object _pumpStateLock = new object();
        volatile bool _disposed;
        // Who pumps: Automatic, the client's place in the shared delivery thread's set (DeliveryThread.Member,
        // for the client's lifetime); Pumped, the thread StartBackgroundPump starts (EventPump), or null.
        volatile Pumper _backgroundPump;

        /// <summary>Raised for each client event ("signed_in", "record_synced", ...), one at a time and in
        /// order with the completions: before the Task of the call that caused it completes. With
        /// JumpDelivery.Automatic it runs on the delivery thread ("jump-csharp-events") that every
        /// Automatic client of the process shares, one handler at a time: a slow handler delays the completions
        /// and events of every Automatic client, so keep handlers short and never block there on a Task of
        /// any Automatic client (its completion comes through that same thread); await it instead. With JumpDelivery.Pumped it runs on the thread that calls Pump().
        /// An exception a handler throws is kept in LastEventError; delivery goes on.</summary>
        public event EventHandler<JumpEventArgs> Event;

        /// <summary>The last exception an Event handler threw (null when none).</summary>
        public Exception LastEventError { get; private set; }

        /// <summary>How many async calls wait for their completion.</summary>
        public int PendingCount { get { lock (_pendingLock) return _pending.Count; } }

        /// <summary>Signs in with an email (or user name) and password, like <see cref="SignIn"/>. Wrong ones:
        /// the Task fails with JumpBadCredentialsException.</summary>
        /// <param name="user">The email or user name, as the sign-in form expects.</param>
        /// <param name="password">The password (a secret: never logged).</param>
        /// <param name="cancellationToken">Cancels the request (jump_request_cancel): the Task ends Canceled.</param>
        public Task<SignInResult> SignInAsync(string user, string password, CancellationToken cancellationToken = default(CancellationToken))
        {
            return Start(cancellationToken, () =>
            {
                byte[] u = Utf8.Encode(user, "user"), p = Utf8.Encode(password, "password");
                return (out JumpRequestHandle r) => Native.jump_client_sign_in_async(_handle, u, p, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, out r);
            }, json => new SignInResult(json));
        }

        /// <summary>Registers a traditional account and signs it in, like <see cref="RegisterTraditional(IDictionary{string, object}, string)"/>.</summary>
        /// <param name="attributes">Record attributes (email, displayName, givenName, ...).</param>
        /// <param name="password">The new account's password.</param>
        /// <param name="cancellationToken">Cancels the request: the Task ends Canceled.</param>
        public Task<SignInResult> RegisterTraditionalAsync(IDictionary<string, object> attributes, string password,
            CancellationToken cancellationToken = default(CancellationToken))
        {
            return Start(cancellationToken, () =>
            {
                byte[] a = Utf8.Encode(attributes == null ? null : Json.Write(attributes), "attributes"), p = Utf8.Encode(password, "password");
                return (out JumpRequestHandle r) =>
                    Native.jump_client_register_traditional_async(_handle, a, p, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, out r);
            }, json => new SignInResult(json));
        }

        /// <summary>Sends the record's unsynced changes, like <see cref="Sync"/>.</summary>
        /// <param name="cancellationToken">Cancels the sync: the Task ends Canceled (what was already sent stays sent).</param>
        public Task<SyncResult> SyncAsync(CancellationToken cancellationToken = default(CancellationToken))
        {
            return Start(cancellationToken, () => (out JumpRequestHandle r) =>
                Native.jump_client_sync_async(_handle, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, out r), json => new SyncResult(json));
        }

        /// <summary>Fetches the record from the server, keeping unsynced local edits on top, like <see cref="FetchRecord"/>.</summary>
        /// <param name="cancellationToken">Cancels the fetch: the Task ends Canceled.</param>
        public Task FetchRecordAsync(CancellationToken cancellationToken = default(CancellationToken))
        {
            return StartEmpty(cancellationToken, () => (out JumpRequestHandle r) =>
                Native.jump_client_fetch_record_async(_handle, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, out r));
        }

        /// <summary>JumpDelivery.Pumped: delivers what waits in the queue on this thread, in order: a
        /// completion finishes its Task (whose continuations without a SynchronizationContext run here, before
        /// Pump returns), an event raises Event. Returns how many documents it took; waits for nothing but a
        /// Pump running on another thread. Call it once per frame (Unity: Update()), or use
        /// StartBackgroundPump. JumpDelivery.Automatic: nothing waits for a pump, so it returns 0 at once (a
        /// game loop written for pumping keeps working). After Dispose it returns 0.</summary>
        public int Pump()
        {
            return Delivery == JumpDelivery.Pumped ? PumpQueue() : 0;
        }

        /// <summary>Pump() itself: also what the shared delivery thread runs for an Automatic client.</summary>
        internal int PumpQueue()
        {
            int taken = 0;
            lock (_pumpLock)
            {
                while (!_disposed)
                {
                    IntPtr p;
                    int status;
                    try { status = Native.jump_client_next_event(_handle, out p); }
                    catch (ObjectDisposedException) { break; } // disposed by another thread meanwhile
                    if (status == (int)JumpStatus.NotFound) break;
                    if (status != 0) throw JumpException.FromLastError(status);
                    taken++;
                    Deliver(Utf8.Take(p));
                }
            }
            return taken;
        }

        /// <summary>JumpDelivery.Pumped: pumps on a dedicated background thread that sleeps in poll(2) on
        /// jump_client_event_fd; completions and events are then delivered on that thread. Idempotent.
        /// JumpDelivery.Automatic: does nothing (the shared delivery thread already delivers).</summary>
        public void StartBackgroundPump()
        {
            if (_disposed) throw new ObjectDisposedException("JumpClient");
            if (Delivery == JumpDelivery.Pumped) StartPump();
        }

        /// <summary>JumpDelivery.Pumped: stops the background pump (and waits for its thread, unless called
        /// from it). JumpDelivery.Automatic: does nothing (Dispose takes the client off the delivery thread).</summary>
        public void StopBackgroundPump()
        {
            if (Delivery == JumpDelivery.Pumped) StopPump();
        }

        /// <summary>Automatic: joins the shared delivery thread's set; Pumped: starts the background pump.</summary>
        void StartPump()
        {
            lock (_pumpStateLock)
            {
                if (_backgroundPump != null) return;
                int fd;
                JumpException.Check(Native.jump_client_event_fd(_handle, out fd));
                Pumper pump = Delivery == JumpDelivery.Automatic
                    ? (Pumper)DeliveryThread.Add(this, _handle, fd) : new EventPump(this, _handle, fd);
                _backgroundPump = pump;
                // Tasks that already wait keep the client alive for the pumping thread (see Pumper.Anchor).
                lock (_pendingLock) if (_pending.Count > 0) pump.Anchor = this;
            }
        }

        void StopPump()
        {
            Pumper pump;
            lock (_pumpStateLock) { pump = _backgroundPump; _backgroundPump = null; }
            if (pump != null) pump.Stop();
        }

        // Under _pendingLock. While any Task waits, the pumping thread holds the client strongly, so a client
        // the app no longer references (only its Task) still completes that Task; idle, it holds it weakly,
        // so a forgotten client is finalized (~JumpClient) and freed.
        void AddPending(ulong id, Pending entry)
        {
            _pending[id] = entry;
            var pump = _backgroundPump;
            if (pump != null && _pending.Count == 1) pump.Anchor = this;
        }

        void RemovePending(ulong id)
        {
            _pending.Remove(id);
            var pump = _backgroundPump;
            if (pump != null && _pending.Count == 0) pump.Anchor = null;
        }

        // ---- internals ----

        /// <summary>Starts an _async call. prepare encodes the arguments (an exception it throws, such as an
        /// ArgumentException for a NUL in a string, fails the Task) and returns the native start; it runs only
        /// when the client is alive and the token not yet cancelled, so a cancelled token wins over bad
        /// arguments, as it does in .NET's own async methods.</summary>
        Task<T> Start<T>(CancellationToken token, Func<StartFn> prepare, Func<string, T> convert)
        {
            return Start(token, host => prepare(), convert, null);
        }

        /// <summary>An _async call whose result is empty ({}): a plain Task.</summary>
        Task StartEmpty(CancellationToken token, Func<StartFn> prepare)
        {
            return Start<object>(token, host => prepare(), json => null, null);
        }

        /// <summary>Start with host code the call runs (open_url): prepare registers it (its userdata), and it
        /// is released once the call ends, whichever way; its failure replaces the call's own error.</summary>
        Task<T> Start<T>(CancellationToken token, Func<HostCall, StartFn> prepare, Func<string, T> convert, HostCall host)
        {
            if (_disposed) return Failed<T>(new ObjectDisposedException("JumpClient"));
            if (token.IsCancellationRequested)
            {
                var cancelled = new TaskCompletionSource<T>();
                cancelled.SetCanceled();
                return cancelled.Task;
            }
            StartFn start;
            try { start = prepare(host); }
            catch (Exception e)
            {
                if (host != null) host.Release();
                return Failed<T>(e);
            }
            // Automatic: continuations run asynchronously (thread pool, or the awaiter's context), never on the
            // shared delivery thread, where they would hold up every later completion and event of every
            // Automatic client.
            // Pumped: they run on the pumping thread as the Task completes, like Event handlers, so a frame
            // loop resumes its awaits inside Pump() (an awaiter's SynchronizationContext still applies).
            var completion = new Completion<T>(Delivery == JumpDelivery.Automatic
                ? TaskCreationOptions.RunContinuationsAsynchronously : TaskCreationOptions.None, convert);
            var source = completion.Source;
            var entry = new Pending { Completion = completion, Token = token };
            ulong id;
            lock (_pendingLock)
            {
                // Checked under the lock Dispose's FailAllPending takes after setting _disposed: a call either
                // sees the flag or registers before FailAllPending runs, so no Task is left waiting forever.
                // Held across the start too, so a pump on another thread that already popped the completion
                // waits until the entry is registered.
                if (_disposed)
                {
                    if (host != null) host.Release();
                    return Failed<T>(new ObjectDisposedException("JumpClient"));
                }
                JumpRequestHandle request;
                int status;
                try { status = start(out request); }
                catch (Exception e) // ObjectDisposedException, missing library
                {
                    if (host != null) host.Release();
                    return Failed<T>(e);
                }
                if (request == null || request.IsInvalid)
                {
                    // The call did not start and gave no request: its completion (libjump still queues one)
                    // finds no entry and is dropped; the Task fails here with this thread's error detail.
                    var error = status != 0 ? JumpException.FromLastError(status)
                        : JumpException.Local(JumpStatus.Internal, "libjump started a request but returned no handle");
                    if (request != null) request.Dispose();
                    if (host != null) host.Release();
                    source.TrySetException(error);
                    return source.Task;
                }
                int idStatus = Native.jump_request_id(request, out id);
                if (idStatus != 0)
                {
                    var error = JumpException.FromLastError(idStatus);
                    Native.jump_request_cancel(request);
                    request.Dispose();
                    // The call runs on; its host code finds no registration once released and does nothing.
                    if (host != null) host.Release();
                    source.TrySetException(error);
                    return source.Task;
                }
                // A call that failed to start still completes (jump.h), so its Task waits for that completion
                // like any other.
                entry.Request = request;
                entry.Host = host;
                AddPending(id, entry);
            }
            if (token.CanBeCanceled)
            {
                // Register may run the callback at once (already cancelled): _pendingLock is not held here.
                var registration = token.Register(CancelRequest, id);
                lock (_pendingLock)
                {
                    Pending current;
                    if (_pending.TryGetValue(id, out current)) { current.Registration = registration; current.HasRegistration = true; }
                    else registration.Dispose(); // completed meanwhile
                }
            }
            return source.Task;
        }

        // Runs on whichever thread cancels the token.
        void CancelRequest(object state)
        {
            ulong id = (ulong)state;
            JumpRequestHandle request;
            lock (_pendingLock)
            {
                Pending entry;
                if (!_pending.TryGetValue(id, out entry)) return;
                entry.CancelRequested = true;
                request = entry.Request;
            }
            try { Native.jump_request_cancel(request); }
            catch (ObjectDisposedException) { } // completed and released meanwhile: nothing to cancel
        }

        void Deliver(string text)
        {
            object doc;
            try { doc = Json.Parse(text); }
            catch (FormatException) { return; } // never expected; a pump must not die on one document
            string kind = Json.Get(doc, "kind") as string;
            if (kind == "completion") Complete(doc);
            else if (kind == "event") Raise(doc, text);
            // Unknown kinds are ignored, as jump.h asks.
        }

        // A queued completion finds its entry by request_id.
        void Complete(object doc)
        {
            object rid = Json.Get(doc, "request_id");
            if (!(rid is long)) return;
            ulong id = unchecked((ulong)(long)rid);
            Pending entry;
            lock (_pendingLock)
            {
                if (!_pending.TryGetValue(id, out entry)) return;
                RemovePending(id);
            }
            Finish(entry, doc);
        }

        // Ends an entry already removed from _pending with its completion document.
        static void Finish(Pending entry, object doc)
        {
            if (entry.HasRegistration) entry.Registration.Dispose();
            entry.Request.Dispose();
            Exception hostFailure = null;
            if (entry.Host != null)
            {
                entry.Host.Release();
                hostFailure = entry.Host.Failure;
            }
            object st = Json.Get(doc, "status");
            int status = st is long ? (int)(long)st : (int)JumpStatus.Internal;
            if (status == 0)
            {
                object result = Json.Get(doc, "result");
                entry.Completion.SetResult(result == null ? "{}" : Json.Write(result));
            }
            else if (hostFailure != null)
            {
                // The app's host code threw (open_url): that exception says more than libjump's "cancelled".
                entry.Completion.SetException(hostFailure);
            }
            else if (status == (int)JumpStatus.Cancelled && entry.CancelRequested)
            {
                // Cancelled through the CancellationToken: the .NET convention (Task.IsCanceled,
                // TaskCanceledException on await). Other cancellations stay JumpCancelledException.
                entry.Completion.SetCanceled(entry.Token);
            }
            else
            {
                object error = Json.Get(doc, "error");
                entry.Completion.SetException(JumpException.FromDetail(status, error == null ? null : Json.Write(error)));
            }
        }

        void Raise(object doc, string text)
        {
            var handler = Event;
            if (handler == null) return;
            try { handler(this, new JumpEventArgs(text)); }
            catch (Exception e) { LastEventError = e; } // a handler's bug must not stop the pump
        }

        void FailAllPending()
        {
            List<Pending> entries;
            lock (_pendingLock)
            {
                entries = new List<Pending>(_pending.Values);
                foreach (var id in new List<ulong>(_pending.Keys)) RemovePending(id);
            }
            foreach (var entry in entries)
            {
                if (entry.HasRegistration) entry.Registration.Dispose();
                entry.Request.Dispose();
                if (entry.Host != null) entry.Host.Release();
                entry.Completion.SetException(JumpException.Local(JumpStatus.Cancelled, "the client was disposed"));
            }
        }

        static Task<T> Failed<T>(Exception e)
        {
            var source = new TaskCompletionSource<T>();
            source.SetException(e);
            return source.Task;
        }
    }
}
