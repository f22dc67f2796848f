import Glibc
import JumpRuntime

/// The RFC 8252 loopback redirect for desktop and command-line hosts: listens on 127.0.0.1 at a port the
/// system picks, and waits for the browser to land on `redirectURI`. Anything else that connects (favicon
/// requests, speculative connections, stray clients) is answered or dropped without ending the wait.
final class LoopbackReceiver: Sendable {
    /// Beyond this many open connections the least recently active one is dropped, so that a flood of
    /// silent connections cannot starve the browser's.
    static let maximumConnections = 32
    static let pollMilliseconds: Int64 = 100

    private struct State {
        var fd: Int32
        var waiting = false
        /// close() during a wait leaves the socket to the wait, so the descriptor cannot be reused under it.
        var closeRequested = false
    }

    private let state: Lock<State>
    let port: Int
    let path: String

    var redirectURI: String { "http://127.0.0.1:\(port)\(path)" }

    init(path: String = "/jump/callback") throws(JumpError) {
        guard path.hasPrefix("/"), path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#") })
        else {
            throw .invalidArgument("the loopback path must start with \"/\" and hold only visible ASCII without \"?\" or \"#\"",
                                   argument: "path")
        }
        let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        let fd = socket(AF_INET, flags, 0)
        guard fd >= 0 else { throw Self.socketError("socket", errno) }
        do throws(JumpError) {
            self.port = try Self.listen(fd)
        } catch {
            _ = Glibc.close(fd)
            throw error
        }
        self.path = path
        self.state = Lock(State(fd: fd))
    }

    deinit {
        let fd = state.withLock { $0.fd }
        if fd >= 0 { _ = Glibc.close(fd) }
    }

    /// Idempotent; during a wait it ends the wait (JUMP_E_CANCELLED) within pollMilliseconds.
    func close() {
        let fd = state.withLock { state -> Int32 in
            if state.waiting {
                state.closeRequested = true
                return -1
            }
            let fd = state.fd
            state.fd = -1
            return fd
        }
        if fd >= 0 { _ = Glibc.close(fd) }
    }

