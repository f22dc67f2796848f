// DeliveryThread.cs - the one delivery thread of the process ("jump-csharp-events") that every
// JumpDelivery.Automatic client shares: threads are a budget per process, not per client (as libjump runs
// one callback thread for all of a process's clients), so 1000 Automatic clients cost one thread, not 1000.
//
// It sleeps in poll(2) on the queue fd of every live Automatic client (readable exactly while a document
// waits) and on a wake-up pipe of the binding's. A readable client fd: that client's queue is pumped until
// empty (JumpClient.PumpQueue), so each client's documents arrive in order; clients ready at the same time
// are served one after another, so a slow Event handler delays every Automatic client's deliveries.
// The pipe is written whenever the set of clients changes (Add, Remove from Dispose, Abandon from a
// finalizer): the thread then rebuilds its poll set before it polls again. It starts with the first
// Automatic client and ends when none is left (the next one starts it again); it is a background thread
// blocked in poll, which the runtime interrupts at exit, so it never delays exit.
//
// Never polls a freed fd: Remove (Dispose) waits until the thread has rebuilt its poll set without the
// client, unless it runs on the thread itself (Dispose in an event handler: the thread is not polling then,
// and rebuilds before it polls again); a finalized client's native handle is freed by the thread itself,
// once its fd is out of the poll set.
//
// Lifetime: a Member holds the native handle (so the fd stays valid while polled) and the client only
// weakly, except while a Task of it waits (Anchor): a client the app forgot is collected, its finalizer
// calls Abandon, and the thread frees its handle.
using System;
using System.Collections.Generic;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Threading;

namespace Jump
{
    /// <summary>Who pumps one client's queue on a thread of the binding's: the shared delivery thread
    /// (DeliveryThread.Member, JumpDelivery.Automatic) or a Pumped client's own background pump (EventPump).</summary>
    internal abstract class Pumper
    {
        /// <summary>The client, held strongly while any of its Tasks waits (set by JumpClient under its
        /// pending lock), so that a Task whose client the app dropped still completes.</summary>
        internal volatile JumpClient Anchor;

        /// <summary>Stops pumping the client; returns once no thread of the binding's polls its fd any more,
        /// unless called on the pumping thread itself (Dispose in an event handler).</summary>
        internal abstract void Stop();

        /// <summary>From the client's finalizer: stops pumping without waiting; the pumping thread frees the
        /// native handle once it no longer polls its fd.</summary>
        internal abstract void Abandon();
    }

    internal static class DeliveryThread
    {
        internal const string ThreadName = "jump-csharp-events";

        internal sealed class Member : Pumper
        {
            internal readonly WeakReference Client;
            internal readonly JumpClientHandle Handle;
            internal readonly int Fd;
            internal bool Removed;    // under Lock: out of the set (disposed or finalized); never pumped again
            internal bool Collected;  // delivery thread only: the client was collected; not polled until Abandon

            internal Member(JumpClient client, JumpClientHandle handle, int fd)
            {
                Client = new WeakReference(client);
                Handle = handle;
                Fd = fd;
            }

            internal override void Stop() { Remove(this); }
            internal override void Abandon() { DeliveryThread.Abandon(this); }
        }

        static readonly object Lock = new object();
        static readonly List<Member> Members = new List<Member>(); // the live Automatic clients
        static List<JumpClientHandle> _toFree = new List<JumpClientHandle>(); // of finalized clients, freed by the thread
        static int[] _wake;         // the wake-up pipe: [0] polled, [1] written; made once, for the process
        static bool _wakePending;   // under Lock: one byte waits in the pipe (so writes never block)
        static long _version;       // under Lock: bumped by every change of the set
        static long _seen;          // under Lock: the version the thread's poll set reflects (Remove waits for it)
        static Thread _thread;      // under Lock: the running delivery thread, or null

        /// <summary>Adds an Automatic client; starts the delivery thread if none runs.</summary>
        internal static Member Add(JumpClient client, JumpClientHandle handle, int fd)
        {
            var member = new Member(client, handle, fd);
            lock (Lock)
            {
                if (_wake == null) _wake = MakePipe();
                Members.Add(member);
                ChangedLocked();
                if (_thread == null)
                {
                    try { StartLocked(); }
                    catch (Exception) { _thread = null; member.Removed = true; Members.Remove(member); throw; }
                }
            }
            return member;
        }

        /// <summary>From Dispose: takes the client out of the set and waits until the thread's poll set no
        /// longer holds its fd (at once on the delivery thread itself: it rebuilds before it polls again).</summary>
        static void Remove(Member member)
        {
            lock (Lock)
            {
                if (member.Removed) return;
                member.Removed = true;
                Members.Remove(member);
                ChangedLocked();
                if (Thread.CurrentThread == _thread) return;
                long version = _version;
                while (_seen < version && _thread != null) Monitor.Wait(Lock);
            }
        }

