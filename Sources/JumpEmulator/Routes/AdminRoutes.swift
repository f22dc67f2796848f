import Hummingbird
import Logging

/// The admin API under `/emulator` (JSON in and out, loopback clients only). See docs/emulator.md.
struct AdminRoutes: Sendable {
    let emulator: Emulator
    let logger: Logger

    typealias Handler = @Sendable (AdminRequest, EmulatorRequestContext) async throws -> JSONValue

    func register(on router: Router<EmulatorRequestContext>) {
        let group = router.group(RouterPath(AdminPaths.prefix)).add(middleware: LoopbackOnlyMiddleware())
            .add(middleware: CrossSiteGuard())
        let control = AdminControl(emulator: emulator)
        let apps = AdminApps(emulator: emulator)
        let users = AdminUsers(emulator: emulator)
        let emails = AdminEmails(emulator: emulator)

        route(group, .post, "reset") { _, _ in try await control.reset() }
        let export = AdminExport(emulator: emulator)
        respond(group, .post, "export") { _, _ in try await export.response() }

        route(group, .get, "apps") { _, _ in try await apps.list() }
        route(group, .post, "apps", status: .created) { request, _ in try await apps.create(request) }
        route(group, .post, "apps/:client_id/reset") { _, context in
            try await apps.resetUsers(clientId: try Self.parameter("client_id", context))
        }
        route(group, .delete, "apps/:client_id") { _, context in
            try await apps.delete(clientId: try Self.parameter("client_id", context))
        }
        route(group, .post, "apps/:client_id/access_schema") { request, context in
            try await apps.setAccessSchema(clientId: try Self.parameter("client_id", context), request)
        }
        route(group, .get, "apps/:client_id/access_schema") { _, context in
            try await apps.accessSchemas(clientId: try Self.parameter("client_id", context))
        }

        route(group, .post, "users", status: .created) { request, _ in try await users.create(request) }
        route(group, .get, "users") { request, _ in try await users.list(request) }
        route(group, .delete, "users") { request, _ in try await users.deleteAll(request) }
        route(group, .get, "users/:uuid") { _, context in try await users.get(uuid: try Self.parameter("uuid", context)) }
        route(group, .patch, "users/:uuid") { request, context in
            try await users.update(uuid: try Self.parameter("uuid", context), request)
        }
        route(group, .delete, "users/:uuid") { _, context in
            try await users.delete(uuid: try Self.parameter("uuid", context))
        }

        let social = AdminSocial(emulator: emulator)
        route(group, .post, "merge_conflict", status: .created) { request, _ in try await social.mergeConflict(request) }

        let teams = AdminTeams(emulator: emulator)
        route(group, .post, "teams", status: .created) { request, _ in try await teams.create(request) }
        route(group, .get, "teams") { _, _ in try await teams.list() }

        let tokenUsers = AdminTokenUsers(emulator: emulator)
        route(group, .post, "token_users", status: .created) { request, _ in try await tokenUsers.create(request) }
        route(group, .get, "token_users") { _, _ in try await tokenUsers.list() }
        route(group, .get, "token_users/:user_id") { _, context in
            try await tokenUsers.get(userId: try Self.parameter("user_id", context))
        }
        route(group, .delete, "token_users/:user_id") { _, context in
            try await tokenUsers.delete(userId: try Self.parameter("user_id", context))
        }
        route(group, .post, "token_users/:user_id/revoke") { _, context in
            try await tokenUsers.revoke(userId: try Self.parameter("user_id", context))
        }
        route(group, .post, "token_users/:user_id/sign_in_token") { request, context in
            try await tokenUsers.signInToken(userId: try Self.parameter("user_id", context), request)
        }

        let engageApps = AdminEngageApps(emulator: emulator)
        route(group, .post, "engage_apps") { request, _ in try await engageApps.put(request) }
        route(group, .get, "engage_apps") { _, _ in try await engageApps.list() }
        route(group, .get, "engage_apps/:engage_app_id") { _, context in
            try await engageApps.get(id: try Self.parameter("engage_app_id", context))
        }
        let identities = AdminEngageIdentities(emulator: emulator)
        route(group, .post, "identities", status: .created) { request, _ in try await identities.create(request) }
        route(group, .get, "identities") { request, _ in try await identities.list(request) }
        let sharing = AdminEngageSharing(emulator: emulator)
        route(group, .get, "engage/activities") { _, _ in try await sharing.activities() }
        route(group, .delete, "engage/activities") { _, _ in try await sharing.clearActivities() }
        route(group, .post, "engage/share_errors", status: .created) { request, _ in try await sharing.addShareError(request) }
        route(group, .get, "engage/share_errors") { _, _ in try await sharing.shareErrors() }
        route(group, .delete, "engage/share_errors") { _, _ in try await sharing.clearShareErrors() }

        route(group, .get, "emails") { request, _ in try await emails.list(request) }
        route(group, .delete, "emails") { _, _ in try await emails.clear() }

        route(group, .get, "settings") { _, _ in try await control.settings() }
        route(group, .post, "settings") { request, _ in try await control.updateSettings(request) }
        route(group, .get, "clock") { _, _ in control.clock() }
        route(group, .post, "clock") { request, _ in try await control.updateClock(request) }
        route(group, .get, "faults") { _, _ in control.faults() }
        route(group, .post, "faults", status: .created) { request, _ in try control.addFault(request) }
        route(group, .delete, "faults") { _, _ in control.clearFaults() }
        route(group, .get, "counters") { _, _ in control.counters() }
        route(group, .delete, "counters") { _, _ in control.clearCounters() }
    }

    private func route(
        _ group: RouterGroup<EmulatorRequestContext>, _ method: HTTPRequest.Method, _ path: String,
        status: HTTPResponse.Status = .ok, _ handler: @escaping Handler
    ) {
        respond(group, method, path) { request, context in
            JSONResponse.make(try await handler(request, context), status: status)
        }
    }

    /// A call whose answer is not a `JSONValue` (the export's bytes), with the same errors as `route`.
    private func respond(
        _ group: RouterGroup<EmulatorRequestContext>, _ method: HTTPRequest.Method, _ path: String,
        _ handler: @escaping @Sendable (AdminRequest, EmulatorRequestContext) async throws -> Response
    ) {
        let logger = self.logger
        group.on(RouterPath(path), method: method) { request, context in
            do {
                let adminRequest = try await AdminRequest.read(request, context: context)
                return try await handler(adminRequest, context)
            } catch let error as AdminError {
                return error.response
            } catch let error as any HTTPResponseError {
                throw error
            } catch {
                logger.error("\(request.method) \(request.uri.path) failed: \(type(of: error))")
                return AdminError(status: .internalServerError, error: "internal_error",
                                  message: "the emulator failed to handle the request").response
            }
        }
    }

    private static func parameter(_ name: String, _ context: EmulatorRequestContext) throws(AdminError) -> String {
        guard let value = context.parameters.get(name), !value.isEmpty else {
            throw AdminError.badRequest("missing \(name) in the path")
        }
        return value
    }
}
