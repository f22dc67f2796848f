/// The default app's flow: sign-in, registration, social registration, forgot-password, edit-profile,
/// change-password (with the current password, or after a reset without it) and resend-verification
/// forms, with validation rules and texts in each locale.
enum DefaultFlow {
    static let name = "standard"
    static let version = "20261121000000000001"
    static let locales = MessageLocale.allCases.map(\.rawValue)

    static let forms: [(String, [String])] = [
        ("signInForm", ["signInEmailAddress", "currentPassword"]),
        ("signInUsernameForm", ["signInUsername", "currentPassword"]),
        ("registrationForm", [
            "emailAddress", "newPassword", "newPasswordConfirm", "displayName", "firstName", "lastName", "birthdate",
            "aboutMe", "username",
        ]),
        ("socialRegistrationForm", ["emailAddress", "displayName", "firstName", "lastName"]),
        ("forgotPasswordForm", ["signInEmailAddress"]),
        ("editProfileForm", ["displayName", "firstName", "lastName", "aboutMe", "birthdate"]),
        ("changePasswordForm", ["currentPassword", "newPassword", "newPasswordConfirm"]),
        ("changePasswordFormNoAuth", ["newPassword", "newPasswordConfirm"]),
        ("resendVerificationForm", ["signInEmailAddress"]),
    ]

    /// Built once per locale: the default flow never changes, and every form call reads it.
    private static let documents: [MessageLocale: JSONValue] = Dictionary(
        uniqueKeysWithValues: MessageLocale.allCases.map { ($0, build(locale: $0)) })

    /// The flow served for one locale.
    static func document(locale: MessageLocale) -> JSONValue {
        documents[locale] ?? build(locale: locale)
    }

    private static func build(locale: MessageLocale) -> JSONValue {
        let texts = DefaultFlowTexts.texts(for: locale)
        var fields: [String: JSONValue] = [:]
        for (form, members) in forms {
            fields[form] = .object(["fields": .array(members.map(JSONValue.string))])
        }
        for (name, definition) in fieldDefinitions(texts) {
            fields[name] = definition
        }
        return .object([
            "version": .string(version),
            "locale": .string(locale.rawValue),
            "schema_info": ["paths": ["email": "email", "password": "password"]],
            "fields": .object(fields),
        ])
    }

    private static func field(
        _ type: String, schemaId: String?, label: String, _ rules: [JSONValue]
    ) -> JSONValue {
        var members: [String: JSONValue] = ["type": .string(type), "label": .string(label), "validation": .array(rules)]
        if let schemaId { members["schemaId"] = .string(schemaId) }
        return .object(members)
    }

    private static func rule(_ name: String, _ value: JSONValue? = nil, _ message: String) -> JSONValue {
        var members: [String: JSONValue] = ["rule": .string(name), "message": .string(message)]
        if let value { members["value"] = value }
        return .object(members)
    }

    private static func fieldDefinitions(_ t: DefaultFlowTexts) -> [String: JSONValue] {
        [
            "signInEmailAddress": field("email", schemaId: "email", label: t.emailLabel, [
                rule("required", true, t.emailRequired), rule("format", "email", t.emailInvalid),
            ]),
            "signInUsername": field("text", schemaId: "username", label: t.usernameLabel, [
                rule("required", true, t.usernameRequired),
            ]),
            "currentPassword": field("password", schemaId: "password", label: t.passwordLabel, [
                rule("required", true, t.passwordRequired),
            ]),
            "emailAddress": field("email", schemaId: "email", label: t.emailLabel, [
                rule("required", true, t.emailRequired), rule("format", "email", t.emailInvalid),
                rule("unique", nil, Message.emailInUse.text(t.locale)),
            ]),
            "newPassword": field("password", schemaId: "password", label: t.newPasswordLabel, [
                rule("required", true, t.passwordRequired), rule("minLength", 8, t.passwordTooShort),
            ]),
            // Mapped to the password, as real flows do: the reference SDKs fill a form only from fields with a
            // schemaId, so a confirmation without one could never be sent (and registration always fail).
            "newPasswordConfirm": field("password", schemaId: "password", label: t.confirmPasswordLabel, [
                rule("required", true, t.confirmRequired), rule("match", "newPassword", t.passwordsDiffer),
            ]),
            "displayName": field("text", schemaId: "displayName", label: t.displayNameLabel, [
                rule("maxLength", 64, t.displayNameTooLong),
            ]),
            "firstName": field("text", schemaId: "givenName", label: t.firstNameLabel, [
                rule("maxLength", 64, t.firstNameTooLong),
            ]),
            "lastName": field("text", schemaId: "familyName", label: t.lastNameLabel, [
                rule("maxLength", 64, t.lastNameTooLong),
            ]),
            "birthdate": field("dateselect", schemaId: "birthday", label: t.birthdateLabel, [
                rule("date", "past", t.birthdateInvalid),
            ]),
            "aboutMe": field("textarea", schemaId: "aboutMe", label: t.aboutMeLabel, [
                rule("maxLength", 1000, t.aboutMeTooLong),
            ]),
            "username": field("text", schemaId: "username", label: t.usernameLabel, [
                rule("pattern", "^[A-Za-z0-9_.-]{3,32}$", t.usernameInvalid),
                rule("unique", nil, Message.usernameInUse.text(t.locale)),
            ]),
        ]
    }
}
