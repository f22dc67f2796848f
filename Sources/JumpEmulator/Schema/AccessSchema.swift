/// An access schema: the attributes a client may read or write (`entityType.setAccessSchema`).
///
/// Paths are kept canonical, `/primaryAddress/city`, without element ids: a listed path covers
/// itself and everything below it, and a plural's path covers its elements (`photos` allows
/// `/photos#5/value`).
struct AccessSchema: Sendable, Equatable {
    enum AccessType: String, Sendable, CaseIterable {
        case read
        case write
        case readWithToken = "read_with_token"
        case writeWithToken = "write_with_token"
    }

    /// Sorted, without duplicates.
    let paths: [String]

    init(paths: [String]) {
        self.paths = Array(Set(paths)).sorted()
    }

    /// Reads the `attributes` parameter (a JSON array of paths, dotted or slashed) against `schema`:
    /// 200 when it is not such an array, 223 for a path the schema does not have.
    static func parse(_ text: String, schema: Schema) throws(CaptureError) -> AccessSchema {
        guard let items = JSONValue.parse(text)?.arrayValue else {
            throw CaptureError.invalidArgument("attributes", "attributes must be a JSON array of attribute paths")
        }
        var paths: [String] = []
        for item in items {
            guard let text = item.stringValue else {
                throw CaptureError.invalidArgument("attributes", "attributes must be a JSON array of attribute paths")
            }
            paths.append(try canonical(text, schema: schema))
        }
        return AccessSchema(paths: paths)
    }

    /// `primaryAddress.city` → `/primaryAddress/city`, checked against the schema.
    static func canonical(_ text: String, schema: Schema) throws(CaptureError) -> String {
        let parsed: AttributePath
        do {
            parsed = try AttributePath.parse(text)
        } catch {
            throw CaptureError.invalidArgument("attributes", "'\(text)' is not a valid attribute path")
        }
        guard !parsed.isRoot else {
            throw CaptureError.invalidArgument("attributes", "the root is not an attribute; list the attributes")
        }
        var attribute = schema.root
        var walked = ""
        for step in parsed.steps {
            walked += "/" + step.name
            guard attribute.isContainer, let child = attribute.child(named: step.name) else {
                throw CaptureError.unknownAttribute(walked)
            }
            attribute = child
        }
        return walked
    }

    func covers(_ path: String) -> Bool {
        paths.contains { path == $0 || path.hasPrefix($0 + "/") }
    }

    /// The first (in sorted order, so the answer is always the same) written path it does not cover.
    func firstUncovered(_ written: Set<String>) -> String? {
        written.filter { !covers($0) }.min()
    }

    /// The schema reduced to the listed attributes, in Capture's `attr_defs` shape, as
    /// `entityType.getAccessSchema` answers. The reserved attributes are always there.
    func filter(_ schema: Schema) -> Schema {
        Schema(name: schema.name, attributes: filter(schema.attributes, prefix: ""))
    }

    private func filter(_ attributes: [SchemaAttribute], prefix: String) -> [SchemaAttribute] {
        attributes.compactMap { attribute in
            let path = prefix + "/" + attribute.name
            if prefix.isEmpty, Schema.reservedNames.contains(attribute.name) { return attribute }
            if covers(path) { return attribute }
            guard attribute.isContainer, paths.contains(where: { $0.hasPrefix(path + "/") }) else { return nil }
            var reduced = attribute
            reduced.children = filter(attribute.children, prefix: path)
            if attribute.type == .plural, let id = attribute.child(named: "id"), reduced.child(named: "id") == nil {
                reduced.children.insert(id, at: 0)
            }
            return reduced
        }
    }
}
