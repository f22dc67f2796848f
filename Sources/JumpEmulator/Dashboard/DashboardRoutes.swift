import Hummingbird
import Logging

/// The dashboard: HTML pages for people at `GET /emulator` and under `/emulator/ui/`, beside the JSON admin
/// API (whose routes are `/emulator/<name>`, none of them `ui`). Loopback clients only, like the admin
/// API; form posts also have to come from the dashboard's own pages (`CrossSiteGuard`) and answer with
/// a 303 back to the page, or the page again with the error (the admin API's status: 400, 404, 409).
struct DashboardRoutes: Sendable {
    let emulator: Emulator
    let logger: Logger

    func register(on router: Router<EmulatorRequestContext>) {
        let emulator = self.emulator
        let root = router.group(RouterPath(AdminPaths.prefix)).add(middleware: LoopbackOnlyMiddleware())
        page(root, "") { DashboardResponse.page(.overview, try await OverviewPage(emulator: emulator).model()) }

        let ui = router.group(RouterPath(DashboardNav.prefix))
            .add(middleware: LoopbackOnlyMiddleware())
            .add(middleware: CrossSiteGuard())
        page(ui, "apps") { DashboardResponse.page(.apps, try await AppsPage(emulator: emulator).model()) }
        page(ui, "users") { DashboardResponse.page(.users, try await UsersPage(emulator: emulator).model()) }
        page(ui, "identities") { DashboardResponse.page(.identities, try await IdentitiesPage(emulator: emulator).model()) }
        page(ui, "outbox") { DashboardResponse.page(.outbox, try await OutboxPage(emulator: emulator).model()) }
        page(ui, "tokens") { DashboardResponse.page(.tokens, try await TokensPage(emulator: emulator).model()) }
        page(ui, "clock") { DashboardResponse.page(.clock, ClockPage(emulator: emulator).model()) }
        page(ui, "faults") { DashboardResponse.page(.faults, FaultsPage(emulator: emulator).model()) }
        page(ui, "counters") { DashboardResponse.page(.counters, CountersPage(emulator: emulator).model()) }

        let actions = DashboardActions(emulator: emulator)
        action(ui, "clock", back: .clock) { form in try await actions.moveClock(form) } failed: { message in
            DashboardResponse.page(.clock, ClockPage(emulator: emulator).model(error: message), status: .badRequest)
        }
        action(ui, "faults", back: .faults) { form in try actions.armFault(form) } failed: { message in
            DashboardResponse.page(.faults, FaultsPage(emulator: emulator).model(error: message), status: .badRequest)
        }
        action(ui, "faults/clear", back: .faults) { _ in actions.clearFaults() } failed: { message in
            DashboardResponse.page(.faults, FaultsPage(emulator: emulator).model(error: message), status: .badRequest)
        }
        action(ui, "counters/clear", back: .counters) { _ in actions.clearCounters() } failed: { _ in
            DashboardResponse.seeOther(DashboardNav.counters.path)
        }
        registerUsers(on: ui, actions: actions)
        registerWholeEmulator(on: ui, actions: actions)
    }

    /// Creating, editing and deleting users. A page or post about a user that is not (or no longer) there
    /// shows the users page with the admin API's message and status.
    private func registerUsers(on ui: RouterGroup<EmulatorRequestContext>, actions: DashboardActions) {
        let emulator = self.emulator
        let usersPage = { @Sendable (error: AdminError, form: FormParams?) async throws -> Response in
            DashboardResponse.page(.users, try await UsersPage(emulator: emulator).model(error: error.message, form: form),
                                   status: error.status)
        }
        page(ui, "users/:uuid") { parameters in
            let uuid = try Self.uuid(parameters)
            do {
                return DashboardResponse.page(.userEdit, try await UserEditPage(emulator: emulator).model(uuid: uuid))
            } catch let error as AdminError {
                return try await usersPage(error, nil)
            }
        }
        page(ui, "users/:uuid/delete") { parameters in
            let uuid = try Self.uuid(parameters)
            do {
                return DashboardResponse.page(.userDelete, try await UserDeletePage(emulator: emulator).model(uuid: uuid))
            } catch let error as AdminError {
                return try await usersPage(error, nil)
            }
        }

        action(ui, "users") { form, _ in
            let uuid = try await actions.createUser(form)
            return Self.userAnchor(uuid)
        } failed: { error, form, _ in
            try await usersPage(error, form)
        }
        action(ui, "users/:uuid") { form, parameters in
            let uuid = try Self.uuid(parameters)
            try await actions.editUser(uuid: uuid, form)
            return Self.userAnchor(uuid)
        } failed: { error, form, parameters in
            let uuid = try Self.uuid(parameters)
            do {
                let model = try await UserEditPage(emulator: emulator).model(uuid: uuid, error: error.message, form: form)
                return DashboardResponse.page(.userEdit, model, status: error.status)
            } catch let gone as AdminError {
                return try await usersPage(gone, nil)
            }
        }
        action(ui, "users/:uuid/delete") { form, parameters in
            try await actions.deleteUser(uuid: try Self.uuid(parameters), form)
            return DashboardNav.users.path
        } failed: { error, _, parameters in
            let uuid = try Self.uuid(parameters)
            do {
                let model = try await UserDeletePage(emulator: emulator).model(uuid: uuid, error: error.message)
                return DashboardResponse.page(.userDelete, model, status: error.status)
            } catch let gone as AdminError {
                return try await usersPage(gone, nil)
            }
        }
    }

