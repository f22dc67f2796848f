import JumpRuntime

/// The profile and password forms (docs/protocol.md §6.5-§6.6). Capture validates them with the flow's rules
/// and answers 390 (or 212 for form-level failures) with `invalid_fields`: JUMP_E_VALIDATION.
extension CaptureSession {
    /// Updates the profile through the edit-profile form (update_profile_native). The form is filled from the
    /// signed-in user's record, unsynced edits included, with `attributes` (a JSON object of record
    /// attributes, or nil) applied on top; then the record is fetched again.
    ///
    /// `attributes` reach the local record only once the server accepted the form: values it refused must
    /// not linger as pending edits that a later sync would push past the form's validation. A null in
    /// `attributes` clears the field (it is sent blank). Attributes the form has no field for stay local,
    /// unsynced edits.
    public func updateProfile(attributes: JSON? = nil, cancellation: Cancellation? = nil) throws(JumpError) {
        let edits = try profileEdits(attributes)
        let form = settings.forms.editProfile
        let generation = try state.withLock { s throws(JumpError) -> UInt64 in
            _ = try requireSession(s)
            return s.generation
        }
        let flow = try self.flow(cancellation: cancellation)
        try cancellation?.check()
        let edited = try withRecord(generation: generation) { record, schema throws(JumpError) -> JSON in
            var copy = record
            for (path, value) in edits { try copy.set(path, to: value, schema: schema) }
            return copy.current
        }
        // Nulls in `attributes` clear their fields: those go out blank rather than being left out.
        let fields = try FormMapping.parameters(form: form, flow: flow, record: edited, password: nil, unmapped: .ignore,
                                                emptied: attributes.map { FormMapping.nullPaths(of: $0) } ?? [])
        try submitProfileForm(form, fields: fields, flow: flow, generation: generation, cancellation: cancellation)

        // Fetched before the edits are applied, so the form's own edits never meet the server's copy of
        // them as unsynced changes (which a fetch would report as conflicts).
        var fetchFailure: JumpError?
        do throws(JumpError) { try fetchRecord(cancellation: cancellation) } catch { fetchFailure = error }
        if !edits.isEmpty {
            do throws(JumpError) {
                for (path, value) in edits {
                    try editRecord(generation: generation) { record, schema throws(JumpError) -> (RecordOp?, Void) in
                        // What the server now holds needs no edit; the rest (attributes outside the form, or
                        // all of them when the fetch failed) stays pending for the next sync.
                        if CaptureSession.holds(record.current, value, at: path) { return (nil, ()) }
                        return (try record.set(path, to: value, schema: schema, applying: false), ())
                    }
                }
            } catch {
                Log.warning("the profile was updated, but its attributes could not be applied to the local record: \(error.message)")
            }
        }
        if let fetchFailure {
            // Other unsynced edits collided with the server's record: the app has to choose.
            if fetchFailure.status == .conflict { throw fetchFailure }
            // The server took the form, so the call succeeded; the record catches up at the next fetch.
            Log.warning("the profile was updated, but the record could not be fetched again: \(fetchFailure.message)")
        }
    }

    /// Changes the signed-in user's password through the change-password form (update_profile_native).
    /// A wrong current password is JUMP_E_VALIDATION with `invalid_fields` naming its field.
    public func changePassword(current: String, new: String, cancellation: Cancellation? = nil) throws(JumpError) {
        guard !current.isEmpty else { throw .invalidArgument("the current password is empty", argument: "current_password") }
        guard !new.isEmpty else { throw .invalidArgument("the new password is empty", argument: "new_password") }
        let generation = try state.withLock { s throws(JumpError) -> UInt64 in
            _ = try requireSession(s)
            return s.generation
        }
        let flow = try self.flow(cancellation: cancellation)
        try cancellation?.check()
        let form = settings.forms.changePassword
        let passwords = try FormMapping.passwordFields(form: form, flow: flow)
        // A flow may put other fields (an email, say) on the form: they come from the record.
        let record = try withRecord(generation: generation) { record, _ throws(JumpError) in record.current }
        var fields = try FormMapping.parameters(form: form, flow: flow, record: record, password: nil, unmapped: .ignore)
        for name in passwords.current { fields.add(name, current) }
        for name in passwords.new { fields.add(name, new) }
        do throws(JumpError) {
            try submitProfileForm(form, fields: fields, flow: flow, generation: generation, cancellation: cancellation)
        } catch where error.isOutcomeUnknown {
            // Sent again, a change that was applied is refused for its old password: a sign-in with the new
            // one tells whether it was.
            guard let user = record["email"]?.stringValue, !user.isEmpty else { throw error }
            _ = try settleLostWrite(signingInAs: user, password: new, flow: flow, isNew: false, cancellation: cancellation) {
                () throws(JumpError) -> SignInResult in
                try self.submitProfileForm(form, fields: fields, flow: flow, generation: generation, cancellation: cancellation)
                return SignInResult(isNew: false, uuid: nil, authorizationCode: nil)
            }
        }
    }

