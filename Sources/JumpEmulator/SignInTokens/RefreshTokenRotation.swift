import Foundation
import GRDB

/// The refresh grant of `/v1/token`, with rotation and reuse detection:
///
/// - a refresh token is good once: its answer is a new access token **and** a new refresh token;
/// - presenting a rotated token again revokes its whole family (every refresh and access token)
///   and answers `reauthentication_required`: someone holds a copy;
/// - except within the grace window after the rotation, while the successor is still unused: then
///   the same successor pair is answered again, so a client that died before saving the answer can
///   retry without being locked out.
///
/// Revoked family → `reauthentication_required`; deleted user → `invalid_token` (the SDKs sign out);
/// unknown token → `reauthentication_required`.
struct RefreshTokenRotation: Sendable {
    let emulator: Emulator

    private enum Outcome: Sendable {
        case answer(TokenPairRow)
        case refused(DetailError)
    }

    func refresh(_ params: FormParams) async throws -> JSONValue {
        guard let token = params.nonEmpty("refresh_token") else {
            throw DetailError.invalidRequest("refresh_token is required")
        }
        let now = emulator.clock.now()
        let settings = emulator.signInTokenSettings
        // A refusal is returned, not thrown: thrown errors roll the transaction back, and a detected
        // reuse must keep the family's revocation.
        let outcome = try await emulator.store.write { db -> Outcome in
            guard let pair = try TokenPairRow.fetchOne(db, key: token),
                let family = try TokenFamilyRow.fetchOne(db, key: pair.familyId),
                let user = try TokenUserRow.fetchOne(db, key: family.userId)
            else {
                return .refused(.reauthenticationRequired("the refresh token is not known"))
            }
            if user.isDeleted { return .refused(.invalidToken("the user was deleted")) }
            if family.isRevoked { return .refused(.reauthenticationRequired(Self.revokedMessage(family))) }
            if let rotatedAt = pair.rotatedAt {
                if let successorToken = pair.successor,
                    now.timeIntervalSince1970 - rotatedAt < Double(settings.refreshReuseGraceSeconds),
                    let successor = try TokenPairRow.fetchOne(db, key: successorToken), successor.rotatedAt == nil
                {
                    return .answer(successor)
                }
                try TokenGrants.revoke(familyId: family.familyId, reason: .reuse, now: now, in: db)
                return .refused(.reauthenticationRequired("refresh token reuse detected"))
            }
            let next = try TokenGrants.issue(
                familyId: family.familyId, now: now, lifetime: settings.accessTokenLifetime, in: db)
            try db.execute(
                sql: "UPDATE token_pairs SET rotated_at = ?, successor = ? WHERE refresh_token = ?",
                arguments: [now.timeIntervalSince1970, next.refreshToken, pair.refreshToken])
            return .answer(next)
        }
        switch outcome {
        case .answer(let pair): return TokenGrants.answer(pair, now: now)
        case .refused(let error): throw error
        }
    }

    static func revokedMessage(_ family: TokenFamilyRow) -> String {
        switch family.revokedReason.flatMap(TokenFamilyRow.RevokedReason.init(rawValue:)) {
        case .reuse?: return "the refresh token was revoked: refresh token reuse was detected in its family"
        case .revokeTokens?: return "the refresh token was revoked: the user's tokens were revoked"
        case .revoked?: return "the refresh token was revoked (/v1/revoke)"
        case .userDeleted?: return "the refresh token was revoked: the user was deleted"
        case nil: return "the refresh token was revoked"
        }
    }
}
