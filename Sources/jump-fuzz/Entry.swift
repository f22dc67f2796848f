import Glibc
@testable import JumpCore

// libFuzzer's entry points. JUMP_FUZZ_TARGET names the target (Targets.swift), JUMP_FUZZ_ANSWERS the recorded
// answers (Tests/fuzz/answers). With JUMP_FUZZ_WRITE_SEEDS=DIR the harness writes the target's seeds there
// and exits: scripts/fuzz.sh starts each corpus that way.

nonisolated(unsafe) private var current: (target: FuzzTarget, fixtures: Fixtures)?

private func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<Int32>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> Int32 {
    let names = FuzzTarget.all.map(\.name).joined(separator: ", ")
    guard let name = environment("JUMP_FUZZ_TARGET"), let target = FuzzTarget.all.first(where: { $0.name == name }) else {
        fputs("set JUMP_FUZZ_TARGET to one of: \(names)\n", stderr)
        exit(2)
    }
    let answers = environment("JUMP_FUZZ_ANSWERS") ?? "Tests/fuzz/answers"
    let recorded = CannedTransport.load(directory: answers)
    guard !recorded.isEmpty else {
        fputs("no recorded answers in \(answers) (JUMP_FUZZ_ANSWERS)\n", stderr)
        exit(2)
    }
    if let token = FuzzFiles.read(answers + "/sign_in_token.txt") { SeedToken.value = String(decoding: token, as: UTF8.self) }
    let fixtures = Fixtures(transport: CannedTransport(recorded: recorded), answersDirectory: answers)
    current = (target, fixtures)
    if let seeds = environment("JUMP_FUZZ_WRITE_SEEDS") {
        for (index, seed) in target.seeds(fixtures).enumerated() {
            FuzzFiles.write("\(seeds)/seed-\(index)", seed)
        }
        exit(0)
    }
    return 0
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard let current else { return 0 }
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    current.target.run(current.fixtures, bytes)
    return 0
}
