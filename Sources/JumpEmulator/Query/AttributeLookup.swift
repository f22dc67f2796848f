/// A dotted attribute path of a query (`primaryAddress.city`, `profiles.domain`) checked against the
/// schema once, then read from many shaped records.
struct AttributeLookup: Sendable {
    struct Step: Sendable {
        var name: String
        /// A plural: the step yields each of its elements.
        var isPlural: Bool
    }

    let text: String
    let steps: [Step]
    /// The attribute the path ends at.
    let attribute: SchemaAttribute

    /// Every name must be a readable attribute below an object or a plural; free-form `json`
    /// attributes have no schema to look inside, and passwords are write-only.
    init(_ text: String, schema: Schema) throws(FilterError) {
        let names = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !names.isEmpty, !names.contains(where: \.isEmpty) else {
            throw FilterError("'\(text)' is not an attribute path")
        }
        var container = schema.root
        var steps: [Step] = []
        var walked = ""
        for (position, name) in names.enumerated() {
            walked += (position == 0 ? "" : ".") + name
            guard container.isContainer, let child = container.child(named: name), child.isReadable else {
                throw FilterError("\(walked) is not an attribute of \(schema.name)")
            }
            if child.type == .json, position < names.count - 1 {
                throw FilterError("\(walked) is free-form JSON; attributes inside it cannot be queried")
            }
            steps.append(Step(name: name, isPlural: child.type == .plural))
            container = child
        }
        self.text = text
        self.steps = steps
        self.attribute = container
    }

    /// The values at the path: one for a path through objects, one per element for a path through a
    /// plural (a path ending at a plural yields its elements). Missing members read as null.
    func values(in record: JSONValue) -> [JSONValue] {
        var current = [record]
        for step in steps {
            var next: [JSONValue] = []
            for value in current {
                let child = value[step.name] ?? .null
                if step.isPlural {
                    next.append(contentsOf: child.arrayValue ?? [])
                } else {
                    next.append(child)
                }
            }
            current = next
        }
        return current
    }

    /// Whether the path crosses a plural (it then has any number of values).
    var isMultiValued: Bool {
        steps.contains(where: \.isPlural)
    }
}
