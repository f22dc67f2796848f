import GRDB

/// The URL shortener behind `/openid/get_urls`: `<base>/s/<n>` redirects to the long URL.
struct EngageShortURLRow: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord, SnakeCaseRecord {
    static let databaseTableName = "short_urls"

    var id: Int64?
    var longUrl: String
    var created: Double

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

enum EngageShortURLs {
    static let kinds = ["activity", "email", "sms"]

    /// The number of `longURL`, the same one each time it is shortened.
    static func number(of longURL: String, now: Double, in db: Database) throws -> Int64? {
        if let row = try EngageShortURLRow.filter(Column("long_url") == longURL).fetchOne(db) { return row.id }
        var row = EngageShortURLRow(id: nil, longUrl: longURL, created: now)
        try row.insert(db)
        return row.id
    }

    static func find(_ number: Int64, in db: Database) throws -> EngageShortURLRow? {
        try EngageShortURLRow.fetchOne(db, key: number)
    }

    /// `{"activity":[url..],"email":[..],"sms":[..]}` -> `{"activity":{long:short},...}`, every kind present.
    /// Only http(s) URLs are shortened (the redirect must be one); anything else maps to itself.
    static func shorten(_ request: [String: JSONValue], base: String, now: Double, in db: Database) throws -> JSONValue {
        var answer: [String: JSONValue] = [:]
        for kind in kinds {
            var map: [String: JSONValue] = [:]
            for long in request[kind]?.arrayValue?.compactMap(\.stringValue) ?? [] {
                if EngageURLs.isRedirectable(long), let number = try number(of: long, now: now, in: db) {
                    map[long] = .string("\(base)/s/\(number)")
                } else {
                    map[long] = .string(long)
                }
            }
            answer[kind] = .object(map)
        }
        return .object(answer)
    }
}
