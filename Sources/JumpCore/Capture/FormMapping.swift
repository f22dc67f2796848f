/// Record values -> form parameters (docs/protocol.md §9.3), and the sign-in credentials.
enum FormMapping {
    /// Record attributes that no field of the form maps.
    enum Unmapped {
        /// Registration: the attributes are the caller's, so one the form cannot carry is an error (a typo
        /// must not vanish silently).
        case refuse
        /// Profile edits: the form is filled from the whole record, of which it covers only a part.
        case ignore
    }

    /// The parameters of `form` filled from `record`. Fields of type password get `password`, or are left
    /// out without one (a record never holds a password). A null or missing value is left out, unless its
    /// dotted path is in `emptied` (a profile edit clearing it): then the field is sent blank, which is how
    /// a form clears a value.
    static func parameters(form: String, flow: Flow, record: JSON, password: String?,
                           unmapped: Unmapped = .refuse, emptied: Set<String> = []) throws(JumpError) -> FormParameters {
        let fieldNames = try self.fieldNames(form, in: flow)
        var parameters = FormParameters()
        var usedPaths: [String] = []
        for name in fieldNames {
            guard let field = flow.field(name) else { continue }
            if field.isPassword {
                parameters.add(name, password)
                continue
            }
            switch field.schemaID {
            case .none: continue
            case .path(let path):
                usedPaths.append(path)
                guard let value = value(at: path, in: record), !value.isNull else {
                    if emptied.contains(path) {
                        let blanks = field.type == "dateselect" ? dateSelectParts.map { "\(name)[\($0)]" } : [name]
                        for blank in blanks { parameters.add(blank, "") }
                    }
                    continue
                }
                if field.type == "dateselect" {
                    try addDateSelect(name, value, to: &parameters)
                } else {
                    parameters.add(name, text(of: value))
                }
            case .subscripts(let map):
                for (subscriptName, path) in map {
                    usedPaths.append(path)
                    guard let value = value(at: path, in: record), !value.isNull else {
                        if emptied.contains(path) { parameters.add("\(name)[\(subscriptName)]", "") }
                        continue
                    }
                    parameters.add("\(name)[\(subscriptName)]", text(of: value))
                }
            }
        }
        if unmapped == .refuse {
            for leaf in leafPaths(of: record, prefix: "") where !usedPaths.contains(where: { covers($0, leaf) }) {
                throw .invalidArgument("attribute '\(leaf)' is not a field of form '\(form)'", argument: leaf)
            }
        }
        return parameters
    }

    /// The field names of `form`; a flow without it is a configuration mistake worth naming.
    static func fieldNames(_ form: String, in flow: Flow) throws(JumpError) -> [String] {
        guard let names = flow.formFields(form) else {
            throw JumpError(.notFound, "the flow (version \(flow.version)) has no form '\(form)'")
        }
        return names
    }

    /// The field that carries the user's email on forgot-password and resend-verification forms
    /// (docs/protocol.md §6.5, §9.3): the first one of type email or text.
    static func userIDField(form: String, flow: Flow) throws(JumpError) -> String {
        let names = try fieldNames(form, in: flow)
        guard let field = names.compactMap(flow.field).first(where: { $0.type == "email" || $0.type == "text" }) else {
            throw JumpError(.notFound, "form '\(form)' of the flow (version \(flow.version)) has no email or text field")
        }
        return field.name
    }

