// JumpDelivery.cs - how a JumpClient delivers async completions and events (chosen at construction).
namespace Jump
{
    /// <summary>How a <see cref="JumpClient"/> delivers the completions of its async calls and its
    /// <see cref="JumpClient.Event"/>. Chosen once, when the client is constructed.</summary>
    public enum JumpDelivery
    {
        /// <summary>The default: Tasks complete by themselves, with nobody pumping. One background thread for
        /// the whole process ("jump-csharp-events": a managed thread, never a thread-pool worker, never one of
        /// libjump's), shared by every Automatic client, delivers completions and events as they arrive, one at
        /// a time and each client's in order. Task continuations never run on that thread: they run on the
        /// thread pool, or on the SynchronizationContext the awaiting code captured. Event handlers do run on
        /// it, so a slow handler delays the deliveries of every Automatic client of the process (as libjump's
        /// own shared callback thread does, jump.h). The thread starts with the first Automatic client and
        /// ends when none is left. Pump() returns 0 and StartBackgroundPump() does nothing.</summary>
        Automatic = 0,

        /// <summary>For frame loops (Unity): completions and events wait in libjump's queue until Pump()
        /// delivers them on the thread that calls it (e.g. Update() on Unity's main thread), or the thread
        /// StartBackgroundPump() starts. Nothing is delivered before that, continuations without a
        /// SynchronizationContext run inside Pump(), and a Task never completes if nothing pumps.</summary>
        Pumped = 1,
    }
}
