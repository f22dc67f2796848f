import Glibc

/// The name a request makes libcurl look up (IOLoop's LookupGate lets one transfer per name look it up).
enum LookupHost {
    /// What libcurl looks up to send to `url`, as its DNS cache keys it ("scheme://host:port" of the proxy when
    /// one is set, else of the URL); nil for a numeric address or localhost, which libcurl resolves itself.
    static func of(_ url: String, proxy: String?) -> String? {
        let target = proxy.flatMap { $0.isEmpty ? nil : $0 } ?? url
        let origin = ServerClock.origin(of: target)  // lowercased, no path
        var authority = Substring(origin)
        if let schemeEnd = origin.firstRange(of: "://") { authority = origin[schemeEnd.upperBound...] }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        let host = ServerURL.host(ofAuthority: String(authority))
        guard !host.isEmpty, host != "localhost", !host.hasSuffix(".localhost"), !isNumeric(host) else { return nil }
        return origin
    }

    private static func isNumeric(_ host: String) -> Bool {
        var address = in6_addr()
        return inet_pton(AF_INET, host, &address) == 1 || inet_pton(AF_INET6, host, &address) == 1
    }
}
