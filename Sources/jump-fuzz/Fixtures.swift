@testable import JumpCore

/// The clients a target runs against: configured for the canned servers (Tests/fuzz/answers), in memory
/// unless the target is about saved files.
struct Fixtures {
    static let base = "http://127.0.0.1:9"
    static let user = "seed@example.com"
    static let password = "fuzz-password-not-a-secret-of-anyone"

    let transport: CannedTransport
    let answersDirectory: String

    func config(storage: String = ":memory:") -> JumpConfig {
        var config = JumpConfig()
        let members: [(String, JSON)] = [
            ("captureDomain", .string(Fixtures.base)), ("captureFlowDomain", .string(Fixtures.base)),
            ("captureClientId", "jump-default-client"), ("captureAppId", "default-app"),
            ("captureFlowName", "standard"), ("captureLocale", "en-US"),
            ("engageAppId", "jump-default-engage"), ("engageDomain", .string(Fixtures.base)),
            ("signInTokenAuthBaseUrl", .string(Fixtures.base)), ("signInTokenApiBaseUrl", .string(Fixtures.base)),
            ("storageDirectory", .string(storage)),
        ]
        for (key, value) in members { try? config.set(key, value) }
        return config
    }

    func client(storage: String = ":memory:") -> JumpClient? {
        try? JumpClient(config: config(storage: storage), transport: transport)
    }

    /// A client signed in with the recorded sign-in answer.
    func signedInClient(storage: String = ":memory:") -> JumpClient? {
        guard let client = client(storage: storage) else { return nil }
        transport.fuzzed = [:]
        guard (try? client.capture.signIn(user: Fixtures.user, password: Fixtures.password)) != nil else { return nil }
        return client
    }

    /// The bodies the emulator answered on these endpoints, as seeds.
    func recordedBodies(_ endpoints: [String]) -> [[UInt8]] {
        var bodies: [[UInt8]] = []
        for file in FuzzFiles.list(answersDirectory).sorted() where file.hasSuffix(".http") {
            let name = String(file.dropLast(".http".count))
            guard endpoints.contains(where: { name == $0 || name.hasPrefix($0 + "-") }),
                  let bytes = FuzzFiles.read(answersDirectory + "/" + file),
                  let answer = CannedTransport.parse(bytes) else { continue }
            bodies.append(answer.body)
        }
        return bodies
    }

    func recordedText(prefix: String) -> [[UInt8]] {
        FuzzFiles.list(answersDirectory).sorted().filter { $0.hasPrefix(prefix) }
            .compactMap { FuzzFiles.read(answersDirectory + "/" + $0) }
    }
}
