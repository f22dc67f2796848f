import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import JumpEmulator

/// The `jump-emulator` executable as tests and scripts use it: first stdout line is the URL, a signal
/// stops it with status 0. Runs when the binary sits next to the test runner (a `swift test` build)
/// or `JUMP_EMULATOR_BINARY` names it.
@Suite("jump-emulator process")
struct ProcessTests {
    static let binary: URL? = {
        if let path = ProcessInfo.processInfo.environment["JUMP_EMULATOR_BINARY"] {
            return URL(fileURLWithPath: path)
        }
        let runner = URL(fileURLWithPath: CommandLine.arguments.first ?? "")
        let candidate = runner.deletingLastPathComponent().appendingPathComponent("jump-emulator")
        return FileManager.default.isExecutableFile(atPath: candidate.path) ? candidate : nil
    }()

    @Test(.enabled(if: binary != nil), .timeLimit(.minutes(1)), arguments: [SIGTERM, SIGINT])
    func printsTheURLFirstAndStopsCleanly(signal: Int32) async throws {
        let binary = try #require(Self.binary)
        let process = Process()
        process.executableURL = binary
        process.arguments = ["--port", "0", "--password-hash-cost", "4"]
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let line = Self.firstLine(of: stdout.fileHandleForReading)
        let match = try #require(line.wholeMatch(of: /http:\/\/127\.0\.0\.1:(\d+)/), "first line: \(line)")
        let port = try #require(Int(match.1))
        #expect(port > 0)

        try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
            let ready = try await client.get("/")
            #expect(ready.status == .ok)
            #expect(JSONValue.parse(String(buffer: ready.body ?? ByteBuffer()))?["jumpEmulator"]?["ready"] == true)
        }

        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }

    /// Reads up to the first newline (or end of output, if the process died).
    static func firstLine(of handle: FileHandle) -> String {
        var data = Data()
        while !data.contains(UInt8(ascii: "\n")) {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            data.append(chunk)
        }
        return String(decoding: data.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
    }
}