    /// Reset (behind its confirmation page) and Export (a download of `POST /emulator/export`'s document).
    private func registerWholeEmulator(on ui: RouterGroup<EmulatorRequestContext>, actions: DashboardActions) {
        let emulator = self.emulator
        let logger = self.logger
        page(ui, "reset") { DashboardResponse.page(.reset, try await ResetPage(emulator: emulator).model()) }
        action(ui, "reset") { form, _ in
            try await actions.reset(form)
            return DashboardNav.overview.path
        } failed: { error, _, _ in
            DashboardResponse.page(.reset, try await ResetPage(emulator: emulator).model(error: error.message),
                                   status: error.status)
        }
        ui.post("export") { request, _ in
            do {
                return try await AdminExport(emulator: emulator).response(attachment: true)
            } catch {
                logger.error("\(request.method) \(request.uri.path) failed: \(type(of: error))")
                return DashboardResponse.failure("The emulator failed to export its state.")
            }
        }
    }

    /// The users page scrolled to the user's card.
    private static func userAnchor(_ uuid: String) -> String {
        "\(DashboardNav.users.path)#user-\(uuid)"
    }

    /// Hummingbird only routes here with the parameter, and never an empty one.
    private static func uuid(_ parameters: Parameters) throws(AdminError) -> String {
        guard let uuid = parameters.get("uuid"), !uuid.isEmpty else { throw AdminError.notFound("no user uuid in the path") }
        return uuid
    }

    private func page(
        _ group: RouterGroup<EmulatorRequestContext>, _ path: String,
        _ render: @escaping @Sendable () async throws -> Response
    ) {
        page(group, path) { _ in try await render() }
    }

    /// A page whose path has parameters (`users/:uuid`).
    private func page(
        _ group: RouterGroup<EmulatorRequestContext>, _ path: String,
        _ render: @escaping @Sendable (Parameters) async throws -> Response
    ) {
        let logger = self.logger
        group.get(RouterPath(path)) { request, context in
            do {
                return try await render(context.parameters)
            } catch {
                logger.error("\(request.method) \(request.uri.path) failed: \(type(of: error))")
                return DashboardResponse.failure("The emulator failed to show this page.")
            }
        }
    }

    /// A form post: runs `perform` with the form's fields and sends the browser back to `back` (303, so a
    /// reload does not post again); an `AdminError` (a field the admin API refuses) is shown on the page.
    private func action(
        _ group: RouterGroup<EmulatorRequestContext>, _ path: String, back: DashboardNav,
        _ perform: @escaping @Sendable (FormParams) async throws -> Void,
        failed: @escaping @Sendable (String) -> Response
    ) {
        action(group, path) { form, _ in
            try await perform(form)
            return back.path
        } failed: { error, _, _ in
            failed(error.message)
        }
    }

    /// A form post whose `perform` says where the browser goes next (a path of the dashboard) and whose
    /// `failed` page can show what was sent again.
    private func action(
        _ group: RouterGroup<EmulatorRequestContext>, _ path: String,
        _ perform: @escaping @Sendable (FormParams, Parameters) async throws -> String,
        failed: @escaping @Sendable (AdminError, FormParams, Parameters) async throws -> Response
    ) {
        let logger = self.logger
        group.post(RouterPath(path)) { request, context in
            var form = FormParams.empty
            do {
                let body = try await RequestBodies.text(request, context: context)
                form = FormParams(query: nil, body: body)
                return DashboardResponse.seeOther(try await perform(form, context.parameters))
            } catch let error as AdminError {
                do {
                    return try await failed(error, form, context.parameters)
                } catch {
                    logger.error("\(request.method) \(request.uri.path) failed: \(type(of: error))")
                    return DashboardResponse.failure("The emulator failed to show what went wrong.")
                }
            } catch let error as any HTTPResponseError {
                throw error
            } catch {
                logger.error("\(request.method) \(request.uri.path) failed: \(type(of: error))")
                return DashboardResponse.failure("The emulator failed to do that.")
            }
        }
    }
}
