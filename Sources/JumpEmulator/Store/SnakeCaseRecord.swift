import GRDB

/// A record whose columns are the snake_case spelling of its properties (`clientId` is stored in
/// `client_id`), so it needs no `CodingKeys` to map them.
///
/// A property must come back from its column under the same name: `flow_json` reads as `flowJson`,
/// never `flowJSON`, so acronyms are spelled as words (`longUrl`, `activityJson`). A row whose
/// `Codable` also writes JSON (the export file, see `ExportDocument`) keeps its `CodingKeys`: they
/// name the file's keys too.
protocol SnakeCaseRecord: FetchableRecord, EncodableRecord {}

extension SnakeCaseRecord {
    // Both are requirements of GRDB's protocols (with `useDefaultKeys` defaults in GRDB's own
    // extensions), so these, being more specific, are what a conforming type uses.
    static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .convertFromSnakeCase }
    static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .convertToSnakeCase }
}
