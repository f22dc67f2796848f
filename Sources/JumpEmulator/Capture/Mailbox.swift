import Foundation
import GRDB

/// The emulator's outbox: instead of sending mail it stores each message with its single-use code
/// and link, for tests to read through `GET /emulator/emails`.
enum Mailbox {
    /// A reset code is valid for an hour on the emulator clock.
    static let passwordResetLifetime: Double = 3600
    /// A verification link is valid for a day.
    static let verificationLifetime: Double = 86_400

    /// Issues a code for `userId` and records the email carrying it, in the caller's transaction.
    @discardableResult
    static func send(
        _ kind: EmailRow.Kind, to address: String, userId: Int64, app: AppConfig, locale: String, baseURL: String,
        now: Date, in db: Database
    ) throws -> EmailRow {
        let code = AuthorizationCodeRow(
            code: Tokens.authorizationCode(), userId: userId, clientId: app.clientId, redirectUri: nil,
            issuedAt: now.timeIntervalSince1970,
            expiresAt: now.timeIntervalSince1970 + (kind == .passwordReset ? passwordResetLifetime : verificationLifetime),
            used: false,
            kind: (kind == .passwordReset ? AuthorizationCodeRow.Kind.passwordReset : .verification).rawValue)
        try code.insert(db)
        let page: String
        switch kind {
        case .passwordReset: page = app.row.passwordRecoverURL ?? baseURL + "/password_recover"
        case .verification: page = baseURL + "/verify_email"
        }
        var email = EmailRow(
            id: nil, clientId: app.clientId, kind: kind.rawValue, toAddress: address, code: code.code,
            link: page + (page.contains("?") ? "&" : "?") + "code=" + code.code, locale: locale,
            created: now.timeIntervalSince1970)
        try email.insert(db)
        return email
    }
}
