/// What each server's clock says, learned from the `Date` header of its answers: a device whose clock is
/// wrong (by minutes, hours or days, as phones and laptops often are) still signs what a server checks against
/// its own time (the Capture refresh's `date`) with that server's time. One per client, keyed by origin
/// (scheme://host[:port]); the Capture session keeps its server's offset with the session on storage.
public final class ServerClock: Sendable {
    private let offsets = Lock<[String: Int64]>([:])

    public init() {}

    /// Seconds to add to this device's clock to get `origin`'s; 0 until that server answered once.
    public func offset(for origin: String) -> Int64 {
        offsets.withLock { $0[origin.lowercased()] } ?? 0
    }

    /// Whether `origin` has answered with a usable `Date` (or an offset was restored).
    func knows(_ origin: String) -> Bool { offsets.withLock { $0[origin.lowercased()] != nil } }

    /// Epoch seconds by `origin`'s clock.
    public func now(for origin: String) -> Int64 { Clock.now() &+ offset(for: origin) }

    /// From an answer that just arrived. The header has whole seconds and is written before the answer
    /// travels, so two answers of the same second differ by up to one: a change that small is noise and
    /// keeps the offset as it was (a session is not saved again for nothing).
    func learn(from headers: [(String, String)], url: String) {
        guard let value = headers.last(where: { $0.0.lowercased() == "date" })?.1,
              let serverTime = HTTPDate.parse(value) else { return }
        let measured = serverTime - Clock.now()
        let origin = ServerClock.origin(of: url)
        offsets.withLock { table in
            if let known = table[origin], abs(known - measured) <= 1 { return }
            table[origin] = measured
        }
    }

    /// An offset kept with a saved session, until its server answers again.
    func restore(_ offset: Int64, for origin: String) {
        let bounded = min(max(offset, -Self.maxOffset), Self.maxOffset)
        offsets.withLock { table in
            if table[origin.lowercased()] == nil { table[origin.lowercased()] = bounded }
        }
    }

    /// Ten years: a stored value beyond that is broken, not a clock.
    static let maxOffset: Int64 = 10 * 366 * 86_400

    /// scheme://host[:port] of a URL, lowercased.
    static func origin(of url: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://") else { return url.lowercased() }
        let rest = url[schemeEnd.upperBound...]
        return (String(url[..<schemeEnd.upperBound]) + String(rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" })).lowercased()
    }
}
