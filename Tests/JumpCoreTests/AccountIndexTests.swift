@testable import JumpCore
import Testing

/// The saved accounts' index (AccountIndex): what it keeps, and what it refuses to read back.
@Suite struct AccountIndexTests {
    @Test func anIndexRoundTripsThroughItsJSON() {
        var index = AccountIndex()
        index.active = "a1b2c3"
        index.upsert(.init(slot: "", uuid: "u-1", email: "ann@example.com", displayName: "Ann", lastUsed: 10))
        index.upsert(.init(slot: "a1b2c3", uuid: "u-2", email: nil, displayName: nil, lastUsed: 20))
        #expect(AccountIndex(json: index.json) == index)
    }

    @Test func anUpsertReplacesTheSlotsOrTheUsersEntry() {
        var index = AccountIndex()
        index.upsert(.init(slot: "s1", uuid: "u-1", email: nil, displayName: nil, lastUsed: 1))
        index.upsert(.init(slot: "s2", uuid: "u-1", email: nil, displayName: nil, lastUsed: 2))  // the user moved
        index.upsert(.init(slot: "s2", uuid: "u-2", email: nil, displayName: nil, lastUsed: 3))  // the slot was reused
        #expect(index.accounts.map(\.uuid) == ["u-2"])
        index.remove(slot: "s2")
        #expect(index.accounts.isEmpty)
    }

    @Test func entriesThatNameNoUsableSlotAreLeftOut() throws {
        let saved = try Jansson.parse(Array("""
            {"version": 1, "active": "s1", "accounts": [
              {"slot": "s1", "uuid": "u-1", "last_used": 5},
              {"slot": "../escape", "uuid": "u-2"},
              {"uuid": "u-3"},
              {"slot": "s4"},
              {"slot": "s5", "uuid": 7}
            ]}
            """.utf8), what: "a test index")
        let index = AccountIndex(json: saved)
        #expect(index.accounts.map(\.uuid) == ["u-1"])
        #expect(index.active == "s1" && index.accounts.first?.lastUsed == 5)
    }
}
