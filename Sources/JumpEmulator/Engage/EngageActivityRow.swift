import Foundation
import GRDB

/// Something a client shared or reported: an activity, a status (set_status), or an email/SMS share
/// (record_activity). Tests read them through `GET /emulator/engage/activities`.
struct EngageActivityRow: Codable, Sendable, Equatable, FetchableRecord, MutablePersistableRecord, SnakeCaseRecord {
    static let databaseTableName = "engage_activities"

    enum Kind: String, Sendable {
        case activity, status, email, sms
    }

    var id: Int64?
    var engageAppId: String?
    var provider: String?
    var identifier: String?
    /// A `Kind`, or for record_activity the `method` as sent (or "unknown").
    var kind: String
    var activityJson: String?
    var status: String?
    var device: String?
    var appName: String?
    var created: Double

    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }

    var json: JSONValue {
        func text(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }
        return [
            "id": .int(id ?? 0),
            "engage_app_id": text(engageAppId),
            "provider": text(provider),
            "identifier": text(identifier),
            "kind": .string(kind),
            "activity": activityJson.flatMap(JSONParser.parse) ?? .null,
            "status": text(status),
            "device": text(device),
            "app_name": text(appName),
            "created": .string(CaptureTime.dateTime(Date(timeIntervalSince1970: created))),
        ]
    }
}
