// EventPump.cs - the background pump a JumpDelivery.Pumped client may start (StartBackgroundPump,
// "jump-csharp-pump"): a thread of its own that sleeps in poll(2) on the client's queue fd (readable exactly
// while a document waits) and on a self-pipe (written to stop it), and calls JumpClient.PumpQueue. Unity games
// call Pump() from Update() instead, to stay on the main thread. Automatic clients share one delivery thread
// for the whole process instead (DeliveryThread.cs).
//
// Lifetime: the thread holds the native handle (so the fd stays valid while it polls) and the client only
// weakly, except while a Task waits (Anchor): a client the app forgot is then collected, its finalizer calls
// Abandon, and the thread ends and frees the handle. Idle, the thread never wakes; at process exit the runtime
// interrupts its poll (a background thread), so it never delays exit.
using System;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace Jump
{
    internal sealed class EventPump : Pumper
    {
        readonly WeakReference _client;
        readonly JumpClientHandle _handle;
        readonly int _fd;
        readonly int[] _wake = new int[2]; // the self-pipe: [0] polled, [1] written by Stop and Abandon
        readonly object _wakeLock = new object();
        readonly Thread _thread;
        volatile bool _stop;
        bool _closed;    // under _wakeLock: the pipe is closed (the thread has ended)
        bool _abandoned; // under _wakeLock: the client was finalized; the thread frees the handle

        internal const string ThreadName = "jump-csharp-pump";

        internal EventPump(JumpClient client, JumpClientHandle handle, int fd)
        {
            _client = new WeakReference(client);
            _handle = handle;
            _fd = fd;
            int made;
            try { made = LibC.pipe2(_wake, LibC.O_CLOEXEC); }
            catch (EntryPointNotFoundException) { made = LibC.pipe(_wake); } // macOS: no pipe2
            if (made != 0)
                throw JumpException.Local(JumpStatus.Internal, "pipe() failed (errno " + Marshal.GetLastWin32Error() + ")");
            _thread = new Thread(Run) { IsBackground = true, Name = ThreadName };
            _thread.Start();
        }

        void Run()
        {
            var fds = new LibC.PollFd[2];
            fds[0].fd = _fd;
            fds[0].events = LibC.POLLIN;
            fds[1].fd = _wake[0];
            fds[1].events = LibC.POLLIN;
            try
            {
                while (!_stop)
                {
                    fds[0].revents = fds[1].revents = 0;
                    int n = LibC.poll(fds, (UIntPtr)2, -1);
                    if (_stop) break;
                    if (n < 0)
                    {
                        if (Marshal.GetLastWin32Error() == LibC.EINTR) continue;
                        Thread.Sleep(50); // unexpected; pump by time rather than spin
                    }
                    else if ((fds[0].revents & LibC.POLLNVAL) != 0) Thread.Sleep(50); // never expected: do not spin
                    else if ((fds[0].revents & (LibC.POLLIN | LibC.POLLERR | LibC.POLLHUP)) == 0) continue; // the pipe
                    if (!PumpOnce()) break;
                }
            }
            finally
            {
                bool abandoned;
                lock (_wakeLock)
                {
                    _closed = true;
                    LibC.close(_wake[0]);
                    LibC.close(_wake[1]);
                    abandoned = _abandoned;
                }
                // Nobody else can use the handle of a finalized client: free it now rather than at the next GC.
                if (abandoned) _handle.Dispose();
            }
        }

        // The strong reference to the client lives only in this frame, so that between documents the thread
        // holds the client weakly. false: the client was collected.
        [MethodImpl(MethodImplOptions.NoInlining)]
        bool PumpOnce()
        {
            var client = Anchor ?? _client.Target as JumpClient;
            if (client == null) return false;
            try { client.PumpQueue(); }
            catch (Exception) { } // a pump error (or Dispose racing) must not kill the thread; Tasks keep waiting
            return true;
        }

        void Wake()
        {
            // Under _wakeLock with _closed: never writes to a pipe the thread has closed (its fd number may
            // already belong to something else).
            if (!_closed) LibC.write(_wake[1], new byte[] { 1 }, (UIntPtr)1);
        }

        /// <summary>Stops the thread and waits for it, unless called from it (Dispose in an event handler):
        /// then the thread sees _stop once the handler returns and exits before touching the fd again.</summary>
        internal override void Stop()
        {
            lock (_wakeLock)
            {
                _stop = true;
                Wake();
            }
            if (Thread.CurrentThread != _thread) _thread.Join();
        }

        /// <summary>From the client's finalizer: stops the thread without waiting; it frees the handle.</summary>
        internal override void Abandon()
        {
            lock (_wakeLock)
            {
                _stop = true;
                _abandoned = true;
                Wake();
                if (_closed) _handle.Dispose(); // the thread already ended
            }
        }
    }
}
