/// One saved account, as jump_client_accounts lists it.
public struct SavedAccount: Sendable {
    public let uuid: String
    public let email, displayName: String?
    /// False when its saved session could not be read (the index still names it): jump_client_restore
    /// tries again, a switch makes it active with its restore_error, a removal erases it.
    public let signedIn: Bool
    /// True when the server refused to refresh its token: the user must sign in again to use it.
    public let reauthenticationRequired: Bool
    /// Whether the client's calls go to it.
    public let active: Bool
    /// Epoch seconds: its last sign-in or switch; nil in "single" mode, which keeps no index.
    public let lastUsed: Int64?

    init(_ summary: CaptureSession.AccountSummary, active: Bool, lastUsed: Int64?) {
        uuid = summary.uuid
        email = summary.email
        displayName = summary.displayName
        signedIn = true
        reauthenticationRequired = summary.reauthenticationRequired
        self.active = active
        self.lastUsed = lastUsed
    }

    /// An account whose session could not be read, as the index remembers it.
    init(unreadable saved: AccountIndex.Account, active: Bool) {
        uuid = saved.uuid
        email = saved.email
        displayName = saved.displayName
        signedIn = false
        reauthenticationRequired = false
        self.active = active
        lastUsed = saved.lastUsed
    }
}
