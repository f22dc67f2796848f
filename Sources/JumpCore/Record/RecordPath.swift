/// A Capture attribute path (protocol.md 5.2): "/" is the record, "/primaryAddress/city" an object member,
/// "/photos#12/value" a member of the plural element whose id is 12. Elements appended locally have
/// negative ids ("/photos#-1") until the server gives them theirs.
public struct RecordPath: Sendable, Hashable, CustomStringConvertible {
    public struct Component: Sendable, Hashable {
        public let name: String
        public let elementID: Int64?

        public init(name: String, elementID: Int64?) {
            self.name = name
            self.elementID = elementID
        }
    }

    public let components: [Component]

    public init(components: [Component]) {
        self.components = components
    }

    public static let root = RecordPath(components: [])

    public init(_ text: String) throws(JumpError) {
        guard text.hasPrefix("/") else {
            throw .invalidArgument("path '\(text)' must start with '/' (e.g. \"/aboutMe\")", argument: "path")
        }
        if text == "/" {
            components = []
            return
        }
        var parsed: [Component] = []
        for piece in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            let parts = piece.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(parts.first ?? "")
            guard !name.isEmpty else {
                throw .invalidArgument("path '\(text)' has an empty component", argument: "path")
            }
            var id: Int64? = nil
            if parts.count == 2 {
                guard let value = Int64(parts[1]), value != 0 else {
                    throw .invalidArgument("path '\(text)': '#\(parts[1])' is not an element id", argument: "path")
                }
                id = value
            }
            parsed.append(Component(name: name, elementID: id))
        }
        components = parsed
    }

    public var description: String {
        components.isEmpty ? "/" : components.map { c in "/" + c.name + (c.elementID.map { "#\($0)" } ?? "") }.joined()
    }

    public var isRoot: Bool { components.isEmpty }

    /// The path with every element id dropped: the schema and access-schema view ("/photos/value").
    var schemaPath: String {
        components.isEmpty ? "/" : components.map { "/" + $0.name }.joined()
    }

    /// Whether the path ends at a plural element ("/photos#12").
    var isElement: Bool { components.last?.elementID != nil }

    /// The path without its last component (for "/photos#12": "/photos#12" minus the element is "/photos").
    var parent: RecordPath { RecordPath(components: Array(components.dropLast())) }

    /// "/photos#12" -> "/photos": the plural an element belongs to.
    var pluralOfElement: RecordPath? {
        guard let last = components.last, last.elementID != nil else { return nil }
        return RecordPath(components: Array(components.dropLast()) + [Component(name: last.name, elementID: nil)])
    }

    func appending(_ name: String, elementID: Int64? = nil) -> RecordPath {
        RecordPath(components: components + [Component(name: name, elementID: elementID)])
    }

    /// "/photos" + 12 -> "/photos#12".
    func element(_ id: Int64) -> RecordPath {
        guard let last = components.last else { return self }
        return RecordPath(components: Array(components.dropLast()) + [Component(name: last.name, elementID: id)])
    }

    func hasPrefix(_ other: RecordPath) -> Bool {
        other.components.count <= components.count && Array(components.prefix(other.components.count)) == other.components
    }
}
