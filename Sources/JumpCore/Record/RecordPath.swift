/// A Capture attribute path (protocol.md 5.2): "/" is the record, "/primaryAddress/city" an object member,
/// "/photos#12/value" a member of the plural element whose id is 12.
public struct RecordPath: Sendable, Equatable, CustomStringConvertible {
    public struct Component: Sendable, Equatable {
        public let name: String
        public let elementID: Int64?
    }

    public let components: [Component]

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
                guard let value = Int64(parts[1]), value >= 0 else {
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

    var isRoot: Bool { components.isEmpty }
}
