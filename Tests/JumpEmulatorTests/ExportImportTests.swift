import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import JumpEmulator

/// `--import` / `--export-on-exit`: the set-up state survives a trip through the export file.
@Suite("import and export")
struct ExportImportTests {
    @Test func aRoundTripKeepsAppsUsersIdentitiesAndSettings() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        let first = try await Emulator.open(EmulatorOptions(passwordHashCost: 4))
        let before = try await Self.serve(first) { h in
            let (appStatus, _) = try await h.admin(.post, "/apps", [
                "client_id": "second-client", "capture_app_id": "second-app", "password_recover_url": "https://x.example/reset",
            ])
            #expect(appStatus == .created)
            let (userStatus, _) = try await h.admin(.post, "/users", [
                "client_id": .string(Harness.clientId), "email": "ada@example.com", "password": "correct horse",
                "record": ["displayName": "Ada"],
            ])
            #expect(userStatus == .created)
            let (socialStatus, _) = try await h.admin(.post, "/merge_conflict", [
                "email": "grace@example.com", "existing_provider": "google", "provider": "facebook",
            ])
            #expect(socialStatus == .created)
            _ = try await h.admin(.post, "/engage_apps", ["engage_app_id": "app-2", "providers": ["google"]])
            _ = try await h.admin(.post, "/identities", [
                "provider": "twitter", "identifier": "https://twitter.example/1", "profile": ["displayName": "Tester"],
            ])
            let (_, settings) = try await h.admin(.post, "/settings", [
                "access_token_lifetime": 120, "refresh_reuse_grace_seconds": 7, "capture_refresh_grace_seconds": 9,
                "engage_token_lifetime": 300,
            ])
            return settings
        }
        let exported = try await first.export(to: directory.path)
        #expect(exported == directory.appendingPathComponent("jump-emulator-export.json").path)

        let second = try await Emulator.open(EmulatorOptions(passwordHashCost: 4, importPath: directory.path))
        let old = try await first.store.read { db in try ExportDocument.read(from: db) }
        let new = try await second.store.read { db in try ExportDocument.read(from: db) }
        #expect(old.users.count == 2)
        #expect(!old.userIdentities.isEmpty)
        #expect(!old.engageIdentities.isEmpty)
        #expect(new.users == old.users)
        #expect(new.userIdentities == old.userIdentities)
        #expect(new.apps == old.apps)
        #expect(new.accessSchemas == old.accessSchemas)
        #expect(new.engageApps == old.engageApps)
        #expect(new.engageIdentities == old.engageIdentities)
        #expect(new.settings == old.settings)
        #expect(second.tokenLifetime == 120)

