import Foundation
import GRDB

/// A Junction team: its id, the API key its backend uses (`x-jump-api-key` / `x-vital-api-key`),
/// and the environment and region its sign-in tokens name in `iss`.
struct TeamRow: Codable, Sendable, Equatable, FetchableRecord, PersistableRecord, SnakeCaseRecord {
    static let databaseTableName = "teams"

    enum Environment: String, Sendable, CaseIterable {
        case dev, sandbox, production

        /// The spelling in the signer's address (`id-signer-{short}-{region}@...`), which is all the
        /// SDKs read to pick environment and region (docs/protocol.md §12.1).
        var shortName: String {
            switch self {
            case .dev: return "dev"
            case .sandbox: return "stg"
            case .production: return "prd"
            }
        }
    }

    enum Region: String, Sendable, CaseIterable {
        case us, eu
    }

    var teamId: String
    var apiKey: String
    var environment: String
    var region: String
    var isDefault: Bool
    var created: Double

    static let defaultTeamId = "00000000-0000-4000-8000-000000000001"
    static let defaultAPIKey = "jump-team-key"

    static func defaultTeam(now: Double) -> TeamRow {
        TeamRow(teamId: defaultTeamId, apiKey: defaultAPIKey, environment: Environment.dev.rawValue,
                region: Region.us.rawValue, isDefault: true, created: now)
    }

    var environmentShortName: String {
        Environment(rawValue: environment)?.shortName ?? environment
    }

    /// `iss` and `sub` of this team's sign-in tokens: the service-account address of a Firebase
    /// custom token.
    var signerAddress: String {
        let env = environmentShortName
        return "id-signer-\(env)-\(region)@vital-id-\(env)-\(region).iam.gserviceaccount.com"
    }

    /// A stable GCIP-style tenant id (`t-<18 hex>-<6 hex>`) derived from the team id; the SDKs store
    /// it and use it for nothing.
    var tenantId: String {
        let hex = teamId.lowercased().filter(\.isHexDigit)
        return "t-\(hex.prefix(18))-\(hex.suffix(6))"
    }

    var json: JSONValue {
        [
            "team_id": .string(teamId), "api_key": .string(apiKey), "environment": .string(environment),
            "region": .string(region), "default": .bool(isDefault),
        ]
    }

    static func find(apiKey: String, in db: Database) throws -> TeamRow? {
        try TeamRow.filter(Column("api_key") == apiKey).fetchOne(db)
    }

    /// Puts the default team back when there is none (first start, or after a reset).
    static func ensureDefault(now: Double, in db: Database) throws {
        if try TeamRow.fetchOne(db, key: defaultTeamId) == nil {
            try defaultTeam(now: now).insert(db)
        }
    }
}
