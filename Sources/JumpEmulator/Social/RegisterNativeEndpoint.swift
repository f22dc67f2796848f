import Foundation
import GRDB

/// `POST /oauth/register_native` (docs/protocol.md §6.4): the second step of a social registration.
/// The token must be one auth_native of this client answered 310 for; the form is validated as
/// `register_native_traditional` validates its own (every failure at once, 390), and the new user
/// gets the form's values plus the identity's `profiles` element.
struct RegisterNativeEndpoint: Sendable {
    let emulator: Emulator

    static let notFirstSentToAuthNative = "the token was not first sent to auth_native"

    func handle(_ call: CaptureCall) async throws -> JSONValue {
        let app = try await emulator.requireFlowApp(call)
        let sessionRequest = try SocialSessionRequest(call, emulator: emulator)
        let locale = app.resolveLocale(call.params["locale"])
        let messages = MessageLocale(parameter: locale)
        let tokenText = try call.required("token")
        let formName = call.params.nonEmpty("form") ?? AuthNativeEndpoint.defaultRegistrationForm
        let fields = try app.flow(locale: locale).requiredForm(named: formName)
        let now = emulator.clock.now()
        // A token that cannot register is refused before the form is judged.
        _ = try await emulator.store.read { db in
            try Self.registrationToken(tokenText, app: app, now: now.timeIntervalSince1970, in: db)
        }

        let form = try await RegistrationForm.validate(call.params, fields: fields, app: app, locale: messages, now: now,
                                                       store: emulator.store)
        let built = form.built
        let clientId = app.clientId

        // A custom social form may carry a password; hashing is slow, so outside the transaction.
        let passwordHash: String? = if let password = built.password { await emulator.passwords.hash(password) } else { nil }
        let baseURL = emulator.publicBaseURL
        let session = try await emulator.store.write { db -> SocialSession in
            // Again inside the transaction: the token may have been spent, or the values taken, meanwhile.
            let token = try Self.registrationToken(tokenText, app: app, now: now.timeIntervalSince1970, in: db)
            try form.checkStillUnique(in: db)
            let written = try SocialAccounts.create(
                attributes: built.attributes, identity: SocialProfile(token: token), passwordHash: passwordHash, app: app,
                now: now, mail: .init(locale: locale, baseURL: baseURL), in: db)
            try SocialTokens.mark(token, .used, clientId: clientId, in: db)
            return try sessionRequest.open(written, isNew: true, clientId: clientId, now: now, in: db)
        }
        return session.response(schema: app.schema, records: emulator.records)
    }

    private static func registrationToken(_ text: String, app: AppConfig, now: Double, in db: Database) throws -> EngageTokenRow {
        try SocialTokens.valid(text, argument: "token", state: .registration, app: app, now: now,
                               description: notFirstSentToAuthNative, in: db)
    }
}
