import Glibc
import JumpRuntime

/// Who sent a pending refresh. Clients sharing a storage directory send a refresh without holding the
/// directory's lock (nothing waits for a lock while a request is on the wire), so one that finds another's
/// refresh pending waits for its answer on storage while that refresh may still be on its way: the token is
/// refreshed once. A refresh whose sender is gone (kill -9, a crash, a client freed after its answer was
/// lost) or whose time is up is replayed by whoever comes next, as soon as it comes.
///
/// The sender is named when the refresh is sent, not when the client was made: workers forked from a
/// preloaded parent share the parent's clients, and each is a sender of its own. The name holds what tells
/// two processes apart beyond a pid, which a forked child, a container (each app is pid 1) or a reused pid
/// would share: "<pid>/<client>/<start time>/<pid namespace>/<boot id>". Its first two parts are the
/// earlier form, which older libraries sharing the directory still read.
enum RefreshOwner {
    /// The senders of this process that are refreshing now.
    private static let inProgress = ForkSafety.processWide(Lock<Set<String>>([]))

    /// A new client's name within this process (the second part of its senders' names).
    static func makeClientID() -> String { String(Secrets.sessionID().prefix(16)) }

    /// The name of `client` as a sender now, in this process.
    static func sender(client: String) -> String {
        let me = ProcessIdentity.current()
        return "\(me.pid)/\(client)/\(me.startTime)/\(me.pidNamespace)/\(me.bootID)"
    }

    /// Runs `body` as a refresh of `sender` in progress.
    static func refreshing<Result>(as sender: String, _ body: () throws(JumpError) -> Result) throws(JumpError) -> Result {
        inProgress.withLock { _ = $0.insert(sender) }
        defer { inProgress.withLock { _ = $0.remove(sender) } }
        return try body()
    }

    /// Whether the refresh `pending` (found on storage) may still be answered to another sender: its sender
    /// is refreshing in this process, or is a process that is alive (the same one: its start time matches),
    /// and its request has not timed out yet. A sender this process cannot see (another pid namespace or
    /// machine) may be in flight until its time is up.
    static func mayBeInFlight(_ pending: PendingRefresh, me: String, now: Int64, requestTimeoutMs: Int) -> Bool {
        let owner = pending.owner
        guard !owner.isEmpty, owner != me, now - pending.startedAt <= Int64(requestTimeoutMs / 1000) + 1 else { return false }
        let parts = owner.split(separator: "/", omittingEmptySubsequences: false)
        guard let pid = parts.first.flatMap({ Int32($0) }), pid > 0 else { return false }
        let here = ProcessIdentity.current()
        if parts.count >= 5 {
            guard parts[3] == here.pidNamespace, parts[4] == here.bootID else { return true }
            if pid == here.pid && parts[2] == here.startTime { return inProgress.withLock { $0.contains(owner) } }
            return (kill(pid, 0) == 0 || errno == EPERM) && ProcessIdentity.startTime(of: pid) == String(parts[2])
        }
        // An older library's "<pid>/<client>".
        if pid == here.pid { return inProgress.withLock { $0.contains(owner) } }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}
