import JumpCore
import JumpRuntime
import Synchronization

/// What a jump_client handle holds: the JumpCore client plus the C-side callback plumbing. Callbacks go
/// through the process's one libjump-owned callback thread (or the host's dispatcher), so they arrive one at
/// a time, in order.
final class ClientBox: Sendable {
    let client: JumpClient
    private let eventTarget = Lock<CallbackTarget?>(nil)
    private let dispatcher = Lock<HostDispatcher?>(nil)
    /// Queue mode: completions and events wait here for jump_client_next_event (nil: callbacks).
    private let queue = Lock<EventQueue?>(nil)
    /// The event handler holds this, not the box: a weak reference to the box would give it a refcount side
    /// table, which makes every retain and release of it (one pair per C call) take the runtime's slow path.
    private let events = EventForwarder()

    init(client: JumpClient) {
        self.client = client
        events.attach(self)
        client.setEventHandler { [events] event in events.forward(event) }
    }

    func setEventTarget(_ target: CallbackTarget?) {
        let previous = eventTarget.withLock { current -> CallbackTarget? in
            defer { current = target }
            return current
        }
        _ = previous  // released here (outside the lock): its userdata_free runs once no delivery holds it
    }

    func setDispatcher(_ newDispatcher: HostDispatcher?) { dispatcher.withLock { $0 = newDispatcher } }

    /// Queues `target`'s invocation with `text`, then `after` (on the same callback thread). In queue mode
    /// the document waits for jump_client_next_event instead, and `after` runs now: the operation is over,
    /// and a jump_request_wait on the pumping thread must not wait for its own pumping.
    func deliver(_ target: CallbackTarget?, _ text: String, after: (@Sendable () -> Void)? = nil) {
        if let queue = queue.withLock({ $0 }) {
            queue.push(EventQueue.Item(text: text, target: target))
            after?()
            return
        }
        let job: @Sendable () -> Void = {
            target?.invoke(text)
            after?()
        }
        if let host = dispatcher.withLock({ $0 }) { host.post(job) } else { CallbackThread.shared.post(job) }
    }

    fileprivate func deliverEvent(_ event: ClientEvent) {
        if let queue = queue.withLock({ $0 }) {
            queue.push(EventQueue.Item(text: Jansson.serialize(event.json), target: nil, isEvent: true))
            return
        }
        guard let target = eventTarget.withLock({ $0 }) else { return }
        deliver(target, Jansson.serialize(event.json))
    }

    /// Turns queue mode on (the queue, whose fd stays the same until it is turned off) or off (what is
    /// still queued goes the ordinary way: to the callbacks, on libjump's thread).
    func useEventQueue(_ enabled: Bool) throws(ABIError) {
        if enabled {
            let made = queue.withLock { current -> Bool in
                if current == nil { current = EventQueue() }
                return current != nil
            }
            guard made else { throw ABIError(.internal, "the system gave no pipe for the event queue") }
            return
        }
        guard let old = queue.withLock({ current -> EventQueue? in defer { current = nil }; return current }) else { return }
        for item in old.takeAll() {
            if item.isEvent {
                if let target = eventTarget.withLock({ $0 }) { deliver(target, item.text) }
            } else {
                deliver(item.target, item.text)
            }
        }
    }

    /// The queue's file descriptor; JUMP_E_UNSUPPORTED outside queue mode.
    func eventFD() throws(ABIError) -> Int32 {
        guard let queue = queue.withLock({ $0 }) else {
            throw ABIError(.unsupported, "this client is not in queue mode (jump_client_use_event_queue)")
        }
        return queue.fd
    }

    /// The oldest queued document (nil: none waits), its callback (if an async call was given one) run
    /// here first, on the pumping thread.
    func nextEvent() throws(ABIError) -> String? {
        guard let queue = queue.withLock({ $0 }) else {
            throw ABIError(.unsupported, "this client is not in queue mode (jump_client_use_event_queue)")
        }
        guard let item = queue.pop() else { return nil }
        if let target = item.target {
            target.invoke(item.text)
            target.releaseUserdataHere()
        }
        return item.text
    }

    /// The handle was freed: stop events, cancel what is in flight (their completions still arrive), and
    /// deliver the rest on libjump's own thread (the host's dispatcher may be going away too).
    func close() {
        client.setEventHandler(nil)
        events.detach()  // the box -> client -> handler -> forwarder -> box cycle ends here
        setEventTarget(nil)
        setDispatcher(nil)
        try? useEventQueue(false)  // nothing can pump any more: the rest goes to the callbacks
        InFlightRequests.shared.cancelAll(of: self)
    }
}

/// Hands a client's events to its box. It holds the box strongly (a cycle through the client's event handler)
/// until ClientBox.close(), which every box gets: jump_client_free, or jump_client_new when the handle
/// cannot be registered. After that, events go nowhere, as after the handler is cleared.
private final class EventForwarder: Sendable {
    private let box = Lock<ClientBox?>(nil)

    func attach(_ target: ClientBox) { box.withLock { $0 = target } }

    func detach() { _ = box.withLock { current -> ClientBox? in defer { current = nil }; return current } }

    func forward(_ event: ClientEvent) { box.withLock { $0 }?.deliverEvent(event) }
}

/// An in-flight asynchronous operation (jump_request).
final class RequestBox: Sendable {
    private static let lastID = Atomic<UInt64>(0)
    /// The "request_id" of its completion document (jump_request_id): how a host pumping a queue matches them.
    let id = RequestBox.lastID.add(1, ordering: .relaxed).newValue
    let cancellation = Cancellation()
    private let finished = Semaphore()

    /// The completion callback has returned.
    func markFinished() { finished.signal() }

    /// In a forked child's fork handler (no other thread exists): nobody there waits yet, and the parent's
    /// waiters must not be waited for.
    func resetAfterFork() { finished.resetAfterFork(count: 0) }

    /// true when finished within `milliseconds` (negative: no limit).
    func wait(milliseconds: Int32) -> Bool {
        let done: Bool
        if milliseconds < 0 {
            finished.wait()
            done = true
        } else {
            done = finished.wait(milliseconds: Int(milliseconds))
        }
        if done { finished.signal() }  // later waiters pass straight through
        return done
    }
}

/// The box behind a jump_client handle (JUMP_E_INVALID_HANDLE for a freed, NULL or wrong-kind handle).
func clientBox(_ handle: OpaquePointer?) throws(ABIError) -> ClientBox {
    try HandleRegistry.shared.lookup(handle, as: .client, ClientBox.self)
}

/// The JumpCore client behind a jump_client handle.
func jumpClient(_ handle: OpaquePointer?) throws(ABIError) -> JumpClient {
    try clientBox(handle).client
}
