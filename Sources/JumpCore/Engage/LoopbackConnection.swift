import Glibc

/// One accepted connection to the loopback receiver, collecting its request head. Owned by a single wait
/// loop; the socket is non-blocking so a silent or slow client never stalls the others.
final class LoopbackConnection {
    /// Enough for any redirect URL a provider produces; a longer head is not a browser redirect.
    static let maximumHeadBytes = 16 * 1024
    /// Browsers open speculative connections that may never carry a request; they are dropped after this.
    static let idleMilliseconds: Int64 = 5_000
    /// How long an answered client may keep sending before it is closed anyway.
    static let drainMilliseconds: Int64 = 2_000

    enum Progress: Equatable {
        case incomplete
        case request(LoopbackRequestLine)
        case malformed
        case tooLarge
    }

    private(set) var fd: Int32
    private var head: [UInt8] = []
    private(set) var lastActivityMs: Int64
    private(set) var peerClosed = false
    /// Set once answered: what the client still sends is read and discarded until it hangs up, because
    /// closing with unread bytes resets the connection and the client may lose the answer.
    private var drainUntilMs: Int64?

    init(fd: Int32, now: Int64) {
        self.fd = fd
        self.lastActivityMs = now
    }

    deinit { close() }

    var isClosed: Bool { fd < 0 }
    var isDraining: Bool { drainUntilMs != nil }

    /// When the connection is dropped if nothing else happens.
    var expiresAtMs: Int64 { drainUntilMs ?? (lastActivityMs + Self.idleMilliseconds) }

    /// Reads what is available without blocking. A read error counts as the peer going away.
    func readAvailable(now: Int64) {
        guard !isClosed else { return }
        var chunk = [UInt8](repeating: 0, count: 4096)
        // A client flooding an answered connection must not keep the wait loop here.
        var drainReads = 0
        while isDraining ? drainReads < 16 : head.count < Self.maximumHeadBytes {
            if isDraining { drainReads += 1 }
            let wanted = isDraining ? chunk.count : min(chunk.count, Self.maximumHeadBytes - head.count)
            let got = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, wanted, 0) }
            if got > 0 {
                if !isDraining {
                    head.append(contentsOf: chunk.prefix(got))
                    lastActivityMs = now
                }
                continue
            }
            if got < 0 && errno == EINTR { continue }
            if got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return }
            peerClosed = true
            return
        }
    }

    /// Answers as soon as the outcome is known: garbage before the end of the first line is refused at
    /// once (a TLS ClientHello, say), a good request line waits for the blank line that ends the head so
    /// that closing afterwards does not reset the connection under the browser.
    var progress: Progress {
        var start = head.startIndex
        while start < head.endIndex, head[start] == UInt8(ascii: "\r") || head[start] == UInt8(ascii: "\n") {
            start += 1
        }
        let rest = head[start...]
        guard let lineEnd = rest.firstIndex(of: UInt8(ascii: "\n")) else {
            if rest.contains(where: { !Self.isRequestLineByte($0) }) { return .malformed }
            return head.count >= Self.maximumHeadBytes ? .tooLarge : .incomplete
        }
        guard let line = LoopbackRequestLine(rest[..<lineEnd]) else { return .malformed }
        if Self.headEnds(in: head[lineEnd...]) { return .request(line) }
        return head.count >= Self.maximumHeadBytes ? .tooLarge : .incomplete
    }

    /// One attempt, never a wait: the answers are a few hundred bytes and a fresh socket's send buffer
    /// holds far more, so only a client that stopped reading could refuse them, and it gets nothing more.
    /// Afterwards the connection drains.
    func respond(_ response: LoopbackResponse, now: Int64) {
        guard !isClosed, !isDraining else { return }
        drainUntilMs = now + Self.drainMilliseconds
        let bytes = response.bytes
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return send(fd, base + sent, bytes.count - sent, Int32(MSG_NOSIGNAL))
            }
            if n > 0 {
                sent += n
            } else if n < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        _ = shutdown(fd, Int32(SHUT_WR))
    }

    func close() {
        guard fd >= 0 else { return }
        _ = Glibc.close(fd)
        fd = -1
    }

    /// The request line's bytes, and the CR of its CRLF.
    private static func isRequestLineByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\r") || LoopbackRequestLine.isTargetByte(byte)
    }

    /// `bytes` starts at the LF ending the request line; the head ends at the first empty line.
    private static func headEnds(in bytes: ArraySlice<UInt8>) -> Bool {
        var previousLF = false
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                if previousLF { return true }
                previousLF = true
            } else if byte != UInt8(ascii: "\r") {
                previousLF = false
            }
            index += 1
        }
        return false
    }
}