        /// <summary>From the client's finalizer: takes it out of the set; the thread frees the handle.</summary>
        static void Abandon(Member member)
        {
            lock (Lock)
            {
                if (member.Removed) return;
                member.Removed = true;
                Members.Remove(member);
                // The thread runs while the member was in the set; it frees the handle after its next rebuild.
                _toFree.Add(member.Handle);
                ChangedLocked();
            }
        }

        static void ChangedLocked()
        {
            _version++;
            if (_wakePending) return;
            LibC.write(_wake[1], new byte[] { 1 }, (UIntPtr)1);
            _wakePending = true;
        }

        static void StartLocked()
        {
            _thread = new Thread(Run) { IsBackground = true, Name = ThreadName };
            _thread.Start();
        }

        static int[] MakePipe()
        {
            var fds = new int[2];
            int made;
            try { made = LibC.pipe2(fds, LibC.O_CLOEXEC); }
            catch (EntryPointNotFoundException) { made = LibC.pipe(fds); } // macOS: no pipe2
            if (made != 0)
                throw JumpException.Local(JumpStatus.Internal, "pipe() failed (errno " + Marshal.GetLastWin32Error() + ")");
            return fds;
        }

        static void Run()
        {
            var polled = new Member[0];
            var fds = new LibC.PollFd[1];
            var drain = new byte[1];
            bool rebuild = true;
            try
            {
                while (true)
                {
                    List<JumpClientHandle> toFree = null;
                    bool exit = false;
                    lock (Lock)
                    {
                        if (_wakePending)
                        {
                            LibC.read(_wake[0], drain, (UIntPtr)1); // the byte is there: never blocks
                            _wakePending = false;
                        }
                        if (rebuild || _seen != _version)
                        {
                            var live = new List<Member>(Members.Count);
                            foreach (var m in Members) if (!m.Collected) live.Add(m);
                            polled = live.ToArray();
                            fds = new LibC.PollFd[polled.Length + 1];
                            fds[0].fd = _wake[0];
                            fds[0].events = LibC.POLLIN;
                            for (int i = 0; i < polled.Length; i++)
                            {
                                fds[i + 1].fd = polled[i].Fd;
                                fds[i + 1].events = LibC.POLLIN;
                            }
                            _seen = _version;
                            rebuild = false;
                            Monitor.PulseAll(Lock);
                        }
                        if (_toFree.Count > 0) { toFree = _toFree; _toFree = new List<JumpClientHandle>(); }
                        if (Members.Count == 0) { _thread = null; exit = true; }
                    }
                    // Out of the poll set now: nobody else uses the handle of a finalized client.
                    if (toFree != null) foreach (var handle in toFree) handle.Dispose();
                    if (exit) return;

                    for (int i = 0; i < fds.Length; i++) fds[i].revents = 0;
                    int n = LibC.poll(fds, (UIntPtr)fds.Length, -1);
                    bool pumpAll = false;
                    if (n < 0)
                    {
                        if (Marshal.GetLastWin32Error() == LibC.EINTR) continue;
                        Thread.Sleep(50); // unexpected; pump by time rather than spin
                        pumpAll = true;
                    }
                    for (int i = 0; i < polled.Length; i++)
                    {
                        short revents = fds[i + 1].revents;
                        if (!pumpAll && (revents & (LibC.POLLIN | LibC.POLLERR | LibC.POLLHUP | LibC.POLLNVAL)) == 0) continue;
                        if ((revents & LibC.POLLNVAL) != 0) Thread.Sleep(50); // never expected: do not spin
                        var member = polled[i];
                        // Disposed (or finalized) by an event handler earlier in this round: its fd may be gone.
                        bool removed;
                        lock (Lock) removed = member.Removed;
                        if (removed) continue;
                        if (!PumpOnce(member))
                        {
                            // Collected, its finalizer not run yet: stop polling it until Abandon takes it out.
                            member.Collected = true;
                            rebuild = true;
                        }
                    }
                }
            }
            finally
            {
                lock (Lock)
                {
                    // Also reached when the runtime aborts the thread at exit (or, never expected, a bug throws
                    // out of the loop): Remove stops waiting for it, and the next Add starts a new thread.
                    if (_thread == Thread.CurrentThread) _thread = null;
                    Monitor.PulseAll(Lock);
                }
            }
        }

        // The strong reference to the client lives only in this frame, so that between documents the thread
        // holds the client weakly. false: the client was collected.
        [MethodImpl(MethodImplOptions.NoInlining)]
        static bool PumpOnce(Member member)
        {
            var client = member.Anchor ?? member.Client.Target as JumpClient;
            if (client == null) return false;
            try { client.PumpQueue(); }
            catch (Exception) { } // a pump error (or Dispose racing) must not kill the thread; Tasks keep waiting
            return true;
        }
    }
}
