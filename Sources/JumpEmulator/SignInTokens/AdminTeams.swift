import Foundation
import GRDB

/// `/emulator/teams`: teams besides the default one, e.g. a production/eu team whose sign-in tokens
/// name `id-signer-prd-eu@...`.
struct AdminTeams: Sendable {
    let emulator: Emulator

    /// `{"environment"?: "dev"|"sandbox"|"production", "region"?: "us"|"eu", "api_key"?, "team_id"?}`.
    func create(_ request: AdminRequest) async throws -> JSONValue {
        let environment = try request.string("environment") ?? TeamRow.Environment.dev.rawValue
        guard TeamRow.Environment(rawValue: environment) != nil else {
            throw AdminError.badRequest("environment must be dev, sandbox or production")
        }
        let region = try request.string("region") ?? TeamRow.Region.us.rawValue
        guard TeamRow.Region(rawValue: region) != nil else { throw AdminError.badRequest("region must be us or eu") }
        let teamId = try request.string("team_id")?.lowercased() ?? UUID().uuidString.lowercased()
        guard UUID(uuidString: teamId) != nil else { throw AdminError.badRequest("team_id must be a UUID") }
        let apiKey = try request.string("api_key") ?? "jump-key-" + Tokens.randomURLSafe(byteCount: 18)
        guard !apiKey.isEmpty else { throw AdminError.badRequest("api_key must not be empty") }
        let team = TeamRow(teamId: teamId, apiKey: apiKey, environment: environment, region: region, isDefault: false,
                           created: emulator.clock.now().timeIntervalSince1970)
        let inserted = try await emulator.store.write { db -> Bool in
            if try TeamRow.fetchOne(db, key: teamId) != nil || TeamRow.find(apiKey: apiKey, in: db) != nil {
                return false
            }
            try team.insert(db)
            return true
        }
        guard inserted else { throw AdminError.conflict("team_exists", "a team already has this team_id or api_key") }
        return Self.shown(team)
    }

    /// `{"teams":[...]}`, the default team first.
    func list() async throws -> JSONValue {
        let teams = try await emulator.store.read { db in
            try TeamRow.order(Column("is_default").desc, Column("created"), Column("team_id")).fetchAll(db)
        }
        return ["teams": .array(teams.map(Self.shown))]
    }

    static func shown(_ team: TeamRow) -> JSONValue {
        team.json
    }
}
