/// JSON text for people: two-space indentation, sorted keys, one member or element a line. Scalars are
/// written as `serialized()` writes them, so numbers and escapes match the admin API's answers.
extension JSONValue {
    func prettyPrinted() -> String {
        var out = ""
        JSONPrettyWriter.write(self, indent: 0, into: &out)
        return out
    }
}

enum JSONPrettyWriter {
    static func write(_ value: JSONValue, indent: Int, into out: inout String) {
        switch value {
        case .array(let items) where !items.isEmpty:
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += String(repeating: "  ", count: indent + 1)
                write(item, indent: indent + 1, into: &out)
                out += index == items.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: "  ", count: indent) + "]"
        case .object(let members) where !members.isEmpty:
            out += "{\n"
            let keys = members.keys.sorted()
            for (index, key) in keys.enumerated() {
                out += String(repeating: "  ", count: indent + 1)
                out += JSONValue.string(key).serialized() + ": "
                write(members[key] ?? .null, indent: indent + 1, into: &out)
                out += index == keys.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: "  ", count: indent) + "}"
        default:
            out += value.serialized()
        }
    }
}
