/// The token a web login leaves behind (seed "Sample code for mobile apps"): the page where the login ended
/// sets it in a cookie and in its title. It is kept for that page's origin only and used by authorized
/// requests to that origin.
extension JumpClient {
    /// The token in a Cookie header ("a=1; oauth_token=T"), Set-Cookie lines ("oauth_token=T; Path=/"), or a
    /// page title containing "oauth_token=T"; nil when neither has it.
    static func webLoginToken(cookies: String?, title: String?, name: String) -> String? {
        if let cookies {
            // Split on bytes: "\r\n" is one Character, so a Character test for "\n" never matches it.
            for line in cookies.utf8.split(whereSeparator: { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") }) {
                var text = Substring(String(decoding: line, as: UTF8.self))
                if text.lowercased().hasPrefix("set-cookie:") { text = text.dropFirst("set-cookie:".count) }
                if text.lowercased().hasPrefix("cookie:") { text = text.dropFirst("cookie:".count) }
                for pair in text.split(separator: ";") {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    guard parts.count == 2, String(parts[0]).trimmingSpaces() == name else { continue }
                    let value = String(parts[1]).trimmingSpaces().trimmingCharacters(in: "\"")
                    if !value.isEmpty { return value }
                }
            }
        }
        if let title, let range = title.firstRange(of: name + "=") {
            let value = title[range.upperBound...].prefix { !$0.isWhitespace && $0 != "&" && $0 != ";" && $0 != "<" }
            if !value.isEmpty { return String(value) }
        }
        return nil
    }

    /// Takes the token from where a web login ended (page URL, its cookies and/or title) and keeps it for that
    /// page's origin. Returns the token (a secret).
    @discardableResult
    public func useWebLogin(pageURL: String, cookies: String?, title: String?) throws(JumpError) -> String {
        let page = try ServerURL(pageURL, key: "page_url")
        guard let token = JumpClient.webLoginToken(cookies: cookies, title: title, name: settings.webLoginCookieName) else {
            throw JumpError(.notFound, "no '\(settings.webLoginCookieName)' in the cookies or the title of the page",
                            detail: ["argument": "cookies"])
        }
        let origin = JumpClient.origin(of: page.base)
        webLogin.withLock { $0 = WebLogin(token: token, origin: origin) }
        return token
    }
}

/// A web-login token and the only origin it is sent to.
struct WebLogin: Sendable, Equatable {
    let token: String
    let origin: String
}

extension String {
    func trimmingCharacters(in set: Character) -> String {
        var text = Substring(self)
        while text.first == set { text = text.dropFirst() }
        while text.last == set { text = text.dropLast() }
        return String(text)
    }
}
