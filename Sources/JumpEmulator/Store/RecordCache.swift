import Foundation

/// Parsed copies of large stored records, so reading or editing a record of 100 000 plural elements
/// does not parse its JSON text again on every request.
///
/// An entry is only used when the stored text is byte for byte the text it was parsed from, so a
/// stale entry (another writer, a rolled-back transaction, a reset) can never be served. Small
/// records are not kept: parsing them costs less than the memory.
final class RecordCache: Sendable {
    /// Records shorter than this are parsed each time.
    static let minimumSize = 64 << 10
    /// Entries kept at most; beyond it an arbitrary one goes. A parsed record of 100 000 elements
    /// takes about 50 MB, and tests hold one or two such users.
    static let capacity = 4

    private struct Entry {
        var text: String
        var attributes: [String: JSONValue]
    }

    private let entries = Locked<[Int64: Entry]>([:])

    /// The attributes of a stored user row.
    func attributes(of user: UserRow) -> [String: JSONValue] {
        guard let id = user.id, user.record.utf8.count >= Self.minimumSize else { return user.attributes }
        if let entry = entries.withLock({ $0[id] }), Self.sameBytes(entry.text, user.record) {
            return entry.attributes
        }
        let attributes = user.attributes
        remember(id: id, text: user.record, attributes: attributes)
        return attributes
    }

    /// Keeps what a write just stored (the caller has both the text and the parsed attributes).
    func remember(_ user: UserRow, attributes: [String: JSONValue]) {
        guard let id = user.id, user.record.utf8.count >= Self.minimumSize else { return }
        remember(id: id, text: user.record, attributes: attributes)
    }

    func clear() {
        entries.withLock { $0.removeAll() }
    }

    private func remember(id: Int64, text: String, attributes: [String: JSONValue]) {
        entries.withLock { entries in
            if entries[id] == nil, entries.count >= Self.capacity, let victim = entries.keys.first {
                entries.removeValue(forKey: victim)
            }
            entries[id] = Entry(text: text, attributes: attributes)
        }
    }

    /// A byte comparison (memcmp): `==` on `String` compares canonical equivalence, which is far
    /// slower for non-ASCII text.
    private static func sameBytes(_ lhs: String, _ rhs: String) -> Bool {
        guard lhs.utf8.count == rhs.utf8.count else { return false }
        var lhs = lhs
        var rhs = rhs
        return lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                guard let a = left.baseAddress, let b = right.baseAddress else { return left.count == right.count }
                return memcmp(a, b, left.count) == 0
            }
        }
    }
}
