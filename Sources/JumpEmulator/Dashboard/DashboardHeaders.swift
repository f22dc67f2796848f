import Hummingbird

/// Header fields HTTPTypes has no constant for. `HTTPField.Name(_:)` is failable, so they are looked up
/// by text rather than unwrapped.
enum DashboardHeaders {
    static let secFetchSite = "Sec-Fetch-Site"
    static let xFrameOptions = "X-Frame-Options"
    static let referrerPolicy = "Referrer-Policy"

    static func value(_ name: String, in fields: HTTPFields) -> String? {
        HTTPFields.Element.Name(name).flatMap { fields[$0] }
    }

    static func set(_ name: String, _ value: String, in fields: inout HTTPFields) {
        if let field = HTTPFields.Element.Name(name) { fields[field] = value }
    }
}
