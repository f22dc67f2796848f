/// The record edits made since the session was last saved whole, one JSON line each after a header naming
/// the session (its id and user) and the epoch (full save) they apply to. Appending a line is cheap; the client saves the session whole (and
/// starts a new journal) when the journal grows large.
enum RecordJournal {
    static let format = "libjump-journal"

    static func header(for session: Session) -> [UInt8] {
        line(["format": .string(format), "epoch": .int(session.epoch), "session_id": .string(session.sessionID),
              "uuid": .optional(session.record.uuid)])
    }

    static func line(_ json: JSON) -> [UInt8] {
        Jansson.serializedBytes(json) + [UInt8(ascii: "\n")]
    }

    static func encode(_ ops: [RecordOp]) -> [UInt8] {
        ops.flatMap(JournalLine.bytes)
    }

    /// The operations of a journal written for `session` as saved; nil when it belongs to another session
    /// or another full save of it. A last line cut short by a crash is ignored; any other damage is a
    /// storage error (nothing is dropped silently).
    static func decode(_ bytes: [UInt8], for session: Session) throws(JumpError) -> [RecordOp]? {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: true)
        guard let first = lines.first else { return nil }
        guard let header = try? Jansson.parse(Array(first), what: "the record journal"),
              header["format"]?.stringValue == format else {
            throw JumpError(.storage, "the saved record journal is not a libjump journal")
        }
        guard header["epoch"]?.intValue == session.epoch else { return nil }
        if header["session_id"] == nil && session.sessionID.isEmpty {
            // Written by libjump before journals named their session, for a session saved then too: its
            // epoch is all there is to go by (the first sign-in after the upgrade mints a session id).
        } else if header["session_id"]?.stringValue != session.sessionID || header["uuid"]?.stringValue != session.record.uuid {
            return nil
        }
        var ops: [RecordOp] = []
        let complete = bytes.last == UInt8(ascii: "\n")
        for (index, line) in lines.enumerated().dropFirst() {
            do {
                ops.append(try RecordOp(json: try Jansson.parse(Array(line), what: "a record journal line",
                                                                maxDepth: Jansson.storageDepth)))
            } catch {
                if index == lines.count - 1 && !complete { break }
                // No quote of the line: it holds the user's values.
                throw JumpError(.storage, "the saved record journal is damaged at line \(index + 1)")
            }
        }
        return ops
    }
}
