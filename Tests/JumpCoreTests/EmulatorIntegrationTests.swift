import Foundation
import Synchronization
import Testing
@testable import JumpCore

/// JumpCore against a real emulator process: the rules that hold everywhere
/// (docs/conventions.md#rules-that-hold-everywhere) that need a server.
@Suite(.serialized) struct EmulatorIntegrationTests {
    let emulator: EmulatorProcess

    init() throws { emulator = try EmulatorProcess() }

    func registeredClient(_ tag: String, _ extra: [String: JSON] = [:]) throws -> (JumpClient, String) {
        let client = try JumpClient(config: emulator.config(extra))
        let email = EmulatorProcess.uniqueEmail(tag)
        _ = try client.capture.registerTraditional(attributes: ["email": .string(email), "givenName": "Ann"], password: "correct horse 1")
        return (client, email)
    }

    @Test func syncSendsOnlyChangedAttributesOnce() throws {
        let (client, _) = try registeredClient("sync")
        let view = try client.capture.recordView()
        try view.set("/aboutMe", to: "hello")
        try view.set("/primaryAddress/city", to: "Oslo")
        try emulator.admin("DELETE", "/emulator/counters")
        let result = try client.capture.sync()
        #expect(result.changed == ["/aboutMe", "/primaryAddress/city"])
        #expect(try emulator.counter("POST /entity.update") == 1)
        #expect(try client.capture.sync().requests == 0)
        #expect(try emulator.counter("POST /entity.update") == 1)
        let uuid = try #require(try view.value(at: "/uuid").stringValue)
        let stored = try emulator.admin("GET", "/emulator/users/\(uuid)")["user"]
        #expect(stored?["aboutMe"] == "hello")
        #expect(stored?["primaryAddress"]?["city"] == "Oslo")
    }

    @Test func concurrentCallersShareOneRefresh() throws {
        let (client, _) = try registeredClient("flight")
        try emulator.admin("POST", "/emulator/clock", ["advance_seconds": 7200])
        try emulator.admin("DELETE", "/emulator/counters")
        let failures = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 32) { _ in
            do throws(JumpError) { try client.capture.fetchRecord() } catch { failures.withLock { $0.append(error.message) } }
        }
        let failed = failures.withLock { $0 }
        #expect(failed == [])
        #expect(try emulator.counter("POST /oauth/refresh_access_token") == 1)
    }

    @Test func refreshFinishingAfterSignOutIsDiscarded() throws {
        let (client, _) = try registeredClient("race")
        try emulator.admin("POST", "/emulator/faults", ["kind": "delay", "delay_ms": 3000, "path": "/oauth/refresh_access_token", "count": 1])
        let outcome = Mutex<JumpError?>(nil)
        let refreshing = Thread { do throws(JumpError) { try client.capture.refreshAccessToken() } catch { outcome.withLock { $0 = error } } }
        refreshing.start()
        Thread.sleep(forTimeInterval: 0.5)
        try client.signOut()
        while !refreshing.isFinished { Thread.sleep(forTimeInterval: 0.05) }
        let status = outcome.withLock { $0?.status }
        #expect(status == .notSignedIn)
        #expect(!client.isSignedIn)
        // Nothing came back to life on disk either.
        #expect(try JumpClient(config: client.config).isSignedIn == false)
    }

    @Test func refusedRefreshKeepsTheRecordAndAsksForSignIn() throws {
        let (client, email) = try registeredClient("expired")
        let events = Mutex<[ClientEvent]>([])
        client.setEventHandler { event in events.withLock { $0.append(event) } }
        try client.capture.recordView().set("/aboutMe", to: "unsynced")
        try emulator.admin("POST", "/emulator/reset")  // the server forgets the session
        let error = #expect(throws: JumpError.self) { try client.capture.sync() }
        #expect(error?.status == .expired)
        #expect(client.state().reauthenticationRequired)
        #expect(try client.capture.recordView().changes().changed == ["/aboutMe"])
        // Computed outside #expect: Swift 6.3.1 can mix up closures written inside the macro.
        let expiredEvents = events.withLock { $0 }.filter { event in
            if case .sessionExpired = event { return true }
            return false
        }
        #expect(expiredEvents.count == 1)
        _ = email
    }

    @Test func badPasswordAndValidationCarryDetail() throws {
        let (client, email) = try registeredClient("detail")
        let bad = #expect(throws: JumpError.self) { try client.capture.signIn(user: email, password: "wrong password") }
        #expect(bad?.status == .badCredentials)
        let fresh = try JumpClient(config: emulator.config())
        let invalid = #expect(throws: JumpError.self) {
            try fresh.capture.registerTraditional(attributes: ["email": .string(email)], password: "short")
        }
        #expect(invalid?.status == .validation)
        #expect(invalid?.detail["invalid_fields"]?["emailAddress"] != nil)
        #expect(invalid?.detail["invalid_fields"]?["newPassword"] != nil)
    }
}
