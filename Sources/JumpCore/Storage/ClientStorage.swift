import Glibc
import JumpRuntime

/// Where a client's secrets are kept: what jump_client_state reports as "secret_store".
public enum SecretPlacement: String, Sendable {
    /// The Secret Service holds the secret entries; the rest are files in storageDirectory.
    case secretService = "secret-service"
    /// Everything in files of storageDirectory (mode 0600).
    case file
    /// The host's storage callbacks hold every entry.
    case host
    /// storageDirectory ":memory:": nothing outlives the client.
    case memory
}

/// Where a client's entries live: the host's storage (keychain, keystore), files in storageDirectory with the
/// secret ones in the Secret Service, or memory. Each session asks it for the entries it owns.
struct ClientStorage: Sendable {
    /// The store of one entry, by name.
    let entry: @Sendable (String) -> any SessionStore
    /// Whether caches (flow, schema, Engage configuration) are kept: not in memory, where they would only
    /// mirror this run.
    let keepsCaches: Bool
    let placement: SecretPlacement
    /// Set when the secret entries (and the Capture session's secrets) go to the Secret Service.
    let secrets: SecretService?
    /// Why the Secret Service is not used ("auto" found none, or "file"): said when a saved session needs it.
    let secretServiceProblem: String?

    init(settings: StorageSettings, host: (@Sendable (String) -> any SessionStore)?) throws(JumpError) {
        if let host {
            entry = host
            keepsCaches = true
            secrets = nil
            secretServiceProblem = "host storage is used"
            placement = .host
        } else if let directory = settings.directory {
            try FileSessionStore.openDirectory(directory)
            entry = { FileSessionStore(directory: directory, fileName: $0) }
            keepsCaches = true
            (secrets, secretServiceProblem) = try ClientStorage.secretService(settings.secretStore, directory: directory)
            placement = secrets == nil ? .file : .secretService
        } else {
            let memory = MemoryStores()
            entry = { memory.store($0) }
            keepsCaches = false
            secrets = nil
            secretServiceProblem = "storageDirectory is \":memory:\""
            placement = .memory
        }
    }

    func cache(_ name: String) -> (any SessionStore)? { keepsCaches ? entry(name) : nil }

    /// The store of an entry that is a secret as a whole: in the Secret Service when it is used.
    func secretEntry(_ name: String) -> any SessionStore {
        if let secrets { return SecretEntryStore(service: secrets, name: name, file: entry(name)) }
        guard placement == .file, let secretServiceProblem else { return entry(name) }
        return MarkedEntryStore(file: entry(name), name: name, problem: secretServiceProblem)
    }

    /// The Secret Service for `mode` (the secretStore key), or nil for files and why. "auto" without one says so
    /// once per process; "secret-service" without one is JUMP_E_STORAGE with the reason and the fix.
    private static func secretService(_ mode: String, directory: String) throws(JumpError) -> (SecretService?, String?) {
        guard mode != SecretPlacement.file.rawValue else { return (nil, "secretStore is \"file\"") }
        if let reason = SecretService.unavailableReason() {
            guard mode == SecretPlacement.secretService.rawValue else {
                let first = fileFallbackWarned.withLock { warned -> Bool in
                    defer { warned = true }
                    return !warned
                }
                if first { Log.warning("secrets are kept in files of the storage directory (mode 0600): \(reason)") }
                return (nil, reason)
            }
            throw JumpError(.storage, "secretStore is \"secret-service\" but \(reason)",
                            detail: ["reason": "secret_service_unavailable", "secret_store": "secret-service"])
        }
        return (SecretService(scope: absolutePath(directory)), nil)
    }

    /// "auto" falling back to files is logged once per process, not once per client.
    private static let fileFallbackWarned = ForkSafety.processWide(Lock<Bool>(false))

    private static func absolutePath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else { return path }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
