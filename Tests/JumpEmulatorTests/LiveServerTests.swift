import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@testable import JumpEmulator

@Suite("Live server")
struct LiveServerTests {
    @Test func servesOverARealSocketAndAdminAcceptsLoopback() async throws {
        let emulator = try await Emulator.open(EmulatorOptions(port: 0, passwordHashCost: 4))
        let app = Application(router: emulator.makeRouter())
        try await app.test(.live) { client in
            let ready = try await client.execute(uri: "/", method: .get)
            #expect(ready.status == .ok)
            let apps = try await client.execute(uri: "/emulator/apps", method: .get)
            #expect(apps.status == .ok)
        }
    }

    @Test func reportsTheBoundURLAndKeepsAFileDatabase() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("jump-emulator-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = try await Emulator.open(EmulatorOptions(databasePath: path, passwordHashCost: 4, tokenLifetime: 77))
        try await Application(router: first.makeRouter()).test(.router) { client in
            let body = #"{"email":"kept@example.com","password":"pw"}"#
            let response = try await client.execute(
                uri: "/emulator/users", method: .post, headers: [.contentType: "application/json"], body: ByteBuffer(string: body))
            #expect(response.status == .created)
        }

        let second = try await Emulator.open(EmulatorOptions(databasePath: path, passwordHashCost: 4))
        #expect(second.tokenLifetime == 77)
        try await Application(router: second.makeRouter()).test(.router) { client in
            let users = try await client.execute(uri: "/emulator/users", method: .get)
            #expect(JSONValue.parse(String(buffer: users.body))?["users"]?[0]?["email"] == "kept@example.com")
            let apps = try await client.execute(uri: "/emulator/apps", method: .get)
            #expect(JSONValue.parse(String(buffer: apps.body))?["apps"]?.arrayValue?.count == 1)
        }
    }

    @Test func loopbackCheck() {
        #expect(LoopbackOnlyMiddleware.isLocal(nil))
        #expect(LoopbackOnlyMiddleware.isLocal(try? .init(ipAddress: "127.0.0.1", port: 1)))
        #expect(LoopbackOnlyMiddleware.isLocal(try? .init(ipAddress: "::1", port: 1)))
        #expect(!LoopbackOnlyMiddleware.isLocal(try? .init(ipAddress: "192.0.2.7", port: 1)))
        #expect(Emulator.baseURL(host: "127.0.0.1", port: 8080) == "http://127.0.0.1:8080")
        #expect(Emulator.baseURL(host: "::1", port: 8080) == "http://[::1]:8080")
    }
}
