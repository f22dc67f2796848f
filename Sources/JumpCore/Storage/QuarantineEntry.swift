import JumpRuntime

/// A session set aside instead of being overwritten by another sign-in: one whose store could not be read,
/// or another user's with edits not yet synced. It is never merged into another user's session; the same
/// user signing in again takes its edits back; the app can erase it (jump_client_erase_quarantine).
public struct QuarantineEntry: Sendable, Equatable {
    public enum Reason: String, Sendable {
        /// The saved session could not be read when another sign-in replaced it.
        case unreadable
        /// A readable session of another user, with unsynced edits, replaced by a sign-in.
        case replaced
    }

    public var id: String
    public var reason: Reason
    /// The user the session belonged to, when it could be read.
    public var uuid: String?
    public var quarantinedAt: Int64
    public var message: String
    /// The storage entries holding it now.
    var keys: [String]
    /// The session it was (replaced ones): a restore of that very session means it was never replaced.
    var sessionID: String?

    var saved: JSON {
        ["id": .string(id), "reason": .string(reason.rawValue), "uuid": .optional(uuid),
         "quarantined_at": .int(quarantinedAt), "message": .string(message),
         "keys": .array(keys.map(JSON.string)), "session_id": .optional(sessionID)]
    }

    init(id: String, reason: Reason, uuid: String?, message: String, keys: [String],
         sessionID: String? = nil) {
        self.sessionID = sessionID
        self.id = id
        self.reason = reason
        self.uuid = uuid
        quarantinedAt = Clock.now()
        self.message = message
        self.keys = keys
    }

    init?(saved: JSON) {
        guard let id = saved["id"]?.stringValue, let reason = saved["reason"]?.stringValue.flatMap(Reason.init(rawValue:))
        else { return nil }
        self.id = id
        self.reason = reason
        uuid = saved["uuid"]?.stringValue
        quarantinedAt = saved["quarantined_at"]?.intValue ?? 0
        message = saved["message"]?.stringValue ?? ""
        keys = (saved["keys"]?.arrayValue ?? []).compactMap(\.stringValue)
        sessionID = saved["session_id"]?.stringValue
    }

    static func encodeIndex(_ entries: [QuarantineEntry]) -> [UInt8] {
        Jansson.serializedBytes(["format": "libjump-quarantine", "version": 1, "entries": .array(entries.map(\.saved))])
    }

    static func decodeIndex(_ bytes: [UInt8]) throws(JumpError) -> [QuarantineEntry] {
        let document: JSON
        do {
            document = try Jansson.parse(bytes, what: "the quarantine index")
        } catch {
            throw JumpError(.storage, "the quarantine index is unreadable: \(error.message)")
        }
        return (document["entries"]?.arrayValue ?? []).compactMap(QuarantineEntry.init(saved:))
    }
}
