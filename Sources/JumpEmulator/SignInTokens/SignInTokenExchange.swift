import Foundation
import GRDB

/// The token-exchange grant of `/v1/token`: `subject_token_type=urn:junction:sign-in-token` and
/// `subject_token=<the user_token JWT>`. The SDKs check nothing about the token (docs/protocol.md §12.1),
/// so everything is checked here: signature, audience, issuer, expiry on the emulator clock, single
/// use, and that the user exists in the token's team. A refusal is 400 `invalid_token` saying why.
struct SignInTokenExchange: Sendable {
    let emulator: Emulator

    static let subjectTokenType = "urn:junction:sign-in-token"

    /// What a verified token says.
    struct Claims: Sendable {
        var userId: String
        var teamId: String
        var issuer: String
        var jti: String
        var expiresAt: Int
    }

    func exchange(_ params: FormParams) async throws -> JSONValue {
        guard let type = params.nonEmpty("subject_token_type") else {
            throw DetailError.invalidRequest("subject_token_type is required")
        }
        guard type == Self.subjectTokenType else {
            throw DetailError.invalidRequest("subject_token_type must be \(Self.subjectTokenType), not \(type)")
        }
        guard let token = params.nonEmpty("subject_token") else {
            throw DetailError.invalidRequest("subject_token is required")
        }
        let now = emulator.clock.now()
        let claims = try verify(token, now: now)
        let lifetime = emulator.signInTokenSettings.accessTokenLifetime
        let pair = try await emulator.store.write { db -> TokenPairRow in
            guard let user = try TokenUserRow.find(id: claims.userId, in: db) else {
                throw DetailError.invalidToken("the sign-in token's user (uid) does not exist")
            }
            if user.isDeleted { throw DetailError.invalidToken("the sign-in token's user was deleted") }
            guard user.teamId == claims.teamId, let team = try TeamRow.fetchOne(db, key: user.teamId),
                team.signerAddress == claims.issuer
            else {
                throw DetailError.invalidToken("the sign-in token's team or issuer is not its user's")
            }
            // Single use: the jti is taken in the same transaction that issues the tokens.
            guard try UsedSignInToken.take(claims, userId: user.userId, now: now, in: db) else {
                throw DetailError.invalidToken("the sign-in token was already used")
            }
            return try TokenGrants.startFamily(userId: user.userId, now: now, lifetime: lifetime, in: db)
        }
        return TokenGrants.answer(pair, now: now)
    }

    /// Checks the JWT itself, without the database.
    func verify(_ token: String, now: Date) throws -> Claims {
        guard let jwt = CompactJWT.parse(token) else {
            if Self.isEnvelope(token) {
                throw DetailError.invalidToken(
                    "subject_token must be the user_token JWT inside the sign-in token, not the base64 envelope")
            }
            throw DetailError.invalidToken("the sign-in token is not a JWT (three base64url segments of JSON)")
        }
        guard jwt.header["alg"] == "RS256" else { throw DetailError.invalidToken("the sign-in token must be signed RS256") }
        if let kid = jwt.header["kid"], kid != .string(try emulator.signingKey.keyId) {
            throw DetailError.invalidToken("the sign-in token was signed with an unknown key (kid)")
        }
        guard try emulator.signingKey.isValidSignature(jwt.signature, for: jwt.signingInput) else {
            throw DetailError.invalidToken("the sign-in token's signature does not verify")
        }
        let payload = jwt.payload
        guard payload["aud"] == .string(SignInTokenMinter.audience) else {
            throw DetailError.invalidToken("the sign-in token's audience (aud) is wrong")
        }
        guard let issuer = payload["iss"]?.stringValue, payload["sub"] == .string(issuer),
            issuer.wholeMatch(of: /id-signer-[a-z]+-[a-z]+@vital-id-[a-z]+-[a-z]+\.iam\.gserviceaccount\.com/) != nil
        else {
            throw DetailError.invalidToken("the sign-in token's issuer (iss, sub) is not a Junction signer")
        }
        guard let issuedAt = payload["iat"]?.intValue, let expiresAt = payload["exp"]?.intValue else {
            throw DetailError.invalidToken("the sign-in token lacks iat or exp")
        }
        guard now.timeIntervalSince1970 < Double(expiresAt) else {
            throw DetailError.invalidToken("the sign-in token has expired")
        }
        guard expiresAt - issuedAt <= Int64(SignInTokenSettings.maximumSignInTokenLifetime) else {
            throw DetailError.invalidToken("the sign-in token lives longer than one hour")
        }
        guard let jti = payload["jti"]?.stringValue, !jti.isEmpty else {
            throw DetailError.invalidToken("the sign-in token lacks jti")
        }
        guard let userId = payload["uid"]?.stringValue, !userId.isEmpty else {
            throw DetailError.invalidToken("the sign-in token lacks uid")
        }
        guard let teamId = payload["claims"]?["vital_team_id"]?.stringValue else {
            throw DetailError.invalidToken("the sign-in token lacks claims.vital_team_id")
        }
        return Claims(userId: userId.lowercased(), teamId: teamId.lowercased(), issuer: issuer, jti: jti,
                      expiresAt: Int(expiresAt))
    }

    /// The outer sign-in token sent by mistake: standard base64 of a JSON object with `user_token`.
    static func isEnvelope(_ token: String) -> Bool {
        guard let data = Data(base64Encoded: token), let object = JSONValue.parse(data: data)?.objectValue else {
            return false
        }
        return object["user_token"] != nil
    }
}

/// The `jti` of every sign-in token exchanged, so none is exchanged twice.
enum UsedSignInToken {
    /// Records the token's use; false when it was used already.
    static func take(_ claims: SignInTokenExchange.Claims, userId: String, now: Date, in db: Database) throws -> Bool {
        try db.execute(
            sql: "INSERT OR IGNORE INTO used_sign_in_tokens (jti, user_id, used_at, expires_at) VALUES (?, ?, ?, ?)",
            arguments: [claims.jti, userId, now.timeIntervalSince1970, Double(claims.expiresAt)])
        return db.changesCount == 1
    }
}
