import Foundation
import GRDB

/// One running emulator: its database and the in-memory state the endpoints share.
public final class Emulator: Sendable {
    public let options: EmulatorOptions
    let store: Store
    let apps: AppCatalog
    let clock = EmulatorClock()
    let faults = FaultQueue()
    let counters = RequestCounters()
    let passwords: PasswordHasher
    /// Parsed copies of big records (see `RecordCache`).
    let records = RecordCache()
    private let lifetime = Locked<Int>(EmulatorOptions.defaultTokenLifetime)
    /// Signs sign-in tokens (see `SigningKey`).
    let signingKey = SigningKey.process
    private let tokenSettings = Locked(SignInTokenSettings())
    /// The URL the server is bound to, once it runs; email links start with it.
    private let bound = Locked<String?>(nil)

    private init(options: EmulatorOptions, store: Store) {
        self.options = options
        self.store = store
        self.apps = AppCatalog(store: store)
        self.passwords = PasswordHasher(cost: options.passwordHashCost)
    }

    /// Opens (or creates) the database, loads the import file if one is given, adds the default app
    /// and team when they are missing, and loads the stored settings; a token lifetime given in the
    /// options overrides the stored one. A database or import that fails throws a `StartupError`.
    public static func open(_ options: EmulatorOptions) async throws -> Emulator {
        let store: Store
        do {
            store = try Store.open(path: options.databasePath)
        } catch {
            throw StartupError.database(path: options.databasePath, error: error)
        }
        if let importPath = options.importPath {
            try await importExport(from: importPath, into: store, databasePath: options.databasePath)
        }
        let emulator = Emulator(options: options, store: store)
        let (offset, storedLifetime, tokenSettings) = try await emulator.store.read { db in
            (try SettingsTable.double(SettingsTable.clockOffset, in: db),
             try SettingsTable.double(SettingsTable.tokenLifetime, in: db),
             try SignInTokenSettings.load(from: db))
        }
        emulator.clock.setOffset(offset.flatMap { $0.isFinite ? $0 : nil } ?? 0)
        emulator.tokenSettings.withLock { $0 = tokenSettings }
        try await emulator.store.ensureDefaults(now: emulator.clock.now().timeIntervalSince1970)
        if let lifetime = options.tokenLifetime {
            try await emulator.setTokenLifetime(lifetime)
        } else if let stored = storedLifetime.flatMap({ Int(exactly: $0.rounded()) }), stored >= 1 {
            emulator.lifetime.withLock { $0 = stored }
        }
        return emulator
    }

    /// Seconds an access token is valid for.
    var tokenLifetime: Int {
        lifetime.current
    }

    func setTokenLifetime(_ seconds: Int) async throws {
        try await store.write { db in try SettingsTable.set(SettingsTable.tokenLifetime, Double(seconds), in: db) }
        lifetime.withLock { $0 = seconds }
    }

    /// Lifetimes and the refresh grace window of the sign-in-token API.
    var signInTokenSettings: SignInTokenSettings {
        tokenSettings.current
    }

    func setSignInTokenSettings(_ settings: SignInTokenSettings) async throws {
        try await store.write { db in try settings.save(in: db) }
        tokenSettings.withLock { $0 = settings }
    }

    /// The base of links the emulator hands out (password reset, verification): the bound URL, or
    /// the configured address when serving in-process tests.
    var publicBaseURL: String {
        bound.current ?? Self.baseURL(host: options.host, port: options.port)
    }

    func setBoundURL(_ url: String) {
        bound.withLock { $0 = url }
    }

    func setClockOffset(_ seconds: Double) async throws {
        try await store.write { db in try SettingsTable.set(SettingsTable.clockOffset, seconds, in: db) }
        clock.setOffset(seconds)
    }

    /// Back to a fresh start: default app and team only, no users (Capture or token), no tokens, no
    /// emails, clock offset 0, the configured token lifetime, default sign-in-token settings, no
    /// faults, zero counters.
    func reset() async throws {
        try await store.reset(now: Date().timeIntervalSince1970)
        tokenSettings.withLock { $0 = SignInTokenSettings() }
        apps.invalidate()
        records.clear()
        faults.clear()
        counters.clear()
        clock.setOffset(0)
        try await setTokenLifetime(options.tokenLifetime ?? EmulatorOptions.defaultTokenLifetime)
    }
}
