import CCurl
import Glibc

/// One name lookup per host at a time, for the I/O loop (docs/design-io.md, "Connections and DNS"). libcurl's
/// threaded resolver starts a thread for every lookup and fills its DNS cache (60 s) only when one ends, so a
/// burst of requests to a host it has not looked up lately would start a thread for every transfer that gets a
/// connection slot. The first transfer goes alone; the others wait here until it is over and then find the
/// name in the cache. Numeric addresses and localhost need no lookup and pass at once. The loop's thread owns it.
struct LookupGate {
    /// Hosts looked up lately: until when (Clock.monotonicMilliseconds) libcurl's cache still has them.
    private var known: [String: Int64] = [:]
    /// Hosts a first transfer is looking up, and the transfers waiting for it, in order.
    private var waiting: [String: [IOLoop.Transfer]] = [:]
    /// Less than libcurl's DNS cache timeout (60 s), so a host counted as known is in its cache.
    static let knownMilliseconds: Int64 = 50_000

    /// Whether `transfer` may go to libcurl now; false: it waits for the transfer looking up its host.
    mutating func admit(_ transfer: IOLoop.Transfer, now: Int64) -> Bool {
        guard let host = transfer.lookupHost else { return true }
        if let until = known[host], until > now { return true }
        if var line = waiting[host] {
            line.append(transfer)
            waiting[host] = line
            return false
        }
        waiting[host] = []
        transfer.leadsLookup = true
        return true
    }

    /// `transfer` is over; returns the transfers that may go now. After a lookup that ended (the transfer
    /// connected, or the name was not found) all of them: the cache has the name, or each tries for itself as
    /// before. After a transfer cancelled while it may still have been looking up: the next one, alone.
    mutating func finished(_ transfer: IOLoop.Transfer, code: CURLcode, now: Int64) -> [IOLoop.Transfer] {
        guard transfer.leadsLookup, let host = transfer.lookupHost else { return [] }
        transfer.leadsLookup = false
        var line = waiting.removeValue(forKey: host) ?? []
        if code == CURLE_ABORTED_BY_CALLBACK || code == CURLE_OPERATION_TIMEDOUT {
            guard !line.isEmpty else { return [] }
            let next = line.removeFirst()
            next.leadsLookup = true
            waiting[host] = line
            return [next]
        }
        if code != CURLE_COULDNT_RESOLVE_HOST && code != CURLE_COULDNT_RESOLVE_PROXY {
            known[host] = now &+ Self.knownMilliseconds
        }
        known = known.filter { $0.value > now }  // hosts no longer in libcurl's cache
        return line
    }

    /// Takes a waiting transfer out of its line (cancelled, or out of time); false when it was not waiting.
    mutating func remove(_ transfer: IOLoop.Transfer) -> Bool {
        guard let host = transfer.lookupHost, var line = waiting[host],
              let index = line.firstIndex(where: { $0 === transfer }) else { return false }
        line.remove(at: index)
        waiting[host] = line
        return true
    }
}
