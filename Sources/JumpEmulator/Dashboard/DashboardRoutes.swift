import Hummingbird
import Logging

/// The dashboard: HTML pages for people at `GET /emulator` and under `/emulator/ui/`, beside the JSON admin
/// API (whose routes are `/emulator/<name>`, none of them `ui`). Loopback clients only, like the admin
/// API; form posts also have to come from the dashboard's own pages (`CrossSiteGuard`) and answer with
/// a 303 back to the page, or the page again with the error (400).
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
    }

    private func page(
        _ group: RouterGroup<EmulatorRequestContext>, _ path: String,
        _ render: @escaping @Sendable () async throws -> Response
    ) {
        let logger = self.logger
        group.get(RouterPath(path)) { request, _ in
            do {
                return try await render()
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
        let logger = self.logger
        group.post(RouterPath(path)) { request, context in
            do {
                let body = try await RequestBodies.text(request, context: context)
                try await perform(FormParams(query: nil, body: body))
                return DashboardResponse.seeOther(back.path)
            } catch let error as AdminError {
                return failed(error.message)
            } catch let error as any HTTPResponseError {
                throw error
            } catch {
                logger.error("\(request.method) \(request.uri.path) failed: \(type(of: error))")
                return DashboardResponse.failure("The emulator failed to do that.")
            }
        }
    }
}
