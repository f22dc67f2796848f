import Foundation

/// `POST /emulator/merge_conflict`: the accounts a merge-flow test needs (docs/protocol.md §11.2) in
/// one call: an existing account with `email` (a password account, or a social one with an identity
/// of `existing_provider`), and a second identity of `provider` with the same email that is on no
/// account, so that signing in with it answers 380.
///
/// The identities come with `token`: the JSON text the emulator's `/signin/oauth_token` takes as a
/// provider token, so a test can obtain Engage tokens for them without the fake provider pages.
struct AdminSocial: Sendable {
    let emulator: Emulator

    static let defaultPassword = "Passw0rd!"

    /// One made-up identity and its Engage profile object.
    struct Identity: Sendable {
        var provider: String
        var identifier: String
        var profile: SocialProfile
        var providerToken: JSONValue

        var json: JSONValue {
            ["provider": .string(provider), "identifier": .string(identifier), "token": .string(providerToken.serialized())]
        }
    }

    func mergeConflict(_ request: AdminRequest) async throws -> JSONValue {
        let clientId = try request.string("client_id") ?? DefaultApp.clientId
        guard let app = try await emulator.apps.app(clientId: clientId) else {
            throw AdminError.notFound("no app with client_id \(clientId)")
        }
        let email = try request.requiredString("email")
        guard FormValidator.looksLikeEmail(email) else { throw AdminError.badRequest("email must be an email address") }
        let existingProvider = try request.string("existing_provider") ?? "capture"
        let provider = try request.requiredString("provider")
        for (name, value) in [("existing_provider", existingProvider), ("provider", provider)] {
            guard Self.isProviderName(value) else {
                throw AdminError.badRequest("\(name) must be a provider name (letters, digits, _ or -)")
            }
        }
        guard provider != "capture" else { throw AdminError.badRequest("provider must be a social provider, not capture") }
        let displayName = try request.string("display_name") ?? Self.displayName(from: email)

        let password: String?
        let existing: Identity?
        if existingProvider == "capture" {
            password = try request.string("password") ?? Self.defaultPassword
            existing = nil
        } else {
            password = nil
            existing = Self.identity(provider: existingProvider, email: email, displayName: displayName)
        }
        let conflicting = Self.identity(provider: provider, email: email, displayName: displayName)
        let passwordHash: String? = if let password { await emulator.passwords.hash(password) } else { nil }

        let now = emulator.clock.now()
        var fitted = (existing?.profile ?? conflicting.profile).attributes(fitting: app.schema)
        fitted["email"] = .string(email)
        let attributes = fitted
        let written: SocialAccounts.Written
        do {
            written = try await emulator.store.write { db in
                if try UserRow.find(email: email, clientId: app.clientId, in: db) != nil {
                    throw AdminError.conflict("email_taken", "a user of \(app.clientId) already has the email \(email)")
                }
                return try SocialAccounts.create(
                    attributes: attributes, identity: existing?.profile, passwordHash: passwordHash, app: app, now: now,
                    mail: nil, in: db)
            }
        } catch let error as CaptureError {
            throw AdminError.invalidRecord(error)
        }
        emulator.records.remember(written.user, attributes: written.attributes)
        return [
            "user": ["uuid": .string(written.user.uuid), "email": .string(email)],
            "password": password.map(JSONValue.string) ?? .null,
            "existing_identity": existing?.json ?? .null,
            "conflicting_identity": conflicting.json,
        ]
    }

    /// An identity of `provider` with a fresh identifier and a verified `email`.
    static func identity(provider: String, email: String, displayName: String) -> Identity {
        let identifier = "https://\(provider).example/merge-\(Tokens.randomURLSafe(byteCount: 9))"
        let words = displayName.split(separator: " ", maxSplits: 1).map(String.init)
        var name: [String: JSONValue] = ["formatted": .string(displayName)]
        var token: [String: JSONValue] = [
            "identifier": .string(identifier), "display_name": .string(displayName), "email": .string(email),
            "verified_email": true,
        ]
        if words.count == 2 {
            name["givenName"] = .string(words[0])
            name["familyName"] = .string(words[1])
            token["given_name"] = .string(words[0])
            token["family_name"] = .string(words[1])
        }
        let profile: [String: JSONValue] = [
            "identifier": .string(identifier), "providerName": .string(EngageProviderCatalog.friendlyName(provider)),
            "displayName": .string(displayName), "preferredUsername": .string(displayName), "email": .string(email),
            "verifiedEmail": .string(email), "name": .object(name),
        ]
        return Identity(
            provider: provider, identifier: identifier,
            profile: SocialProfile(provider: provider, identifier: identifier, profile: profile),
            providerToken: .object(token))
    }

    /// "ada.lovelace@example.com" → "Ada Lovelace".
    static func displayName(from email: String) -> String {
        let local = email.split(separator: "@").first.map(String.init) ?? email
        let words = local.split(whereSeparator: { $0 == "." || $0 == "_" || $0 == "-" || $0 == "+" })
        let name = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
        return name.isEmpty ? local : name
    }

    static func isProviderName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64
            && name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "_" || $0 == "-" }
    }
}