    /// Asks Capture to email a password-reset link to `email` (forgot_password_native). No sign-in needed.
    /// An unknown email is JUMP_E_VALIDATION with `invalid_fields` keyed by the form name.
    public func forgotPassword(email: String, cancellation: Cancellation? = nil) throws(JumpError) {
        // iOS sends response_type=token here, Android its configured one (docs/protocol.md §6.5); the
        // configured one keeps the reset link consistent with the app's other sign-ins.
        try submitEmailForm("/oauth/forgot_password_native", form: settings.forms.forgotPassword, email: email,
                            responseType: settings.responseType, cancellation: cancellation)
    }

    /// Asks Capture to send the email-verification message to `email` again (verify_email_native). No
    /// sign-in needed.
    public func resendVerificationEmail(email: String, cancellation: Cancellation? = nil) throws(JumpError) {
        try submitEmailForm("/oauth/verify_email_native", form: settings.forms.resendVerification, email: email,
                            responseType: "token", cancellation: cancellation)
    }

    // MARK: - Helpers

    /// `attributes` as record edits: one per top-level attribute (an object value sets the members it
    /// names, as UserRecord.set does).
    private func profileEdits(_ attributes: JSON?) throws(JumpError) -> [(RecordPath, JSON)] {
        guard let attributes, !attributes.isNull else { return [] }
        guard case .object(let members) = attributes else {
            throw .invalidArgument("the attributes must be a JSON object, not \(attributes.typeName)", argument: "attributes")
        }
        var edits: [(RecordPath, JSON)] = []
        for key in members.keys.sorted() {
            // A key is one attribute name: "/" or "#" in it would silently address something else.
            guard !key.isEmpty, !key.contains("/"), !key.contains("#") else {
                throw .invalidArgument("'\(key)' is not an attribute name", argument: "attributes")
            }
            edits.append((try RecordPath("/" + key), members[key] ?? .null))
        }
        return edits
    }

    /// True when `record` has `value` at `path` (an object value: every member it names).
    private static func holds(_ record: JSON, _ value: JSON, at path: RecordPath) -> Bool {
        var node = record
        for component in path.components {
            guard let child = node[component.name] else { return false }
            node = child
        }
        return contains(node, value)
    }

    private static func contains(_ node: JSON, _ value: JSON) -> Bool {
        guard case .object(let members) = value else { return node == value }
        guard case .object = node else { return false }
        return members.allSatisfy { key, member in node[key].map { contains($0, member) } ?? false }
    }

    /// update_profile_native (docs/protocol.md §6.6): the form fields, the common parameters, the form name and
    /// the access token; no response_type, no redirect_uri.
    private func submitProfileForm(_ form: String, fields: FormParameters, flow: Flow, generation: UInt64,
                                   cancellation: Cancellation?) throws(JumpError) {
        _ = try authorized(cancellation: cancellation) { token throws(JumpError) in
            // The fields were read from this generation's record; they must not go out under the token of
            // a session that replaced it meanwhile.
            try state.withLock { s throws(JumpError) in
                guard s.generation == generation, s.session != nil else {
                    throw JumpError(.notSignedIn, "the session ended before form '\(form)' was sent")
                }
            }
            var parameters = commonParameters(flow: flow)
            parameters.add("form", form)
            for (name, value) in fields.pairs { parameters.add(name, value) }
            parameters.add("access_token", token)
            return try capture.post("/oauth/update_profile_native", parameters, cancellation: cancellation)
        }
    }

    /// forgot_password_native and verify_email_native (docs/protocol.md §6.5): the email goes in the
    /// form's user-id field.
    private func submitEmailForm(_ path: String, form: String, email: String, responseType: String,
                                 cancellation: Cancellation?) throws(JumpError) {
        guard !email.isEmpty else { throw .invalidArgument("the email is empty", argument: "email") }
        let flow = try self.flow(cancellation: cancellation)
        try cancellation?.check()
        let field = try FormMapping.userIDField(form: form, flow: flow)
        var parameters = commonParameters(flow: flow)
        parameters.add("redirect_uri", settings.redirectURI)
        parameters.add("response_type", responseType)
        parameters.add("form", form)
        parameters.add(field, email)
        _ = try capture.post(path, parameters, cancellation: cancellation)
    }
}
