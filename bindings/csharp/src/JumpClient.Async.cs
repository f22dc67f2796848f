// JumpClient.Async.cs - Task-returning calls driven by the queue (jump_client_use_event_queue).
//
// Each _async call is started with NULL callbacks; its jump_request's id (jump_request_id) keys a pending
// TaskCompletionSource. Pump() pops queued documents (jump_client_next_event) on the caller's thread: a
// completion resolves the Task whose request_id it carries, an event raises the Event. Nothing runs on a
// libjump thread, so this works under IL2CPP and keeps Unity code on the main thread when the game loop
// calls Pump() once per frame. StartBackgroundPump() is the alternative for hosts without a loop.
using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;

namespace Jump
{
    public sealed partial class JumpClient
    {
        sealed class Pending
        {
            public TaskCompletionSource<string> Source;
            public JumpRequestHandle Request;
            public CancellationToken Token;
            public CancellationTokenRegistration Registration;
            public bool HasRegistration;
            public bool CancelRequested;
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
        EventPump _backgroundPump;

        /// <summary>Raised by the pump (on the pumping thread) for each client event. An exception a
        /// handler throws is kept in LastEventError; the pump goes on.</summary>
        public event EventHandler<JumpEventArgs> Event;

        /// <summary>The last exception an Event handler threw (null when none).</summary>
        public Exception LastEventError { get; private set; }

        /// <summary>How many async calls wait for their completion.</summary>
        public int PendingCount { get { lock (_pendingLock) return _pending.Count; } }

        public Task<SignInResult> SignInAsync(string user, string password, CancellationToken cancellationToken = default(CancellationToken))
        {
            byte[] u, p;
            try { u = Utf8.Encode(user, "user"); p = Utf8.Encode(password, "password"); }
            catch (Exception e) { return Failed<SignInResult>(e); }
            return Map(Start((out JumpRequestHandle r) =>
                Native.jump_client_sign_in_async(_handle, u, p, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, out r), cancellationToken),
                json => new SignInResult(json));
        }

        public Task<SignInResult> RegisterTraditionalAsync(IDictionary<string, object> attributes, string password,
            CancellationToken cancellationToken = default(CancellationToken))
        {
            byte[] a, p;
            try { a = Utf8.Encode(attributes == null ? null : Json.Write(attributes), "attributes"); p = Utf8.Encode(password, "password"); }
            catch (Exception e) { return Failed<SignInResult>(e); }
            return Map(Start((out JumpRequestHandle r) =>
                Native.jump_client_register_traditional_async(_handle, a, p, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, out r), cancellationToken),
                json => new SignInResult(json));
        }

        public Task<SocialResult> SocialSignInNativeAsync(string provider, string token, string tokenSecret = null,
            string mergeToken = null, bool link = false, CancellationToken cancellationToken = default(CancellationToken))
        {
            byte[] pv, t, ts, o;
            try
            {
                pv = Utf8.Encode(provider, "provider"); t = Utf8.Encode(token, "token");
                ts = Utf8.Encode(tokenSecret, "tokenSecret"); o = Utf8.Encode(SocialOptions(mergeToken, link), "mergeToken");
            }
            catch (Exception e) { return Failed<SocialResult>(e); }
            return Map(Start((out JumpRequestHandle r) =>
                Native.jump_client_social_sign_in_native_async(_handle, pv, t, ts, o, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, out r), cancellationToken),
                json => new SocialResult(json));
        }

        public Task<SocialResult> RegisterSocialAsync(string socialRegistrationToken, IDictionary<string, object> attributes,
            CancellationToken cancellationToken = default(CancellationToken))
        {
            string a;
            try { a = attributes == null ? null : Json.Write(attributes); }
            catch (Exception e) { return Failed<SocialResult>(e); }
            return RegisterSocialAsync(socialRegistrationToken, a, cancellationToken);
        }

        public Task<SocialResult> RegisterSocialAsync(string socialRegistrationToken, string attributesJson,
            CancellationToken cancellationToken = default(CancellationToken))
        {
            byte[] t, a;
            try { t = Utf8.Encode(socialRegistrationToken, "socialRegistrationToken"); a = Utf8.Encode(attributesJson, "attributesJson"); }
            catch (Exception e) { return Failed<SocialResult>(e); }
            return Map(Start((out JumpRequestHandle r) =>
                Native.jump_client_register_social_async(_handle, t, a, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, out r), cancellationToken),
                json => new SocialResult(json));
        }

        public Task<SocialResult> SignInMergeAsync(string user, string password, string mergeToken,
            CancellationToken cancellationToken = default(CancellationToken))
        {
            byte[] u, p, m;
            try { u = Utf8.Encode(user, "user"); p = Utf8.Encode(password, "password"); m = Utf8.Encode(mergeToken, "mergeToken"); }
            catch (Exception e) { return Failed<SocialResult>(e); }
            return Map(Start((out JumpRequestHandle r) =>
                Native.jump_client_sign_in_merge_async(_handle, u, p, m, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, out r), cancellationToken),
                json => new SocialResult(json));
        }

        public Task<SyncResult> SyncAsync(CancellationToken cancellationToken = default(CancellationToken))
        {
            return Map(Start((out JumpRequestHandle r) =>
                Native.jump_client_sync_async(_handle, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, out r), cancellationToken),
                json => new SyncResult(json));
        }

        public Task FetchRecordAsync(CancellationToken cancellationToken = default(CancellationToken))
        {
            return Start((out JumpRequestHandle r) =>
                Native.jump_client_fetch_record_async(_handle, IntPtr.Zero, IntPtr.Zero, IntPtr.Zero, out r), cancellationToken);
        }

