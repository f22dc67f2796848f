import JumpRuntime

/// Two-step social registration (docs/protocol.md §6.4, §11.3), account linking and unlinking (§6.7), and the
/// linked identities read from the record's profiles.
extension CaptureSession {
    /// register_native with the Engage token of a 310, the attributes mapped to the social registration form.
    public func registerSocial(token: String, attributes: JSON, cancellation: Cancellation? = nil) throws(JumpError) -> SignInResult {
        guard !token.isEmpty else {
            throw .invalidArgument("the social registration token is empty", argument: "social_registration_token")
        }
        guard case .object = attributes else {
            throw .invalidArgument("the attributes must be a JSON object, not \(attributes.typeName)", argument: "attributes")
        }
        let flow = try self.flow(cancellation: cancellation)
        let form = engage.socialRegistrationForm
        let fields = try FormMapping.parameters(form: form, flow: flow, record: attributes, password: nil)
        var extra = FormParameters()
        extra.add("token", token)
        do {
            return try submitSignInForm("/oauth/register_native", form: form, fields: fields, extra: extra, flow: flow,
                                        cancellation: cancellation)
        } catch where error.detail["argument"]?.stringValue == "token" {
            var detail = error.detail
            detail["argument"] = "social_registration_token"
            detail["reason"] = "token_not_usable"
            throw JumpError(.invalidArgument, "the social registration token is unknown, expired or already used: "
                            + "sign in with the provider again", detail: detail)
        }
    }

    /// link_account_native with the Engage token of the identity to add, then the record is fetched again so
    /// its profiles show the new identity.
    func linkIdentity(_ auth: EngageAuth, cancellation: Cancellation?) throws(JumpError) -> SocialOutcome {
        let flow = settings.flowURL == nil ? nil : try? self.flow(cancellation: cancellation)
        let before = Set(linkedIdentities().map(\.identifier))
        let (_, generation) = try authorized(cancellation: cancellation) { accessToken throws(JumpError) in
            var p = commonParameters(flow: flow)
            p.add("redirect_uri", settings.redirectURI)
            p.add("response_type", settings.responseType)
            p.add("access_token", accessToken)
            p.add("token", auth.token)
            return try capture.post("/oauth/link_account_native", p, cancellation: cancellation)
        }
        refetchAfterAccountChange(cancellation: cancellation)
        let added = linkedIdentities().first { !before.contains($0.identifier) }
        var outcome = SocialOutcome(kind: .linked, provider: auth.provider)
        outcome.uuid = state.withLock { s in s.generation == generation ? s.session?.record.uuid : nil }
        outcome.identifier = added?.identifier ?? auth.profile["identifier"]?.stringValue
        return outcome
    }

    /// unlink_account_native. The last identity of an account without a password would leave it with no way
    /// to sign in: refused here (after checking the server's copy), as the iOS SDK does (§6.7).
    public func unlinkAccount(identifier: String, cancellation: Cancellation? = nil) throws(JumpError) {
        guard !identifier.isEmpty else { throw .invalidArgument("the identifier is empty", argument: "identifier") }
        _ = try state.withLock { s throws(JumpError) in try requireSession(s) }
        var check = try unlinkCheck(identifier)
        if check == .lastIdentity {
            // The local copy may be stale (a password set elsewhere): ask the server before refusing.
            do throws(JumpError) { try fetchRecord(cancellation: cancellation) } catch where error.status == .conflict {}
            check = try unlinkCheck(identifier)
        }
        switch check {
        case .notLinked:
            throw JumpError(.notFound, "no linked identity has this identifier", detail: ["argument": "identifier"])
        case .lastIdentity:
            throw JumpError(.invalidArgument,
                            "this is the account's only identity and the account has no password: it could no longer sign in "
                            + "(set a password or link another identity first)",
                            detail: ["argument": "identifier", "reason": "last_identity"])
        case .allowed:
            break
        }
        let flow = settings.flowURL == nil ? nil : try? self.flow(cancellation: cancellation)
        _ = try authorized(cancellation: cancellation) { accessToken throws(JumpError) in
            var p = commonParameters(flow: flow)
            p.add("identifier_to_remove", identifier)
            p.add("access_token", accessToken)
            return try capture.post("/oauth/unlink_account_native", p, cancellation: cancellation)
        }
        refetchAfterAccountChange(cancellation: cancellation)
    }

    private enum UnlinkCheck { case allowed, notLinked, lastIdentity }

    private func unlinkCheck(_ identifier: String) throws(JumpError) -> UnlinkCheck {
        let record = try state.withLock { s throws(JumpError) in try requireSession(s).record.current }
        let identities = LinkedIdentity.all(in: record)
        guard identities.contains(where: { $0.identifier == identifier }) else { return .notLinked }
        let password = record["password"]
        let hasPassword = password != nil && password != .null
        return identities.count <= 1 && !hasPassword ? .lastIdentity : .allowed
    }

    /// The signed-in user's identities (an empty list when signed out is not an answer: that is an error).
    public func linkedProfiles() throws(JumpError) -> [LinkedIdentity] {
        let record = try state.withLock { s throws(JumpError) in try requireSession(s).record.current }
        return LinkedIdentity.all(in: record)
    }

    func linkedIdentities() -> [LinkedIdentity] {
        state.withLock { s in s.session.map { LinkedIdentity.all(in: $0.record.current) } ?? [] }
    }

    /// The identities the server says the account has (the record as last synced or fetched, not local
    /// edits): what a sharing token must belong to.
    func confirmedIdentifiers() -> Set<String> {
        state.withLock { s in Set(s.session.map { LinkedIdentity.all(in: $0.record.baseline).map(\.identifier) } ?? []) }
    }

    /// The change happened on the server; a failed fetch only delays the local copy, so it is not an error.
    private func refetchAfterAccountChange(cancellation: Cancellation?) {
        do throws(JumpError) {
            try fetchRecord(cancellation: cancellation)
        } catch {
            Log.warning("the account changed, but the record could not be fetched again: \(error.message)")
        }
    }
}

/// One element of the record's profiles plural, as apps show it (docs/protocol.md §6.7).
/// A social identity linked to the account, read from the record's profiles.
public struct LinkedIdentity: Sendable, Equatable {
    public let identifier: String
    public let domain: String?
    public let provider: String?
    public let displayName: String?
    public let email: String?
    /// The profiles element it is ("/profiles#12").
    public let path: String?

    static func all(in record: JSON) -> [LinkedIdentity] {
        (record["profiles"]?.arrayValue ?? []).compactMap { element in
            guard let identifier = element["identifier"]?.stringValue else { return nil }
            let profile = element["profile"] ?? .null
            let domain = element["domain"]?.stringValue
            let provider = domain.flatMap { $0.split(separator: ".").first.map(String.init) }
                ?? profile["providerName"]?.stringValue?.lowercased()
            let email = profile["verifiedEmail"]?.stringValue ?? profile["email"]?.stringValue ?? element["verifiedEmail"]?.stringValue
            return LinkedIdentity(identifier: identifier, domain: domain, provider: provider,
                                  displayName: profile["displayName"]?.stringValue, email: email,
                                  path: element["id"]?.intValue.map { "/profiles#\($0)" })
        }
    }
}
