import Foundation
import GRDB
import Hummingbird

/// The pages the outbox's links open in a browser:
///
/// - `GET /verify_email?code=`: sets the user's `emailVerified` to now (emulator clock) and says so;
///   an unknown, used or expired code is HTTP 400;
/// - `GET /password_recover?code=`: the default `password_recover_url`. It only shows the code: a
///   real site would exchange it with `/oauth/token` and post `changePasswordFormNoAuth`.
///
/// Both use the frame of the other emulator pages (`EmailLinkTemplate`).
struct EmailLinkRoutes: Sendable {
    let emulator: Emulator

    func register(on router: Router<EmulatorRequestContext>) {
        let emulator = self.emulator
        router.get("/verify_email") { request, _ in
            let code = FormParams(query: request.uri.query, body: nil).nonEmpty("code") ?? ""
            let verified = try await Self.verify(code: code, emulator: emulator)
            return verified
                ? Self.page(status: .ok, title: "Email verified", text: "Your email address has been verified.")
                : Self.page(status: .badRequest, title: "Link not valid",
                            text: "This verification link is not valid, was already used, or has expired.")
        }
        router.get("/password_recover") { request, _ in
            let code = FormParams(query: request.uri.query, body: nil).nonEmpty("code") ?? ""
            return Self.page(status: .ok, title: "Reset your password",
                             text: "A real site would ask for the new password here.", code: code)
        }
    }

    /// Uses the code once and stamps `emailVerified` (when the app's schema has it).
    static func verify(code: String, emulator: Emulator) async throws -> Bool {
        guard !code.isEmpty else { return false }
        let now = emulator.clock.now()
        let records = emulator.records
        let schemas = try await emulator.apps.all().reduce(into: [String: Schema]()) { $0[$1.clientId] = $1.schema }
        return try await emulator.store.write { db -> Bool in
            guard let row = try AuthorizationCodeRow.fetchOne(db, key: code),
                row.kind == AuthorizationCodeRow.Kind.verification.rawValue, !row.used,
                now.timeIntervalSince1970 < row.expiresAt,
                var user = try UserRow.fetchOne(db, key: row.userId)
            else { return false }
            try db.execute(sql: "UPDATE authorization_codes SET used = 1 WHERE code = ?", arguments: [code])
            if schemas[user.clientId]?.attribute(named: "emailVerified")?.type == .dateTime {
                var attributes = records.attributes(of: user)
                attributes["emailVerified"] = .string(CaptureTime.dateTime(now))
                user.setAttributes(attributes)
                user.lastUpdated = max(now.timeIntervalSince1970, user.lastUpdated)
                try user.update(db)
                records.remember(user, attributes: attributes)
            }
            return true
        }
    }

    /// What `EmailLinkTemplate` renders.
    struct Page: Sendable {
        let title: String
        let text: String
        let hasCode: Bool
        let code: String
    }

    /// The page in the emulator's frame.
    static func page(status: HTTPResponse.Status, title: String, text: String, code: String? = nil) -> Response {
        let model = Page(title: title, text: text, hasCode: code != nil, code: code ?? "")
        return EngageHTML.response(DashboardTemplates.render(.emailLink, model), status: status)
    }
}
