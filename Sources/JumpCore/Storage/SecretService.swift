import CSecretService
import Glibc
import JumpRuntime

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
        if FiberPool.blocking({ jumpi_secret_available(probeTimeoutMs, &reason) }) == 1 { return nil }
        defer { free(reason) }
        return reason.map { String(cString: $0) } ?? "the Secret Service cannot be used"
    }

    func store(_ entry: String, _ secret: String, label: String) throws(JumpError) {
        var error: UnsafeMutablePointer<CChar>?
        guard FiberPool.blocking({ jumpi_secret_store(scope, entry, label, secret, &error) }) == 0 else { throw failure(error, entry) }
    }

    /// The item's text; nil when there is no such item.
    func lookup(_ entry: String) throws(JumpError) -> String? {
        var secret: UnsafeMutablePointer<CChar>?
        var error: UnsafeMutablePointer<CChar>?
        switch FiberPool.blocking({ jumpi_secret_lookup(scope, entry, &secret, &error) }) {
        case 1:
            defer { jumpi_secret_free(secret) }
            return secret.map { String(cString: $0) }
        case 0: return nil
        default: throw failure(error, entry)
        }
    }

    func clear(_ entry: String) throws(JumpError) {
        var error: UnsafeMutablePointer<CChar>?
        guard FiberPool.blocking({ jumpi_secret_clear(scope, entry, &error) }) == 0 else { throw failure(error, entry) }
    }

    private func failure(_ error: UnsafeMutablePointer<CChar>?, _ entry: String) -> JumpError {
        defer { free(error) }
        let reason = error.map { String(cString: $0) } ?? "the Secret Service failed"
        return JumpError(.storage, "\(reason) (entry \(entry))",
                         detail: ["reason": "secret_service", "secret_store": "secret-service", "entry": .string(entry)])
    }
}

/// An entry that is a secret as a whole (sign-in-token credentials, sharing device tokens), kept in the Secret
/// Service as text. Its file holds only a marker saying so, so that a client that cannot reach the keyring
/// (secretStore "file", or "auto" that found none) refuses the entry (MarkedEntryStore) rather than taking it
/// for "nothing saved". A file of the same name with content, left by an earlier version or by secretStore
/// "file", is what load returns until the next save moves it to the keyring: that is its migration.
struct SecretEntryStore: SessionStore {
    let service: SecretService
    let name: String
    /// The entry's file: the marker, or content not yet migrated.
    let file: any SessionStore

    /// The file's content when the entry is in the keyring.
    static let marker = Array(#"{"secrets_in":"secret-service"}"#.utf8)

    func load() throws(JumpError) -> [UInt8]? {
        if let bytes = try file.load(), bytes != SecretEntryStore.marker { return bytes }
        return try service.lookup(name).map { Array($0.utf8) }
    }

    func save(_ bytes: [UInt8]) throws(JumpError) {
        guard !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) else {
            throw JumpError(.storage, "the entry \(name) is not text, so the Secret Service cannot keep it")
        }
        try service.store(name, text, label: "libjump \(name)")
        try file.save(SecretEntryStore.marker)
    }

    /// The file first: with the marker gone, an item left by a failure below is never read again.
    func erase() throws(JumpError) {
        try file.erase()
        try service.clear(name)
    }
}

/// A whole-secret entry's file for a client that does not use the Secret Service: an entry kept there
/// (SecretEntryStore's marker) is JUMP_E_STORAGE with the reason, never "nothing saved", and is not written
/// over with a file copy of a secret (never a silent downgrade). Erase is allowed: it is how sign-out discards it.
struct MarkedEntryStore: SessionStore {
    let file: any SessionStore
    let name: String
    /// Why the Secret Service is not used by this client.
    let problem: String

    func load() throws(JumpError) -> [UInt8]? {
        let bytes = try file.load()
        if bytes == SecretEntryStore.marker { throw unavailable() }
        return bytes
    }

    func save(_ bytes: [UInt8]) throws(JumpError) {
        if try file.load() == SecretEntryStore.marker { throw unavailable() }
        try file.save(bytes)
    }

    func erase() throws(JumpError) { try file.erase() }

    private func unavailable() -> JumpError {
        JumpError(.storage, "the entry \(name) is kept in the Secret Service, which this client cannot use (\(problem)): "
                  + "make it available and create the client again, or sign out to discard it",
                  detail: ["reason": "secret_service_unavailable", "secret_store": "secret-service", "entry": .string(name)])
    }
}
