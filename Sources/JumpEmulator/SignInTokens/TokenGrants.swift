import Foundation
import GRDB

/// Issuing, checking and revoking the access and refresh tokens of the sign-in-token API. Every
/// function runs inside the caller's database transaction.
enum TokenGrants {
    /// A valid access token with its user.
    struct Grant: Sendable {
        var pair: TokenPairRow
        var user: TokenUserRow
    }

    /// A new family for a fresh exchange, and its first pair.
    static func startFamily(userId: String, now: Date, lifetime: Int, in db: Database) throws -> TokenPairRow {
        let family = TokenFamilyRow(familyId: UUID().uuidString.lowercased(), userId: userId,
                                    created: now.timeIntervalSince1970, revokedAt: nil, revokedReason: nil)
        try family.insert(db)
        return try issue(familyId: family.familyId, now: now, lifetime: lifetime, in: db)
    }

    static func issue(familyId: String, now: Date, lifetime: Int, in db: Database) throws -> TokenPairRow {
        let pair = TokenPairRow(
            refreshToken: Tokens.accessToken(), accessToken: Tokens.accessToken(), familyId: familyId,
            issuedAt: now.timeIntervalSince1970, accessExpiresAt: now.timeIntervalSince1970 + Double(lifetime),
            rotatedAt: nil, successor: nil)
        try pair.insert(db)
        return pair
    }

    /// The `/v1/token` answer for a pair. `expires_in` counts from now, so a pair answered again
    /// (a retry inside the grace window) says how long its access token really has left.
    static func answer(_ pair: TokenPairRow, now: Date) -> JSONValue {
        let left = max(0, Int((pair.accessExpiresAt - now.timeIntervalSince1970).rounded(.up)))
        return [
            "access_token": .string(pair.accessToken), "refresh_token": .string(pair.refreshToken),
            "expires_in": .int(Int64(left)), "token_type": "Bearer",
        ]
    }

    /// Ends a family (its refresh and access tokens); a revoked one keeps its first reason.
    @discardableResult
    static func revoke(familyId: String, reason: TokenFamilyRow.RevokedReason, now: Date, in db: Database) throws -> Bool {
        try db.execute(
            sql: "UPDATE token_families SET revoked_at = ?, revoked_reason = ? WHERE family_id = ? AND revoked_at IS NULL",
            arguments: [now.timeIntervalSince1970, reason.rawValue, familyId])
        return db.changesCount > 0
    }

    /// Ends every family of a user; returns how many were still active.
    @discardableResult
    static func revokeAll(userId: String, reason: TokenFamilyRow.RevokedReason, now: Date, in db: Database) throws -> Int {
        try db.execute(
            sql: "UPDATE token_families SET revoked_at = ?, revoked_reason = ? WHERE user_id = ? AND revoked_at IS NULL",
            arguments: [now.timeIntervalSince1970, reason.rawValue, userId])
        return db.changesCount
    }

    /// Checks a bearer access token: known, not expired (emulator clock), family not revoked, user
    /// not deleted. Every failure is 401 `invalid_token` with a `WWW-Authenticate` challenge.
    static func validate(accessToken: String, now: Date, in db: Database) throws -> Grant {
        guard let pair = try TokenPairRow.find(accessToken: accessToken, in: db),
            let family = try TokenFamilyRow.fetchOne(db, key: pair.familyId),
            let user = try TokenUserRow.fetchOne(db, key: family.userId)
        else {
            throw DetailError.unauthorizedBearer("the access token is not known")
        }
        if user.isDeleted { throw DetailError.unauthorizedBearer("the user of this access token was deleted") }
        if family.isRevoked { throw DetailError.unauthorizedBearer("the access token was revoked") }
        guard now.timeIntervalSince1970 < pair.accessExpiresAt else {
            throw DetailError.unauthorizedBearer("the access token has expired")
        }
        return Grant(pair: pair, user: user)
    }

    /// What the admin API shows about a user's tokens.
    static func summary(userId: String, now: Date, in db: Database) throws -> JSONValue {
        let families = try TokenFamilyRow.filter(Column("user_id") == userId).fetchAll(db)
        let active = families.filter { !$0.isRevoked }.map(\.familyId)
        let liveAccess = try TokenPairRow.filter(
            active.contains(Column("family_id")) && Column("access_expires_at") > now.timeIntervalSince1970
        ).fetchCount(db)
        let liveRefresh = try TokenPairRow.filter(active.contains(Column("family_id")) && Column("rotated_at") == nil)
            .fetchCount(db)
        return [
            "active_token_families": .int(Int64(active.count)),
            "revoked_token_families": .int(Int64(families.count - active.count)),
            "active_refresh_tokens": .int(Int64(liveRefresh)),
            "active_access_tokens": .int(Int64(liveAccess)),
        ]
    }
}
