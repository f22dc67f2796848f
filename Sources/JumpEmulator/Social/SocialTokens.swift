import GRDB

/// The Engage tokens Capture's social endpoints take (`token`, `merge_token`), and the state
/// auth_native leaves on them so a 310 or 380 can be followed up (docs/protocol.md §6.3).
enum SocialTokens {
    /// Values of `engage_tokens.capture_state`.
    enum State: String, Sendable {
        /// auth_native answered 310: register_native may use the token.
        case registration
        /// auth_native answered 380: a later sign-in may send it as `merge_token`.
        case merge
        /// Spent by a Capture call.
        case used
    }

    /// A token that exists, has not expired, was issued by the app's Engage app (when the app has
    /// one) and is not spent; else 200 invalid_argument naming `argument`.
    static func valid(
        _ text: String, argument: String, app: AppConfig, now: Double, in db: Database
    ) throws -> EngageTokenRow {
        guard let token = try EngageTokenRow.find(text, in: db),
            now < token.expiresAt,
            app.row.engageAppId.map({ $0 == token.engageAppId }) ?? true,
            token.captureState != State.used.rawValue
        else {
            throw CaptureError.invalidArgument(argument, "the \(argument) is not a valid Engage token")
        }
        return token
    }

    /// A valid token that auth_native of the same client left in `state`; else 200
    /// invalid_argument naming `argument` with `description`.
    static func valid(
        _ text: String, argument: String, state: State, app: AppConfig, now: Double, description: String,
        in db: Database
    ) throws -> EngageTokenRow {
        let token: EngageTokenRow
        do {
            token = try valid(text, argument: argument, app: app, now: now, in: db)
        } catch is CaptureError {
            throw CaptureError.invalidArgument(argument, description)
        }
        guard token.captureState == state.rawValue, token.captureClientId == app.clientId else {
            throw CaptureError.invalidArgument(argument, description)
        }
        return token
    }

    static func mark(_ token: EngageTokenRow, _ state: State, clientId: String, in db: Database) throws {
        var token = token
        token.captureState = state.rawValue
        token.captureClientId = clientId
        try token.update(db)
    }

    /// The `merge_token` of a sign-in: the token of an auth_native that answered 380 to this client.
    static func mergeToken(_ text: String, app: AppConfig, now: Double, in db: Database) throws -> EngageTokenRow {
        try valid(text, argument: "merge_token", state: .merge, app: app, now: now,
                  description: "the merge_token is not the token of a sign-in that answered 380", in: db)
    }
}
