/// The first line of a request that reached the loopback receiver. Only the method and target matter: the
/// browser's redirect carries everything in the target, so headers are never interpreted.
struct LoopbackRequestLine: Equatable {
    var method: String
    var path: String
    /// The query without its "?"; nil when the target had no "?". Bytes above 0x7E are percent-encoded so
    /// the result is always ASCII and can be handed out as part of a URL.
    var query: String?

    init(method: String, path: String, query: String?) {
        self.method = method
        self.path = path
        self.query = query
    }

    /// nil when the line is not `METHOD SP target SP HTTP/1.x`.
    init?(_ line: ArraySlice<UInt8>) {
        var bytes = line
        if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        let parts = bytes.split(separator: UInt8(ascii: " "), omittingEmptySubsequences: false)
        guard parts.count == 3, let methodBytes = parts.first, let target = parts.dropFirst().first,
              let version = parts.last else { return nil }
        guard !methodBytes.isEmpty, methodBytes.count <= 16, methodBytes.allSatisfy(HeaderGrammar.isTokenByte) else { return nil }
        guard Self.isHTTP1(version), !target.isEmpty, target.allSatisfy(Self.isTargetByte) else { return nil }
        guard let (path, query) = Self.split(target: target) else { return nil }
        self.method = String(decoding: methodBytes, as: UTF8.self)
        self.path = path
        self.query = query
    }

    /// Origin form ("/p?q") and, for browsers configured with a proxy-like loopback, absolute form
    /// ("http://127.0.0.1:port/p?q"). A fragment never reaches a server, but one sent anyway is ignored.
    private static func split(target: ArraySlice<UInt8>) -> (String, String?)? {
        var rest = target
        let scheme = Array("http://".utf8)
        if rest.count >= scheme.count, rest.prefix(scheme.count).map(lowercased).elementsEqual(scheme) {
            let afterScheme = rest.dropFirst(scheme.count)
            guard let slash = afterScheme.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }) else {
                return ("/", nil)
            }
            rest = afterScheme[slash...]
            if rest.first == UInt8(ascii: "?") { return ("/", percentEncoded(rest.dropFirst())) }
        }
        guard rest.first == UInt8(ascii: "/") else { return nil }
        if let hash = rest.firstIndex(of: UInt8(ascii: "#")) { rest = rest[..<hash] }
        guard let question = rest.firstIndex(of: UInt8(ascii: "?")) else { return (percentEncoded(rest), nil) }
        return (percentEncoded(rest[..<question]), percentEncoded(rest[rest.index(after: question)...]))
    }

    private static func isHTTP1(_ version: ArraySlice<UInt8>) -> Bool {
        let prefix = Array("HTTP/1.".utf8)
        guard version.count == prefix.count + 1, version.prefix(prefix.count).elementsEqual(prefix),
              let minor = version.last else { return false }
        return minor >= UInt8(ascii: "0") && minor <= UInt8(ascii: "9")
    }

    /// Visible ASCII, plus raw high bytes that some clients send unencoded (they are re-encoded).
    static func isTargetByte(_ byte: UInt8) -> Bool { (byte > 0x20 && byte < 0x7F) || byte >= 0x80 }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) ? byte | 0x20 : byte
    }

    private static func percentEncoded(_ bytes: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for byte in bytes {
            if byte < 0x80 {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                Hex.append(byte, to: &out)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
