import JumpRuntime

/// How a sign-in finds the session that adopts it (CaptureSession.startSession): the same user's saved
/// account, else the signing-in session when it is empty, else a new account's (CaptureAccounts).
protocol AccountRouting: AnyObject, Sendable {
    func sessionToAdopt(uuid: String?, signingInOn source: CaptureSession) throws(JumpError) -> CaptureSession
    func adopted(_ session: CaptureSession)
}

/// A session's weak link to its client's accounts (none in "single" mode): the accounts own the sessions, so
/// a strong link would keep both alive for ever.
final class AccountRoutingLink: Sendable {
    private struct Weak { weak var target: (any AccountRouting)? }
    private let link = Lock(Weak())

    func set(_ target: any AccountRouting) { link.withLock { $0.target = target } }
    var target: (any AccountRouting)? { link.withLock { $0.target } }
}
