/// An activity to share (docs/protocol.md §4.8), checked before anything is sent so that a host's mistake
/// is reported as one, naming the member, instead of as a provider failure after a round trip. JSON null
/// stands for an absent member, since hosts often serialise optionals that way.
struct ShareActivity: Sendable, Equatable {
    /// The client-only "email" member: what jump_client_share_content builds the email from.
    struct EmailSpec: Sendable, Equatable {
        var subject: String?
        var messageBody: String?
        /// nil: the activity's url, if any.
        var urls: [String]?
    }

    /// The client-only "sms" member.
    struct SMSSpec: Sendable, Equatable {
        var message: String?
        var urls: [String]?
    }

    let action: String
    /// "" when the activity has none (the wire format always carries it).
    let url: String
    let title, description, userGeneratedContent: String?
    let email: EmailSpec
    let sms: SMSSpec
    /// The object sent as `activity=`: without the client-only members, with `url` always present.
    let wireJSON: JSON

    /// Typos are refused rather than silently not shared.
    private static let knownMembers: Set<String> = [
        "action", "url", "user_generated_content", "title", "description", "action_links", "media", "properties",
        "email", "sms",
    ]

    init(json: JSON) throws(JumpError) {
        guard case .object(let members) = json else {
            throw Self.invalid("the activity must be a JSON object, not \(json.typeName)")
        }
        if let unknown = members.keys.filter({ !Self.knownMembers.contains($0) }).sorted().first {
            throw Self.invalid("the activity has an unknown member \"\(unknown)\"")
        }
        guard let action = members["action"]?.stringValue,
              !action.allSatisfy({ $0.isWhitespace }) else {
            throw Self.invalid("the activity's \"action\" must be a non-empty string")
        }
        self.action = action
        url = try Self.string(members, "url", in: "the activity") ?? ""
        title = try Self.string(members, "title", in: "the activity")
        description = try Self.string(members, "description", in: "the activity")
        userGeneratedContent = try Self.string(members, "user_generated_content", in: "the activity")
        try Self.checkActionLinks(members["action_links"])
        try ShareMedia.check(members["media"])
        if let properties = Self.present(members["properties"]), properties.objectValue == nil {
            throw Self.invalid("the activity's \"properties\" must be an object, not \(properties.typeName)")
        }
        email = try Self.emailSpec(members["email"])
        sms = try Self.smsSpec(members["sms"])

        var wire = members.filter { !$0.value.isNull }
        wire["email"] = nil
        wire["sms"] = nil
        wire["url"] = .string(url)
        wireJSON = .object(wire)
    }

    static func invalid(_ message: String) -> JumpError { .invalidArgument(message, argument: "activity") }

    static func present(_ value: JSON?) -> JSON? {
        guard let value, !value.isNull else { return nil }
        return value
    }

    /// `owner` names where the member sits, for the message ("the activity", "media[2]").
    static func string(_ members: [String: JSON], _ key: String, in owner: String) throws(JumpError) -> String? {
        guard let value = present(members[key]) else { return nil }
        guard let string = value.stringValue else {
            throw invalid("\(owner)'s \"\(key)\" must be a string, not \(value.typeName)")
        }
        return string
    }

    private static func checkActionLinks(_ value: JSON?) throws(JumpError) {
        guard let value = present(value) else { return }
        guard let links = value.arrayValue else {
            throw invalid("the activity's \"action_links\" must be an array, not \(value.typeName)")
        }
        for (index, link) in links.enumerated() {
            guard let members = link.objectValue else {
                throw invalid("action_links[\(index)] must be an object with \"text\" and \"href\", not \(link.typeName)")
            }
            for key in ["text", "href"] {
                if try string(members, key, in: "action_links[\(index)]") == nil {
                    throw invalid("action_links[\(index)] needs a \"\(key)\" string")
                }
            }
        }
    }

    private static func emailSpec(_ value: JSON?) throws(JumpError) -> EmailSpec {
        guard let value = present(value) else { return EmailSpec() }
        guard let members = value.objectValue else {
            throw invalid("the activity's \"email\" must be an object, not \(value.typeName)")
        }
        try checkOnly(["subject", "message_body", "urls"], in: members, of: "email")
        return EmailSpec(subject: try string(members, "subject", in: "email"),
                         messageBody: try string(members, "message_body", in: "email"),
                         urls: try urlList(members["urls"], of: "email"))
    }

    private static func smsSpec(_ value: JSON?) throws(JumpError) -> SMSSpec {
        guard let value = present(value) else { return SMSSpec() }
        guard let members = value.objectValue else {
            throw invalid("the activity's \"sms\" must be an object, not \(value.typeName)")
        }
        try checkOnly(["message", "urls"], in: members, of: "sms")
        return SMSSpec(message: try string(members, "message", in: "sms"), urls: try urlList(members["urls"], of: "sms"))
    }

    private static func checkOnly(_ known: Set<String>, in members: [String: JSON], of owner: String) throws(JumpError) {
        if let unknown = members.keys.filter({ !known.contains($0) }).sorted().first {
            throw invalid("\(owner) has an unknown member \"\(unknown)\"")
        }
    }

    private static func urlList(_ value: JSON?, of owner: String) throws(JumpError) -> [String]? {
        guard let value = present(value) else { return nil }
        guard let items = value.arrayValue else {
            throw invalid("\(owner)'s \"urls\" must be an array of strings, not \(value.typeName)")
        }
        var urls: [String] = []
        for (index, item) in items.enumerated() {
            guard let url = item.stringValue else {
                throw invalid("\(owner).urls[\(index)] must be a string, not \(item.typeName)")
            }
            urls.append(url)
        }
        return urls
    }
}
