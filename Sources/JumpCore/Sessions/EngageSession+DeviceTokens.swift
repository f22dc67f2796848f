/// The device tokens of browser sign-ins, by provider: they let the app share as the user.
extension EngageSession {
    /// Kept per provider with the session's other secrets, for sharing later (also after a restart).
    func rememberDeviceToken(provider: String, deviceToken: String, identifier: String?) {
        state.withLock { s in
            let saved = s.deviceTokens ?? loadDeviceTokens()
            var tokens = saved ?? [:]
            tokens[provider] = ["device_token": .string(deviceToken), "identifier": .optional(identifier)]
            s.deviceTokens = tokens
            // Saved tokens that cannot be read (a locked keyring) are not written over with this one alone.
            guard saved != nil else {
                Log.warning("the sharing token is kept in memory only: the saved sharing tokens cannot be read")
                return
            }
            do throws(JumpError) {
                try socialStore.save(Jansson.serializedBytes(["version": 1, "providers": .object(tokens)]))
            } catch {
                Log.warning("the sharing token could not be saved: \(error.message)")
            }
        }
    }

    /// The provider's sharing token, when it belongs to the signed-in user: with Capture, the identity it
    /// was issued for must be one of `identities` (the profiles of the user's record), so a token left by
    /// another user, after a switch or a sign-out cut short, is never used for this one.
    func deviceToken(for provider: String, identities: Set<String>?) -> String? {
        state.withLock { s in
            if s.deviceTokens == nil { s.deviceTokens = loadDeviceTokens() }
            guard let saved = s.deviceTokens?[provider], let token = saved["device_token"]?.stringValue else { return nil }
            guard let identities else { return token }
            guard let identifier = saved["identifier"]?.stringValue, identities.contains(identifier) else { return nil }
            return token
        }
    }

    /// The saved tokens; nil when they cannot be read (an unreadable store is not an empty one).
    private func loadDeviceTokens() -> [String: JSON]? {
        let bytes: [UInt8]?
        do throws(JumpError) { bytes = try socialStore.load() } catch { return nil }
        guard let bytes else { return [:] }
        guard let saved = try? Jansson.parse(bytes, what: "the saved sharing tokens") else { return nil }
        return saved["providers"]?.objectValue ?? [:]
    }

    /// Forgets the pending sign-ins and the sharing tokens (sign-out).
    func signOut() throws(JumpError) {
        state.withLock { s in
            s.pendingSignIns = [:]
            s.deviceTokens = nil
        }
        try socialStore.erase()
    }
}
