import Foundation
import Hummingbird

/// The URLs Engage hands out: the base the request came in on, the completion redirects and
/// percent-encoding of query values.
enum EngageURLs {
    /// `http://<Host of the request>` (tests run the emulator on a random port, and a client must be sent
    /// back to the address it used); the bound address when the request names no usable host.
    static func base(_ request: Request, emulator: Emulator) -> String {
        let host = request.head.authority
        if let host, !host.isEmpty, host.utf8.count <= 300, host.unicodeScalars.allSatisfy(isHostCharacter) {
            return "http://" + host
        }
        return emulator.publicBaseURL
    }

    private static func isHostCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", ".", "-", ":", "[", "]", "_": return true
        default: return false
        }
    }

    /// A value for a query string: everything but unreserved characters is escaped (space as %20).
    static func encode(_ value: String) -> String {
        var allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    /// `url` with `name=value` pairs appended after `?`, or `&` when it has a query already.
    static func appending(_ url: String, _ pairs: [(String, String)]) -> String {
        guard !pairs.isEmpty else { return url }
        let query = pairs.map { "\($0.0)=\(encode($0.1))" }.joined(separator: "&")
        return url + (url.contains("?") ? "&" : "?") + query
    }

    /// An absolute http(s) URL that can go into a Location header as it is.
    static func isRedirectable(_ url: String) -> Bool {
        let lower = url.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://"), url.utf8.count <= 4096 else { return false }
        let afterScheme = url.drop { $0 != ":" }.dropFirst(3)
        guard let first = afterScheme.first, first != "/", first != "?", first != "#" else { return false }
        return url.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F }
    }

    static func redirect(to location: String) -> Response {
        var headers = HTTPFields()
        headers[.location] = location
        headers[.cacheControl] = "no-store"
        return Response(status: .found, headers: headers)
    }
}
