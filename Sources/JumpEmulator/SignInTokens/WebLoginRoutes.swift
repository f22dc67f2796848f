import Foundation
import GRDB
import Hummingbird

/// A minimal web-login site, as the "sample code for mobile apps" uses one: an app opens
/// `GET /weblogin` in a web view, the user signs in with a Capture account of the default app, and the
/// app reads the token from the page's cookie or title (`oauth_token=<token>`).
///
/// - `GET /weblogin`: the form (`email`, `password`);
/// - `POST /weblogin` (form): checks the password like `auth_native_traditional` does; success sets
///   `oauth_token=<token>; Path=/; HttpOnly` and the title `oauth_token=<token>`; a wrong email or
///   password shows the form again with an error (401), a missing field too (400);
/// - `GET /weblogin/me` with `Authorization: Bearer <token>` or the cookie: `{"uuid","email"}`; a
///   missing, unknown, retired or expired token is 401 `{"detail":{"error_type":"invalid_token"}}`.
///
/// The token is an ordinary Capture access token of that user (a `sessions` row of the default app,
/// with the configured access-token lifetime and no refresh secret), so `/entity` takes it too.
struct WebLoginRoutes: Sendable {
    let emulator: Emulator

    static let cookieName = "oauth_token"

    func register(on router: Router<EmulatorRequestContext>) {
        let emulator = self.emulator
        router.get("/weblogin") { _, _ in
            Self.formPage(status: .ok, email: "", error: nil)
        }
        router.post("/weblogin") { request, context in
            let body = try await RequestBodies.text(request, context: context)
            let form = FormParams(query: nil, body: body)
            return try await Self.signIn(email: form.nonEmpty("email"), password: form.nonEmpty("password"),
                                         emulator: emulator)
        }
        router.get("/weblogin/me") { request, _ in
            do {
                return JSONResponse.make(try await Self.me(request, emulator: emulator))
            } catch let error as DetailError {
                return error.response
            }
        }
    }

    static func signIn(email: String?, password: String?, emulator: Emulator) async throws -> Response {
        guard let email, let password else {
            return formPage(status: .badRequest, email: email ?? "", error: "Enter your email address and password.")
        }
        let user = try await emulator.store.read { db in
            try UserRow.find(email: email, clientId: DefaultApp.clientId, in: db)
        }
        guard let user, let userId = user.id, let hash = user.passwordHash,
            await emulator.passwords.verify(password, hash: hash)
        else {
            return formPage(status: .unauthorized, email: email, error: "Incorrect email address or password.")
        }
        let now = emulator.clock.now()
        let lifetime = emulator.tokenLifetime
        let token = try await emulator.store.write { db in
            try SessionIssuer.newSession(
                userId: userId, clientId: DefaultApp.clientId, refreshSecret: nil, now: now, lifetime: lifetime, in: db)
        }
        var headers = htmlHeaders
        headers[.setCookie] = "\(cookieName)=\(token); Path=/; HttpOnly"
        let html = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>\(cookieName)=\(token)</title></head>
            <body><h1>Signed in</h1><p>You are signed in as \(EngageHTML.escape(email)).</p></body></html>
            """
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// The Capture user of a web-login token (or any Capture access token).
    static func me(_ request: Request, emulator: Emulator) async throws -> JSONValue {
        let token: String
        if let header = request.headers[.authorization] {
            guard let bearer = Emulator.bearerToken(header) else {
                throw DetailError.unauthorizedBearer("the Authorization header must be Bearer <oauth_token>")
            }
            token = bearer
        } else if let cookie = request.cookies[cookieName]?.value, !cookie.isEmpty {
            token = cookie
        } else {
            throw DetailError.unauthorizedBearer("send Authorization: Bearer <oauth_token> or the oauth_token cookie")
        }
        let now = emulator.clock.now().timeIntervalSince1970
        let found = try await emulator.store.read { db -> (SessionRow, UserRow)? in
            guard let session = try SessionRow.find(token: token, in: db),
                let user = try UserRow.fetchOne(db, key: session.userId)
            else { return nil }
            return (session, user)
        }
        guard let (session, user) = found, !session.retired else {
            throw DetailError.unauthorizedBearer("the oauth_token is not valid")
        }
        guard now < session.expiresAt else { throw DetailError.unauthorizedBearer("the oauth_token has expired") }
        let email = emulator.records.attributes(of: user)["email"] ?? .null
        return ["uuid": .string(user.uuid), "email": email]
    }

    static var htmlHeaders: HTTPFields {
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.cacheControl] = "no-store"
        return headers
    }

    static func formPage(status: HTTPResponse.Status, email: String, error: String?) -> Response {
        let message = error.map { "<p class=\"error\" role=\"alert\">\(EngageHTML.escape($0))</p>" } ?? ""
        let html = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>Sign in</title></head>
            <body><h1>Sign in</h1>\(message)
            <form method="post" action="/weblogin">
            <label>Email <input type="email" name="email" value="\(EngageHTML.escape(email))" required></label>
            <label>Password <input type="password" name="password" required></label>
            <button type="submit">Sign in</button>
            </form></body></html>
            """
        return Response(status: status, headers: htmlHeaders, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
