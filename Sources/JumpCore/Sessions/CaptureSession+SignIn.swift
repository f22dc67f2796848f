import JumpRuntime

/// The outcome of a sign-in or registration.
public struct SignInResult: Sendable, Equatable {
    public let isNew: Bool
    public let uuid: String?
    /// Present when the response type is code_and_token: for the app's backend to exchange.
    public let authorizationCode: String?
    /// Paths edited but not synced in this user's previous session, kept on top of the fresh record.
    public var keptChanges: [String] = []
}

extension CaptureSession {
    /// Traditional sign-in (auth_native_traditional) with an email or user name and a password.
    /// With `mergeToken` (from a 380 whose existing provider is "capture"), the social identity behind it is
    /// merged into the account (docs/protocol.md §11.2).
    public func signIn(user: String, password: String, mergeToken: String? = nil,
                       cancellation: Cancellation? = nil) throws(JumpError) -> SignInResult {
        guard !user.isEmpty else { throw .invalidArgument("the user name or email is empty", argument: "user") }
        guard !password.isEmpty else { throw .invalidArgument("the password is empty", argument: "password") }
        if let mergeToken, mergeToken.isEmpty { throw .invalidArgument("the merge token is empty", argument: "merge_token") }
        // Without a flow the reference SDKs fall back to user/password fields; so do we.
        let flow = settings.flowURL == nil ? nil : try? self.flow(cancellation: cancellation)
        try cancellation?.check()
        let credentials = FormMapping.credentials(form: settings.forms.signIn, flow: flow, user: user, password: password)
        var extra = FormParameters()
        extra.add("merge_token", mergeToken)
        return try submitSignInForm("/oauth/auth_native_traditional", form: settings.forms.signIn, fields: credentials,
                                    extra: extra, flow: flow, cancellation: cancellation)
    }

    /// Traditional registration (register_native_traditional): record attributes mapped onto the
    /// registration form, then signed in as the new user.
    public func registerTraditional(attributes: JSON, password: String, cancellation: Cancellation? = nil) throws(JumpError) -> SignInResult {
        guard case .object = attributes else {
            throw .invalidArgument("the attributes must be a JSON object, not \(attributes.typeName)", argument: "attributes")
        }
        guard !password.isEmpty else { throw .invalidArgument("the password is empty", argument: "password") }
        let flow = try self.flow(cancellation: cancellation)
        let fields = try FormMapping.parameters(form: settings.forms.registration, flow: flow, record: attributes, password: password)
        let register = { () throws(JumpError) -> SignInResult in
            try self.submitSignInForm("/oauth/register_native_traditional", form: self.settings.forms.registration,
                                      fields: fields, flow: flow, cancellation: cancellation)
        }
        do throws(JumpError) {
            return try register()
        } catch where error.isOutcomeUnknown {
            // Sent again, it would find its own account and answer "already in use": a sign-in with the same
            // credentials tells whether the first one made it.
            guard let email = attributes["email"]?.stringValue, !email.isEmpty else { throw error }
            return try settleLostWrite(signingInAs: email, password: password, flow: flow, isNew: true,
                                       cancellation: cancellation, otherwise: register)
        }
    }

    /// A write whose answer was lost and that leaves `user` able to sign in with `password` (a registration,
    /// a password change): that sign-in settles it. It works: the write was applied, and the session is the
    /// sign-in's. Refused for the credentials: it was not, and `otherwise` sends it once more, whose answer is
    /// the truth. Anything else is reported as it is.
    func settleLostWrite(signingInAs user: String, password: String, flow: Flow?, isNew: Bool, cancellation: Cancellation?,
                         otherwise: () throws(JumpError) -> SignInResult) throws(JumpError) -> SignInResult {
        Log.info("the answer to a registration or password change was lost; settling it with a sign-in")
        let credentials = FormMapping.credentials(form: settings.forms.signIn, flow: flow, user: user, password: password)
        do throws(JumpError) {
            return try submitSignInForm("/oauth/auth_native_traditional", form: settings.forms.signIn, fields: credentials,
                                        flow: flow, assumeNew: isNew, cancellation: cancellation)
        } catch where error.status == .badCredentials {
            return try otherwise()
        }
    }

    /// Posts a form that ends in a signed-in session (docs/protocol.md §5.2), with a refresh secret made for it.
    func submitSignInForm(_ path: String, form: String, fields: FormParameters, extra: FormParameters = FormParameters(),
                          flow: Flow?, assumeNew: Bool = false, cancellation: Cancellation?) throws(JumpError) -> SignInResult {
        let secret = Secrets.refreshSecret()
        var parameters = commonParameters(flow: flow)
        parameters.add("response_type", settings.responseType)
        parameters.add("redirect_uri", settings.redirectURI)
        parameters.add("form", form)
        parameters.add("refresh_secret", secret)
        for (name, value) in fields.pairs { parameters.add(name, value) }
        for (name, value) in extra.pairs { parameters.add(name, value) }
        let body = try capture.post(path, parameters, cancellation: cancellation)
        return try startSession(from: body, refreshSecret: secret, assumeNew: assumeNew, cancellation: cancellation)
    }

