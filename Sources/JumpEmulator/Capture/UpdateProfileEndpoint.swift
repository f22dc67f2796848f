import Foundation

/// `POST /oauth/update_profile_native` (docs/protocol.md §6.6): a form posted with the signed-in
/// user's access token (no `response_type`, no `redirect_uri`). See `ProfileForm` for what each form
/// does. Failures are 390 with `invalid_fields` in the request's locale; success is
/// `{"stat":"ok"}` with no record.
struct UpdateProfileEndpoint: Sendable {
    let emulator: Emulator

    func handle(_ call: CaptureCall) async throws -> JSONValue {
        let app = try await emulator.requireApp(call)
        let signedIn = try await emulator.authenticate(call)
        try emulator.checkFlowParameters(call, app: app)
        let locale = app.resolveLocale(call.params["locale"])
        let messages = MessageLocale(parameter: locale)
        let formName = try call.required("form")
        let fields = try app.flow(locale: locale).requiredForm(named: formName)
        guard let kind = ProfileForm(fields: fields) else {
            throw CaptureError.invalidArgument("form", "\(formName) is not a profile form")
        }
        var validation = FormValidator(fields: fields, locale: messages, today: CaptureTime.day(of: emulator.clock.now()))
            .validate(call.params)
        switch kind {
        case .editProfile:
            try await editProfile(signedIn, fields: fields, params: call.params, messages: messages, validation: &validation)
        case .changePassword(let current, let new):
            // The current password is only checked once it was given at all.
            if validation.errors[current.name] == nil, case .text(let given)? = validation.values[current.name] {
                var matches = false
                if let hash = signedIn.user.passwordHash {
                    matches = await emulator.passwords.verify(given, hash: hash)
                }
                if !matches { validation.fail(current.name, Message.incorrectPassword.text(messages)) }
            }
            try await setPassword(signedIn, new: new, validation: validation, messages: messages)
        case .setPassword(let new):
            try await setPassword(signedIn, new: new, validation: validation, messages: messages)
        }
        return ["stat": "ok"]
    }

    /// Fields go to the record through their `schemaId` with `entity.update` semantics: fields not
    /// sent are left alone, fields sent blank are cleared. Values held by another user are reported
    /// on the field that wrote them, as in registration.
    private func editProfile(
        _ signedIn: AuthenticatedSession, fields: [FlowField], params: FormParams, messages: MessageLocale,
        validation: inout FormValidation
    ) async throws {
        let schema = signedIn.app.schema
        let built = FormRecordBuilder(schema: schema, locale: messages).build(fields: fields, validation: &validation, clearing: params)
        let userId = signedIn.user.id ?? 0
        let clientId = signedIn.app.clientId
        let uniqueValues = RecordConstraints.uniqueValues(built.attributes, schema: schema)
        let conflicts = try await emulator.store.read { db in
            try UniquenessCheck.conflicts(uniqueValues, clientId: clientId, excludingUserId: userId, schema: schema, in: db)
        }
        for path in conflicts {
            RegistrationForm.reportConflict(path, built: built, fields: fields, locale: messages, into: &validation)
        }
        guard validation.errors.isEmpty else { throw CaptureError.formValidation(validation.errors) }

        var value = built.attributes
        var passwordHash: String?
        if let password = built.password {
            value["password"] = .string(password)
            passwordHash = await emulator.passwords.hash(password)
        }
        let update = JSONValue.object(value)
        do {
            _ = try await emulator.writeRecord(userId: userId, schema: schema, preparedPasswordHash: passwordHash) { updater, record in
                try updater.update(record, at: .root, with: update)
            }
        } catch let error as CaptureError where error.code == 361 {
            // Taken by someone else between the check above and the write.
            var late = FormValidation()
            let path = error.extras["attribute_name"]?.stringValue ?? ""
            RegistrationForm.reportConflict(path, built: built, fields: fields, locale: messages, into: &late)
            throw CaptureError.formValidation(late.errors)
        }
    }

    private func setPassword(
        _ signedIn: AuthenticatedSession, new: FlowField, validation: FormValidation, messages: MessageLocale
    ) async throws {
        guard validation.errors.isEmpty else { throw CaptureError.formValidation(validation.errors) }
        guard case .text(let password)? = validation.values[new.name] else {
            throw CaptureError.formValidation([new.name: [Message.required.text(messages)]])
        }
        let hash = await emulator.passwords.hash(password)
        _ = try await emulator.writeRecord(
            userId: signedIn.user.id ?? 0, schema: signedIn.app.schema, preparedPasswordHash: hash
        ) { updater, record in
            try updater.update(record, at: .root, with: ["password": .string(password)])
        }
    }
}
