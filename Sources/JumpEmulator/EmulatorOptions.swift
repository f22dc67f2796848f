/// How an emulator instance is set up (the CLI's options, or a test's).
public struct EmulatorOptions: Sendable {
    public var host: String
    public var port: Int
    /// A SQLite file, or `:memory:`.
    public var databasePath: String
    /// Bcrypt cost (4...31); tests use 4 to stay fast.
    public var passwordHashCost: Int
    /// Access-token lifetime in seconds; nil keeps the stored setting (3600 on a new database).
    public var tokenLifetime: Int?
    /// Writes one stderr line per request (method, path, status).
    public var logRequests: Bool
    /// An export file (or a directory holding `jump-emulator-export.json`) loaded at start-up into a
    /// database without users; nil starts from what the database holds.
    public var importPath: String?

    public static let defaultTokenLifetime = 3600
    public static let version = "0.1.0"

    public init(
        host: String = "127.0.0.1", port: Int = 9080, databasePath: String = ":memory:", passwordHashCost: Int = 10,
        tokenLifetime: Int? = nil, logRequests: Bool = false, importPath: String? = nil
    ) {
        self.host = host
        self.port = port
        self.databasePath = databasePath
        self.passwordHashCost = passwordHashCost
        self.tokenLifetime = tokenLifetime
        self.logRequests = logRequests
        self.importPath = importPath
    }
}
