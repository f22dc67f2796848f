import GRDB

/// The user id and password of a traditional sign-in, read through the sign-in form of the flow
/// (docs/protocol.md §6.1, §9.3): the `password`-typed field holds the password, the other field the
/// user id, whose `schemaId` says whether it is the email or the username. Without a form the
/// SDKs fall back to `user` and `password`.
struct SignInCredentials: Sendable {
    enum Identifier: Sendable, Equatable {
        case email(String)
        case username(String)
        /// The fallback `user` parameter: an email or a username.
        case either(String)
    }

    var identifier: Identifier
    var password: String
    /// The key of the form-level error message.
    var formName: String

    static let fallbackFormName = "signInForm"

    static func extract(_ params: FormParams, flow: Flow, locale: MessageLocale) throws(CaptureError) -> SignInCredentials {
        guard let formName = params.nonEmpty("form") else {
            return try fallback(params)
        }
        guard let fields = flow.form(named: formName),
            let passwordField = fields.first(where: { $0.type == "password" }),
            let userField = fields.first(where: { $0.type != "password" })
        else {
            // A form the flow does not know (or not a sign-in form): the SDK's own fallback still works.
            if params.nonEmpty("user") != nil { return try fallback(params) }
            throw CaptureError.invalidArgument("form", "\(formName) is not a sign-in form of this flow")
        }
        let user = params.nonEmpty(userField.name) ?? params.nonEmpty("user")
        let password = params.nonEmpty(passwordField.name) ?? params.nonEmpty("password")
        var missing: [String: [String]] = [:]
        if user == nil { missing[userField.name] = [requiredMessage(userField, locale)] }
        if password == nil { missing[passwordField.name] = [requiredMessage(passwordField, locale)] }
        guard let user, let password, missing.isEmpty else { throw CaptureError.formValidation(missing) }
        let identifier: Identifier
        switch userField.schemaPath {
        case "email": identifier = .email(user)
        case "username": identifier = .username(user)
        default: identifier = userField.type == "email" ? .email(user) : .either(user)
        }
        return SignInCredentials(identifier: identifier, password: password, formName: formName)
    }

    private static func fallback(_ params: FormParams) throws(CaptureError) -> SignInCredentials {
        guard let user = params.nonEmpty("user") else { throw CaptureError.missingArgument("user") }
        guard let password = params.nonEmpty("password") else { throw CaptureError.missingArgument("password") }
        return SignInCredentials(identifier: .either(user), password: password, formName: fallbackFormName)
    }

    private static func requiredMessage(_ field: FlowField, _ locale: MessageLocale) -> String {
        field.rule("required")?.message ?? Message.required.text(locale)
    }

    func findUser(clientId: String, in db: Database) throws -> UserRow? {
        switch identifier {
        case .email(let email):
            return try UserRow.find(email: email, clientId: clientId, in: db)
        case .username(let username):
            return try UserRow.find(username: username, clientId: clientId, in: db)
        case .either(let user):
            return try UserRow.find(email: user, clientId: clientId, in: db)
                ?? UserRow.find(username: user, clientId: clientId, in: db)
        }
    }
}