    /// The sign-in response (docs/protocol.md §5.2) -> the new session (replacing any previous one).
    /// assumeNew: the sign-in settles a registration whose answer was lost, so the account is new.
    func startSession(from body: [String: JSON], refreshSecret: String, assumeNew: Bool = false,
                      cancellation: Cancellation?) throws(JumpError) -> SignInResult {
        guard let token = body["access_token"]?.stringValue, !token.isEmpty else {
            throw JumpError(.server, "the sign-in response has no access_token")
        }
        // A secret from the moment it arrives: an error text may quote it before libjump ever sends it.
        SecretScrubber.remember(token)
        var user = body["capture_user"]
        if user?.objectValue == nil {
            // iOS registration reads only the token and fetches the record (docs/protocol.md §5.2).
            var p = FormParameters()
            p.add("access_token", token)
            let entity = try capture.post("/entity", p, cancellation: cancellation)
            user = entity["result"]
        }
        guard let record = user, case .object = record else {
            throw JumpError(.server, "the sign-in response has no capture_user record")
        }
        let expiresAt = expiryTime(fromExpiresIn: body["expires_in"])
        let session = Session(sessionID: Secrets.sessionID(), accessToken: token, refreshSecret: refreshSecret,
                              accessTokenExpiresAt: expiresAt, reauthenticationRequired: false, record: UserRecord(server: record))
        let isNew = assumeNew || (body["is_new"]?.boolValue ?? false)
        // With several accounts, the session goes to its user's account: a saved one, this one when it is
        // empty, or a new one (CaptureAccounts); it becomes the active account once adopted.
        let routing = accountRouting.target
        let target = try routing?.sessionToAdopt(uuid: session.record.uuid, signingInOn: self) ?? self
        let (result, conflicts) = try target.adopt(session, isNew: isNew, authorizationCode: body["authorization_code"]?.stringValue)
        routing?.adopted(target)
        if !conflicts.isEmpty {
            throw JumpError(.conflict, "signed in, and the edits not yet synced were kept, but \(conflicts.count) of them also "
                            + "changed on the server (\(conflicts.map(\.path.description).joined(separator: ", "))): the local "
                            + "values were kept; revert them to take the server's, or sync to send them",
                            detail: ["conflicts": .array(conflicts.map(\.json)), "signed_in": true, "uuid": .optional(result.uuid),
                                     "is_new": .bool(isNew), "kept_changes": .array(result.keptChanges.map(JSON.string))])
        }
        return result
    }

    /// Makes `session` this session's, taking over what the previous one leaves (takeOverPreviousSession), and
    /// tells the app. Returns the result and the conflicts between kept edits and the fresh record.
    private func adopt(_ session: Session, isNew: Bool, authorizationCode: String?) throws(JumpError)
        -> (SignInResult, [UserRecord.Conflict]) {
        var session = session
        let uuid = session.record.uuid
        let record = session.record.current
        let (conflicts, kept) = try state.withLock { s throws(JumpError) -> ([UserRecord.Conflict], [String]) in
            let (carried, entry) = try takeOverPreviousSession(&s, uuid: uuid)
            var conflicts: [UserRecord.Conflict] = []
            var kept: [String] = []
            if var edited = carried, edited.hasEdits {
                conflicts = edited.rebase(onServer: record)
                kept = edited.plan(schema: s.schema).flatMap(\.changed)
                session.record = edited
            }
            if let entry { session.absorbed = [entry] }
            s.replaceSession(with: session, onStorage: false)
            s.stored.journalEpoch = nil
            persist(&s)
            if let entry, s.stored.storageError == nil {
                whileSaving(&s) { s in storage.release(&s.stored) { $0.id == entry } }
                s.updateSession { $0.absorbed = [] }
            }
            return (conflicts, kept)
        }
        emit(.signedIn(uuid: uuid, isNew: isNew))
        return (SignInResult(isNew: isNew, uuid: uuid, authorizationCode: authorizationCode, keptChanges: kept), conflicts)
    }

    /// What becomes of the session a sign-in replaces: the same user's record comes along with its unsynced
    /// edits (returned); another user's session with unsynced edits, or a saved session that could not be
    /// read, is set aside, never merged. Without a session in memory, the same user's edits are looked for
    /// among the sessions set aside earlier (the entry is returned, to be released once they are saved).
    private func takeOverPreviousSession(_ s: inout CaptureState, uuid: String?) throws(JumpError) -> (UserRecord?, String?) {
        if let old = s.session {
            if let uuid, old.record.uuid == uuid { return (old.record, nil) }
            if old.record.hasEdits {
                try whileSaving(&s) { s throws(JumpError) in
                    try storage.setAside(&s.stored, reason: .replaced, session: old,
                                         message: "another user signed in while this user's edits were not synced")
                }
            }
        } else if let unreadable = s.restoreError {
            try whileSaving(&s) { s throws(JumpError) in
                try storage.setAside(&s.stored, reason: .unreadable, session: nil,
                                     message: "the saved session could not be read when another sign-in replaced it (\(unreadable.message))")
            }
        }
        guard let (record, entry) = storage.quarantinedEdits(s.stored, uuid: uuid) else { return (nil, nil) }
        return (record, entry)
    }
}
