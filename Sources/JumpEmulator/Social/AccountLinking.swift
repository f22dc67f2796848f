import GRDB

/// The signed-in user whose social identities `link_account_native` or `unlink_account_native`
/// changes, and what the change needs.
struct AccountLinking: Sendable {
    let app: AppConfig
    let userId: Int64
    let now: Double
    let records: RecordCache
}

extension Emulator {
    /// What linking and unlinking share: the access token's user (flow parameters checked), the
    /// required `argument`, `change` of the user's record in one transaction, and the record cache
    /// told once it is committed. Answers `{"stat":"ok"}`.
    func changeLinkedAccounts(
        _ call: CaptureCall, argument: String,
        _ change: @escaping @Sendable (String, AccountLinking, Database) throws -> SocialAccounts.Written
    ) async throws -> JSONValue {
        let signedIn = try await authenticate(call)
        try checkFlowParameters(call, app: signedIn.app)
        let given = try call.required(argument)
        let linking = AccountLinking(
            app: signedIn.app, userId: signedIn.user.id ?? 0, now: clock.now().timeIntervalSince1970, records: records)
        let written = try await store.write { db in try change(given, linking, db) }
        linking.records.remember(written.user, attributes: written.attributes)
        return ["stat": "ok"]
    }
}
