import GRDB

/// Finds values of unique attributes that another user of the same app already holds.
enum UniquenessCheck {
    /// The attribute paths (`/email`, `/profiles/identifier`) in conflict, in the order given.
    static func conflicts(
        _ values: [RecordConstraints.UniqueValue], clientId: String, excludingUserId: Int64?, schema: Schema,
        in db: Database
    ) throws -> [String] {
        var conflicts: [String] = []
        var others: Set<RecordConstraints.UniqueValue>?
        for value in values {
            let taken: Bool
            switch value.attributePath {
            case "/email":
                // Indexed, lowercased columns: the common case needs no scan.
                taken = try UserRow.find(email: value.value, clientId: clientId, in: db).map { $0.id != excludingUserId } ?? false
            case "/username":
                taken = try UserRow.find(username: value.value, clientId: clientId, in: db).map { $0.id != excludingUserId } ?? false
            default:
                if others == nil {
                    others = Set(try UserRow.all(clientId: clientId, in: db)
                        .filter { $0.id != excludingUserId }
                        .flatMap { RecordConstraints.uniqueValues($0.attributes, schema: schema) })
                }
                taken = others?.contains(value) ?? false
            }
            if taken && !conflicts.contains(value.attributePath) { conflicts.append(value.attributePath) }
        }
        return conflicts
    }
}
