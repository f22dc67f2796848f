import Glibc
import Testing
@testable import JumpCore

@Suite struct SessionStoreTests {
    func temporaryDirectory() -> String {
        var template = Array("/tmp/jumpcore-test-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { buf in
            guard let base = buf.baseAddress, mkdtemp(base) != nil else { return "/tmp" }
            return String(cString: base)
        }
    }

    let session = Session(sessionID: "s1", accessToken: "tok", refreshSecret: "sec", accessTokenExpiresAt: 99,
                          reauthenticationRequired: false,
                          record: UserRecord(baseline: ["aboutMe": nil, "uuid": "u"], current: ["aboutMe": "x", "uuid": "u"]))

    @Test func savesAtomicallyWithPrivateModes() throws {
        let dir = temporaryDirectory() + "/nested/store"
        let store = FileSessionStore(directory: dir, fileName: "s.json")
        #expect(try store.load() == nil)
        try store.save(SessionCodec.encode(session))
        var info = stat()
        #expect(stat(store.path, &info) == 0 && info.st_mode & 0o777 == 0o600)
        #expect(stat(dir, &info) == 0 && info.st_mode & 0o777 == 0o700)
        let loaded = try SessionCodec.decode(try #require(try store.load()))
        #expect(loaded == session)
        #expect(loaded.record.plan(schema: nil).first?.changed == ["/aboutMe"])
        try store.erase()
        #expect(try store.load() == nil)
    }

    @Test func readErrorIsNotSignedOut() throws {
        let dir = temporaryDirectory()
        let store = FileSessionStore(directory: dir, fileName: "s.json")
        #expect(mkdir(store.path, 0o700) == 0)  // a directory where the file should be: read fails
        let error = #expect(throws: JumpError.self) { try store.load() }
        #expect(error?.status == .storage)
    }

    @Test func corruptOrForeignFilesAreStorageErrors() {
        for bytes in [Array("{not json".utf8), Array("{}".utf8), Array(#"{"format":"libjump-session","version":9}"#.utf8)] {
            let error = #expect(throws: JumpError.self) { try SessionCodec.decode(bytes) }
            #expect(error?.status == .storage)
        }
    }
}
