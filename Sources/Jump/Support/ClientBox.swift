import Dispatch
import JumpCore
import Synchronization

/// What a jump_client handle holds: the JumpCore client plus the C-side callback plumbing. Callbacks of
/// one client go through one libjump-owned thread (or the host's dispatcher), so they arrive one at a time, in order.
final class ClientBox: Sendable {
    let client: JumpClient
    /// This client's callbacks run here (unless the host installed a dispatcher).
    let callbackThread = CallbackThread()
    private let eventTarget = Mutex<CallbackTarget?>(nil)
    private let dispatcher = Mutex<HostDispatcher?>(nil)
    private let inflight = Mutex<[ObjectIdentifier: RequestBox]>([:])

    init(client: JumpClient) {
        self.client = client
        client.setEventHandler { [weak self] event in self?.deliverEvent(event) }
    }

    func setEventTarget(_ target: CallbackTarget?) {
        let previous = eventTarget.withLock { current -> CallbackTarget? in
            defer { current = target }
            return current
        }
        _ = previous  // released here (outside the lock): its userdata_free runs once no delivery holds it
    }

    func setDispatcher(_ newDispatcher: HostDispatcher?) { dispatcher.withLock { $0 = newDispatcher } }

    /// Queues `target`'s invocation with `text`, then `after` (on the same callback thread).
    func deliver(_ target: CallbackTarget?, _ text: String, after: (@Sendable () -> Void)? = nil) {
        let job: @Sendable () -> Void = {
            target?.invoke(text)
            after?()
        }
        if let host = dispatcher.withLock({ $0 }) { host.post(job) } else { callbackThread.post(job) }
    }

    private func deliverEvent(_ event: ClientEvent) {
        guard let target = eventTarget.withLock({ $0 }) else { return }
        deliver(target, Jansson.serialize(event.json))
    }

    func track(_ request: RequestBox) { inflight.withLock { $0[ObjectIdentifier(request)] = request } }

    func untrack(_ request: RequestBox) { inflight.withLock { $0[ObjectIdentifier(request)] = nil } }

    /// The handle was freed: stop events, cancel what is in flight (their completions still arrive), and
    /// deliver the rest on libjump's own thread (the host's dispatcher may be going away too).
    func close() {
        client.setEventHandler(nil)
        setEventTarget(nil)
        setDispatcher(nil)
        for request in inflight.withLock({ Array($0.values) }) { request.cancellation.cancel() }
    }
}

/// An in-flight asynchronous operation (jump_request).
final class RequestBox: Sendable {
    let cancellation = Cancellation()
    private let finished = DispatchSemaphore(value: 0)

    /// The completion callback has returned.
    func markFinished() { finished.signal() }

    /// true when finished within `milliseconds` (negative: no limit).
    func wait(milliseconds: Int32) -> Bool {
        let done: Bool
        if milliseconds < 0 {
            finished.wait()
            done = true
        } else {
            done = finished.wait(timeout: .now() + .milliseconds(Int(milliseconds))) == .success
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