        try await Self.serve(second) { h in
            #expect(try await h.admin(.get, "/settings").1 == before)
            let signedIn = try await h.signIn(email: "ADA@example.com", password: "correct horse")
            #expect(signedIn["stat"] == "ok")
            #expect(signedIn["capture_user"]?["displayName"] == "Ada")
            #expect(signedIn["expires_in"] == 120)
            let wrong = try await h.signIn(email: "ada@example.com", password: "wrong")
            #expect(wrong["code"] == 210)
        }
    }

    /// `POST /emulator/export` answers what `--export-on-exit` would write at that moment, byte for byte.
    @Test func theExportEndpointAnswersTheExportFile() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let emulator = try await Emulator.open(EmulatorOptions(passwordHashCost: 4))
        let answer = try await Self.serve(emulator) { h in
            _ = try await h.admin(.post, "/users", ["email": "ada@example.com", "password": "pw", "record": ["givenName": "Ada"]])
            _ = try await h.admin(.post, "/clock", ["advance_seconds": 60])
            let response = try await h.request(.post, "/emulator/export")
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json")
            return String(buffer: response.body)
        }
        let file = try await emulator.export(to: directory.path)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == answer)
        #expect(answer.contains("\"format\" : \"jump-emulator-export\""))
    }

    @Test func aDatabaseWithUsersIsRefused() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("emu.db").path
        let exportFile = directory.appendingPathComponent("out.json").path

        let first = try await Emulator.open(EmulatorOptions(databasePath: database, passwordHashCost: 4))
        try await Self.serve(first) { h in
            _ = try await h.registeredToken(email: "ada@example.com")
        }
        try await first.export(to: exportFile)

        do {
            _ = try await Emulator.open(EmulatorOptions(databasePath: database, passwordHashCost: 4, importPath: exportFile))
            Issue.record("imported into a database with users")
        } catch let error as StartupError {
            #expect(error.description == """
                cannot import \(exportFile): the database \(database) already has 1 user \
                (import into a new --db file or :memory:)
                """)
        }
        // An empty database (here, in memory) takes it.
        let fresh = try await Emulator.open(EmulatorOptions(passwordHashCost: 4, importPath: exportFile))
        #expect(try await fresh.store.read { db in try UserRow.fetchCount(db) } == 1)
    }

    @Test func filesThatAreNotExportsAreRefused() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("missing.json").path
        let other = directory.appendingPathComponent("other.json").path
        try Data(#"{"format": "something-else"}"#.utf8).write(to: URL(fileURLWithPath: other))

        for (path, reason) in [
            (missing, "no such file"),
            (other, #"not a jump-emulator export (no "format": "jump-emulator-export")"#),
        ] {
            do {
                _ = try await Emulator.open(EmulatorOptions(passwordHashCost: 4, importPath: path))
                Issue.record("imported \(path)")
            } catch let error as StartupError {
                #expect(error.description == "cannot import \(path): \(reason)")
            }
        }
    }

    /// The flags end to end: SIGTERM writes the export, the next process serves it.
    @Test(.enabled(if: ProcessTests.binary != nil), .timeLimit(.minutes(1)))
    func theCommandLineExportsOnExitAndImports() async throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }

        let first = try StartupErrorTests.start(["--port", "0", "--password-hash-cost", "4", "--export-on-exit", directory.path])
        defer { if first.process.isRunning { first.process.terminate() } }
        let port = try Self.port(of: first.stdout)
        try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
            let response = try await client.post(
                "/emulator/users", headers: [.contentType: "application/json"],
                body: ByteBuffer(string: #"{"email": "ada@example.com", "password": "correct horse"}"#))
            #expect(response.status == .created)
        }
        kill(first.process.processIdentifier, SIGTERM)
        first.process.waitUntilExit()
        #expect(first.process.terminationStatus == 0)
        let file = directory.appendingPathComponent("jump-emulator-export.json")
        #expect(FileManager.default.fileExists(atPath: file.path))

        let second = try StartupErrorTests.start(["--port", "0", "--password-hash-cost", "4", "--import", file.path])
        defer { if second.process.isRunning { second.process.terminate() } }
        let secondPort = try Self.port(of: second.stdout)
        try await TestClient.withClient(host: "127.0.0.1", port: secondPort) { client in
            let response = try await client.get("/emulator/users")
            let users = JSONValue.parse(String(buffer: response.body ?? ByteBuffer()))?["users"]?.arrayValue ?? []
            #expect(users.count == 1)
            #expect(users.first?["email"] == "ada@example.com")
        }
        kill(second.process.processIdentifier, SIGTERM)
        second.process.waitUntilExit()
        #expect(second.process.terminationStatus == 0)
    }

    // MARK: - Helpers

    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("jump-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func serve<T: Sendable>(_ emulator: Emulator, _ body: @Sendable (Harness) async throws -> T) async throws -> T {
        let app = Application(router: emulator.makeRouter())
        return try await app.test(.router) { client in
            try await body(Harness(emulator: emulator, client: client))
        }
    }

    static func port(of stdout: Pipe) throws -> Int {
        let line = ProcessTests.firstLine(of: stdout.fileHandleForReading)
        return try #require(line.wholeMatch(of: /http:\/\/127\.0\.0\.1:(\d+)/).flatMap { Int($0.1) }, "first line: \(line)")
    }
}
