/// A signed-in user's session with Capture.
struct Session: Sendable, Equatable {
    var accessToken: String
    /// The secret that signs refresh requests; nil when the server was given none (no refresh possible).
    var refreshSecret: String?
    /// Epoch seconds when the access token expires, when the server said (expires_in).
    var accessTokenExpiresAt: Int64?
    /// The server refused to refresh: the app must sign in again; the record and its edits are kept.
    var reauthenticationRequired: Bool
    var record: UserRecord
    /// Which record journal belongs to this saved session: bumped at every full save, so a journal left
    /// from an earlier one is never replayed onto it.
    var epoch: Int64 = 1
}

/// When a token issued now expires, from the server's `expires_in` (clamped: a hostile or broken value
/// must neither overflow nor make a token look valid for centuries).
func expiryTime(fromExpiresIn value: JSON?) -> Int64? {
    guard let seconds = value?.intValue else { return nil }
    return Clock.now() + min(max(seconds, 0), 366 * 86_400)
}

/// The versioned on-disk form of a session (JSON, one file per installation).
enum SessionCodec {
    static let format = "libjump-session"
    static let version: Int64 = 2

    static func encode(_ session: Session) -> [UInt8] {
        let document: JSON = [
            "format": .string(format),
            "version": .int(version),
            "saved_at": .int(Clock.now()),
            "access_token": .string(session.accessToken),
            "refresh_secret": .optional(session.refreshSecret),
            "access_token_expires_at": session.accessTokenExpiresAt.map(JSON.int) ?? .null,
            "reauthentication_required": .bool(session.reauthenticationRequired),
            "epoch": .int(session.epoch),
            "record": [
                "baseline": session.record.baseline,
                "edits": .array(session.record.snapshotEdits.map(\.json)),
                "next_local_id": .int(session.record.nextLocalID),
            ],
        ]
        return Array(Jansson.serialize(document).utf8)
    }

    static func decode(_ bytes: [UInt8]) throws(JumpError) -> Session {
        let document: JSON
        do {
            document = try Jansson.parse(bytes, what: "the saved session")
        } catch {
            throw JumpError(.storage, "the saved session is unreadable: \(error.message)")
        }
        guard document["format"]?.stringValue == format else {
            throw JumpError(.storage, "the saved session is not a libjump session file")
        }
        guard let v = document["version"]?.intValue, v == version || v == 1 else {
            throw JumpError(.storage, "the saved session has format version \(document["version"].map(Jansson.serialize) ?? "none"); this libjump reads version \(version)")
        }
        guard let token = document["access_token"]?.stringValue, !token.isEmpty,
              let baseline = document["record"]?["baseline"], case .object = baseline else {
            throw JumpError(.storage, "the saved session is incomplete (access token or record missing)")
        }
        let record: UserRecord
        if v == 1 {
            guard let current = document["record"]?["current"], case .object = current else {
                throw JumpError(.storage, "the saved session is incomplete (record missing)")
            }
            record = UserRecord(baseline: baseline, current: current)
        } else {
            var edits: [RecordOp] = []
            for item in document["record"]?["edits"]?.arrayValue ?? [] { edits.append(try RecordOp(json: item)) }
            record = UserRecord(baseline: baseline, edits: edits,
                                nextLocalID: document["record"]?["next_local_id"]?.intValue ?? -1)
        }
        return Session(
            accessToken: token,
            refreshSecret: document["refresh_secret"]?.stringValue,
            accessTokenExpiresAt: document["access_token_expires_at"]?.intValue.map { min(max($0, 0), Int64(Int32.max) * 4) },
            reauthenticationRequired: document["reauthentication_required"]?.boolValue ?? false,
            record: record,
            epoch: document["epoch"]?.intValue ?? 1)
    }
}
