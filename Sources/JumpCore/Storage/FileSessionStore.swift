import Glibc
import JumpRuntime

/// One file per installation, written atomically (temp file, fsync, rename, fsync of the directory),
/// mode 0600 inside a 0700 directory.
public final class FileSessionStore: SessionStore {
    public let directory: String
    public let path: String
    /// The lock other processes sharing the directory take turns on, and the file as last seen here
    /// (FileSessionStore+Sharing.swift).
    let sharing = Lock(Sharing())

    public init(directory: String, fileName: String) {
        self.directory = directory
        self.path = directory + "/" + fileName
    }

    public func load() throws(JumpError) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            if code == ENOENT { return nil }
            throw storageError("cannot open", code)
        }
        defer {
            close(fd)
            noteOwnAccess()
        }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw storageError("cannot read", errno)
            }
            if n == 0 { break }
            bytes.append(contentsOf: chunk[0..<n])
            if bytes.count > 64 << 20 { throw JumpError(.storage, "the saved session at \(path) is larger than 64 MiB") }
        }
        return bytes
    }

    public func save(_ bytes: [UInt8]) throws(JumpError) {
        try save { emit throws(JumpError) in try emit(bytes) }
    }

    /// Written to a temporary file as the pieces come, flushed, then renamed over the entry.
    public func save(streaming produce: (_ emit: ([UInt8]) throws(JumpError) -> Void) throws(JumpError) -> Void) throws(JumpError) {
        let temporary = path + ".tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        var fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd < 0 && errno == ENOENT {
            // First save: create the directory only now, not on every save (saves follow every edit).
            try FileSessionStore.makeDirectory(directory)
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        }
        guard fd >= 0 else { throw storageError("cannot create \(temporary) for", errno) }
        var ok = false
        var open = true
        defer {
            if open { close(fd) }
            if !ok { unlink(temporary) }
        }
        try produce { piece throws(JumpError) in
            if let code = FileSessionStore.writeAll(fd, piece) { throw storageError("cannot write", code) }
        }
        // fsync and rename wait for the disk: blocking steps, so that the pool lends this thread's fibers out.
        let flushed = FiberPool.blocking { fsync(fd) == 0 ? 0 : errno }
        if flushed != 0 { throw storageError("cannot flush", flushed) }
        open = false
        close(fd)
        let renamed = FiberPool.blocking { rename(temporary, path) == 0 ? 0 : errno }
        guard renamed == 0 else { throw storageError("cannot replace", renamed) }
        ok = true
        noteOwnAccess()
        syncDirectory()
    }

    /// Writes all of `bytes`; the errno of a failure, or nil.
    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress.map { $0 + offset }, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                return errno
            }
            offset += n
        }
        return nil
    }

    /// O_APPEND without fsync: the journal survives the process dying at any point (the kernel has the
    /// bytes); a power cut may lose the last edits, never the acknowledged record (full saves are fsync'd).
    public func append(_ bytes: [UInt8]) throws(JumpError) {
        var fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        if fd < 0 && errno == ENOENT {
            try FileSessionStore.makeDirectory(directory)
            fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        }
        guard fd >= 0 else { throw storageError("cannot open for appending", errno) }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress.map { $0 + offset }, $0.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw storageError("cannot append to", errno)
            }
            offset += n
        }
    }

    public var appendsCheaply: Bool { true }

    /// A rename: an unreadable file is set aside as it is, byte for byte.
    public func moveAside(to other: any SessionStore) throws(JumpError) -> Bool {
        guard let target = other as? FileSessionStore else { return try copyAside(to: other) }
        if rename(path, target.path) != 0 {
            if errno == ENOENT { return false }
            throw storageError("cannot set aside", errno)
        }
        syncDirectory()
        return true
    }

    /// Readies an existing storage directory when a client opens it: mode 0700 (it holds secrets), and the
    /// temporary files of saves that a crash interrupted removed (their rename never happened, so nothing
    /// refers to them). A directory that does not exist yet is created by the first save.
    static func openDirectory(_ directory: String) throws(JumpError) {
        var info = stat()
        guard stat(directory, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw JumpError(.storage, "the storage directory \(directory) is not a directory")
        }
        if info.st_mode & 0o077 != 0 && chmod(directory, 0o700) != 0 {
            throw JumpError(.storage, "the storage directory \(directory) is readable by other users (mode "
                            + String(info.st_mode & 0o777, radix: 8) + ") and cannot be made private: "
                            + String(cString: strerror(errno)), detail: ["errno": .int(Int64(errno))])
        }
        guard let listing = opendir(directory) else { return }
        defer { closedir(listing) }
        var stale: [String] = []
        while let entry = readdir(listing) {
            // Through a zeroed copy: readdir's buffer past the name's NUL is uninitialised, and the UTF-8
            // decoder reads a word at a time (harmless, but Valgrind reports every such read).
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw -> String in
                var bytes = [UInt8](repeating: 0, count: raw.count)
                let length = raw.firstIndex(of: 0) ?? raw.count
                bytes.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[..<length])) }
                return String(decoding: bytes[..<length], as: UTF8.self)
            }
            if name.contains(".json.tmp-") { stale.append(name) }
        }
        for name in stale where !isInUse(name) { unlink(directory + "/" + name) }
    }

    /// A temporary file named after a process that still runs may be another client's save in progress.
    private static func isInUse(_ name: String) -> Bool {
        guard let range = name.firstRange(of: ".json.tmp-"),
              let pid = Int32(name[range.upperBound...].prefix { $0 != "-" }) else { return false }
        return pid != getpid() && kill(pid, 0) == 0
    }

    public func erase() throws(JumpError) {
        if unlink(path) != 0 && errno != ENOENT { throw storageError("cannot delete", errno) }
        noteOwnAccess()
        syncDirectory()
    }

    private func syncDirectory() {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if fd >= 0 {
            _ = FiberPool.blocking { fsync(fd) }
            close(fd)
        }
    }

    private func storageError(_ what: String, _ code: Int32) -> JumpError {
        JumpError(.storage, "\(what) the session file \(path): \(String(cString: strerror(code)))",
                  detail: ["errno": .int(Int64(code))])
    }

    /// mkdir -p; the last component is created 0700 (parents 0700 too when we create them).
    static func makeDirectory(_ directory: String) throws(JumpError) {
        var prefix = directory.hasPrefix("/") ? "" : "."
        for component in directory.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw JumpError(.storage, "cannot create the storage directory \(prefix): \(String(cString: strerror(errno)))")
            }
        }
        var info = stat()
        guard stat(directory, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            throw JumpError(.storage, "the storage directory \(directory) is not a directory")
        }
    }
}
