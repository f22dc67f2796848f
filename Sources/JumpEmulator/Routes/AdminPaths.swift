/// Where the admin API lives; faults and counters leave it alone.
enum AdminPaths {
    static let prefix = "/emulator"

    static func isAdmin(_ path: String) -> Bool {
        path == prefix || path.hasPrefix(prefix + "/")
    }
}
