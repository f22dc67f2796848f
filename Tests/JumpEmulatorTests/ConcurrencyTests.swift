import Testing

@testable import JumpEmulator

/// Races a real server must win deterministically: checks and writes share one transaction.
@Suite("Concurrent requests")
struct ConcurrencyTests {
    @Test func onlyOneOfTwoConcurrentRefreshesOfATokenWins() async throws {
        try await Harness.run { h in
            // Different dates: two requests, not a request and its replay (which the grace would answer).
            let token = try await h.registeredToken(email: "ada@example.com", refreshSecret: "s")
            async let one = h.refresh(token: token, secret: "s", date: Harness.utcNow(offset: -60))
            async let other = h.refresh(token: token, secret: "s", date: Harness.utcNow())
            let answers = try await [one, other]
            let winners = answers.filter { $0["stat"] == "ok" }
            let refused = answers.filter { $0["argument_name"] == "access_token" }
            #expect(winners.count == 1)
            #expect(refused.count == 1)
        }
    }

    @Test func twoConcurrentIdenticalRefreshesGetTheSameSuccessor() async throws {
        try await Harness.run { h in
            let registered = try await h.register(email: "ada@example.com", refreshSecret: "s")
            let token = try #require(registered["access_token"]?.stringValue)
            let uuid = try #require(registered["capture_user"]?["uuid"]?.stringValue)
            let date = Harness.utcNow()
            async let one = h.refresh(token: token, secret: "s", date: date)
            async let other = h.refresh(token: token, secret: "s", date: date)
            let answers = try await [one, other]
            let tokens = answers.compactMap { $0["access_token"]?.stringValue }
            #expect(tokens.count == 2)
            #expect(Set(tokens).count == 1)
            // One rotation: a single live session.
            #expect(try await h.admin(.get, "/users/\(uuid)").1["active_sessions"] == 1)
        }
    }

    @Test func onlyOneOfTwoConcurrentRegistrationsOfAnEmailWins() async throws {
        try await Harness.run { h in
            async let one = h.register(email: "race@example.com")
            async let other = h.register(email: "RACE@example.com")
            let answers = try await [one, other]
            let winners = answers.filter { $0["stat"] == "ok" }
            let loser = answers.first { $0["stat"] == "error" }
            #expect(winners.count == 1)
            #expect(loser?["code"] == 390)
            #expect(loser?.invalidField("emailAddress") == ["Email address is already in use."])
            #expect(try await h.admin(.get, "/users").1["users"]?.arrayValue?.count == 1)
        }
    }

    @Test func concurrentPluralAppendsGetDistinctIds() async throws {
        try await Harness.run { h in
            let token = try await h.registeredToken(email: "ada@example.com")
            try await withThrowingTaskGroup(of: JSONValue.self) { group in
                for index in 0..<8 {
                    group.addTask { try await h.update(token, ["photos": [["value": .string("\(index).png")]]]) }
                }
                for try await answer in group {
                    #expect(answer["stat"] == "ok")
                }
            }
            let photos = try await h.entity(token, [("attribute_name", "photos")])["result"]?.arrayValue ?? []
            #expect(photos.count == 8)
            let ids = Set(photos.compactMap { $0["id"]?.intValue })
            #expect(ids.count == 8)
        }
    }
}
