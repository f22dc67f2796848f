/// What wakes one waiter of `Wait.until`: a parked fiber's waker, or a blocked thread's semaphore. Safe to
/// wake from any thread, and more than once (a fiber's waker wakes once; a spare signal of a thread's
/// semaphore is never read).
package enum Wakeup: Sendable {
    case fiber(Waker)
    case thread(Semaphore)

    package func wake() {
        switch self {
        case .fiber(let waker): waker.wake()
        case .thread(let turn): turn.signal()
        }
    }
}

/// The runtime's one way to wait (docs/design-io.md): a fiber parks and gives its pool thread to other work;
/// anywhere else (a thread's own stack, or a fiber whose thread holds a `Lock`) the thread blocks inside
/// `FiberPool.blocking`, so the pool sees it and makes up for it. `OneShot`, `ParkingLock` (and the `Gate`
/// built on it) and `Fiber.pause` all wait through it.
package enum Wait {
    /// Waits until the `Wakeup` given to `arrange` is woken, or until `deadline` (Clock.monotonicMilliseconds;
    /// nil: none). `arrange` runs once, before the wait, where no other code of the waiter's thread runs
    /// meanwhile; it puts the wakeup where the awaited event will find it, or wakes it at once when the event
    /// came already. The caller then looks at what it waited for: a wakeup and the deadline look alike.
    package static func until(_ deadline: Int64?, _ arrange: @escaping (Wakeup) -> Void) {
        let onFiber = { (waker: Waker) in arrange(.fiber(waker)) }
        if deadline.map({ Fiber.park(until: $0, onFiber) }) ?? Fiber.park(onFiber) { return }
        let turn = Semaphore()
        arrange(.thread(turn))
        FiberPool.blocking {
            if let deadline {
                _ = turn.wait(milliseconds: Int(max(0, min(deadline - Clock.monotonicMilliseconds(), Int64(Int32.max)))))
            } else {
                turn.wait()
            }
        }
    }
}
