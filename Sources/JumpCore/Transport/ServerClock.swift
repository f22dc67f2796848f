import JumpRuntime

/// What each server's clock says, learned from the `Date` header of its answers: a device whose clock is
/// wrong (by minutes, hours or days, as phones and laptops often are) still signs what a server checks against
/// its own time (the Capture refresh's `date`) with that server's time. One per client, keyed by origin
/// (scheme://host[:port]); the Capture session keeps its server's offset with the session on storage.
public final class ServerClock: Sendable {
    private struct Table {
        var offsets: [String: Int64] = [:]
        /// The last `Date` read and its epoch seconds: answers of the same second carry the same text, so a
        /// burst of them is parsed once.
        var lastDate: (text: String, seconds: Int64)?
    }

    private let table = Lock(Table())

    public init() {}

    /// Seconds to add to this device's clock to get `origin`'s; 0 until that server answered once.
    public func offset(for origin: String) -> Int64 {
        let key = Self.lowercasedASCII(origin)
        return table.withLock { $0.offsets[key] } ?? 0
    }

    /// Whether `origin` has answered with a usable `Date` (or an offset was restored).
    func knows(_ origin: String) -> Bool {
        let key = Self.lowercasedASCII(origin)
        return table.withLock { $0.offsets[key] != nil }
    }

    /// Epoch seconds by `origin`'s clock.
    public func now(for origin: String) -> Int64 { Clock.now() &+ offset(for: origin) }

    /// From an answer that just arrived. The header has whole seconds and is written before the answer
    /// travels, so two answers of the same second differ by up to one: a change that small is noise and
    /// keeps the offset as it was (a session is not saved again for nothing).
    /// `origin`: ServerClock.origin(of:) of the request's URL, which the caller has already.
    func learn(from headers: [(String, String)], origin: String) {
        guard let value = headers.last(where: { headerName($0.0, is: "date") })?.1 else { return }
        let cached = table.withLock { t -> Int64? in
            guard let last = t.lastDate, last.text == value else { return nil }
            return last.seconds
        }
        guard let serverTime = cached ?? HTTPDate.parse(value) else { return }
        let measured = serverTime - Clock.now()
        table.withLock { t in
            if cached == nil { t.lastDate = (value, serverTime) }
            if let known = t.offsets[origin], abs(known - measured) <= 1 { return }
            t.offsets[origin] = measured
        }
    }

    /// An offset kept with a saved session, until its server answers again.
    func restore(_ offset: Int64, for origin: String) {
        let bounded = min(max(offset, -Self.maxOffset), Self.maxOffset)
        let key = Self.lowercasedASCII(origin)
        table.withLock { t in
            if t.offsets[key] == nil { t.offsets[key] = bounded }
        }
    }

    /// Ten years: a stored value beyond that is broken, not a clock.
    static let maxOffset: Int64 = 10 * 366 * 86_400

    /// scheme://host[:port] of a URL, lowercased. Read as bytes: every answer asks.
    static func origin(of url: String) -> String {
        var text = url
        return text.withUTF8 { bytes -> String in
            var start = 0
            while start + 2 < bytes.count, !(bytes[start] == UInt8(ascii: ":") && bytes[start + 1] == UInt8(ascii: "/")
                                              && bytes[start + 2] == UInt8(ascii: "/")) {
                start += 1
            }
            guard start + 2 < bytes.count else { return lowercasedASCII(url) }
            var end = start + 3
            while end < bytes.count, bytes[end] != UInt8(ascii: "/"), bytes[end] != UInt8(ascii: "?"), bytes[end] != UInt8(ascii: "#") {
                end += 1
            }
            return lowercasedASCII(String(decoding: UnsafeBufferPointer(rebasing: bytes[..<end]), as: UTF8.self))
        }
    }

    /// `text` with A-Z lowercased; itself (no copy) when it has none, as origins almost always do.
    private static func lowercasedASCII(_ text: String) -> String {
        text.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) ? text.lowercased() : text
    }
}
