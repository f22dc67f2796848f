import Foundation
import Testing

@testable import JumpEmulator

/// Start-up failures name what failed (address, file) on stderr and exit 1, without a crash.
@Suite("start-up errors")
struct StartupErrorTests {
    @Test func aFileThatIsNotADatabaseIsNamed() async throws {
        let path = try Self.garbageFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try await Emulator.open(EmulatorOptions(databasePath: path, passwordHashCost: 4))
            Issue.record("opened a file that is not a database")
        } catch let error as StartupError {
            #expect(error.description == "cannot open the database \(path): file is not a database")
        }
    }

    @Test(.enabled(if: ProcessTests.binary != nil), .timeLimit(.minutes(1)))
    func aPortInUseNamesHostAndPort() async throws {
        let first = try Self.start(["--port", "0", "--password-hash-cost", "4"])
        defer { if first.process.isRunning { first.process.terminate() } }
        let line = ProcessTests.firstLine(of: first.stdout.fileHandleForReading)
        let port = try #require(line.wholeMatch(of: /http:\/\/127\.0\.0\.1:(\d+)/).flatMap { Int($0.1) }, "first line: \(line)")

        let (status, stdout, stderr) = try Self.runToEnd(["--port", String(port), "--password-hash-cost", "4"])
        #expect(status == 1)
        #expect(stdout.isEmpty)
        #expect(stderr == """
            jump-emulator: cannot listen on 127.0.0.1:\(port): address already in use \
            (is another emulator running? use --port 0 for a free port)

            """)
    }

    @Test(.enabled(if: ProcessTests.binary != nil), .timeLimit(.minutes(1)))
    func aBadDatabaseFileIsNamed() async throws {
        let path = try Self.garbageFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, stdout, stderr) = try Self.runToEnd(["--port", "0", "--db", path])
        #expect(status == 1)
        #expect(stdout.isEmpty)
        #expect(stderr == "jump-emulator: cannot open the database \(path): file is not a database\n")

        let missing = "/nonexistent-\(UUID().uuidString)/x.db"
        let (missingStatus, _, missingError) = try Self.runToEnd(["--port", "0", "--db", missing])
        #expect(missingStatus == 1)
        #expect(missingError == "jump-emulator: cannot open the database \(missing): unable to open database file\n")
    }

    // MARK: - Helpers

    static func garbageFile() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-db-\(UUID().uuidString).db").path
        try Data("this is not SQLite\n".utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func start(_ arguments: [String]) throws -> (process: Process, stdout: Pipe, stderr: Pipe) {
        let binary = try #require(ProcessTests.binary)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        return (process, stdout, stderr)
    }

    /// Runs the emulator expecting it to stop by itself; stderr is read to its end before waiting so a
    /// full pipe cannot block the child.
    static func runToEnd(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let (process, stdout, stderr) = try start(arguments)
        let errorText = String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let outText = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "not a clean exit: \(errorText)")
        return (process.terminationStatus, outText, errorText)
    }
}
