import Foundation
import GRDB

/// Users made from Engage identities, and identities attached to existing users. Everything runs
/// in the caller's transaction, so a sign-in that attaches an identity, spends its tokens and
/// issues a session does all of it or none.
enum SocialAccounts {
    struct Written: Sendable {
        var user: UserRow
        var attributes: [String: JSONValue]
    }

    /// Where the verification email of a new account links to, and in which language.
    struct VerificationMail: Sendable {
        var locale: String
        var baseURL: String
    }

    /// A new user from `attributes` plus the identity's `profiles` element (none for a password
    /// account made by the admin API). The email counts as verified when it is the address the
    /// provider verified; otherwise, given `mail`, a verification email goes to the outbox, as
    /// registration does.
    static func create(
        attributes: [String: JSONValue], identity: SocialProfile?, passwordHash: String?, app: AppConfig,
        now: Date, mail: VerificationMail?, in db: Database
    ) throws -> Written {
        let schema = app.schema
        var value = attributes
        if let element = identity?.element(fitting: schema) { value["profiles"] = [element] }
        let email = value["email"]?.stringValue
        let verified = email != nil && email?.lowercased() == identity?.verifiedEmail?.lowercased()
        if verified, schema.attribute(named: "emailVerified")?.type == .dateTime {
            value["emailVerified"] = .string(CaptureTime.dateTime(now))
        }
        var updater = RecordUpdater(schema: schema, nextElementId: 1)
        let stored = try updater.update([:], at: .root, with: .object(value))
        try RecordConstraints.checkRequired(stored, schema: schema)
        let unique = RecordConstraints.uniqueValues(stored, schema: schema)
        try RecordConstraints.checkNoDuplicates(unique)
        if let identity, try UserIdentityRow.find(clientId: app.clientId, identifier: identity.identifier, in: db) != nil {
            throw CaptureError.identityLinkedElsewhere()
        }
        let conflicts = try UniquenessCheck.conflicts(
            unique, clientId: app.clientId, excludingUserId: nil, schema: schema, in: db)
        if let first = conflicts.first { throw CaptureError.uniqueViolation(first) }

        let seconds = now.timeIntervalSince1970
        var user = UserRow(
            id: nil, uuid: UUID().uuidString.lowercased(), clientId: app.clientId, emailLower: nil,
            usernameLower: nil, passwordHash: passwordHash, record: "{}", created: seconds, lastUpdated: seconds,
            nextElementId: updater.nextElementId)
        user.setAttributes(stored)
        try user.insert(db)
        guard let userId = user.id else { throw CaptureError.unexpected("the new user has no id") }
        if let identity { try index(identity, userId: userId, clientId: app.clientId, in: db) }
        if let email, !verified, let mail {
            try Mailbox.send(.verification, to: email, userId: userId, app: app, locale: mail.locale,
                             baseURL: mail.baseURL, now: now, in: db)
        }
        return Written(user: user, attributes: stored)
    }

    /// Appends the identity to the user's `profiles`; nothing changes when the user has it
    /// already, and an identity of another user is 361.
    static func attach(
        _ identity: SocialProfile, toUserId userId: Int64, app: AppConfig, now: Double, records: RecordCache,
        in db: Database
    ) throws -> Written {
        if let owner = try UserIdentityRow.find(clientId: app.clientId, identifier: identity.identifier, in: db) {
            guard owner.userId == userId else { throw CaptureError.identityLinkedElsewhere() }
            return try current(userId: userId, records: records, in: db)
        }
        let written: Written
        if let element = identity.element(fitting: app.schema) {
            let profiles = AttributePath.root.appending("profiles")
            let changed = try Emulator.changeRecord(userId: userId, schema: app.schema, now: now, records: records, { updater, record in
                try updater.update(record, at: profiles, with: [element])
            }, in: db)
            written = Written(user: changed.user, attributes: changed.attributes)
        } else {
            written = try current(userId: userId, records: records, in: db)
        }
        // After the record write, whose own sync guessed the provider from the domain.
        try index(identity, userId: userId, clientId: app.clientId, in: db)
        return written
    }

    private static func index(_ identity: SocialProfile, userId: Int64, clientId: String, in db: Database) throws {
        try UserIdentityRow(clientId: clientId, identifier: identity.identifier, userId: userId,
                            provider: identity.provider).save(db)
    }

    static func current(userId: Int64, records: RecordCache, in db: Database) throws -> Written {
        guard let user = try UserRow.fetchOne(db, key: userId) else {
            throw CaptureError.unexpected("the user no longer exists")
        }
        return Written(user: user, attributes: records.attributes(of: user))
    }

    /// The `existing_provider` of a 380 for `user`: `capture` when it can sign in with a password,
    /// else the provider of its first identity.
    static func existingProvider(of user: UserRow, records: RecordCache, in db: Database) throws -> String {
        if user.passwordHash != nil { return "capture" }
        let identities = UserIdentityRow.identities(in: records.attributes(of: user))
        guard let first = identities.first else {
            // Not in the record (a schema without profiles): the index still knows.
            guard let id = user.id, let indexed = try UserIdentityRow.all(userId: id, in: db).first else {
                return "capture"
            }
            return indexed.provider
        }
        let indexed = try UserIdentityRow.find(clientId: user.clientId, identifier: first.identifier, in: db)
        return indexed?.provider ?? first.provider
    }
}
