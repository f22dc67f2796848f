/// `/emulator/ui/outbox`: the captured emails as `GET /emulator/emails` lists them.
struct OutboxPage: Sendable {
    let emulator: Emulator

    struct Model: Sendable {
        let nav = DashboardNav.links(current: .outbox)
        let hasEmails: Bool
        let emails: [Email]
    }

    struct Email: Sendable {
        let id: Int64
        let created: String
        let kind: String
        let to: String
        let clientId: String
        let locale: String
        let link: String
        let linkLabel: String
        let clickable: Bool
    }

    func model() async throws -> Model {
        let request = AdminRequest(body: [:], query: .empty)
        let emails = try await AdminEmails(emulator: emulator).list(request)["emails"]?.arrayValue ?? []
        let shown = emails.map { email in
            let link = email["link"]?.stringValue ?? ""
            let kind = email["kind"]?.stringValue ?? ""
            return Email(
                id: email["id"]?.intValue ?? 0, created: Self.time(email["created"]?.stringValue ?? ""),
                kind: kind == EmailRow.Kind.passwordReset.rawValue ? "password reset" : kind,
                to: email["to"]?.stringValue ?? "", clientId: email["client_id"]?.stringValue ?? "",
                locale: email["locale"]?.stringValue ?? "", link: link,
                linkLabel: kind == EmailRow.Kind.passwordReset.rawValue ? "Reset password" : "Verify email",
                clickable: DashboardText.isWebLink(link))
        }
        return Model(hasEmails: !shown.isEmpty, emails: shown)
    }

    /// The admin API's Capture time text, to the second like the other pages.
    private static func time(_ text: String) -> String {
        CaptureTime.parseDateTime(text).map { DashboardText.time($0.timeIntervalSince1970) } ?? text
    }
}
