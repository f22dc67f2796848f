@testable import JumpCore

/// Saved files as another version, a disk error or a tampering user may leave them: the session, its record
/// journal, the credential and status entries, the flow and Engage caches. A template storage directory is
/// made once (a signed-in client with unsynced edits and loaded caches); each input replaces one of its
/// files (the first byte picks which) and a new client restores from it, reads, edits and syncs.
enum SavedFiles {
    nonisolated(unsafe) static var template: String?
    nonisolated(unsafe) static var workDirectory: String?

    static func makeTemplate(_ fixtures: Fixtures) -> String {
        if let template { return template }
        let directory = FuzzFiles.makeTemporaryDirectory("jump-fuzz-template-")
        if let client = fixtures.signedInClient(storage: directory) {
            _ = try? client.capture.loadFlow(force: true)
            _ = try? client.engage.loadEngageConfig()
            if let view = try? client.capture.recordView() {
                try? view.set("/aboutMe", to: "unsynced")
                _ = try? view.append(["type": "other", "value": "pending.png"], to: "/photos")
            }
        }
        template = directory
        return directory
    }

    static func files(_ fixtures: Fixtures) -> [String] { FuzzFiles.list(makeTemplate(fixtures)).sorted() }

    static let target = FuzzTarget(
        name: "saved-files", reads: "saved session, journal, credential, status and cache files",
        seeds: { fixtures in
            let template = makeTemplate(fixtures)
            return files(fixtures).enumerated().compactMap { index, name in
                FuzzFiles.read(template + "/" + name).map { [UInt8(index)] + $0 }
            }
        }
    ) { fixtures, bytes in
        let names = files(fixtures)
        guard let slot = bytes.first, !names.isEmpty else { return }
        let work = workDirectory ?? FuzzFiles.makeTemporaryDirectory("jump-fuzz-storage-")
        workDirectory = work
        FuzzFiles.empty(work)
        FuzzFiles.copy(from: makeTemplate(fixtures), to: work)
        FuzzFiles.write(work + "/" + names[Int(slot) % names.count], Array(bytes.dropFirst()))
        fixtures.transport.fuzzed = [:]
        var client: JumpClient?
        Contract.expectReported("saved-files") { () throws(JumpError) in
            client = try JumpClient(config: fixtures.config(storage: work), transport: fixtures.transport)
        }
        guard let client else { return }
        Contract.expectReported("saved-files") { () throws(JumpError) in try client.restoreAll() }
        _ = client.state()
        Contract.expectReported("saved-files") { () throws(JumpError) in
            let view = try client.capture.recordView()
            _ = try view.value(at: "/")
            _ = try view.changes()
            try view.set("/aboutMe", to: "after restore")
            _ = try client.capture.sync()
        }
        Contract.expectReported("saved-files") { () throws(JumpError) in _ = try client.capture.loadFlow(force: false) }
    }
}
