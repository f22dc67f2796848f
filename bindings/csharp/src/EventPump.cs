// EventPump.cs - the optional background pump: a thread that sleeps in poll(2) on the client's queue fd
// (readable exactly while a document waits) and calls JumpClient.Pump. For hosts without a frame loop;
// Unity games should call Pump() from Update() instead, to stay on the main thread.
using System;
using System.Runtime.InteropServices;
using System.Threading;

namespace Jump
{
    internal sealed class EventPump
    {
        readonly JumpClient _client;
        readonly int _fd;
        readonly Thread _thread;
        volatile bool _stop;

        // poll wakes at least this often to notice Stop(): the fd cannot be woken from outside.
        const int WakeMs = 50;

        internal EventPump(JumpClient client, int fd)
        {
            _client = client;
            _fd = fd;
            _thread = new Thread(Run) { IsBackground = true, Name = "jump-csharp-pump" };
            _thread.Start();
        }

        void Run()
        {
            var pfd = new LibC.PollFd { fd = _fd, events = LibC.POLLIN };
            while (!_stop)
            {
                pfd.revents = 0;
                int n = LibC.poll(ref pfd, (UIntPtr)1, WakeMs);
                if (_stop) break;
                if (n < 0)
                {
                    if (Marshal.GetLastWin32Error() == LibC.EINTR) continue;
                    Thread.Sleep(WakeMs); // unexpected; pump by time rather than spin
                }
                else if (n == 0) continue;
                try { _client.Pump(); }
                catch (Exception) { } // a pump error (or Dispose racing) must not kill the thread; Tasks keep waiting
            }
        }

        /// <summary>Stops the thread and waits for it, unless called from it (Dispose in an event handler):
        /// then the thread sees _stop once the handler returns and exits before touching the fd again.</summary>
        internal void Stop()
        {
            _stop = true;
            if (Thread.CurrentThread != _thread) _thread.Join();
        }
    }
}
