/// `POST /oauth/auth_native_traditional` (protocol.md §3.3.2): traditional sign-in.
struct SignInEndpoint: Sendable {
    let emulator: Emulator

    func handle(_ call: CaptureCall) async throws -> JSONValue {
        let app = try await emulator.requireApp(call)
        try emulator.checkFlowParameters(call, app: app)
        let responseType = try ResponseType(parameter: call.params["response_type"])
        let locale = app.resolveLocale(call.params["locale"])
        let messages = MessageLocale(parameter: locale)
        let credentials = try SignInCredentials.extract(call.params, flow: app.flow(locale: locale), locale: messages)
        // merge_token is accepted and ignored until social sign-in exists.

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
        let issued = try await emulator.store.write { db in
            try SessionIssuer.issue(
                userId: userId, clientId: clientId, refreshSecret: refreshSecret, responseType: responseType,
                redirectUri: redirectUri, now: now, lifetime: lifetime, in: db)
        }
        let record = RecordShaper(schema: app.schema).shape(emulator.records.attributes(of: user), reserved: user.reserved)
        return SessionIssuer.response(issued, isNew: false, record: record)
    }
}
