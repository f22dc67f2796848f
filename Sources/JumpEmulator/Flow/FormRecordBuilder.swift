import Foundation

/// Builds a new record from a validated form: each field's value goes to the record path its
/// `schemaId` names, converted to the attribute's type (docs/protocol.md §9.3, in reverse).
struct FormRecordBuilder: Sendable {
    let schema: Schema
    let locale: MessageLocale

    struct Built: Sendable {
        var attributes: [String: JSONValue] = [:]
        /// The plaintext of the field mapped to `password`; hashed by the caller.
        var password: String?
        /// Which form field wrote each attribute path (`/email` → `emailAddress`), to put a
        /// uniqueness failure on the right field.
        var fieldForPath: [String: String] = [:]
    }

    /// With `clearing` (profile edits), a field that is sent blank writes null: the user emptied it.
    /// Registration leaves it out, so a new record simply does not have the value.
    func build(fields: [FlowField], validation: inout FormValidation, clearing params: FormParams? = nil) -> Built {
        var built = Built()
        for field in fields where validation.errors[field.name] == nil {
            guard let value = validation.values[field.name] else {
                if let params, Self.isSentBlank(field, params), let path = field.schemaPath {
                    let steps = path.split(separator: ".").map(String.init)
                    if let attribute = resolve(steps), attribute.type != .password {
                        Self.set(.null, at: steps[...], in: &built.attributes)
                    }
                }
                continue
            }
            for (path, text) in targets(of: field, value: value) {
                if let message = store(text, at: path, into: &built) {
                    validation.fail(field.name, message)
                } else {
                    built.fieldForPath["/" + path.replacingOccurrences(of: ".", with: "/")] = field.name
                }
            }
        }
        return built
    }

    /// The field's parameter is there but blank (for a dateselect: every part is).
    private static func isSentBlank(_ field: FlowField, _ params: FormParams) -> Bool {
        if field.type == "dateselect" {
            let parts = ["year", "month", "day"].map { params["\(field.name)[dateselect_\($0)]"] }
            if parts.contains(where: { $0 != nil }) {
                return parts.allSatisfy { ($0 ?? "").allSatisfy(\.isWhitespace) }
            }
        }
        guard let raw = params[field.name] else { return false }
        return raw.allSatisfy(\.isWhitespace)
    }

    /// The (dot path, text) pairs a field writes.
    private func targets(of field: FlowField, value: FormValue) -> [(String, String)] {
        switch (field.schemaId, value) {
        case (.path(let path), .text(let text)): return [(path, text)]
        case (.path(let path), .day(let day)): return [(path, day.text)]
        case (.subscripts(let map), .subscripts(let given)):
            return given.keys.sorted().compactMap { key in map[key].flatMap { path in given[key].map { (path, $0) } } }
        default: return []
        }
    }

    /// Stores one value; returns the field's error message when it cannot be stored.
    private func store(_ text: String, at dotPath: String, into built: inout Built) -> String? {
        let steps = dotPath.split(separator: ".").map(String.init)
        guard let attribute = resolve(steps) else { return Message.invalidValue.text(locale) }
        if attribute.type == .password {
            guard steps.count == 1 else { return Message.invalidValue.text(locale) }
            built.password = text
            return nil
        }
        guard let json = convert(text, to: attribute) else { return Message.invalidValue.text(locale) }
        do {
            let checked = try SchemaValidator.validate(json, as: attribute, path: "/" + steps.joined(separator: "/"))
            Self.set(checked, at: steps[...], in: &built.attributes)
            return nil
        } catch {
            switch error.code {
            case 363: return Message.tooLong.text(locale)
            case 342: return Message.invalidDate.text(locale)
            default: return Message.invalidValue.text(locale)
            }
        }
    }

    /// The attribute at a dot path through objects; forms cannot write into plurals or reserved attributes.
    private func resolve(_ steps: [String]) -> SchemaAttribute? {
        guard let first = steps.first, !Schema.reservedNames.contains(first) else { return nil }
        var attribute = schema.root
        for step in steps {
            guard attribute.type == .object, let child = attribute.child(named: step) else { return nil }
            attribute = child
        }
        return attribute.isContainer ? nil : attribute
    }

    /// Form values are text; typed attributes get the JSON value the text spells.
    private func convert(_ text: String, to attribute: SchemaAttribute) -> JSONValue? {
        switch attribute.type {
        case .string, .date, .dateTime:
            return .string(text)
        case .integer:
            return Int64(text).map(JSONValue.int)
        case .decimal:
            return Double(text).map(JSONValue.double)
        case .boolean:
            switch text.lowercased() {
            case "true", "1", "yes", "on": return .bool(true)
            case "false", "0", "no", "off": return .bool(false)
            default: return nil
            }
        case .json:
            return JSONValue.parse(text) ?? .string(text)
        case .id, .uuid, .password, .object, .plural:
            return nil
        }
    }

    private static func set(_ value: JSONValue, at steps: ArraySlice<String>, in members: inout [String: JSONValue]) {
        guard let first = steps.first else { return }
        if steps.count == 1 {
            members[first] = value
            return
        }
        var child = members[first]?.objectValue ?? [:]
        set(value, at: steps.dropFirst(), in: &child)
        members[first] = .object(child)
    }
}
