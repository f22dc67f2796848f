import Foundation
import GRDB

/// The session parameters of a social sign-in or registration call, read before its transaction
/// so the session can be issued inside it (docs/protocol.md §5.2).
struct SocialSessionRequest: Sendable {
    var responseType: ResponseType
    var refreshSecret: String?
    var redirectUri: String?
    var lifetime: Int

    init(_ call: CaptureCall, emulator: Emulator) throws(CaptureError) {
        responseType = try ResponseType(parameter: call.params["response_type"])
        refreshSecret = call.params["refresh_secret"]
        redirectUri = call.params["redirect_uri"]
        lifetime = emulator.tokenLifetime
    }

    func open(_ written: SocialAccounts.Written, isNew: Bool, clientId: String, now: Date, in db: Database) throws -> SocialSession {
        guard let userId = written.user.id else { throw CaptureError.unexpected("the user has no id") }
        let issued = try SessionIssuer.issue(
            userId: userId, clientId: clientId, refreshSecret: refreshSecret, responseType: responseType,
            redirectUri: redirectUri, now: now, lifetime: lifetime, in: db)
        return SocialSession(written: written, issued: issued, isNew: isNew)
    }
}

/// A user signed in by a social call.
struct SocialSession: Sendable {
    var written: SocialAccounts.Written
    var issued: SessionIssuer.Issued
    var isNew: Bool

    /// The sign-in answer (docs/protocol.md §5.2); called once the transaction is committed, so the record
    /// cache only ever learns stored records.
    func response(schema: Schema, records: RecordCache) -> JSONValue {
        records.remember(written.user, attributes: written.attributes)
        let record = RecordShaper(schema: schema).shape(written.attributes, reserved: written.user.reserved)
        return SessionIssuer.response(issued, isNew: isNew, record: record)
    }
}

/// The `merge_token` of a sign-in with the existing identity or password (docs/protocol.md §11.2).
enum MergeToken {
    /// Attaches the identity behind `text` to the signed-in user and spends the token; nil when no
    /// merge token was sent. Runs in the sign-in's transaction.
    static func attach(
        _ text: String?, toUserId userId: Int64, app: AppConfig, now: Double, records: RecordCache, in db: Database
    ) throws -> SocialAccounts.Written? {
        guard let text else { return nil }
        let merge = try SocialTokens.mergeToken(text, app: app, now: now, in: db)
        let written = try SocialAccounts.attach(
            SocialProfile(token: merge), toUserId: userId, app: app, now: now, records: records, in: db)
        try SocialTokens.mark(merge, .used, clientId: app.clientId, in: db)
        return written
    }
}
