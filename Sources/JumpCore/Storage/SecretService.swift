import CSecretService
import Glibc

/// The operating system's secret store on Linux: the Secret Service (gnome-keyring, KWallet, KeePassXC) through
/// libsecret, loaded at run time (Sources/CSecretService). Items are named by scope (the storage directory)
/// and entry (the entry's name there). Every call blocks on D-Bus, so it is made where storage I/O is made:
/// on the calling thread of a synchronous call, or on a libjump thread of an asynchronous one. A failure is
/// JUMP_E_STORAGE with the reason and the fix; never "nothing saved".
struct SecretService: Sendable {
    /// The storage directory, made absolute: two directories never read each other's items.
    let scope: String

    /// How long "auto" waits for the service before it keeps secrets in files.
    static let probeTimeoutMs: Int32 = 2_000

    /// The reason the Secret Service cannot be used now, or nil when it can (it answered within
    /// probeTimeoutMs and its default collection is unlocked).
    static func unavailableReason() -> String? {
        var reason: UnsafeMutablePointer<CChar>?
        if jump_secret_available(probeTimeoutMs, &reason) == 1 { return nil }
        defer { free(reason) }
        return reason.map { String(cString: $0) } ?? "the Secret Service cannot be used"
    }

    func store(_ entry: String, _ secret: String, label: String) throws(JumpError) {
        var error: UnsafeMutablePointer<CChar>?
        guard jump_secret_store(scope, entry, label, secret, &error) == 0 else { throw failure(error, entry) }
    }

    /// The item's text; nil when there is no such item.
    func lookup(_ entry: String) throws(JumpError) -> String? {
        var secret: UnsafeMutablePointer<CChar>?
        var error: UnsafeMutablePointer<CChar>?
        switch jump_secret_lookup(scope, entry, &secret, &error) {
        case 1:
            defer { jump_secret_free(secret) }
            return secret.map { String(cString: $0) }
        case 0: return nil
        default: throw failure(error, entry)
        }
    }

    func clear(_ entry: String) throws(JumpError) {
        var error: UnsafeMutablePointer<CChar>?
        guard jump_secret_clear(scope, entry, &error) == 0 else { throw failure(error, entry) }
    }

    private func failure(_ error: UnsafeMutablePointer<CChar>?, _ entry: String) -> JumpError {
        defer { free(error) }
        let reason = error.map { String(cString: $0) } ?? "the Secret Service failed"
        return JumpError(.storage, "\(reason) (entry \(entry))",
                         detail: ["reason": "secret_service", "secret_store": "secret-service", "entry": .string(entry)])
    }
}

/// An entry that is a secret as a whole (sign-in-token credentials, sharing device tokens), kept in the Secret
/// Service as text. A file of the same name left by an earlier version (or by secretStore "file") is read
/// when the item is absent and removed at the next save: that is its migration.
struct SecretEntryStore: SessionStore {
    let service: SecretService
    let name: String
    /// The same entry as a file, read only for migration and removed with every save and erase.
    let legacyFile: any SessionStore

    func load() throws(JumpError) -> [UInt8]? {
        if let text = try service.lookup(name) { return Array(text.utf8) }
        return try legacyFile.load()
    }

    func save(_ bytes: [UInt8]) throws(JumpError) {
        guard !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) else {
            throw JumpError(.storage, "the entry \(name) is not text, so the Secret Service cannot keep it")
        }
        try service.store(name, text, label: "libjump \(name)")
        try legacyFile.erase()
    }

    func erase() throws(JumpError) {
        try service.clear(name)
        try legacyFile.erase()
    }
}
