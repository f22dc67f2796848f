/// Where a client's entries live: the host's storage (keychain, keystore), files in storageDirectory, or
/// memory. Each session asks it for the entries it owns.
struct ClientStorage: Sendable {
    /// The store of one entry, by name.
    let entry: @Sendable (String) -> any SessionStore
    /// Whether caches (flow, schema, Engage configuration) are kept: not in memory, where they would only
    /// mirror this run.
    let keepsCaches: Bool

    init(settings: CaptureSettings, host: (@Sendable (String) -> any SessionStore)?) throws(JumpError) {
        if let host {
            entry = host
            keepsCaches = true
        } else if let directory = settings.storageDirectory {
            try FileSessionStore.openDirectory(directory)
            entry = { FileSessionStore(directory: directory, fileName: $0) }
            keepsCaches = true
        } else {
            let memory = MemoryStores()
            entry = { memory.store($0) }
            keepsCaches = false
        }
    }

    func cache(_ name: String) -> (any SessionStore)? { keepsCaches ? entry(name) : nil }
}
