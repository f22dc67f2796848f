import Foundation

/// How the dashboard words values for people: times, durations, shortened tokens, masked secrets and
/// pretty JSON.
enum DashboardText {
    /// `yyyy-MM-dd HH:mm:ss UTC`: seconds are enough for people; the admin API has the exact value.
    static func time(_ seconds: Double) -> String {
        CaptureTime.signatureDate(Date(timeIntervalSince1970: seconds.isFinite ? seconds : 0)) + " UTC"
    }

    /// The first characters of a token and an ellipsis: enough to tell tokens apart on screen, not enough
    /// to use one (the page may end up in a screenshot or a shared screen).
    static func shortToken(_ token: String) -> String {
        token.count <= 6 ? token : String(token.prefix(6)) + "…"
    }

    /// Secrets and API keys are not shown at all; the admin API has them.
    static let masked = "•••••••• (masked)"

    /// "+1 d 2 h 3 min 4 s", "-30 s", "none".
    static func offset(_ seconds: Double) -> String {
        guard seconds.isFinite else { return "none" }
        var rest = Int(abs(seconds).rounded())
        guard rest > 0 else { return "none" }
        var parts: [String] = []
        for (size, unit) in [(86_400, "d"), (3600, "h"), (60, "min"), (1, "s")] where rest >= size {
            parts.append("\(rest / size) \(unit)")
            rest %= size
        }
        return (seconds < 0 ? "-" : "+") + parts.joined(separator: " ")
    }

    static func list(_ items: [String]) -> String {
        items.isEmpty ? "none" : items.joined(separator: ", ")
    }

    /// "12 KiB", "3.4 MiB".
    static func size(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) bytes" }
        if bytes < 1 << 20 { return "\(bytes / 1024) KiB" }
        return String(format: "%.1f MiB", Double(bytes) / Double(1 << 20))
    }

    /// Only web links become clickable: a `password_recover_url` is whatever an admin call set.
    static func isWebLink(_ text: String) -> Bool {
        let lower = text.lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }
}
