/// The email and SMS a host sends itself (jump_client_share_content): text from the activity's "email" and
/// "sms" members, falling back to its title, description and action, with URLs shortened by get_urls
/// when that worked. Empty strings count as missing, so a host may send "" for "use the default".
struct ShareContent: Sendable {
    /// The SMS text before its URLs; URLs are never cut, since a truncated link is useless.
    static let smsMessageLimit = 160

    let activity: ShareActivity

    init(activity: ShareActivity) { self.activity = activity }

    var emailURLs: [String] { Self.urls(activity.email.urls, activity: activity) }
    var smsURLs: [String] { Self.urls(activity.sms.urls, activity: activity) }

    /// The "email" and "sms" lists of get_urls' `urls` parameter.
    var urlsToShorten: JSON {
        ["email": .array(emailURLs.map(JSON.string)), "sms": .array(smsURLs.map(JSON.string))]
    }

    /// `shortened` is get_urls' reply ({"urls":{"email":{long:short},"sms":{..}}}), or anything else (.null)
    /// when shortening failed: then the long URLs are used.
    func build(shortened: JSON) -> JSON {
        let emailLinks = Self.links(emailURLs, shortened["urls"]?["email"])
        let smsLinks = Self.links(smsURLs, shortened["urls"]?["sms"])

        let subject = Self.firstNonEmpty(activity.email.subject, activity.title) ?? activity.action
        var body = Self.firstNonEmpty(activity.email.messageBody, activity.description, activity.userGeneratedContent)
            ?? activity.action
        if !emailLinks.isEmpty { body += "\n\n" + emailLinks.map(\.short).joined(separator: "\n") }

        var message = Self.truncated(Self.firstNonEmpty(activity.sms.message, activity.title) ?? activity.action)
        if !smsLinks.isEmpty { message += " " + smsLinks.map(\.short).joined(separator: " ") }

        return [
            "email": ["subject": .string(subject), "body": .string(body), "urls": Self.urlMap(emailLinks)],
            "sms": ["message": .string(message), "urls": Self.urlMap(smsLinks)],
        ]
    }

    /// A spec's own list wins, even when empty (the host asked for no link); duplicates would only repeat
    /// the same line.
    private static func urls(_ specified: [String]?, activity: ShareActivity) -> [String] {
        let candidates = specified ?? (activity.url.isEmpty ? [] : [activity.url])
        var seen: Set<String> = []
        return candidates.filter { !$0.isEmpty && seen.insert($0).inserted }
    }

    private static func links(_ urls: [String], _ shortened: JSON?) -> [(long: String, short: String)] {
        urls.map { long in
            guard let short = shortened?[long]?.stringValue, !short.isEmpty else { return (long, long) }
            return (long, short)
        }
    }

    private static func urlMap(_ links: [(long: String, short: String)]) -> JSON {
        var map: [String: JSON] = [:]
        for link in links { map[link.long] = .string(link.short) }
        return .object(map)
    }

    private static func firstNonEmpty(_ candidates: String?...) -> String? {
        candidates.lazy.compactMap { $0 }.first { !$0.isEmpty }
    }

    /// Counted in characters as a reader sees them, so an emoji or accent is never split.
    static func truncated(_ text: String) -> String {
        guard text.count > smsMessageLimit else { return text }
        return String(text.prefix(smsMessageLimit - 1)) + "…"
    }
}
