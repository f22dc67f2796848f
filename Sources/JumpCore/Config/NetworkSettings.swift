import Glibc

/// How a client reaches its servers on a real network: retries, proxy, trusted roots and pinned keys
/// (config keys maxRetries, proxy, caFile, pinnedPublicKeys), checked once when the client is made.
public struct NetworkSettings: Sendable {
    /// Retries of one request (RetryingTransport); 0: none.
    public var maxRetries = Int(ConfigKey.maxRetries.defaultInt)
    /// nil: libcurl reads the environment (http_proxy, https_proxy, all_proxy, no_proxy); "": no proxy even
    /// when the environment names one; otherwise every request goes through this proxy.
    public var proxy: String?
    /// The roots a server's certificate must chain to: the system's bundle and caFile's certificates, in
    /// PEM; nil: libcurl's own default (the system's alone).
    public var caBundle: [UInt8]?
    /// "sha256//<base64>;sha256//<base64>": the server's key must be one of these (CURLOPT_PINNEDPUBLICKEY).
    public var pinnedPublicKeys: String?

    public init() {}

    init(_ config: JumpConfig) throws(JumpError) {
        maxRetries = Int(config.int(.maxRetries))
        if let text = config.value(.proxy)?.stringValue {
            proxy = try NetworkSettings.checkedProxy(text)
        }
        if let path = config.string(.caFile) {
            caBundle = try CABundle.withSystemRoots(adding: path)
        }
        let pins = config.list(.pinnedPublicKeys)
        pinnedPublicKeys = pins.isEmpty ? nil : pins.joined(separator: ";")
    }

    private static let proxySchemes = ["http", "https", "socks4", "socks4a", "socks5", "socks5h"]

    private static func checkedProxy(_ raw: String) throws(JumpError) -> String {
        let text = raw.trimmingSpaces()
        if text.isEmpty { return "" }
        let scheme = text.firstRange(of: "://").map { text[..<$0.lowerBound].lowercased() }
        let rest = text.firstRange(of: "://").map { String(text[$0.upperBound...]) } ?? text
        let authority = rest.prefix { $0 != "/" }
        guard scheme.map(proxySchemes.contains) ?? true, !authority.isEmpty,
              !text.contains(where: { $0 == " " || $0.asciiValue.map { $0 < 0x20 || $0 == 0x7f } ?? false }) else {
            throw .invalidArgument("configuration key 'proxy' must be a proxy URL such as http://proxy.example:3128 "
                                   + "(schemes: \(proxySchemes.joined(separator: ", "))), or \"\" for none", argument: "proxy")
        }
        // user:password@host: the password is a secret from now on (never in a log line or a message).
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            if let colon = userInfo.firstIndex(of: ":") { SecretScrubber.remember(String(userInfo[userInfo.index(after: colon)...])) }
        }
        return text
    }
}
