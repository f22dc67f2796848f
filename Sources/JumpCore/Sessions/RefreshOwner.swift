import Glibc

/// Who sent a pending refresh: "<pid>/<client>". Clients sharing a storage directory send a refresh without
/// holding the directory's lock (nothing waits for a lock while a request is on the wire), so one that finds
/// another's refresh pending waits for its answer on storage while that refresh may still be on its way: the
/// token is refreshed once. A refresh whose sender is gone (kill -9, a crash, a client freed after its answer
/// was lost) or whose time is up is replayed by whoever comes next, as soon as it comes.
enum RefreshOwner {
    /// The clients of this process that are refreshing now.
    private static let inProgress = ForkSafety.processWide(Lock<Set<String>>([]))

    /// A new client's name within this process.
    static func make() -> String { "\(getpid())/" + Secrets.sessionID().prefix(16) }

    /// Runs `body` as a refresh of `owner` in progress.
    static func refreshing<Result>(as owner: String, _ body: () throws(JumpError) -> Result) throws(JumpError) -> Result {
        inProgress.withLock { _ = $0.insert(owner) }
        defer { inProgress.withLock { _ = $0.remove(owner) } }
        return try body()
    }

    /// Whether the refresh `pending` (found on storage) may still be answered to another client: its sender is
    /// refreshing in this process, or is a process that is alive, and its request has not timed out yet.
    static func mayBeInFlight(_ pending: PendingRefresh, me: String, now: Int64, requestTimeoutMs: Int) -> Bool {
        let owner = pending.owner
        guard !owner.isEmpty, owner != me, now - pending.startedAt <= Int64(requestTimeoutMs / 1000) + 1,
              let slash = owner.firstIndex(of: "/"), let pid = Int32(owner[..<slash]), pid > 0 else { return false }
        if pid == getpid() { return inProgress.withLock { $0.contains(owner) } }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}
