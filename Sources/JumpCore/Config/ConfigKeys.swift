/// The configuration keys (named as in docs/protocol.md §3), their types and defaults.
enum ConfigKey: String, CaseIterable, Sendable {
    case captureDomain, captureClientId, captureLocale, captureAppId, captureFlowName, captureFlowVersion
    case captureFlowDomain
    case captureTraditionalSignInFormName, captureTraditionalRegistrationFormName
    case captureSocialRegistrationFormName, captureEditUserProfileFormName, captureForgotPasswordFormName
    case captureResendEmailVerificationFormName, captureChangePasswordFormName
    case captureSchemaFile
    case signInTokenAuthBaseUrl, signInTokenApiBaseUrl, apiKeyHeader, webLoginCookieName
    case captureEnableThinRegistration, captureRedirectUri, captureResponseType
    case engageAppId, engageDomain, engageWhitelistedDomain, engageResponseType, engageCustomProviders, engageTokenUrl
    case engageDevice, userAgentApp, emulatorHost
    case storageDirectory, secretStore, connectTimeoutMs, requestTimeoutMs, operationTimeoutMs, tokenRefreshMarginSeconds
    case maxResponseBytes
    case maxRetries, proxy, caFile, pinnedPublicKeys, accounts

    enum Kind { case string, bool, int, object, list }

    var kind: Kind {
        switch self {
        case .captureEnableThinRegistration: return .bool
        case .connectTimeoutMs, .requestTimeoutMs, .operationTimeoutMs, .tokenRefreshMarginSeconds, .maxResponseBytes, .maxRetries:
            return .int
        case .engageCustomProviders: return .object
        case .pinnedPublicKeys: return .list
        default: return .string
        }
    }

    /// nil: no default (the key is unset until given).
    var defaultValue: JSON? {
        switch self {
        case .captureLocale: return "en-US"
        case .captureFlowVersion: return "HEAD"
        case .captureFlowDomain: return "https://d1lqe9temigv1p.cloudfront.net"
        case .captureTraditionalSignInFormName: return "signInForm"
        case .captureTraditionalRegistrationFormName: return "registrationForm"
        case .captureSocialRegistrationFormName: return "socialRegistrationForm"
        case .captureEditUserProfileFormName: return "editProfileForm"
        case .captureForgotPasswordFormName: return "forgotPasswordForm"
        case .captureResendEmailVerificationFormName: return "resendVerificationForm"
        case .captureChangePasswordFormName: return "changePasswordForm"
        case .captureEnableThinRegistration: return false
        case .captureResponseType: return "token"
        case .engageDomain: return "https://rpxnow.com"
        case .engageResponseType: return "token_profile"
        case .engageDevice: return "android"
        case .connectTimeoutMs: return 10_000
        case .requestTimeoutMs: return 30_000
        // None: each wait keeps its own bound, as before the key existed (docs/config.md).
        case .operationTimeoutMs: return 0
        case .tokenRefreshMarginSeconds: return 60
        // A 100 000-element record is about 8 MiB as Capture sends it: twice that, and no more, because a
        // hostile or broken server must not make the host hold (and parse) hundreds of megabytes.
        case .maxResponseBytes: return 16_777_216
        case .maxRetries: return 2
        case .apiKeyHeader: return "x-jump-api-key"
        case .webLoginCookieName: return "oauth_token"
        case .secretStore: return "auto"
        case .accounts: return "single"
        default: return nil
        }
    }

    /// An int key's default (0 for a key of another kind), for code that takes the value without a JumpConfig.
    var defaultInt: Int64 { defaultValue?.intValue ?? 0 }

    /// Values outside these sets are refused when set, not when used.
    var allowedValues: [String]? {
        switch self {
        case .captureResponseType: return ["token", "code_and_token"]
        case .engageResponseType: return ["token_profile", "token"]
        // Engage's mobile endpoints know these device types; each has its own provider set in the app's
        // Engage dashboard. libjump is neither, so it says so in a config key rather than pretending.
        case .engageDevice: return ["android", "iphone", "ipad"]
        // Where secrets go with storageDirectory (ClientStorage): the Secret Service when it answers, else
        // files ("auto"); the Secret Service or JUMP_E_STORAGE; files, as before the Secret Service.
        case .secretStore: return ["auto", "secret-service", "file"]
        // One signed-in user per client, as always; or several, one of them active (CaptureAccounts).
        case .accounts: return ["single", "multiple"]
        default: return nil
        }
    }

    var allowedRange: ClosedRange<Int64>? {
        switch self {
        case .connectTimeoutMs, .requestTimeoutMs: return 1...600_000
        case .operationTimeoutMs: return 0...3_600_000
        case .tokenRefreshMarginSeconds: return 0...86_400
        case .maxResponseBytes: return 1...(1 << 30)
        case .maxRetries: return 0...10
        default: return nil
        }
    }
}
