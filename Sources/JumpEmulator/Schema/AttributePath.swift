/// A path to a value inside a record (docs/protocol.md §8.2): `/primaryAddress/city`, `photos#2`,
/// `/profiles#5/profile`. Dots are accepted as separators too (`primaryAddress.city`), as Capture does.
struct AttributePath: Sendable, Equatable {
    struct Step: Sendable, Equatable {
        var name: String
        /// `#id` selects one element of a plural.
        var elementId: Int64?
    }

    var steps: [Step]

    static let root = AttributePath(steps: [])

    var isRoot: Bool { steps.isEmpty }

    /// Canonical text, `/photos#2/value`; `/` for the root. Used as `attribute_name` in errors.
    var text: String {
        steps.isEmpty ? "/" : steps.map { "/" + $0.name + ($0.elementId.map { "#\($0)" } ?? "") }.joined()
    }

    func appending(_ name: String, elementId: Int64? = nil) -> AttributePath {
        AttributePath(steps: steps + [Step(name: name, elementId: elementId)])
    }

    /// Parses `attribute_name`; absent or `/` is the root.
    static func parse(_ text: String?) throws(CaptureError) -> AttributePath {
        guard let text, !text.isEmpty, text != "/" else { return .root }
        var body = Substring(text)
        if body.hasPrefix("/") { body = body.dropFirst() }
        var steps: [Step] = []
        for component in body.split(separator: "/", omittingEmptySubsequences: false)
            .flatMap({ $0.split(separator: ".", omittingEmptySubsequences: false) })
        {
            let pieces = component.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(pieces[0])
            guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                throw CaptureError.invalidArgument("attribute_name", "'\(text)' is not a valid attribute path")
            }
            var elementId: Int64?
            if pieces.count > 1 {
                guard let id = Int64(pieces[1]), id > 0 else {
                    throw CaptureError.invalidArgument("attribute_name", "'\(text)' has an invalid element id")
                }
                elementId = id
            }
            steps.append(Step(name: name, elementId: elementId))
        }
        return AttributePath(steps: steps)
    }
}
