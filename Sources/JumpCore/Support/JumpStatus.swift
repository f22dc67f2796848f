/// The stable status codes of the C ABI (jump.h `jump_status`). Never renumber; only append.
public enum JumpStatus: Int32, Sendable, CaseIterable {
    case ok = 0
    case invalidArgument = -1
    case invalidHandle = -2
    case network = -3
    case timeout = -4
    case server = -5
    case notSignedIn = -6
    case badCredentials = -7
    case mergeRequired = -8
    case registrationRequired = -9
    case validation = -10
    case notFound = -11
    case expired = -12
    case storage = -13
    case cancelled = -14
    case unsupported = -15
    case busy = -16
    case `internal` = -17
    case conflict = -18
    case alreadySignedIn = -19

    /// The C enumerator's name, e.g. "JUMP_E_NETWORK".
    public var name: String {
        switch self {
        case .ok: return "JUMP_OK"
        case .invalidArgument: return "JUMP_E_INVALID_ARGUMENT"
        case .invalidHandle: return "JUMP_E_INVALID_HANDLE"
        case .network: return "JUMP_E_NETWORK"
        case .timeout: return "JUMP_E_TIMEOUT"
        case .server: return "JUMP_E_SERVER"
        case .notSignedIn: return "JUMP_E_NOT_SIGNED_IN"
        case .badCredentials: return "JUMP_E_BAD_CREDENTIALS"
        case .mergeRequired: return "JUMP_E_MERGE_REQUIRED"
        case .registrationRequired: return "JUMP_E_REGISTRATION_REQUIRED"
        case .validation: return "JUMP_E_VALIDATION"
        case .notFound: return "JUMP_E_NOT_FOUND"
        case .expired: return "JUMP_E_EXPIRED"
        case .storage: return "JUMP_E_STORAGE"
        case .cancelled: return "JUMP_E_CANCELLED"
        case .unsupported: return "JUMP_E_UNSUPPORTED"
        case .busy: return "JUMP_E_BUSY"
        case .internal: return "JUMP_E_INTERNAL"
        case .conflict: return "JUMP_E_CONFLICT"
        case .alreadySignedIn: return "JUMP_E_ALREADY_SIGNED_IN"
        }
    }

    /// A short human description (jump_status_str).
    public var summary: String {
        switch self {
        case .ok: return "success"
        case .invalidArgument: return "invalid argument"
        case .invalidHandle: return "invalid handle (NULL, freed or of the wrong kind)"
        case .network: return "network error: the server could not be reached"
        case .timeout: return "the server did not answer in time"
        case .server: return "the server answered with an error or an unreadable response"
        case .notSignedIn: return "no user is signed in"
        case .badCredentials: return "wrong user name, email or password"
        case .mergeRequired: return "the email belongs to another identity: merge the accounts"
        case .registrationRequired: return "registration required before sign-in"
        case .validation: return "form validation failed"
        case .notFound: return "not found"
        case .expired: return "the session expired: sign in again"
        case .storage: return "the session store could not be read or written"
        case .cancelled: return "cancelled"
        case .unsupported: return "not supported"
        case .busy: return "busy: the call would deadlock or conflict"
        case .internal: return "internal error in libjump"
        case .conflict: return "the record changed both locally and on the server"
        case .alreadySignedIn: return "another user is signed in: sign out first"
        }
    }
}
