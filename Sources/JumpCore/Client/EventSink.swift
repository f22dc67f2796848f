import JumpRuntime

/// Where a client's events go (the app's handler); shared by the sessions of one client.
final class EventSink: Sendable {
    private let handler = Lock<ClosureBox<JumpClient.EventHandler>?>(nil)

    func set(_ newHandler: JumpClient.EventHandler?) { handler.withLock { $0 = newHandler.map(ClosureBox.init) } }

    func emit(_ event: ClientEvent) {
        guard let current = handler.withLock({ $0 })?.function else { return }
        current(event)
    }
}
