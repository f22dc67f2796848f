import Foundation
import GRDB
import NIOCore

/// Why the emulator could not start (or save its export on the way out), phrased for the person at
/// the terminal: what failed, on which address or file, and what to try. The CLI prints
/// `description` on stderr and exits non-zero instead of showing a bare system error.
public struct StartupError: Error, CustomStringConvertible, Sendable {
    public let description: String

    init(_ description: String) {
        self.description = description
    }

    /// The listening socket could not be set up; nil when `error` is not a socket or address error
    /// (those keep their own text).
    public static func listening(host: String, port: Int, error: any Error) -> StartupError? {
        let address = "\(host.contains(":") ? "[\(host)]" : host):\(port)"
        if let error = error as? IOError {
            var reason = String(cString: strerror(error.errnoCode)).lowercased()
            switch error.errnoCode {
            case EADDRINUSE: reason += " (is another emulator running? use --port 0 for a free port)"
            case EACCES: reason += " (ports below 1024 need privileges; use --port 0 for a free port)"
            case EADDRNOTAVAIL: reason += " (--host must be an address of this machine)"
            default: break
            }
            return StartupError("cannot listen on \(address): \(reason)")
        }
        if let error = error as? SocketAddressError.UnknownHost {
            return StartupError("cannot listen on \(address): unknown host \(error.host)")
        }
        if let error = error as? SocketAddressError {
            return StartupError("cannot listen on \(address): \(error)")
        }
        return nil
    }

    /// The SQLite file could not be opened, is not a database, or could not be migrated.
    static func database(path: String, error: any Error) -> StartupError {
        StartupError("cannot open the database \(path): \(reason(error))")
    }

    static func importing(path: String, _ reason: String) -> StartupError {
        StartupError("cannot import \(path): \(reason)")
    }

    static func exporting(path: String, _ reason: String) -> StartupError {
        StartupError("cannot export to \(path): \(reason)")
    }

    /// SQLite's own message ("file is not a database") without the statement GRDB appends, and
    /// Foundation's localized text for file errors.
    static func reason(_ error: any Error) -> String {
        if let error = error as? DatabaseError {
            return error.message ?? "SQLite error \(error.resultCode.rawValue)"
        }
        if let error = error as? StartupError { return error.description }
        if let error = error as? CocoaError {
            switch error.code {
            case .fileReadNoSuchFile, .fileNoSuchFile: return "no such file"
            case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
            default: break
            }
        }
        return (error as NSError).localizedDescription
    }
}
