import Foundation

/// What Capture takes from an Engage identity: record attributes and a `profiles` element
/// (docs/protocol.md §5.2, §6.7).
struct SocialProfile: Sendable {
    var provider: String
    var identifier: String
    /// The Engage profile object (identifier, providerName, displayName, email, verifiedEmail, name, ...).
    var profile: [String: JSONValue]

    init(provider: String, identifier: String, profile: [String: JSONValue]) {
        self.provider = provider
        self.identifier = identifier
        self.profile = profile
    }

    init(token: EngageTokenRow) {
        self.init(provider: token.provider, identifier: token.identifier, profile: token.profile)
    }

    var verifiedEmail: String? { Self.text(profile["verifiedEmail"]) }

    /// The address the record gets, and the one compared with other accounts for a merge.
    var email: String? { verifiedEmail ?? Self.text(profile["email"]) }

    var displayName: String? { Self.text(profile["displayName"]) ?? Self.text(profile["preferredUsername"]) }
    var givenName: String? { Self.text(profile["name"]?["givenName"]) }
    var familyName: String? { Self.text(profile["name"]?["familyName"]) }

    /// The element of `profiles` that stands for this identity.
    var element: [String: JSONValue] {
        var element: [String: JSONValue] = [
            "identifier": .string(identifier),
            "domain": .string(Self.domain(ofProvider: provider)),
            "profile": .object(profile),
        ]
        if let verifiedEmail { element["verifiedEmail"] = .string(verifiedEmail) }
        return element
    }

    /// The record attributes a profile fills: what `prereg_attributes` shows and thin registration
    /// stores.
    var attributes: [String: JSONValue] {
        var attributes: [String: JSONValue] = [:]
        if let email { attributes["email"] = .string(email) }
        if let displayName { attributes["displayName"] = .string(displayName) }
        if let givenName { attributes["givenName"] = .string(givenName) }
        if let familyName { attributes["familyName"] = .string(familyName) }
        return attributes
    }

    /// `attributes` limited to what `schema` takes: an app with a custom schema may lack some of
    /// them, and a provider's display name may be longer than the schema allows. A value that does
    /// not fit is left out rather than failing the sign-in.
    func attributes(fitting schema: Schema) -> [String: JSONValue] {
        attributes.filter { name, value in
            guard let attribute = schema.attribute(named: name), !attribute.isContainer else { return false }
            return (try? SchemaValidator.validate(value, as: attribute, path: name)) != nil
        }
    }

    /// The `profiles` element limited to the members `schema`'s plural has; nil when the schema
    /// has no `profiles` plural (the identity then lives in the index only).
    func element(fitting schema: Schema) -> JSONValue? {
        guard let plural = schema.attribute(named: "profiles"), plural.type == .plural,
            plural.child(named: "identifier") != nil
        else { return nil }
        return .object(element.filter { plural.child(named: $0.key) != nil })
    }

    /// Capture's `domain` of a profile: "facebook.com" for facebook.
    static func domain(ofProvider provider: String) -> String {
        provider + ".com"
    }

    /// The provider behind a `domain`, for elements written through `entity.*` or older records.
    static func provider(ofDomain domain: String?) -> String {
        guard let domain, !domain.isEmpty else { return "unknown" }
        return domain.hasSuffix(".com") ? String(domain.dropLast(4)) : domain
    }

    private static func text(_ value: JSONValue?) -> String? {
        guard let text = value?.stringValue?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        return text
    }
}
