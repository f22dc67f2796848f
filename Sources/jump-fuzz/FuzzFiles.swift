import Glibc

/// The few file operations the harness needs (JumpCore's own are internal to its stores).
enum FuzzFiles {
    static func list(_ directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n <= 0 { break }
            bytes += buffer[0..<n]
        }
        return bytes
    }

    static func write(_ path: String, _ bytes: [UInt8]) {
        guard let file = fopen(path, "wb") else { return }
        _ = bytes.withUnsafeBufferPointer { fwrite($0.baseAddress, 1, $0.count, file) }
        fclose(file)
    }

    static func makeTemporaryDirectory(_ prefix: String) -> String {
        var template = Array("/tmp/\(prefix)XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { return "/tmp" }
        return String(cString: made)
    }

    /// Empties a directory of plain files (the client's storage directory: it makes no subdirectories).
    static func empty(_ directory: String) {
        for name in list(directory) { unlink(directory + "/" + name) }
    }

    static func copy(from source: String, to destination: String) {
        for name in list(source) {
            if let bytes = read(source + "/" + name) { write(destination + "/" + name, bytes) }
        }
    }
}
