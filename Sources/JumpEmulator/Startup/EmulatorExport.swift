import Foundation
import GRDB

/// `--import` and `--export-on-exit`: moving an emulator's set-up state through one JSON file (see
/// `ExportDocument`).
extension Emulator {
    /// Writes the export file (a directory gets `jump-emulator-export.json` inside it); returns the
    /// path written. The CLI calls it once the server has stopped, so no request changes the state
    /// half-way.
    @discardableResult
    public func export(to path: String) async throws -> String {
        let file = ExportDocument.resolve(path)
        let document: ExportDocument
        do {
            document = try await exportDocument()
        } catch {
            throw StartupError.exporting(path: file, StartupError.reason(error))
        }
        try document.save(path: file)
        return file
    }

    /// The state as an export, read in one transaction (a request running meanwhile is in it whole or
    /// not at all). `export(to:)` and `POST /emulator/export` both take it from here.
    func exportDocument() async throws -> ExportDocument {
        try await store.read { db in try ExportDocument.read(from: db) }
    }

    /// Loads an export into a freshly opened store, before the settings are read and anything is
    /// served. A database that already has users is refused: merging two sets of users would clash
    /// on ids and emails, and silently dropping either is worse.
    static func importExport(from path: String, into store: Store, databasePath: String) async throws {
        let file = ExportDocument.resolve(path)
        let document = try ExportDocument.load(path: file)
        do {
            try await store.write { db in
                let users = try UserRow.fetchCount(db)
                guard users == 0 else {
                    throw StartupError.importing(
                        path: file,
                        "the database \(databasePath) already has \(users) user\(users == 1 ? "" : "s") "
                            + "(import into a new --db file or :memory:)")
                }
                try document.write(into: db)
            }
        } catch let error as StartupError {
            throw error
        } catch {
            throw StartupError.importing(path: file, StartupError.reason(error))
        }
    }
}
