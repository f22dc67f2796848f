import JumpRuntime

/// Capture's time, for what Capture checks against its own clock: the refresh's signed `date`
/// (docs/protocol.md §10.2). A device whose clock is minutes or days off signs with the server's time
/// (ServerClock, learned from every answer's `Date` and kept with the session), so its session survives.
extension CaptureSession {
    static let refreshPath = "/oauth/refresh_access_token"

    /// scheme://host[:port] of captureDomain, nil without Capture.
    var captureOrigin: String? { settings.base.map { ServerClock.origin(of: $0.base) } }

    /// Capture's clock minus this device's, in seconds; 0 until it is known.
    var captureClockOffset: Int64 { captureOrigin.map(serverClock.offset(for:)) ?? 0 }

    /// Epoch seconds by Capture's clock, as far as its answers told it.
    func captureNow() -> Int64 { Clock.now() &+ captureClockOffset }

    /// The offset a saved session kept, until Capture answers again; and the one to keep when it is saved.
    func restoreClockOffset(_ offset: Int64?) {
        if let offset, let origin = captureOrigin { serverClock.restore(offset, for: origin) }
    }

    func clockOffsetToSave() -> Int64? {
        captureOrigin.flatMap { serverClock.knows($0) ? serverClock.offset(for: $0) : nil }
    }

    /// Sends the refresh signed with `date`. Refused for that date (this device's clock was off before Capture
    /// ever answered, or a pending refresh is replayed too late), it is signed once more with Capture's time
    /// as that very answer's `Date` told it: a refusal retires nothing, so the new request is as safe as the
    /// first, and it is saved as pending before it is sent, like the first.
    func postRefresh(_ common: FormParameters, token: String, secret: String, date: String,
                     generation: UInt64) throws(JumpError) -> [String: JSON] {
        do {
            return try capture.post(Self.refreshPath, Self.signed(common, token: token, secret: secret, date: date), cancellation: nil)
        } catch where CaptureErrors.isRefusedDate(error) {
            let fresh = Clock.signatureDate(captureNow())
            guard fresh != date else { throw error }
            let stillOurs = state.withLock { s -> Bool in
                guard s.generation == generation, s.session?.accessToken == token else { return false }
                s.updateSession { $0.pendingRefresh = PendingRefresh(accessToken: token, date: fresh, startedAt: Clock.now()) }
                persist(&s)
                return true
            }
            guard stillOurs else { throw error }
            Log.debug("the refresh was refused for its date; signed again with Capture's time (offset \(captureClockOffset) s)")
            return try capture.post(Self.refreshPath, Self.signed(common, token: token, secret: secret, date: fresh), cancellation: nil)
        }
    }

    private static func signed(_ common: FormParameters, token: String, secret: String, date: String) -> FormParameters {
        var parameters = common
        parameters.add("access_token", token)
        parameters.add("date", date)
        parameters.add("signature", Secrets.refreshSignature(secret: secret, date: date, accessToken: token))
        return parameters
    }
}
