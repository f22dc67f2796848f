import GRDB

/// The tables of Capture's social sign-in (migration `v5`).
enum SocialTables {
    static func create(in db: Database) throws {
    }
}
