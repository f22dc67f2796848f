import Foundation
import GRDB

/// Creating and deleting token users, shared by `/v2/user` and the admin API.
enum TokenUsers {
    enum Created: Sendable {
        case created(TokenUserRow)
        /// A live user of the team already has this `client_user_id`.
        case exists(TokenUserRow)
    }

    static func create(teamId: String, clientUserId: String, now: Date, in db: Database) throws -> Created {
        if let existing = try TokenUserRow.findLive(clientUserId: clientUserId, teamId: teamId, in: db) {
            return .exists(existing)
        }
        let user = TokenUserRow(userId: UUID().uuidString.lowercased(), teamId: teamId, clientUserId: clientUserId,
                                profile: "{}", created: now.timeIntervalSince1970, deletedAt: nil)
        try user.insert(db)
        return .created(user)
    }

    /// Marks the user deleted and ends its tokens; the row stays so its tokens can say why they fail.
    /// False when there is no live user `userId`.
    static func delete(userId: String, now: Date, in db: Database) throws -> Bool {
        guard var user = try TokenUserRow.find(id: userId, in: db), !user.isDeleted else { return false }
        user.deletedAt = now.timeIntervalSince1970
        try user.update(db)
        try TokenGrants.revokeAll(userId: user.userId, reason: .userDeleted, now: now, in: db)
        return true
    }
}
