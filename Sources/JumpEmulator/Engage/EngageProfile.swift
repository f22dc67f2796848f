/// What an identity says about its person, and the Engage profile object made from it:
/// `{"identifier","providerName","displayName","preferredUsername","email"?,"verifiedEmail"? (only when
/// verified),"name":{"givenName","familyName","formatted"},"photo"?,"url"?}`.
struct EngageProfile: Sendable, Equatable {
    var displayName: String?
    var email: String?
    var verifiedEmail = true
    var givenName: String?
    var familyName: String?
    var preferredUsername: String?
    var photo: String?
    var url: String?

    func object(identifier: String, providerName: String) -> [String: JSONValue] {
        let emailLocalPart = email.flatMap { $0.split(separator: "@").first.map(String.init) }
        let words = (displayName ?? "").split(separator: " ", maxSplits: 1).map(String.init)
        let given = givenName ?? words.first
        let family = familyName ?? (words.count > 1 ? words[1] : nil)
        let joined = [given, family].compactMap { $0 }.joined(separator: " ")
        let shownName = displayName ?? (joined.isEmpty ? nil : joined) ?? emailLocalPart ?? "Test User"
        let username = preferredUsername ?? emailLocalPart
            ?? shownName.lowercased().filter { !$0.isWhitespace }

        var profile: [String: JSONValue] = [
            "identifier": .string(identifier),
            "providerName": .string(providerName),
            "displayName": .string(shownName),
            "preferredUsername": .string(username),
            "name": [
                "givenName": given.map(JSONValue.string) ?? .null,
                "familyName": family.map(JSONValue.string) ?? .null,
                "formatted": .string(joined.isEmpty ? shownName : joined),
            ],
        ]
        if let email {
            profile["email"] = .string(email)
            if verifiedEmail { profile["verifiedEmail"] = .string(email) }
        }
        if let photo { profile["photo"] = .string(photo) }
        if let url { profile["url"] = .string(url) }
        return profile
    }

    /// The fields of a stored profile object, so a reused identity can be changed field by field.
    init(object: [String: JSONValue]) {
        displayName = object["displayName"]?.stringValue
        email = object["email"]?.stringValue
        verifiedEmail = object["verifiedEmail"]?.stringValue != nil
        givenName = object["name"]?["givenName"]?.stringValue
        familyName = object["name"]?["familyName"]?.stringValue
        preferredUsername = object["preferredUsername"]?.stringValue
        photo = object["photo"]?.stringValue
        url = object["url"]?.stringValue
    }

    init(displayName: String? = nil, email: String? = nil, verifiedEmail: Bool = true, givenName: String? = nil,
         familyName: String? = nil, preferredUsername: String? = nil, photo: String? = nil, url: String? = nil) {
        self.displayName = displayName
        self.email = email
        self.verifiedEmail = verifiedEmail
        self.givenName = givenName
        self.familyName = familyName
        self.preferredUsername = preferredUsername
        self.photo = photo
        self.url = url
    }
}
