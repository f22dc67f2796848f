import JumpCore
import JumpRuntime

/// Every asynchronous operation of the process that has not completed, with what its completion needs.
/// Freeing a client cancels its own; in a forked child, where the threads running them do not exist, each
/// completes with JUMP_E_CANCELLED instead of leaving its waiters hanging (docs/conventions.md, "Locks and fork").
final class InFlightRequests: Sendable {
    static let shared = InFlightRequests()

    struct Entry: Sendable {
        let request: RequestBox
        let box: ClientBox
        let target: CallbackTarget
        let operation: String
    }

    private let entries = ForkSafety.processWide(Lock<[ObjectIdentifier: Entry]>([:]))

    private init() {
        ForkSafety.onChild { [self] in completeAfterFork() }
    }

    func add(_ entry: Entry) { entries.withLock { $0[ObjectIdentifier(entry.request)] = entry } }

    func remove(_ request: RequestBox) { entries.withLock { $0[ObjectIdentifier(request)] = nil } }

    func cancelAll(of box: ClientBox) {
        let running = entries.withLock { all in all.values.filter { $0.box === box } }
        for entry in running { entry.request.cancellation.cancel() }
    }

    /// In a forked child, at its first call into libjump: the completions go to the callback thread.
    private func completeAfterFork() {
        let orphans = entries.withLock { all -> [Entry] in
            defer { all.removeAll() }
            return Array(all.values)
        }
        guard !orphans.isEmpty else { return }
        for orphan in orphans { orphan.request.resetAfterFork() }
        let error = JumpError(.cancelled, "the process forked while this operation ran; it ran on a thread of the parent process, which the child does not have")
        CallbackThread.shared.post {
            for orphan in orphans {
                let text = AsyncLaunch.completion(orphan.operation, .failure(error), requestID: orphan.request.id)
                orphan.box.deliver(orphan.target, text) { orphan.request.markFinished() }
            }
        }
    }
}
