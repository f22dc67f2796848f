/// A server base URL from configuration: "host", "host:port" or "scheme://host[:port][/path]".
/// HTTPS is required except for loopback hosts (the emulator, RFC 8252 loopback redirects).
public struct ServerURL: Sendable, Equatable {
    public let base: String  // no trailing slash

    public init(_ text: String, key: String) throws(JumpError) {
        var value = text.trimmingSpaces()
        guard !value.isEmpty else { throw .invalidArgument("configuration key '\(key)' is empty", argument: key) }
        if !value.contains("://") {
            // A bare domain is https, as the reference SDKs read captureDomain. A bare host:port or loopback host
            // is almost always a local server spoken to over http: guessing https would fail later, obscurely.
            let authority = String(value.prefix { $0 != "/" })
            let host = ServerURL.host(ofAuthority: authority)
            let hasPort = authority.hasPrefix("[") ? authority.contains("]:") : authority.contains(Character(":"))
            if hasPort || ServerURL.isLoopback(host) {
                let fix = ServerURL.isLoopback(host) ? "'http://\(value)'" : "'https://\(value)' (or http:// for a loopback host)"
                throw .invalidArgument("configuration key '\(key)' ('\(text)') has no scheme: write \(fix)", argument: key)
            }
            value = "https://" + value
        }
        while value.hasSuffix("/") && !value.hasSuffix("://") { value.removeLast() }
        let schemeEnd = value.firstRange(of: "://")
        guard let schemeEnd else { throw .invalidArgument("configuration key '\(key)' is not a URL", argument: key) }
        let scheme = value[..<schemeEnd.lowerBound].lowercased()
        let rest = value[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let host = ServerURL.host(ofAuthority: String(authority))
        guard !host.isEmpty, !rest.contains("?"), !rest.contains("#"),
              !authority.contains("@"), !authority.contains(where: { $0 == " " }) else {
            throw .invalidArgument("configuration key '\(key)' ('\(text)') is not a usable server URL", argument: key)
        }
        switch scheme {
        case "https": break
        case "http" where ServerURL.isLoopback(host): break
        case "http":
            throw .invalidArgument(
                "configuration key '\(key)' must use https (plain http is only allowed for loopback hosts)",
                argument: key)
        default:
            throw .invalidArgument("configuration key '\(key)' has unsupported scheme '\(scheme)'", argument: key)
        }
        base = scheme + "://" + rest
    }

    /// A base already checked by its owner (EmulatorHost: plain http to any host, on purpose).
    init(trusted base: String) { self.base = base }

    public func url(_ path: String) -> String { base + path }

    static func host(ofAuthority authority: String) -> String {
        if authority.hasPrefix("[") {
            return String(authority.prefix { $0 != "]" }.dropFirst()).lowercased()
        }
        return String(authority.prefix { $0 != ":" }).lowercased()
    }

    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}

extension String {
    func trimmingSpaces() -> String {
        let scalars = unicodeScalars
        let start = scalars.firstIndex { !$0.properties.isWhitespace } ?? scalars.endIndex
        let end = scalars.lastIndex { !$0.properties.isWhitespace }.map { scalars.index(after: $0) } ?? start
        return String(scalars[start..<max(start, end)])
    }
}
