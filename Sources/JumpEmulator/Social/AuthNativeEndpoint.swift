import Foundation
import GRDB

/// `POST /oauth/auth_native` (docs/protocol.md §6.3): sign-in with an Engage token.
///
/// - The identity belongs to a user: signed in (`is_new` false); a `merge_token` from an earlier
///   380 attaches its identity to that user first.
/// - Else another user has the profile's email: 380 with `existing_provider`; the token can then be
///   sent as `merge_token`.
/// - Else with `thin_registration=true` and an email: a user is made from the profile (`is_new` true).
/// - Else 310 with `prereg_fields`; the token can then be sent to `register_native`.
struct AuthNativeEndpoint: Sendable {
    let emulator: Emulator

    static let defaultRegistrationForm = "socialRegistrationForm"

    private enum Outcome: Sendable {
        case signedIn(SocialSession)
        case emailInUse(existingProvider: String)
        case needsRegistration(SocialProfile)
        case unknownForm(String)
    }

    func handle(_ call: CaptureCall) async throws -> JSONValue {
        let app = try await emulator.requireFlowApp(call)
        let sessionRequest = try SocialSessionRequest(call, emulator: emulator)
        let locale = app.resolveLocale(call.params["locale"])
        let tokenText = try call.required("token")
        let mergeText = call.params.nonEmpty("merge_token")
        let thin = call.params["thin_registration"]?.lowercased() == "true"
        let formName = call.params.nonEmpty("registration_form") ?? Self.defaultRegistrationForm
        let formFields = app.flow(locale: locale).form(named: formName)
        let now = emulator.clock.now()
        let records = emulator.records
        let baseURL = emulator.publicBaseURL

        let outcome = try await emulator.store.write { db -> Outcome in
            let seconds = now.timeIntervalSince1970
            let token = try SocialTokens.valid(tokenText, argument: "token", app: app, now: seconds, in: db)
            let identity = SocialProfile(token: token)
            if let owner = try UserIdentityRow.find(clientId: app.clientId, identifier: identity.identifier, in: db) {
                let merged = try MergeToken.attach(
                    mergeText, toUserId: owner.userId, app: app, now: seconds, records: records, in: db)
                let written = try merged ?? SocialAccounts.current(userId: owner.userId, records: records, in: db)
                try SocialTokens.mark(token, .used, clientId: app.clientId, in: db)
                return .signedIn(try sessionRequest.open(written, isNew: false, clientId: app.clientId, now: now, in: db))
            }
            // A merge token only means something with the identity of an existing account; it is
            // still checked so a client sending a bad one learns of it.
            if let mergeText { _ = try SocialTokens.mergeToken(mergeText, app: app, now: seconds, in: db) }

            if let email = identity.email, let other = try UserRow.find(email: email, clientId: app.clientId, in: db) {
                try SocialTokens.mark(token, .merge, clientId: app.clientId, in: db)
                return .emailInUse(existingProvider: try SocialAccounts.existingProvider(of: other, records: records, in: db))
            }
            if thin, identity.email != nil {
                // Thin registration happens only when the schema's constraints can be met (docs/protocol.md §6.3);
                // otherwise the client registers in two steps. Nothing is written before a refusal.
                let created: SocialAccounts.Written?
                do {
                    created = try SocialAccounts.create(
                        attributes: identity.attributes(fitting: app.schema), identity: identity, passwordHash: nil,
                        app: app, now: now, mail: .init(locale: locale, baseURL: baseURL), in: db)
                } catch is CaptureError {
                    created = nil
                }
                if let created {
                    try SocialTokens.mark(token, .used, clientId: app.clientId, in: db)
                    return .signedIn(try sessionRequest.open(created, isNew: true, clientId: app.clientId, now: now, in: db))
                }
            }
            guard formFields != nil else { return .unknownForm(formName) }
            try SocialTokens.mark(token, .registration, clientId: app.clientId, in: db)
            return .needsRegistration(identity)
        }

        switch outcome {
        case .signedIn(let session):
            return session.response(schema: app.schema, records: records)
        case .emailInUse(let provider):
            throw CaptureError.emailAddressInUse(existingProvider: provider)
        case .needsRegistration(let identity):
            let attributes = identity.attributes(fitting: app.schema)
            throw CaptureError.recordNotFound(
                preregFields: Prefill.fields(formFields ?? [], from: attributes), preregAttributes: attributes)
        case .unknownForm(let name):
            throw CaptureError.invalidArgument("registration_form", "\(name) is not a form of this flow")
        }
    }
}