        /// <summary>Delivers what waits in the queue on this thread: completions finish their Tasks, events
        /// raise Event. Never blocks; returns how many documents it took. Call it once per frame, or use
        /// StartBackgroundPump. After Dispose it returns 0.</summary>
        public int Pump()
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

        /// <summary>Pumps on a dedicated background thread that sleeps in poll(2) on jump_client_event_fd:
        /// completions and events are then delivered on that thread. Idempotent.</summary>
        public void StartBackgroundPump()
        {
            if (_disposed) throw new ObjectDisposedException("JumpClient");
            lock (_pumpStateLock)
            {
                if (_backgroundPump != null) return;
                int fd;
                JumpException.Check(Native.jump_client_event_fd(_handle, out fd));
                _backgroundPump = new EventPump(this, fd);
            }
        }

        /// <summary>Stops the background pump (and waits for its thread, unless called from it).</summary>
        public void StopBackgroundPump()
        {
            EventPump pump;
            lock (_pumpStateLock) { pump = _backgroundPump; _backgroundPump = null; }
            if (pump != null) pump.Stop();
        }

        // ---- internals ----

        Task<string> Start(StartFn start, CancellationToken token)
        {
            if (_disposed) return Failed<string>(new ObjectDisposedException("JumpClient"));
            if (token.IsCancellationRequested)
            {
                var cancelled = new TaskCompletionSource<string>();
                cancelled.SetCanceled();
                return cancelled.Task;
            }
            // Continuations run asynchronously: a continuation must never run inside Pump's locks.
            var source = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
            ulong id;
            lock (_pendingLock)
            {
                // Checked under the lock Dispose's FailAllPending takes after setting _disposed: a call either
                // sees the flag or registers before FailAllPending runs, so no Task is left waiting forever.
                if (_disposed) return Failed<string>(new ObjectDisposedException("JumpClient"));
                JumpRequestHandle request;
                int status;
                try { status = start(out request); }
                catch (Exception e) { return Failed<string>(e); } // ObjectDisposedException, missing library
                if (request == null || request.IsInvalid)
                {
                    // The call did not start and gave no request: its completion (if libjump still queues one)
                    // has no Task to find and is dropped by Deliver.
                    var error = status != 0 ? JumpException.FromLastError(status)
                        : JumpException.Local(JumpStatus.Internal, "libjump started a request but returned no handle");
                    if (request != null) request.Dispose();
                    return Failed<string>(error);
                }
                int idStatus = Native.jump_request_id(request, out id);
                if (idStatus != 0)
                {
                    var error = JumpException.FromLastError(idStatus);
                    Native.jump_request_cancel(request);
                    request.Dispose();
                    return Failed<string>(error);
                }
                // A call that failed to start still completes through the queue (jump.h), so its Task waits
                // for that completion like any other.
                _pending[id] = new Pending { Source = source, Request = request, Token = token };
            }
            if (token.CanBeCanceled)
            {
                // Register may run the callback at once (already cancelled): _pendingLock is not held here.
                var registration = token.Register(CancelRequest, id);
                lock (_pendingLock)
                {
                    Pending entry;
                    if (_pending.TryGetValue(id, out entry)) { entry.Registration = registration; entry.HasRegistration = true; }
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

        void Complete(object doc)
        {
            object rid = Json.Get(doc, "request_id");
            if (!(rid is long)) return;
            ulong id = unchecked((ulong)(long)rid);
            Pending entry;
            lock (_pendingLock)
            {
                if (!_pending.TryGetValue(id, out entry)) return;
                _pending.Remove(id);
            }
            if (entry.HasRegistration) entry.Registration.Dispose();
            entry.Request.Dispose();
            object st = Json.Get(doc, "status");
            int status = st is long ? (int)(long)st : (int)JumpStatus.Internal;
            if (status == 0)
            {
                object result = Json.Get(doc, "result");
                entry.Source.TrySetResult(result == null ? "{}" : Json.Write(result));
            }
            else if (status == (int)JumpStatus.Cancelled && entry.CancelRequested)
            {
                // Cancelled through the CancellationToken: the .NET convention (Task.IsCanceled,
                // TaskCanceledException on await). Other cancellations stay JumpCancelledException.
                entry.Source.TrySetCanceled(entry.Token);
            }
            else
            {
                object error = Json.Get(doc, "error");
                entry.Source.TrySetException(JumpException.FromDetail(status, error == null ? null : Json.Write(error)));
            }
        }

        void Raise(object doc, string text)
        {
            var handler = Event;
            if (handler == null) return;
            try { handler(this, new JumpEventArgs(Json.Get(doc, "event") as string, Json.Get(doc, "uuid") as string, text)); }
            catch (Exception e) { LastEventError = e; } // a handler's bug must not stop the pump
        }

        void FailAllPending()
        {
            List<Pending> entries;
            lock (_pendingLock)
            {
                entries = new List<Pending>(_pending.Values);
                _pending.Clear();
            }
            foreach (var entry in entries)
            {
                if (entry.HasRegistration) entry.Registration.Dispose();
                entry.Request.Dispose();
                entry.Source.TrySetException(JumpException.Local(JumpStatus.Cancelled, "the client was disposed"));
            }
        }

        static Task<T> Failed<T>(Exception e)
        {
            var source = new TaskCompletionSource<T>();
            source.SetException(e);
            return source.Task;
        }

        static async Task<T> Map<T>(Task<string> task, Func<string, T> convert)
        {
            return convert(await task.ConfigureAwait(false));
        }
    }
}
