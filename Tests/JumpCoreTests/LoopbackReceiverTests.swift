import Foundation
import Glibc
@testable import JumpCore
@testable import JumpRuntime
import Synchronization
import Testing

/// The loopback redirect receiver against real sockets: libcurl as the browser, raw sockets as the clients
/// a browser or a stranger may also send.
@Suite struct LoopbackReceiverTests {
    /// Runs `client` on its own thread while the test thread waits, as the host's browser would.
    private func waitWhile(_ receiver: LoopbackReceiver, timeoutMs: Int = 10_000, cancellation: Cancellation? = nil,
                           client: @escaping @Sendable () -> Void) -> Result<String, JumpError> {
        let done = Mutex(false)
        let thread = Thread {
            client()
            done.withLock { $0 = true }
        }
        thread.start()
        let result: Result<String, JumpError>
        do throws(JumpError) {
            result = .success(try receiver.waitForRedirect(timeoutMs: timeoutMs, cancellation: cancellation))
        } catch {
            result = .failure(error)
        }
        while !done.withLock({ $0 }) { Thread.sleep(forTimeInterval: 0.01) }
        return result
    }

    private static func curlGet(_ url: String) -> HTTPResponse? {
        try? CurlTransport(connectTimeoutMs: 2_000, requestTimeoutMs: 5_000)
            .send(HTTPRequest(method: "GET", url: url), cancellation: nil)
    }

