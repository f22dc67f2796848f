/// Capture's 310 answer names form fields (prereg_fields); the app edits record attributes. Each value goes
/// to its field's schemaId, nested at dotted paths ("primaryAddress.city" -> {"primaryAddress":{"city":..}}),
/// where the reference SDKs made one flat "primaryAddress.city" key (docs/protocol.md §7.3, a quirk not kept).
extension FormMapping {
    static func record(fromFields fields: [String: JSON], flow: Flow) -> JSON {
        var record: JSON = [:]
        for name in fields.keys.sorted() {
            guard let value = fields[name], let field = flow.field(name), !field.isPassword else { continue }
            switch field.schemaID {
            case .path(let path):
                let components = path.split(separator: ".").map(String.init)
                guard !components.isEmpty, !components.contains(where: { $0.contains("#") }) else { continue }
                record = setting(value, at: components[...], in: record)
            case .subscripts, .none:
                continue
            }
        }
        return record
    }

    private static func setting(_ value: JSON, at components: ArraySlice<String>, in object: JSON) -> JSON {
        guard let first = components.first else { return value }
        var members = object.objectValue ?? [:]
        members[first] = setting(value, at: components.dropFirst(), in: members[first] ?? [:])
        return .object(members)
    }
}