    /// The password fields of a change-password form split by what they carry. Flows name them freely
    /// (currentPassword / newPassword / newPasswordConfirm in the samples), so the current-password field
    /// is recognised by name ("current" or "old"); failing that, it is the first of two or more password
    /// fields whose name does not say "new" or "confirm" (a form of only newPassword and newPasswordConfirm
    /// has none). Every other password field gets the new password.
    static func passwordFields(form: String, flow: Flow) throws(JumpError) -> (current: [String], new: [String]) {
        let passwords = try fieldNames(form, in: flow).compactMap(flow.field).filter(\.isPassword).map(\.name)
        func named(_ words: [String]) -> (String) -> Bool {
            { name in words.contains { name.lowercased().contains($0) } }
        }
        var current = passwords.filter(named(["current", "old"]))
        if current.isEmpty, passwords.count >= 2,
           let first = passwords.first(where: { !named(["new", "confirm"])($0) }) {
            current = [first]
        }
        let new = passwords.filter { !current.contains($0) }
        guard !new.isEmpty else {
            throw JumpError(.notFound, "form '\(form)' of the flow (version \(flow.version)) has no field for the new password")
        }
        return (current, new)
    }

    /// The two sign-in fields (docs/protocol.md §6.1): the password field and the user-id field of the form.
    static func credentials(form: String, flow: Flow?, user: String, password: String) -> FormParameters {
        var parameters = FormParameters()
        if let flow, let names = flow.formFields(form), names.count == 2 {
            let fields = names.compactMap(flow.field)
            if let passwordField = fields.first(where: \.isPassword),
               let userField = fields.first(where: { !$0.isPassword }) {
                parameters.add(userField.name, user)
                parameters.add(passwordField.name, password)
                return parameters
            }
        }
        parameters.add("user", user)
        parameters.add("password", password)
        return parameters
    }

    private static let dateSelectParts = ["dateselect_year", "dateselect_month", "dateselect_day"]

    /// "yyyy-MM-dd" -> field[dateselect_year|month|day], zero-padded as Android sends them.
    private static func addDateSelect(_ name: String, _ value: JSON, to parameters: inout FormParameters) throws(JumpError) {
        let parts = (value.stringValue ?? "").split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]),
              (1...9999).contains(y), (1...12).contains(m), (1...31).contains(d) else {
            throw .invalidArgument("the date for field '\(name)' must be \"yyyy-MM-dd\", not \(Jansson.serialize(value))",
                                   argument: name)
        }
        func pad(_ v: Int, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        parameters.add("\(name)[dateselect_year]", pad(y, 4))
        parameters.add("\(name)[dateselect_month]", pad(m, 2))
        parameters.add("\(name)[dateselect_day]", pad(d, 2))
    }

    static func text(of value: JSON) -> String {
        if case .string(let s) = value { return s }
        return Jansson.serialize(value)
    }

    /// The value at a dotted schema path; `name#id` components select plural elements.
    static func value(at path: String, in record: JSON) -> JSON? {
        var current = record
        for component in path.split(separator: ".") {
            let parts = component.split(separator: "#", maxSplits: 1)
            guard let key = parts.first, let next = current[String(key)] else { return nil }
            current = next
            if parts.count == 2 {
                guard let id = Int64(parts[1]), let element = current.arrayValue?.first(where: { $0["id"]?.intValue == id })
                else { return nil }
                current = element
            }
        }
        return current
    }

    /// The dotted paths of the nulls in `value` (an attributes object): the values it clears.
    static func nullPaths(of value: JSON, prefix: String = "") -> Set<String> {
        guard case .object(let members) = value else { return value.isNull && !prefix.isEmpty ? [prefix] : [] }
        var paths: Set<String> = []
        for (key, member) in members {
            paths.formUnion(nullPaths(of: member, prefix: prefix.isEmpty ? key : prefix + "." + key))
        }
        return paths
    }

    private static func leafPaths(of value: JSON, prefix: String) -> [String] {
        guard case .object(let members) = value else { return prefix.isEmpty ? [] : [prefix] }
        if members.isEmpty && !prefix.isEmpty { return [prefix] }
        return members.keys.sorted().flatMap { key in
            leafPaths(of: members[key] ?? .null, prefix: prefix.isEmpty ? key : prefix + "." + key)
        }
    }

    private static func covers(_ schemaPath: String, _ leaf: String) -> Bool {
        leaf == schemaPath || leaf.hasPrefix(schemaPath + ".")
    }
}
