/// The attributes a write touches, as canonical paths without element ids (`/photos/value`), for the
/// `write_with_token` access-schema check.
///
/// - update: every value given (a null clears that attribute); a new element with no members
///   writes its plural;
/// - replace: every value given, plus every member of a replaced object that was not given (it is
///   cleared); a replaced plural is written whole;
/// - delete: the attribute deleted (an element belongs to its plural).
///
/// Attributes the schema does not know are listed too; the write refuses them later anyway.
enum WrittenPaths {
    static func update(_ value: JSONValue, at path: AttributePath, schema: Schema) -> Set<String> {
        collect(value, at: path, schema: schema, mode: .update)
    }

    static func replace(_ value: JSONValue, at path: AttributePath, schema: Schema) -> Set<String> {
        collect(value, at: path, schema: schema, mode: .replace)
    }

    static func delete(at path: AttributePath) -> Set<String> {
        [canonical(path)]
    }

    /// `/profiles#5/friends` → `/profiles/friends`.
    static func canonical(_ path: AttributePath) -> String {
        path.isRoot ? "/" : path.steps.map { "/" + $0.name }.joined()
    }

    private static func collect(
        _ value: JSONValue, at path: AttributePath, schema: Schema, mode: RecordUpdater.Mode
    ) -> Set<String> {
        var found = Set<String>()
        var attribute: SchemaAttribute? = schema.root
        var isElement = false
        for step in path.steps {
            attribute = attribute.flatMap { $0.isContainer ? $0.child(named: step.name) : nil }
            isElement = step.elementId != nil
        }
        let prefix = path.isRoot ? "" : canonical(path)
        guard let attribute else {
            found.insert(prefix)
            return found
        }
        let target = isElement ? RecordUpdater.elementAttribute(of: attribute) : attribute
        walk(value, attribute: target, path: prefix, isRoot: path.isRoot, isElement: isElement, mode: mode, into: &found)
        return found
    }

    private static func walk(
        _ value: JSONValue, attribute: SchemaAttribute?, path: String, isRoot: Bool, isElement: Bool,
        mode: RecordUpdater.Mode, into found: inout Set<String>
    ) {
        guard let attribute, attribute.isContainer else {
            found.insert(path)
            return
        }
        if attribute.type == .plural {
            guard mode == .update, let items = value.arrayValue else {
                found.insert(path)  // replaced whole, cleared, or not an array at all
                return
            }
            let element = RecordUpdater.elementAttribute(of: attribute)
            for item in items {
                walk(item, attribute: element, path: path, isRoot: false, isElement: true, mode: mode, into: &found)
            }
            return
        }
        guard let members = value.objectValue else {
            found.insert(path)
            return
        }
        var wroteMember = false
        for (key, member) in members {
            if isElement, key == "id" { continue }
            wroteMember = true
            walk(member, attribute: attribute.child(named: key), path: path + "/" + key, isRoot: false,
                 isElement: false, mode: mode, into: &found)
        }
        if mode == .replace {
            for child in attribute.children where members[child.name] == nil {
                if isRoot, Schema.reservedNames.contains(child.name) || child.type == .password { continue }
                if isElement, child.name == "id" { continue }
                found.insert(path + "/" + child.name)  // cleared by the replace
            }
        }
        if isElement, !wroteMember, members["id"]?.isNull ?? true {
            found.insert(path)  // a new element with no members still adds an element to the plural
        }
    }
}
