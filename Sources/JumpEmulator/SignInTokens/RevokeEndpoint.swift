import GRDB

/// `POST /v1/revoke` (RFC 7009), form `token=<refresh token>` (an access token works too): revokes
/// that token's family. The answer is always 200 `{}`, known token or not (RFC 7009 §2.2).
struct RevokeEndpoint: Sendable {
    let emulator: Emulator

    func handle(_ params: FormParams) async throws -> JSONValue {
        guard let token = params.nonEmpty("token") else { return [:] }
        let now = emulator.clock.now()
        try await emulator.store.write { db in
            let pair = try TokenPairRow.fetchOne(db, key: token) ?? TokenPairRow.find(accessToken: token, in: db)
            if let pair { try TokenGrants.revoke(familyId: pair.familyId, reason: .revoked, now: now, in: db) }
        }
        return [:]
    }
}
