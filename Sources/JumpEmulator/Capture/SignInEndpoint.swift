/// `POST /oauth/auth_native_traditional` (docs/protocol.md §6.1): traditional sign-in.
struct SignInEndpoint: Sendable {
    let emulator: Emulator

    func handle(_ call: CaptureCall) async throws -> JSONValue {
        let app = try await emulator.requireFlowApp(call)
        let responseType = try ResponseType(parameter: call.params["response_type"])
        let locale = app.resolveLocale(call.params["locale"])
        let messages = MessageLocale(parameter: locale)
        let credentials = try SignInCredentials.extract(call.params, flow: app.flow(locale: locale), locale: messages)
        let mergeText = call.params.nonEmpty("merge_token")

        let clientId = app.clientId
        let user = try await emulator.store.read { db in try credentials.findUser(clientId: clientId, in: db) }
        guard let user, let userId = user.id, let hash = user.passwordHash,
            await emulator.passwords.verify(credentials.password, hash: hash)
        else {
            throw CaptureError.invalidCredentials(form: credentials.formName, locale: messages)
        }

        let now = emulator.clock.now()
        let lifetime = emulator.tokenLifetime
        let refreshSecret = call.params["refresh_secret"]
        let redirectUri = call.params["redirect_uri"]
        let records = emulator.records
        let (issued, merged) = try await emulator.store.write { db in
            // With a merge_token from a social sign-in that answered 380, the password proves the
            // account, and the social identity joins it (docs/protocol.md §11.2).
            let merged = try MergeToken.attach(
                mergeText, toUserId: userId, app: app, now: now.timeIntervalSince1970, records: records, in: db)
            let issued = try SessionIssuer.issue(
                userId: userId, clientId: clientId, refreshSecret: refreshSecret, responseType: responseType,
                redirectUri: redirectUri, now: now, lifetime: lifetime, in: db)
            return (issued, merged)
        }
        let shaper = RecordShaper(schema: app.schema)
        let record: JSONValue
        if let merged {
            records.remember(merged.user, attributes: merged.attributes)
            record = shaper.shape(merged.attributes, reserved: merged.user.reserved)
        } else {
            record = shaper.shape(records.attributes(of: user), reserved: user.reserved)
        }
        return SessionIssuer.response(issued, isNew: false, record: record)
    }
}
