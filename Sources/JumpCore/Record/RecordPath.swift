/// A Capture attribute path (docs/protocol.md §8.2): "/" is the record, "/primaryAddress/city" an object member,
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
    /// The text the path was parsed from, when it is the canonical one: `description` is then free (edits
    /// name their path in the journal line and in every message).
    private let text: String?

    public init(components: [Component]) {
        self.components = components
        text = nil
    }

    public static let root = RecordPath(components: [])

    public static func == (a: RecordPath, b: RecordPath) -> Bool { a.components == b.components }

    public func hash(into hasher: inout Hasher) { hasher.combine(components) }

    /// Parsed from the UTF-8 bytes in place: "/" and "#" are ASCII, so every cut falls on a character
    /// boundary, and a path is read without building a String per character.
    public init(_ text: String) throws(JumpError) {
        var utf8 = text
        let parsed = utf8.withUTF8 { bytes in RecordPath.parse(bytes) }
        switch parsed {
        case .success(let (components, canonical)):
            self.components = components
            self.text = canonical ? text : nil
        case .failure(.noLeadingSlash):
            throw .invalidArgument("path '\(text)' must start with '/' (e.g. \"/aboutMe\")", argument: "path")
        case .failure(.emptyComponent):
            throw .invalidArgument("path '\(text)' has an empty component", argument: "path")
        case .failure(.badElementID(let digits)):
            throw .invalidArgument("path '\(text)': '#\(digits)' is not an element id", argument: "path")
        }
    }

    /// "name" for a path of one attribute ("/name": no further "/" and no "#"), else nil.
    static func topLevelName(_ text: String) -> String? {
        var utf8 = text
        return utf8.withUTF8 { bytes -> String? in
            guard bytes.count > 1, bytes[0] == UInt8(ascii: "/") else { return nil }
            for byte in bytes.dropFirst() where byte == UInt8(ascii: "/") || byte == UInt8(ascii: "#") { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[1...]), as: UTF8.self)
        }
    }

    private enum ParseFailure: Error { case noLeadingSlash, emptyComponent, badElementID(String) }

    /// The components, and whether the text is their canonical spelling (element ids as Int64 prints them).
    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<([Component], Bool), ParseFailure> {
        guard bytes.first == UInt8(ascii: "/") else { return .failure(.noLeadingSlash) }
        var components: [Component] = []
        components.reserveCapacity(4)
        var canonical = true
        var start = 1
        if bytes.count == 1 { return .success(([], true)) }
        while true {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "/") { end += 1 }
            var nameEnd = start
            while nameEnd < end, bytes[nameEnd] != UInt8(ascii: "#") { nameEnd += 1 }
            guard nameEnd != start else { return .failure(.emptyComponent) }
            var id: Int64? = nil
            if nameEnd < end {
                let digits = String(decoding: UnsafeBufferPointer(rebasing: bytes[(nameEnd + 1)..<end]), as: UTF8.self)
                guard let value = Int64(digits), value != 0 else { return .failure(.badElementID(digits)) }
                canonical = canonical && String(value) == digits
                id = value
            }
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<nameEnd]), as: UTF8.self)
            components.append(Component(name: name, elementID: id))
            if end == bytes.count { return .success((components, canonical)) }
            start = end + 1
        }
    }

    public var description: String {
        if let text { return text }
        return components.isEmpty ? "/" : components.map { c in "/" + c.name + (c.elementID.map { "#\($0)" } ?? "") }.joined()
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
