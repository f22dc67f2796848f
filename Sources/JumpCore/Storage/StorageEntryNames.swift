import Glibc

/// The names of a client's entries on storage (files in storageDirectory, or host storage keys), next to the
/// stores that keep them. They must never change between versions: a new name would lose every saved
/// session. One installation (client id and Capture server) has its own names, so two apps, or one app's
/// production and emulator configurations, never read each other's entries.
extension CaptureSettings {
    /// A file name unique to this app installation's Capture client (and saved account), safe on any file system.
    var sessionFileName: String { "session-\(installationName)\(accountPart).json" }

    /// "" for the first account (a single-account client's names), else "-account-<slot>".
    private var accountPart: String { account.isEmpty ? "" : "-account-\(account)" }

    /// The index of the saved accounts (`accounts` "multiple", AccountIndex): one per installation.
    var accountIndexFileName: String { "accounts-\(installationName).json" }

    /// Names this installation's entries: the Capture client when there is one, else the token scheme's.
    var installationName: String {
        "\(CaptureSettings.safeName(clientID ?? "tokens"))-\(CaptureSettings.fnv1a(base?.base ?? ""))"
    }

    var credentialFileName: String { "credential-\(installationName).json" }
    var gistFileName: String { "gist-\(installationName).json" }
    /// The device tokens of browser sign-ins (secrets: they let the app share as the user).
    var socialFileName: String { "social-\(installationName).json" }

    /// The record journal kept next to the session.
    var journalFileName: String { "journal-" + sessionFileName.dropFirst("session-".count) }

    var schemaFileName: String { "schema-\(installationName).json" }

    /// The index of sessions set aside (see QuarantineEntry); each one's entries are named after it.
    var quarantineFileName: String { "quarantine-\(installationName)\(accountPart).json" }
    func quarantinedName(_ id: String, of entry: String) -> String { "quarantined-\(id)-\(entry)" }

    var flowFileName: String {
        let parts = [appID ?? "-", flowName ?? "-", flowVersion, locale].map(CaptureSettings.safeName)
        return "flow-\(parts.joined(separator: "-"))-\(CaptureSettings.fnv1a(flowURL ?? "")).json"
    }

    static func defaultStorageDirectory() -> String {
        if let xdg = getenv("XDG_DATA_HOME").map({ String(cString: $0) }), xdg.hasPrefix("/") { return xdg + "/jump" }
        if let home = getenv("HOME").map({ String(cString: $0) }), !home.isEmpty { return home + "/.local/share/jump" }
        return "./.jump"
    }

    /// Letters, digits, "-", "_" and "." kept, any other character "_" (one per character, as always: the
    /// names of saved entries must not change). ASCII tests only: Character.isLetter loads Unicode tables
    /// at the first client's creation.
    static func safeName(_ s: String) -> String {
        String(s.prefix(48).map { c -> Character in
            guard let a = c.asciiValue, c.unicodeScalars.count == 1 else { return "_" }
            let kept = (a >= 0x30 && a <= 0x39) || (a >= 0x41 && a <= 0x5A) || (a >= 0x61 && a <= 0x7A)
                || a == UInt8(ascii: "-") || a == UInt8(ascii: "_") || a == UInt8(ascii: ".")
            return kept ? c : "_"
        })
    }

    static func fnv1a(_ s: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in s.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        return String(hash, radix: 16)
    }
}
