import JumpRuntime

/// Capture's side of a social sign-in (docs/protocol.md §6.3): auth_native with the Engage token.
extension CaptureSession {
    /// auth_native (§6.3): signed in, thin-registered, 310 (two-step registration) or 380 (merge).
    func socialSignIn(_ auth: EngageAuth, mergeToken: String?, cancellation: Cancellation?) throws(JumpError) -> SocialOutcome {
        let flow = settings.flowURL == nil ? nil : try? self.flow(cancellation: cancellation)
        try cancellation?.check()
        let secret = Secrets.refreshSecret()
        var p = commonParameters(flow: flow)
        p.add("response_type", settings.responseType)
        p.add("redirect_uri", settings.redirectURI)
        p.add("token", auth.token)
        p.add("thin_registration", engage.thinRegistration ? "true" : "false")
        p.add("refresh_secret", secret)
        p.add("registration_form", engage.socialRegistrationForm)
        p.add("merge_token", mergeToken)
        let body: [String: JSON]
        do {
            body = try capture.post("/oauth/auth_native", p, cancellation: cancellation)
        } catch where error.status == .registrationRequired {
            throw registrationRequired(error, auth: auth, flow: flow)
        } catch where error.status == .mergeRequired {
            let existing = error.detail["existing_provider"]?.stringValue
            var detail = error.detail
            detail["merge_token"] = .string(auth.token)
            detail["existing_provider"] = .optional(existing)
            detail["conflicting_provider"] = .string(auth.provider)
            throw JumpError(.mergeRequired,
                            "the email of this \(auth.provider) identity belongs to an account that signs in with \(existing ?? "another provider"): "
                            + "sign in with that and pass merge_token to merge", detail: detail)
        }
        let result = try startSession(from: body, refreshSecret: secret, cancellation: cancellation)
        var outcome = SocialOutcome(kind: result.isNew ? .registered : .signedIn, provider: auth.provider)
        outcome.isNew = result.isNew
        outcome.uuid = result.uuid
        outcome.authorizationCode = result.authorizationCode
        outcome.merged = mergeToken != nil
        outcome.identifier = auth.profile["identifier"]?.stringValue
        return outcome
    }

    /// 310: the Engage token becomes the social registration token, and prereg_fields (form field names)
    /// become record attributes through the flow's schemaIds, nested at dotted paths (not the SDKs' flat keys).
    private func registrationRequired(_ error: JumpError, auth: EngageAuth, flow: Flow?) -> JumpError {
        var detail = error.detail
        let fields = error.detail["prereg_fields"]?.objectValue ?? [:]
        var record: JSON = [:]
        if case .object? = error.detail["prereg_attributes"], let attributes = error.detail["prereg_attributes"] {
            record = attributes
        } else if let flow {
            record = FormMapping.record(fromFields: fields, flow: flow)
        }
        detail["social_registration_token"] = .string(auth.token)
        detail["provider"] = .string(auth.provider)
        detail["prereg_record"] = record
        detail["prereg_fields"] = .object(fields)
        return JumpError(.registrationRequired,
                         "no account has this \(auth.provider) identity: register it with the social registration token "
                         + "(prereg_record holds what the provider told)", detail: detail)
    }
}
