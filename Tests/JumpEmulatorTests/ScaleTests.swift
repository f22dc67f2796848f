import Foundation
import Testing

@testable import JumpEmulator

/// The SDK's benchmark keeps records with 100 000 `photos` elements. These check that such a record
/// can be created, read, edited and signed in with, and that nothing is quadratic: the bounds are
/// loose (a debug build on a busy machine), the measured times are in docs/emulator.md.
@Suite("Records with 100 000 plural elements")
struct ScaleTests {
    static let count = 100_000

    static func elapsed<T>(_ body: () async throws -> T) async rethrows -> (T, Double) {
        let start = Date()
        let result = try await body()
        return (result, Date().timeIntervalSince(start))
    }

    @Test func bigRecordsStayFast() async throws {
        try await Harness.run { h in
            let photos = JSONValue.array((0..<Self.count).map { ["type": "small", "value": .string("https://example.com/p/\($0).png")] })
            let ((status, created), createTime) = try await Self.elapsed {
                try await h.admin(.post, "/users", ["email": "big@example.com", "password": "correct horse", "record": ["photos": photos]])
            }
            #expect(status == .created)
            #expect(created["user"]?["photos"]?.arrayValue?.count == Self.count)
            #expect(createTime < 20)

            let (signIn, signInTime) = try await Self.elapsed { try await h.signIn(email: "big@example.com", password: "correct horse") }
            #expect(signIn["capture_user"]?["photos"]?.arrayValue?.count == Self.count)
            #expect(signInTime < 10)
            let token = try #require(signIn["access_token"]?.stringValue)

            let (read, readTime) = try await Self.elapsed { try await h.entity(token) }
            let stored = try #require(read["result"]?["photos"]?.arrayValue)
            #expect(stored.count == Self.count)
            #expect(stored[49_999] == ["id": 50_000, "type": "small", "value": "https://example.com/p/49999.png"])
            #expect(readTime < 10)

            let (element, elementTime) = try await Self.elapsed {
                try await h.update(token, ["value": "changed.png"], attributeName: "/photos#50000")
            }
            #expect(element == ["stat": "ok"])
            #expect(elementTime < 10)
            let (root, rootTime) = try await Self.elapsed { try await h.update(token, ["displayName": "Big"]) }
            #expect(root == ["stat": "ok"])
            #expect(rootTime < 10)

            // Every element by id in one call: linear, not quadratic.
            let edits = JSONValue.array((1...Self.count).map { ["id": .int(Int64($0)), "type": "large"] })
            let (all, allTime) = try await Self.elapsed { try await h.update(token, ["photos": edits]) }
            #expect(all == ["stat": "ok"])
            #expect(allTime < 30)

            let check = try await h.entity(token, [("attribute_name", "/photos#50000")])["result"]
            #expect(check == ["id": 50_000, "type": "large", "value": "changed.png"])
            #expect(try await h.entity(token)["result"]?["displayName"] == "Big")
            print("scale (debug, in-process): create \(createTime)s, sign-in \(signInTime)s, entity \(readTime)s, "
                + "update element \(elementTime)s, update root \(rootTime)s, update all by id \(allTime)s")
        }
    }
}
