import ArgumentParser
import Foundation
import JumpEmulator

/// `jump-emulator`: a local Janrain Capture server for tests, examples and offline development.
///
/// The first line on stdout is the bound base URL (tests read it); everything else goes to stderr.
struct JumpEmulatorCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "jump-emulator",
        abstract: "A local Janrain Capture server for the libjump SDK's tests and examples.",
        discussion: """
            Prints the bound base URL (e.g. http://127.0.0.1:43817) as the first line on stdout, then \
            serves the Capture endpoints, the flow files and the admin API under /emulator until \
            SIGTERM or SIGINT. See docs/emulator.md.
            """,
        version: EmulatorOptions.version)

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free port.")
    var port = 9080

    @Option(help: "SQLite database file, or :memory: for a database that lives as long as the process.")
    var db = ":memory:"

    @Option(help: "Bcrypt cost for stored passwords (4...31). Lower is faster.")
    var passwordHashCost = 10

    @Option(help: "Access-token lifetime in seconds (default: the stored setting, 3600 on a new database).")
    var tokenLifetime: Int?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535") }
        guard (4...31).contains(passwordHashCost) else { throw ValidationError("--password-hash-cost must be 4...31") }
        if let tokenLifetime, tokenLifetime < 1 { throw ValidationError("--token-lifetime must be at least 1") }
    }

    func run() async throws {
        let options = EmulatorOptions(
            host: host, port: port, databasePath: db, passwordHashCost: passwordHashCost,
            tokenLifetime: tokenLifetime, logRequests: true)
        let emulator = try await Emulator.open(options)
        let app = emulator.makeApplication { url in
            // Tests wait for this line: write it whole and flush at once.
            FileHandle.standardOutput.write(Data((url + "\n").utf8))
        }
        // Stops gracefully on SIGTERM and SIGINT and returns, so the process exits 0.
        try await app.runService()
    }
}

/// Called from an async function: at top level the compiler picks the synchronous `main()`
/// overload, which would never run the async `run()`.
func runCommand() async {
    await JumpEmulatorCommand.main()
}

await runCommand()