    /// Serves connections until a GET for `path` arrives, answers it with a "you may close this window"
    /// page and returns the URL it asked for ("http://127.0.0.1:<port><path>[?<query>]"). timeoutMs <= 0
    /// times out at once. Only one wait at a time (JUMP_E_BUSY otherwise).
    /// `accepts` tells the awaited redirect from stray ones (another tab, a stale link, a local process
    /// probing the port): those are refused with 400 and the wait goes on.
    func waitForRedirect(timeoutMs: Int, cancellation: Cancellation?,
                         accepts: (String) -> Bool = { _ in true }) throws(JumpError) -> String {
        let listener = try beginWait()
        defer { endWait() }
        var connections: [LoopbackConnection] = []
        defer { for connection in connections { connection.close() } }
        let started = Clock.monotonicMilliseconds()
        let (sum, overflow) = started.addingReportingOverflow(Int64(max(0, timeoutMs)))
        let deadline = overflow ? Int64.max : sum

        while true {
            try cancellation?.check()
            if state.withLock({ $0.closeRequested }) {
                throw JumpError(.cancelled, "the loopback receiver was closed")
            }
            let now = Clock.monotonicMilliseconds()
            connections.removeAll { connection in
                guard now >= connection.expiresAtMs else { return false }
                connection.close()
                return true
            }
            if now >= deadline {
                throw JumpError(.timeout, "the browser did not come back to \(redirectURI) within \(timeoutMs) ms")
            }
            var waitMs = min(Self.pollMilliseconds, deadline - now)
            for connection in connections {
                waitMs = min(waitMs, max(0, connection.expiresAtMs - now))
            }
            var entries = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            entries += connections.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&entries, nfds_t(entries.count), Int32(waitMs))
            if ready < 0 {
                if errno == EINTR { continue }
                throw Self.socketError("poll", errno)
            }
            guard ready > 0 else { continue }

            let readAt = Clock.monotonicMilliseconds()
            for (connection, entry) in zip(connections, entries.dropFirst()) where entry.revents != 0 {
                if let url = serve(connection, now: readAt, accepts: accepts) { return url }
            }
            connections.removeAll { $0.isClosed }
            if let listening = entries.first, listening.revents != 0 {
                accept(from: listener, into: &connections, now: readAt)
            }
        }
    }

    private func beginWait() throws(JumpError) -> Int32 {
        enum Outcome { case ready(Int32), closed, busy }
        let outcome = state.withLock { state -> Outcome in
            guard state.fd >= 0, !state.closeRequested else { return .closed }
            guard !state.waiting else { return .busy }
            state.waiting = true
            return .ready(state.fd)
        }
        switch outcome {
        case .ready(let fd): return fd
        case .closed: throw JumpError(.cancelled, "the loopback receiver was closed")
        case .busy: throw JumpError(.busy, "the loopback receiver is already waiting for a redirect")
        }
    }

    private func endWait() {
        let fd = state.withLock { state -> Int32 in
            state.waiting = false
            guard state.closeRequested else { return -1 }
            let fd = state.fd
            state.fd = -1
            return fd
        }
        if fd >= 0 { _ = Glibc.close(fd) }
    }

    /// The redirect URL once `connection` delivered the GET for `path`; nil while the wait goes on.
    private func serve(_ connection: LoopbackConnection, now: Int64, accepts: (String) -> Bool) -> String? {
        connection.readAvailable(now: now)
        if connection.isDraining {
            if connection.peerClosed { connection.close() }
            return nil
        }
        switch connection.progress {
        case .incomplete:
            if connection.peerClosed { connection.close() }
            return nil
        case .malformed:
            answer(connection, .badRequest, method: "?", now: now)
            return nil
        case .tooLarge:
            answer(connection, .headTooLarge, method: "?", now: now)
            return nil
        case .request(let line):
            guard line.path == path else {
                answer(connection, .notFound, method: line.method, now: now)
                return nil
            }
            guard line.method == "GET" else {
                answer(connection, .methodNotAllowed, method: line.method, now: now)
                return nil
            }
            let url = redirectURI + (line.query.map { "?" + $0 } ?? "")
            guard accepts(url) else {
                answer(connection, .notAwaited, method: line.method, now: now)
                return nil
            }
            answer(connection, .signInReceived, method: line.method, now: now)
            return url
        }
    }

    /// The target is not logged: the redirect's query holds the sign-in token.
    private func answer(_ connection: LoopbackConnection, _ response: LoopbackResponse, method: String, now: Int64) {
        connection.respond(response, now: now)
        Log.debug("loopback receiver on port \(port): \(method) -> \(response.statusCode)")
    }

    private func accept(from listener: Int32, into connections: inout [LoopbackConnection], now: Int64) {
        // Bounded so that a connect storm cannot keep the loop from checking cancellation.
        for _ in 0..<16 {
            // accept4 is not exported to Swift; the flags are set right after instead.
            let fd = Glibc.accept(listener, nil, nil)
            guard fd >= 0 else {
                if errno == EINTR || errno == ECONNABORTED { continue }
                return
            }
            guard fcntl(fd, F_SETFD, FD_CLOEXEC) == 0, fcntl(fd, F_SETFL, O_NONBLOCK) == 0 else {
                _ = Glibc.close(fd)
                continue
            }
            if connections.count >= Self.maximumConnections,
               let oldest = connections.indices.min(by: { connections[$0].lastActivityMs < connections[$1].lastActivityMs }) {
                connections.remove(at: oldest).close()
            }
            connections.append(LoopbackConnection(fd: fd, now: now))
        }
    }

    /// SO_REUSEADDR so that a quickly restarted host is not refused while an old port sits in TIME_WAIT.
    private static func listen(_ fd: Int32) throws(JumpError) -> Int {
        var one: Int32 = 1
        guard setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw socketError("setsockopt", errno)
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw socketError("bind", errno) }
        guard Glibc.listen(fd, 16) == 0 else { throw socketError("listen", errno) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else { throw socketError("getsockname", errno) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func socketError(_ call: String, _ code: Int32) -> JumpError {
        JumpError(.network, "cannot listen on 127.0.0.1 for the sign-in redirect: \(call) failed: \(String(cString: strerror(code)))",
                  detail: ["errno": .int(Int64(code))])
    }
}
