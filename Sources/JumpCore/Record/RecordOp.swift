/// One change to a record, as the journal keeps it: replaying a record's operations on its saved snapshot
/// gives the same record back, so an edit costs one small write instead of a save of the whole record.
public enum RecordOp: Sendable, Equatable {
    /// The app set the value at path (an element path replaces or appends that element).
    case set(RecordPath, JSON)
    /// The app removed the element at path.
    case remove(RecordPath)
    /// The app dropped its edits at path (and below).
    case revert(RecordPath)
    /// The server accepted a value at path: the baseline takes it.
    case acknowledge(RecordPath, JSON)
    /// The server accepted entity.update's attributes at path (merged into the baseline).
    case acknowledgeMerge(RecordPath, [String: JSON])
    /// The server removed the element at path.
    case acknowledgeRemoval(RecordPath)
    /// The server replaced the value at path with this one and the app did not edit it meanwhile: both the
    /// baseline and the record take the server's copy (new ids, and the members it fills in).
    case adopt(RecordPath, JSON)
    /// entity.replace gave new ids: (plural path with new parent ids, old id, new id), parents first.
    case renumber(RecordPath, [Renumbering])

    public struct Renumbering: Sendable, Equatable {
        let plural: RecordPath
        let old: Int64
        let new: Int64
    }

    var json: JSON {
        switch self {
        case .set(let path, let value): return ["o": "set", "p": .string(path.description), "v": value]
        case .remove(let path): return ["o": "remove", "p": .string(path.description)]
        case .revert(let path): return ["o": "revert", "p": .string(path.description)]
        case .acknowledge(let path, let value): return ["o": "ack", "p": .string(path.description), "v": value]
        case .acknowledgeMerge(let path, let update): return ["o": "ack_merge", "p": .string(path.description), "v": .object(update)]
        case .acknowledgeRemoval(let path): return ["o": "ack_remove", "p": .string(path.description)]
        case .adopt(let path, let value): return ["o": "adopt", "p": .string(path.description), "v": value]
        case .renumber(let path, let pairs):
            return ["o": "renumber", "p": .string(path.description),
                    "r": .array(pairs.map { [.string($0.plural.description), .int($0.old), .int($0.new)] })]
        }
    }

    init(json: JSON) throws(JumpError) {
        guard let kind = json["o"]?.stringValue, let text = json["p"]?.stringValue else {
            throw JumpError(.storage, "a saved record edit is malformed")
        }
        let path = try RecordPath(text)
        let value = json["v"] ?? .null
        switch kind {
        case "set": self = .set(path, value)
        case "remove": self = .remove(path)
        case "revert": self = .revert(path)
        case "ack": self = .acknowledge(path, value)
        case "ack_merge": self = .acknowledgeMerge(path, value.objectValue ?? [:])
        case "ack_remove": self = .acknowledgeRemoval(path)
        case "adopt": self = .adopt(path, value)
        case "renumber":
            var pairs: [Renumbering] = []
            for item in json["r"]?.arrayValue ?? [] {
                guard let parts = item.arrayValue, parts.count == 3, let plural = parts[0].stringValue,
                      let old = parts[1].intValue, let new = parts[2].intValue else {
                    throw JumpError(.storage, "a saved record renumbering is malformed")
                }
                pairs.append(Renumbering(plural: try RecordPath(plural), old: old, new: new))
            }
            self = .renumber(path, pairs)
        default:
            throw JumpError(.storage, "a saved record edit has the unknown kind '\(kind)'")
        }
    }
}
