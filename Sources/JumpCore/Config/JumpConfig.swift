/// A client's settings. Built from JSON or key by key; an unknown key or a wrong type is an error naming
/// the key, so a typo never silently falls back to a default.
public struct JumpConfig: Sendable, Equatable {
    private var values: [ConfigKey: JSON] = [:]

    public init() {}

    public init(json: JSON) throws(JumpError) {
        guard case .object(let members) = json else {
            throw .invalidArgument("the configuration must be a JSON object, not \(json.typeName)")
        }
        for key in members.keys.sorted() {
            try set(key, members[key] ?? .null)
        }
    }

    /// Sets `key` to `value`; `.null` restores the default.
    public mutating func set(_ name: String, _ value: JSON) throws(JumpError) {
        guard let key = ConfigKey(rawValue: name) else {
            let suggestion = ConfigKey.nearest(to: name).map { ": did you mean '\($0.rawValue)'?" } ?? ""
            throw .invalidArgument("unknown configuration key '\(name)'\(suggestion)", argument: name)
        }
        if value == .null {
            values[key] = nil
            return
        }
        switch (key.kind, value) {
        case (.string, .string(let s)):
            if let allowed = key.allowedValues, !allowed.contains(s) {
                throw .invalidArgument(
                    "configuration key '\(name)' must be one of \(allowed.joined(separator: ", ")), not '\(s)'",
                    argument: name)
            }
        case (.bool, .bool): break
        case (.object, .object): break
        case (.object, .string(let text)):
            // jump_config_set_string gives object keys as JSON text.
            let parsed = try Jansson.parse(Array(text.utf8), what: "configuration key '\(name)'")
            guard case .object = parsed else {
                throw .invalidArgument("configuration key '\(name)' must be a JSON object", argument: name)
            }
            values[key] = parsed
            return
        case (.list, .array(let items)):
            values[key] = .array(try ConfigKey.listItems(items.map { $0.stringValue }, key: name))
            return
        case (.list, .string(let text)):
            // jump_config_set_string gives a list as JSON text, or as libcurl writes pins ("a;b"); "" is none.
            let items: [String?]
            if text.hasPrefix("[") {
                let parsed = try Jansson.parse(Array(text.utf8), what: "configuration key '\(name)'")
                guard case .array(let array) = parsed else {
                    throw .invalidArgument("configuration key '\(name)' must be a JSON array of strings", argument: name)
                }
                items = array.map { $0.stringValue }
            } else {
                items = text.split(separator: ";", omittingEmptySubsequences: true).map { String($0).trimmingSpaces() }
            }
            values[key] = .array(try ConfigKey.listItems(items, key: name))
            return
        case (.int, let v) where v.intValue != nil:
            if let range = key.allowedRange, let i = v.intValue, !range.contains(i) {
                throw .invalidArgument(
                    "configuration key '\(name)' must be between \(range.lowerBound) and \(range.upperBound)",
                    argument: name)
            }
            values[key] = .int(v.intValue ?? 0)
            return
        default:
            throw .invalidArgument(
                "configuration key '\(name)' must be \(key.kind), not \(value.typeName)", argument: name)
        }
        values[key] = value
    }

    /// Every key with its effective value (defaults included; unset keys as null).
    public var json: JSON {
        var o: [String: JSON] = [:]
        for key in ConfigKey.allCases { o[key.rawValue] = value(key) ?? .null }
        if values[.storageDirectory] == nil {
            o[ConfigKey.storageDirectory.rawValue] = .string(CaptureSettings.defaultStorageDirectory())
        }
        return .object(o)
    }

    func value(_ key: ConfigKey) -> JSON? { values[key] ?? key.defaultValue }

    /// A string key's value: what was set, else its default; nil when neither is there (or the value is "").
    func string(_ key: ConfigKey) -> String? {
        guard let s = value(key)?.stringValue, !s.isEmpty else { return nil }
        return s
    }

    /// A string key that has a default in ConfigKey: what was set, else ("" or unset) that default. The one way
    /// to read such a key, so its default lives in ConfigKey alone (no `?? "..."` after a read: check 14).
    func defaulted(_ key: ConfigKey) -> String {
        string(key) ?? key.defaultValue?.stringValue ?? ""
    }

    func int(_ key: ConfigKey) -> Int64 { value(key)?.intValue ?? key.defaultValue?.intValue ?? 0 }

    func bool(_ key: ConfigKey) -> Bool { value(key)?.boolValue ?? false }

    func list(_ key: ConfigKey) -> [String] { value(key)?.arrayValue?.compactMap(\.stringValue) ?? [] }
}

extension ConfigKey.Kind: CustomStringConvertible {
    var description: String {
        switch self {
        case .string: return "a string"
        case .bool: return "a boolean"
        case .int: return "an integer"
        case .object: return "a JSON object"
        case .list: return "a list of strings"
        }
    }
}

extension ConfigKey {
    /// The strings of a list key, each checked: pinnedPublicKeys holds `sha256//<base64 of 32 bytes>` (the
    /// SHA-256 of a certificate's SubjectPublicKeyInfo, as CURLOPT_PINNEDPUBLICKEY takes it).
    static func listItems(_ items: [String?], key name: String) throws(JumpError) -> [JSON] {
        var out: [JSON] = []
        for item in items {
            guard let item else {
                throw .invalidArgument("configuration key '\(name)' must be a list of strings", argument: name)
            }
            if name == ConfigKey.pinnedPublicKeys.rawValue {
                let hash = item.hasPrefix("sha256//") ? String(item.dropFirst(8)) : ""
                guard let bytes = Base64.decode(hash), bytes.count == 32 else {
                    throw .invalidArgument("configuration key '\(name)': '\(item.prefix(80))' is not sha256//<base64 of the "
                                           + "SHA-256 of a public key (SubjectPublicKeyInfo)>", argument: name)
                }
            }
            out.append(.string(item))
        }
        return out
    }

    /// The known key a mistyped one most likely meant: the fewest single-character edits (case ignored), at
    /// most a third of the name's length, so unrelated names get no suggestion.
    static func nearest(to name: String) -> ConfigKey? {
        let typed = Array(name.lowercased().utf8.prefix(64))
        var best: (key: ConfigKey, distance: Int)?
        for key in allCases {
            let distance = editDistance(typed, Array(key.rawValue.lowercased().utf8))
            if distance < (best?.distance ?? Int.max) { best = (key, distance) }
        }
        guard let best, best.distance <= max(1, typed.count / 3) else { return nil }
        return best.key
    }

    /// Levenshtein distance, two rows (the names are short and bounded above).
    private static func editDistance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for (i, x) in a.enumerated() {
            current[0] = i + 1
            for (j, y) in b.enumerated() {
                current[j + 1] = Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
