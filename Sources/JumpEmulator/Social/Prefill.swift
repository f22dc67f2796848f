/// The `prereg_fields` of a 310: the registration form's fields filled from the profile's record
/// attributes through each field's `schemaId`, so the client can show a pre-filled form
/// (docs/protocol.md §7.3).
enum Prefill {
    /// Only fields with a value are given: clients read each value as a string.
    static func fields(_ form: [FlowField], from attributes: [String: JSONValue]) -> [String: JSONValue] {
        var filled: [String: JSONValue] = [:]
        for field in form {
            guard let path = field.schemaPath else { continue }
            var value: JSONValue? = .object(attributes)
            for step in path.split(separator: ".") {
                value = value?[String(step)]
            }
            if let text = value?.stringValue { filled[field.name] = .string(text) }
        }
        return filled
    }
}
