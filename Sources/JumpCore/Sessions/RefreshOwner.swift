import Glibc

/// Who sent a pending refresh: "<pid>/<client>". Clients sharing a storage directory send a refresh without
/// holding the directory's lock (nothing waits for a lock while a request is on the wire), so one that finds
/// another's refresh pending waits for its answer on storage while its sender lives: the token is refreshed
/// once. A sender that died (kill -9, a crash) left its refresh to be replayed by whoever comes next.
enum RefreshOwner {
    /// A new client's name within this process.
    static func make() -> String {
        "\(getpid())/" + Secrets.sessionID().prefix(16)
    }

    /// Whether `owner` (of a pending refresh found on storage) is another client that is still running.
    static func isAnotherLiveClient(_ owner: String, me: String) -> Bool {
        guard !owner.isEmpty, owner != me, let slash = owner.firstIndex(of: "/"),
              let pid = Int32(owner[..<slash]), pid > 0 else { return false }
        if pid == getpid() { return true }  // a sibling client of this process
        return kill(pid, 0) == 0 || errno == EPERM
    }
}
