@testable import JumpCore

/// The servers as the fuzzer plays them: every endpoint answers what the real emulator answered libjump
/// (Tests/fuzz/answers, recorded by Tests/fuzz/record_answers.py), except the endpoints under test, which
/// answer the fuzzer's bytes. An endpoint with no recorded answer fails as an unreachable host would.
final class CannedTransport: Transport, @unchecked Sendable {
    struct Answer {
        let status: Int
        let contentType: String?
        let body: [UInt8]
    }

    /// Recorded answers by endpoint name ("oauth_auth_native_traditional"): the first successful one.
    let recorded: [String: Answer]
    /// Set per input, on the fuzzer's one thread, before the client is used.
    var fuzzed: [String: Answer] = [:]

    init(recorded: [String: Answer]) { self.recorded = recorded }

    func send(_ request: HTTPRequest, cancellation: Cancellation?) throws(JumpError) -> HTTPResponse {
        let name = CannedTransport.endpointName(request.url)
        guard let answer = fuzzed[name] ?? recorded[name] else {
            throw JumpError(.network, "no answer for \(name) in the fuzzer's canned servers")
        }
        return HTTPResponse(status: answer.status, contentType: answer.contentType, body: answer.body)
    }

    /// "http://host:port/oauth/auth_native?x=1" -> "oauth_auth_native", as record_answers.py names files.
    static func endpointName(_ url: String) -> String {
        var path = Substring(url)
        if let scheme = path.firstRange(of: "://") { path = path[scheme.upperBound...] }
        path = path.drop { $0 != "/" }
        path = path.prefix { $0 != "?" && $0 != "#" }
        var name = ""
        var pendingSeparator = false
        for scalar in path.unicodeScalars {
            if scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) {
                if pendingSeparator && !name.isEmpty { name += "_" }
                pendingSeparator = false
                name.unicodeScalars.append(scalar)
            } else {
                pendingSeparator = true
            }
        }
        return name.isEmpty ? "root" : name
    }

    /// Reads `<name>.http` files: "status\ncontent-type\n\nbody". Error answers are kept only when the
    /// endpoint has no successful one.
    static func load(directory: String) -> [String: Answer] {
        var answers: [String: Answer] = [:]
        for file in FuzzFiles.list(directory).sorted() where file.hasSuffix(".http") {
            guard let bytes = FuzzFiles.read(directory + "/" + file), let answer = parse(bytes) else { continue }
            var name = String(file.dropLast(".http".count))
            if let dash = name.lastIndex(of: "-"), name[name.index(after: dash)...].allSatisfy(\.isNumber) {
                name = String(name[..<dash])
            }
            let failed = answer.status >= 400 || answer.body.containsText("\"stat\":\"error\"")
            if answers[name] == nil || (!failed && answers[name].map(\.failed) == true) {
                answers[name] = answer
            }
        }
        return answers
    }

    static func parse(_ bytes: [UInt8]) -> Answer? {
        let lines = bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 2, omittingEmptySubsequences: false)
        guard lines.count == 3, let status = Int(String(decoding: lines[0], as: UTF8.self)) else { return nil }
        var body = Array(lines[2])
        if body.first == UInt8(ascii: "\n") { body.removeFirst() }
        let type = String(decoding: lines[1], as: UTF8.self)
        return Answer(status: status, contentType: type.isEmpty ? nil : type, body: body)
    }
}

extension CannedTransport.Answer {
    var failed: Bool { status >= 400 || body.containsText("\"stat\":\"error\"") }
}

extension Array where Element == UInt8 {
    func containsText(_ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard needle.count <= count else { return false }
        for start in 0...(count - needle.count) where self[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }
}
