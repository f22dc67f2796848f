import Foundation
import GRDB

/// `POST /oauth/forgot_password_native` (docs/protocol.md §6.5) and `POST /oauth/verify_email_native`
/// (§6.5): the user-id field of the form names an account, which is sent a password-reset or
/// verification email (captured in the emulator's outbox, see `Mailbox`).
///
/// Field errors are 390 with `invalid_fields`; an unknown account is 212 with a form-level message
/// keyed by the form name. Success is `{"stat":"ok"}`.
struct MailedCodeEndpoint: Sendable {
    let emulator: Emulator
    let kind: EmailRow.Kind

    var defaultForm: String {
        kind == .passwordReset ? "forgotPasswordForm" : "resendVerificationForm"
    }

    func handle(_ call: CaptureCall) async throws -> JSONValue {
        let app = try await emulator.requireFlowApp(call)
        _ = try ResponseType(parameter: call.params["response_type"])
        let locale = app.resolveLocale(call.params["locale"])
        let messages = MessageLocale(parameter: locale)
        let formName = call.params.nonEmpty("form") ?? defaultForm
        let fields = try app.flow(locale: locale).requiredForm(named: formName)
        // The user-id field is the first field of type email or text (docs/protocol.md §6.5).
        guard let userField = fields.first(where: { $0.type == "email" || $0.type == "text" }) else {
            throw CaptureError.invalidArgument("form", "\(formName) has no user id field")
        }
        let now = emulator.clock.now()
        let validation = FormValidator(fields: fields, locale: messages, today: CaptureTime.day(of: now)).validate(call.params)
        guard validation.errors.isEmpty else { throw CaptureError.formValidation(validation.errors) }
        guard case .text(let userId)? = validation.values[userField.name] else {
            throw CaptureError.formValidation([userField.name: [userField.rule("required")?.message ?? Message.required.text(messages)]])
        }

        let clientId = app.clientId
        let baseURL = emulator.publicBaseURL
        let kind = self.kind
        let records = emulator.records
        let sent = try await emulator.store.write { db -> Bool in
            let user: UserRow?
            switch userField.schemaPath {
            case "username": user = try UserRow.find(username: userId, clientId: clientId, in: db)
            case "email": user = try UserRow.find(email: userId, clientId: clientId, in: db)
            default:
                user = try UserRow.find(email: userId, clientId: clientId, in: db)
                    ?? UserRow.find(username: userId, clientId: clientId, in: db)
            }
            guard let user, let id = user.id, let address = records.attributes(of: user)["email"]?.stringValue else { return false }
            try Mailbox.send(kind, to: address, userId: id, app: app, locale: locale, baseURL: baseURL, now: now, in: db)
            return true
        }
        guard sent else { throw CaptureError.noSuchUser(form: formName, locale: messages) }
        return ["stat": "ok"]
    }
}
