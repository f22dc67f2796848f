import Foundation
@testable import JumpCore

/// A real jump-emulator process on a free loopback port with a temporary database (built by
/// `make emulator`; JUMP_EMULATOR overrides the path).
final class EmulatorProcess: @unchecked Sendable {
    let url: String
    let directory: String
    private let process: Process
    private let admin = CurlTransport(connectTimeoutMs: 5_000, requestTimeoutMs: 30_000)

    init() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let binary = ProcessInfo.processInfo.environment["JUMP_EMULATOR"] ?? root.appendingPathComponent("build/bin/jump-emulator").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            throw JumpError(.notFound, "no emulator at \(binary): run `make emulator` first")
        }
        directory = NSTemporaryDirectory() + "jumpcore-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--port", "0", "--db", directory + "/emulator.sqlite", "--password-hash-cost", "4"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while true {
            let byte = out.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty || byte == Data([0x0A]) { break }
            line.append(byte)
        }
        url = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces)
        guard url.hasPrefix("http://") else { throw JumpError(.server, "the emulator printed '\(url)' instead of its URL") }
        // Keep draining stdout so the emulator never blocks on a full pipe.
        let reader = out.fileHandleForReading
        Thread.detachNewThread { while !reader.availableData.isEmpty {} }
    }

    deinit {
        process.terminate()
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: directory)
    }

    func config(storage: String? = nil, _ extra: [String: JSON] = [:]) throws -> JumpConfig {
        var members: [String: JSON] = [
            "captureDomain": .string(url), "captureFlowDomain": .string(url), "captureClientId": "jump-default-client",
            "captureAppId": "default-app", "captureFlowName": "standard", "captureLocale": "en-US",
            "storageDirectory": .string(storage ?? directory + "/client-\(UUID().uuidString)"),
        ]
        for (k, v) in extra { members[k] = v }
        return try JumpConfig(json: .object(members))
    }

    @discardableResult
    func admin(_ method: String, _ path: String, _ body: JSON? = nil) throws -> JSON {
        let request = HTTPRequest(method: method, url: url + path, headers: [("Content-Type", "application/json")],
                                  body: body.map { Array(Jansson.serialize($0).utf8) } ?? [])
        let response = try admin.send(request, cancellation: nil)
        guard (200..<300).contains(response.status) else {
            throw JumpError(.server, "admin \(method) \(path) -> HTTP \(response.status): \(String(decoding: response.body, as: UTF8.self))")
        }
        return response.body.isEmpty ? .null : try Jansson.parse(response.body, what: "admin answer")
    }

    func counter(_ key: String) throws -> Int64 {
        try admin("GET", "/emulator/counters")["counters"]?[key]?.intValue ?? 0
    }

    static func uniqueEmail(_ tag: String) -> String { "\(tag)-\(UUID().uuidString.prefix(8).lowercased())@example.com" }
}
