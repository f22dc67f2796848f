import JumpRuntime

/// Several accounts in one client (`accounts` "multiple", CaptureAccounts): list, switch, remove.
extension JumpClient {
    /// The saved accounts, the most recently used first (in "single" mode: the signed-in user, if any).
    public func savedAccounts() throws(JumpError) -> [SavedAccount] { try accounts.list() }

    /// Makes the saved account of `uuid` active without a password, and refreshes its token first when it
    /// is stale. A refresh that fails leaves the switch done: the account's state says whether its user must
    /// sign in again, and the next call that needs a token tries again.
    public func switchAccount(uuid: String, cancellation: Cancellation? = nil) throws(JumpError) {
        let session = try accounts.switchTo(uuid: uuid)
        do throws(JumpError) {
            _ = try session.accessToken(cancellation: cancellation)
        } catch {
            Log.info("switched to a saved account whose token could not be refreshed now: \(error.message)")
        }
    }

    /// Signs the account of `uuid` out and erases everything of it on storage (session, journal, quarantine,
    /// secrets); the other accounts stay signed in. Capture has no token revocation: its refresh secret is
    /// erased with the session.
    public func removeAccount(uuid: String) throws(JumpError) {
        try accounts.remove(uuid: uuid)
        emit(.signedOut(uuid: uuid))
    }
}
