import Foundation
import GRDB

/// `POST /oauth/register_native_traditional` (docs/protocol.md §6.2): creates a user from the
/// registration form, after the flow's rules and the schema's uniqueness constraints pass; every
/// failure comes back at once as 390 with `invalid_fields`.
struct RegistrationEndpoint: Sendable {
    let emulator: Emulator

    static let defaultForm = "registrationForm"

    func handle(_ call: CaptureCall) async throws -> JSONValue {
        let app = try await emulator.requireFlowApp(call)
        let responseType = try ResponseType(parameter: call.params["response_type"])
        let locale = app.resolveLocale(call.params["locale"])
        let messages = MessageLocale(parameter: locale)
        let flow = app.flow(locale: locale)
        let formName = call.params.nonEmpty("form") ?? Self.defaultForm
        let fields = try flow.requiredForm(named: formName)

        let now = emulator.clock.now()
        let form = try await RegistrationForm.validate(call.params, fields: fields, app: app, locale: messages, now: now,
                                                       store: emulator.store)
        let built = form.built
        let clientId = app.clientId
        try RecordConstraints.checkRequired(built.attributes, schema: app.schema)

        // Slow on purpose, so outside the write transaction.
        let passwordHash: String?
        if let password = built.password {
            passwordHash = await emulator.passwords.hash(password)
        } else {
            passwordHash = nil
        }
        let lifetime = emulator.tokenLifetime
        let refreshSecret = call.params["refresh_secret"]
        let redirectUri = call.params["redirect_uri"]
        let baseURL = emulator.publicBaseURL
        let (user, issued) = try await emulator.store.write { db -> (UserRow, SessionIssuer.Issued) in
            // Checked again inside the transaction: another registration may have won meanwhile.
            try form.checkStillUnique(in: db)
            var user = UserRow(
                id: nil, uuid: UUID().uuidString.lowercased(), clientId: clientId, emailLower: nil,
                usernameLower: nil, passwordHash: passwordHash, record: "{}", created: now.timeIntervalSince1970,
                lastUpdated: now.timeIntervalSince1970, nextElementId: 1)
            user.setAttributes(built.attributes)
            try user.insert(db)
            // Capture mails new users a verification link; the emulator keeps it in its outbox.
            if let address = built.attributes["email"]?.stringValue, let id = user.id {
                try Mailbox.send(.verification, to: address, userId: id, app: app, locale: locale, baseURL: baseURL, now: now, in: db)
            }
            let issued = try SessionIssuer.issue(
                userId: user.id ?? 0, clientId: clientId, refreshSecret: refreshSecret, responseType: responseType,
                redirectUri: redirectUri, now: now, lifetime: lifetime, in: db)
            return (user, issued)
        }
        let record = RecordShaper(schema: app.schema).shape(user.attributes, reserved: user.reserved)
        return SessionIssuer.response(issued, isNew: true, record: record)
    }
}
