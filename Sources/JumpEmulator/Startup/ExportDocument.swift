import Foundation
import GRDB

/// What `--export-on-exit` writes and `--import` reads: the state a developer sets up by hand and
/// wants back next time (apps, users, social identities, Engage apps and test identities, settings),
/// as the stored rows. Sessions, codes, emails and the sign-in-token API's users are left out: they
/// are short-lived, and a restored token would outlive the clock that issued it.
struct ExportDocument: Codable, Sendable {
    static let formatName = "jump-emulator-export"
    static let currentVersion = 1
    /// The file used when the given path is a directory.
    static let defaultFileName = "jump-emulator-export.json"

    var format = ExportDocument.formatName
    var version = ExportDocument.currentVersion
    /// Informational: the emulator that wrote the file.
    var emulatorVersion: String? = EmulatorOptions.version
    var apps: [AppRow]
    var accessSchemas: [AccessSchemaRow]
    var users: [UserRow]
    var userIdentities: [UserIdentityRow]
    var engageApps: [EngageAppRow]
    var engageIdentities: [EngageIdentityRow]
    /// The `settings` table as is (token lifetimes, grace windows, clock offset), text values.
    var settings: [String: String]

    enum CodingKeys: String, CodingKey {
        case format, version
        case emulatorVersion = "emulator_version"
        case apps
        case accessSchemas = "access_schemas"
        case users
        case userIdentities = "user_identities"
        case engageApps = "engage_apps"
        case engageIdentities = "engage_identities"
        case settings
    }

    static func read(from db: Database) throws -> ExportDocument {
        let settings = try Row.fetchAll(db, sql: "SELECT key, value FROM settings ORDER BY key")
        return ExportDocument(
            apps: try AppRow.order(Column("client_id")).fetchAll(db),
            accessSchemas: try AccessSchemaRow.order(Column("client_id"), Column("access_type")).fetchAll(db),
            users: try UserRow.all(clientId: nil, in: db),
            userIdentities: try UserIdentityRow.order(Column("user_id"), Column("identifier")).fetchAll(db),
            engageApps: try EngageAppRow.order(Column("engage_app_id")).fetchAll(db),
            engageIdentities: try EngageIdentityRow.order(Column("id")).fetchAll(db),
            settings: Dictionary(settings.map { ($0["key"], $0["value"]) }, uniquingKeysWith: { _, last in last }))
    }

    /// Replaces the apps, Engage apps and identities and settings of a database without users by the
    /// document's, keeping row ids so identities still point at their users. One transaction: a
    /// failure leaves the database as it was.
    func write(into db: Database) throws {
        try db.execute(sql: """
            DELETE FROM apps;
            DELETE FROM engage_apps;
            DELETE FROM engage_identities;
            DELETE FROM settings;
            """)
        for app in apps { try app.insert(db) }
        for schema in accessSchemas { try schema.insert(db) }
        for user in users {
            var user = user
            try user.insert(db)
        }
        for identity in userIdentities { try identity.insert(db) }
        for app in engageApps { try app.insert(db) }
        for identity in engageIdentities {
            var identity = identity
            try identity.insert(db)
        }
        for (key, value) in settings {
            try db.execute(sql: "INSERT INTO settings (key, value) VALUES (?, ?)", arguments: [key, value])
        }
    }

    /// A directory stands for the default file inside it.
    static func resolve(_ path: String) -> String {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return path
        }
        return URL(fileURLWithPath: path).appendingPathComponent(defaultFileName).path
    }

    static func load(path: String) throws -> ExportDocument {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw StartupError.importing(path: path, StartupError.reason(error))
        }
        // The format first, so a file of another kind is named as such rather than as a missing key.
        struct Header: Decodable { var format: String? }
        if let header = try? JSONDecoder().decode(Header.self, from: data), header.format != formatName {
            throw StartupError.importing(path: path, "not a jump-emulator export (no \"format\": \"\(formatName)\")")
        }
        let document: ExportDocument
        do {
            document = try JSONDecoder().decode(ExportDocument.self, from: data)
        } catch {
            throw StartupError.importing(path: path, "not a jump-emulator export (\(Self.decodingReason(error)))")
        }
        guard document.version <= currentVersion else {
            throw StartupError.importing(
                path: path, "export version \(document.version) is newer than this emulator reads (\(currentVersion))")
        }
        return document
    }

    func save(path: String) throws {
        do {
            try encoded().write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw StartupError.exporting(path: path, StartupError.reason(error))
        }
    }

    /// The file's bytes, whoever asks (`--export-on-exit`, `POST /emulator/export`): sorted keys, so the
    /// same state gives the same bytes and two exports compare with `diff`.
    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// The missing or mistyped key, rather than Foundation's whole coding path dump.
    private static func decodingReason(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "missing \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty: return "not JSON"
        case DecodingError.dataCorrupted(let context):
            return "bad value at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: return "\(error)"
        }
    }
}
