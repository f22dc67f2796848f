import GRDB

/// `POST /oauth/unlink_account_native` (docs/protocol.md §6.7): removes the `profiles` element with
/// `identifier_to_remove` from the signed-in user. An identifier the user does not have is 200
/// `invalid_argument`; the last identity of an account without a password is 360, since its
/// owner could not sign in any more. Answers `{"stat":"ok"}`.
struct UnlinkAccountEndpoint: Sendable {
    let emulator: Emulator

    func handle(_ call: CaptureCall) async throws -> JSONValue {
        try await emulator.changeLinkedAccounts(call, argument: "identifier_to_remove") { identifier, linking, db in
            let current = try SocialAccounts.current(userId: linking.userId, records: linking.records, in: db)
            let elements = current.attributes["profiles"]?.arrayValue ?? []
            guard let element = elements.first(where: { $0["identifier"]?.stringValue == identifier }),
                let elementId = element["id"]?.intValue
            else {
                throw CaptureError.invalidArgument("identifier_to_remove", "no identity with this identifier is linked to the account")
            }
            if current.user.passwordHash == nil, UserIdentityRow.identities(in: current.attributes).count <= 1 {
                throw CaptureError.lastSignInMethod()
            }
            let path = AttributePath.root.appending("profiles", elementId: elementId)
            let changed = try Emulator.changeRecord(
                userId: linking.userId, schema: linking.app.schema, now: linking.now, records: linking.records,
                { updater, record in
                    try updater.delete(record, at: path)
                }, in: db)
            return SocialAccounts.Written(user: changed.user, attributes: changed.attributes)
        }
    }
}
