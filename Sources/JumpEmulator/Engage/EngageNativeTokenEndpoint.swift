/// `POST /signin/oauth_token?providername=<p>` (docs/protocol.md §4.6): a provider SDK's access token for an
/// Engage token. The emulator's "provider token" is a JSON object describing the person
/// (`{"identifier"?,"display_name"?|"displayName"?,"email"?,"verified_email"?,"given_name"?,"family_name"?}`);
/// an identifier the provider already has reuses that identity's profile (given fields win).
/// The Engage app is `applicationId` (or `appId`) when given, else the default one: the SDKs send none.
struct EngageNativeTokenEndpoint: Sendable {
    let emulator: Emulator

    func handle(_ params: FormParams) async throws -> JSONValue {
        do {
            return try await exchange(params)
        } catch let failure as EngageFailure {
            return failure.json
        }
    }

    private func exchange(_ params: FormParams) async throws -> JSONValue {
        let appId = params.nonEmpty("applicationId") ?? params.nonEmpty("appId") ?? EngageApp.defaultId
        let provider = params.nonEmpty("providername") ?? params.nonEmpty("provider") ?? ""
        let tokenSecret = params.nonEmpty("token_secret")
        let tokenText = params["token"] ?? ""
        let now = emulator.clock.now().timeIntervalSince1970
        let token = try await emulator.store.write { db -> EngageTokenRow in
            guard let app = try EngageApp.find(appId, in: db) else { throw EngageFailure.unknownApplication }
            guard app.providers.contains(provider) || app.customProviderInfo[provider] != nil else {
                throw EngageFailure.invalid("providername")
            }
            // Twitter is OAuth1: its access token is useless without the secret.
            if provider == "twitter", tokenSecret == nil {
                throw EngageFailure(code: 1, msg: "Missing parameter: token_secret")
            }
            guard let object = JSONParser.parse(tokenText)?.objectValue else { throw EngageFailure.invalid("token") }
            let given = try Self.fields(object)
            let identifier = given.identifier
                ?? "https://\(provider).example/\(given.profile.email ?? EngageTokens.randomAlphanumeric(count: 12))"
            let providerName = app.friendlyName(of: provider)
            let profile: [String: JSONValue]
            if let identity = try EngageIdentities.find(provider: provider, identifier: identifier, in: db) {
                let merged = given.profile.over(EngageProfile(object: identity.profile))
                profile = merged.object(identifier: identifier, providerName: providerName)
            } else {
                let draft = EngageIdentities.Draft(
                    provider: provider, engageAppId: app.id, identifier: identifier, profile: given.profile,
                    providerName: providerName, samlProvider: nil)
                profile = try EngageIdentities.create(draft, now: now, in: db).profile
            }
            return try EngageTokens.issue(
                app: app, provider: provider, identifier: identifier, profile: profile, withDeviceToken: false,
                now: now, in: db)
        }
        return ["stat": "ok", "token": .string(token.token)]
    }

    private struct Given {
        var identifier: String?
        var profile: EngageProfile
    }

    /// The members of the provider token; a member of the wrong type makes the whole token invalid.
    private static func fields(_ object: [String: JSONValue]) throws(EngageFailure) -> Given {
        func text(_ names: String...) throws(EngageFailure) -> String? {
            for name in names {
                guard let value = object[name], !value.isNull else { continue }
                guard let string = value.stringValue, string.utf8.count <= 1000 else {
                    throw EngageFailure.invalid("token")
                }
                return string.isEmpty ? nil : string
            }
            return nil
        }
        var verified = true
        if let value = object["verified_email"] ?? object["verifiedEmail"], !value.isNull {
            guard let flag = value.boolValue else { throw EngageFailure.invalid("token") }
            verified = flag
        }
        let profile = EngageProfile(
            displayName: try text("display_name", "displayName"), email: try text("email"), verifiedEmail: verified,
            givenName: try text("given_name", "givenName"), familyName: try text("family_name", "familyName"))
        return Given(identifier: try text("identifier"), profile: profile)
    }
}

extension EngageProfile {
    /// These fields where set, `base`'s elsewhere. `verifiedEmail` follows the email it goes with.
    func over(_ base: EngageProfile) -> EngageProfile {
        var merged = base
        if let displayName { merged.displayName = displayName }
        if let email {
            merged.email = email
            merged.verifiedEmail = verifiedEmail
        }
        if let givenName { merged.givenName = givenName }
        if let familyName { merged.familyName = familyName }
        if let preferredUsername { merged.preferredUsername = preferredUsername }
        if let photo { merged.photo = photo }
        if let url { merged.url = url }
        return merged
    }
}
