/// A document kept on storage as a cache of what a server sent (the flow, the record schema, the Engage
/// configuration): read back to decode when the server cannot be reached, written after each download.
/// A cache is never worth an error: a copy that cannot be read or decoded is no copy, and a failed write is
/// one warning line. In memory-only clients there is no store, and so no cache.
struct DocumentCache: Sendable {
    let store: (any SessionStore)?
    /// What it holds, for messages ("the cached flow").
    let what: String

    init(_ storage: ClientStorage, name: String, what: String) {
        store = storage.cache(name)
        self.what = what
    }

    /// The cached document decoded, or nil (none, unreadable, or not what `decode` accepts).
    func load<T>(_ decode: (JSON) throws(JumpError) -> T) -> T? {
        guard let bytes = try? store?.load(), let document = try? Jansson.parse(bytes, what: "the cached \(what)") else {
            return nil
        }
        return try? decode(document)
    }

    func save(_ bytes: [UInt8]) {
        do throws(JumpError) { try store?.save(bytes) } catch {
            Log.warning("the \(what) could not be cached: \(error.message)")
        }
    }
}