    @Test func browserRedirectReturnsTheURLWithItsQuery() throws {
        let receiver = try LoopbackReceiver()
        let url = receiver.redirectURI + "?token=abc123&state=x%20y"
        let answer = Mutex<HTTPResponse?>(nil)
        let result = waitWhile(receiver) { answer.withLock { $0 = Self.curlGet(url) } }
        #expect(try result.get() == url)
        let response = try #require(answer.withLock { $0 })
        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self).contains("Sign-in received. You may close this window"))
        #expect(response.headers.contains { $0.0.lowercased() == "cache-control" && $0.1 == "no-store" })
    }

    @Test func redirectWithoutQueryReturnsThePlainURI() throws {
        let receiver = try LoopbackReceiver(path: "/cb")
        let result = waitWhile(receiver) { _ = Self.curlGet(receiver.redirectURI) }
        #expect(try result.get() == "http://127.0.0.1:\(receiver.port)/cb")
    }

    @Test func otherPathsAndMethodsDoNotEndTheWait() throws {
        let receiver = try LoopbackReceiver()
        let answers = Mutex<[String]>([])
        let port = receiver.port
        let result = waitWhile(receiver) {
            for request in ["GET /favicon.ico HTTP/1.1\r\nHost: x\r\n\r\n",
                            "HEAD /jump/callback?token=t HTTP/1.1\r\nHost: x\r\n\r\n",
                            "POST /jump/callback HTTP/1.1\r\nContent-Length: 0\r\n\r\n"] {
                let answer = RawClient.exchange(port: port, Array(request.utf8))
                answers.withLock { $0.append(answer) }
            }
            _ = Self.curlGet("http://127.0.0.1:\(port)/jump/callback?token=real")
        }
        #expect(try result.get().hasSuffix("/jump/callback?token=real"))
        let seen = answers.withLock { $0 }
        #expect(seen.count == 3)
        #expect(seen.first?.hasPrefix("HTTP/1.1 404 ") == true)
        #expect(seen.dropFirst().allSatisfy { $0.hasPrefix("HTTP/1.1 405 ") && $0.contains("Allow: GET") })
    }

    @Test func garbageIsRefusedAndTheWaitGoesOn() throws {
        let receiver = try LoopbackReceiver()
        let answers = Mutex<[String]>([])
        let port = receiver.port
        let garbage: [[UInt8]] = [
            [0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0xFF],  // a TLS ClientHello
            Array("GARBAGE\r\n\r\n".utf8),
            Array("GET /jump/callback HTTP/9.9\r\n\r\n".utf8),
            Array("GET  /jump/callback HTTP/1.1\r\n\r\n".utf8),
            Array("G\u{1}T /jump/callback HTTP/1.1\r\n\r\n".utf8),
            Array("GET /jump/callback?" .utf8) + [UInt8](repeating: 0x61, count: 20_000),
            Array("GET /jump/callback HTTP/1.1\r\nX: ".utf8) + [UInt8](repeating: 0x62, count: 20_000),
        ]
        let result = waitWhile(receiver) {
            for bytes in garbage {
                let answer = RawClient.exchange(port: port, bytes)
                answers.withLock { $0.append(answer) }
            }
            _ = Self.curlGet("http://127.0.0.1:\(port)/jump/callback?token=after")
        }
        #expect(try result.get().hasSuffix("?token=after"))
        let seen = answers.withLock { $0 }.map { String($0.prefix(12)) }
        #expect(seen == ["HTTP/1.1 400", "HTTP/1.1 400", "HTTP/1.1 400", "HTTP/1.1 400", "HTTP/1.1 400",
                         "HTTP/1.1 431", "HTTP/1.1 431"])
    }

    @Test func peersThatHangUpEarlyAreForgotten() throws {
        let receiver = try LoopbackReceiver()
        let port = receiver.port
        let result = waitWhile(receiver) {
            RawClient.sendAndClose(port: port, Array("GET /jump/call".utf8))
            RawClient.sendAndClose(port: port, [])
            _ = Self.curlGet("http://127.0.0.1:\(port)/jump/callback?token=ok")
        }
        #expect(try result.get().hasSuffix("?token=ok"))
    }

    @Test func silentConnectionsDoNotHoldUpTheRedirect() throws {
        let receiver = try LoopbackReceiver()
        let port = receiver.port
        let started = Clock.monotonicMilliseconds()
        let result = waitWhile(receiver) {
            let silent = (0..<40).compactMap { _ in RawClient.connect(port: port) }
            _ = Self.curlGet("http://127.0.0.1:\(port)/jump/callback?token=quick")
            for fd in silent { close(fd) }
        }
        #expect(try result.get().hasSuffix("?token=quick"))
        #expect(Clock.monotonicMilliseconds() - started < 3_000)
    }

    @Test func aSilentClientIsDroppedAfterFiveSecondsWithoutEndingTheWait() throws {
        let receiver = try LoopbackReceiver()
        let port = receiver.port
        let droppedAfterMs = Mutex<Int64?>(nil)
        let result = waitWhile(receiver) {
            guard let fd = RawClient.connect(port: port) else { return }
            let started = Clock.monotonicMilliseconds()
            var byte: UInt8 = 0
            var timeout = timeval(tv_sec: 8, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let got = recv(fd, &byte, 1, 0)
            if got == 0 { droppedAfterMs.withLock { $0 = Clock.monotonicMilliseconds() - started } }
            close(fd)
            _ = Self.curlGet("http://127.0.0.1:\(port)/jump/callback?token=late")
        }
        #expect(try result.get().hasSuffix("?token=late"))
        let dropped = try #require(droppedAfterMs.withLock { $0 })
        #expect(dropped >= 4_900 && dropped < 6_500)
    }

    @Test func timesOut() throws {
        let receiver = try LoopbackReceiver()
        let started = Clock.monotonicMilliseconds()
        let error = #expect(throws: JumpError.self) { try receiver.waitForRedirect(timeoutMs: 300, cancellation: nil) }
        let elapsed = Clock.monotonicMilliseconds() - started
        #expect(error?.status == .timeout)
        #expect(elapsed >= 300 && elapsed < 1_500)
        let immediate = #expect(throws: JumpError.self) { try receiver.waitForRedirect(timeoutMs: 0, cancellation: nil) }
        #expect(immediate?.status == .timeout)
    }

    @Test func cancellationStopsTheWaitWithinAPollInterval() throws {
        let receiver = try LoopbackReceiver()
        let cancellation = Cancellation()
        let cancelledAt = Mutex<Int64>(0)
        let result = waitWhile(receiver, timeoutMs: 10_000, cancellation: cancellation) {
            Thread.sleep(forTimeInterval: 0.3)
            cancelledAt.withLock { $0 = Clock.monotonicMilliseconds() }
            cancellation.cancel()
        }
        let ended = Clock.monotonicMilliseconds()
        guard case .failure(let error) = result else {
            Issue.record("the wait should have been cancelled")
            return
        }
        #expect(error.status == .cancelled)
        let lag = ended - cancelledAt.withLock { $0 }
        #expect(lag < 200, "stopped \(lag) ms after the cancellation")
    }

    @Test func closeEndsAWaitAndIsIdempotent() throws {
        let receiver = try LoopbackReceiver()
        let result = waitWhile(receiver) {
            Thread.sleep(forTimeInterval: 0.2)
            receiver.close()
            receiver.close()
        }
        guard case .failure(let error) = result else {
            Issue.record("the wait should have ended")
            return
        }
        #expect(error.status == .cancelled)
        receiver.close()
        let again = #expect(throws: JumpError.self) { try receiver.waitForRedirect(timeoutMs: 100, cancellation: nil) }
        #expect(again?.status == .cancelled)
        #expect(RawClient.connect(port: receiver.port).map { close($0) } == nil)
    }

    @Test func receiversGetTheirOwnPorts() throws {
        let first = try LoopbackReceiver()
        let second = try LoopbackReceiver(path: "/other")
        #expect(first.port > 0 && second.port > 0 && first.port != second.port)
        #expect(first.redirectURI == "http://127.0.0.1:\(first.port)/jump/callback")
        #expect(second.redirectURI == "http://127.0.0.1:\(second.port)/other")
    }

    @Test(arguments: ["", "callback", "/a?b", "/a#b", "/a b", "/é"])
    func refusesUnusablePaths(_ path: String) {
        let error = #expect(throws: JumpError.self) { try LoopbackReceiver(path: path) }
        #expect(error?.status == .invalidArgument)
        #expect(error?.detail["argument"] == "path")
    }

    @Test func requestLinesAreParsedStrictly() {
        func parse(_ line: String) -> LoopbackRequestLine? { LoopbackRequestLine(ArraySlice(Array(line.utf8))) }
        #expect(parse("GET /cb?a=1 HTTP/1.1\r") == LoopbackRequestLine(method: "GET", path: "/cb", query: "a=1"))
        #expect(parse("GET /cb HTTP/1.0") == LoopbackRequestLine(method: "GET", path: "/cb", query: nil))
        #expect(parse("GET /cb? HTTP/1.1") == LoopbackRequestLine(method: "GET", path: "/cb", query: ""))
        #expect(parse("GET /cb?a#frag HTTP/1.1") == LoopbackRequestLine(method: "GET", path: "/cb", query: "a"))
        #expect(parse("GET HTTP://127.0.0.1:9/cb?t=1 HTTP/1.1") == LoopbackRequestLine(method: "GET", path: "/cb", query: "t=1"))
        #expect(parse("GET http://127.0.0.1:9 HTTP/1.1") == LoopbackRequestLine(method: "GET", path: "/", query: nil))
        let raw = LoopbackRequestLine(ArraySlice(Array("GET /cb?n=".utf8) + [0xC3, 0xA9] + Array(" HTTP/1.1".utf8)))
        #expect(raw?.query == "n=%C3%A9")
        for bad in ["GET /cb", "GET /cb HTTP/2", "GET cb HTTP/1.1", "GET /cb HTTP/1.1 x", "G(T /cb HTTP/1.1",
                    "GET /c\tb HTTP/1.1", " GET /cb HTTP/1.1", "", "GET * HTTP/1.1"] {
            #expect(parse(bad) == nil, "\(bad)")
        }
    }
}

/// A client that speaks raw bytes, for what libcurl would never send.
private enum RawClient {
    static func connect(port: Int) -> Int32? {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr = in_addr(s_addr: UInt32(0x7F00_0001).bigEndian)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// Sends `bytes` and reads the answer until the receiver closes (or 5 s pass).
    static func exchange(port: Int, _ bytes: [UInt8]) -> String {
        guard let fd = connect(port: port) else { return "" }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // The receiver may answer and close before everything is written (an oversized head).
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var answer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let got = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard got > 0 else { break }
            answer += chunk.prefix(got)
        }
        return String(decoding: answer, as: UTF8.self)
    }

    static func sendAndClose(port: Int, _ bytes: [UInt8]) {
        guard let fd = connect(port: port) else { return }
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        close(fd)
    }
}
