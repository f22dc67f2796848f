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

    @Option(help: ArgumentHelp(
        "Load apps, users, identities and settings from an export file (or a directory holding jump-emulator-export.json) before serving; the database must have no users.",
        valueName: "path"))
    var `import`: String?

    @Option(help: ArgumentHelp(
        "On SIGTERM or SIGINT, write apps, users, identities and settings to this file (or to jump-emulator-export.json in this directory).",
        valueName: "path"))
    var exportOnExit: String?

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535") }
        guard (4...31).contains(passwordHashCost) else { throw ValidationError("--password-hash-cost must be 4...31") }
        if let tokenLifetime, tokenLifetime < 1 { throw ValidationError("--token-lifetime must be at least 1") }
    }

    func run() async throws {
        let options = EmulatorOptions(
            host: host, port: port, databasePath: db, passwordHashCost: passwordHashCost,
            tokenLifetime: tokenLifetime, logRequests: true, importPath: `import`)
        do {
            let emulator = try await Emulator.open(options)
            let app = emulator.makeApplication { url in
                // Tests wait for this line: write it whole and flush at once.
                FileHandle.standardOutput.write(Data((url + "\n").utf8))
            }
            do {
                // Stops gracefully on SIGTERM and SIGINT and returns, so the process exits 0.
                try await app.runService()
            } catch {
                throw StartupError.listening(host: host, port: port, error: error) ?? error
            }
            if let exportOnExit {
                let file = try await emulator.export(to: exportOnExit)
                FileHandle.standardError.write(Data("jump-emulator: exported to \(file)\n".utf8))
            }
        } catch let error as StartupError {
            // A sentence naming the address or file, not ArgumentParser's "Error: " plus a system
            // message; ExitCode makes it exit 1 without printing anything more.
            FileHandle.standardError.write(Data("jump-emulator: \(error.description)\n".utf8))
            throw ExitCode.failure
        }
    }
}

/// Called from an async function: at top level the compiler picks the synchronous `main()`
/// overload, which would never run the async `run()`.
func runCommand() async {
    await JumpEmulatorCommand.main()
}

await runCommand()
