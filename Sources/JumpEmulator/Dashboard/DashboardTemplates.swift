import Mustache

/// The compiled-in mustache templates of the emulator's HTML pages (dashboard and fake identity provider).
/// They are Swift string literals, not resource files, so an installed `jump-emulator` binary needs nothing
/// beside it. Values are always rendered with `{{ }}` (HTML-escaped): records and identities hold whatever
/// a test put there.
enum DashboardTemplates {
    enum Name: String, CaseIterable, Sendable {
        case overview, apps, users, identities, outbox, tokens, clock, faults, counters
        case userEdit = "user_edit"
        case userDelete = "user_delete"
        case reset
        case identityProvider = "identity_provider"
        case identityProviderMessage = "identity_provider_message"
        case emailLink = "email_link"
    }

    /// Parsed once. A template that does not parse is a bug that the tests catch (`load()`); requests then
    /// get an error page instead of a crash.
    static let library: MustacheLibrary? = try? load()

    static func load() throws -> MustacheLibrary {
        var library = MustacheLibrary()
        try library.register(StyleSheetTemplate.text, named: "style")
        try library.register(LayoutTemplate.text, named: "layout")
        for name in Name.allCases {
            try library.register(text(of: name), named: name.rawValue)
        }
        return library
    }

    private static func text(of name: Name) -> String {
        switch name {
        case .overview: OverviewTemplate.text
        case .apps: AppsTemplate.text
        case .users: UsersTemplate.text
        case .identities: IdentitiesTemplate.text
        case .outbox: OutboxTemplate.text
        case .tokens: TokensTemplate.text
        case .clock: ClockTemplate.text
        case .faults: FaultsTemplate.text
        case .counters: CountersTemplate.text
        case .userEdit: UserEditTemplate.text
        case .userDelete: UserDeleteTemplate.text
        case .reset: ResetTemplate.text
        case .identityProvider: IdentityProviderTemplate.text
        case .identityProviderMessage: IdentityProviderMessageTemplate.text
        case .emailLink: EmailLinkTemplate.text
        }
    }

    /// The page (`notLoaded` when the templates failed to load).
    static func render(_ name: Name, _ model: Any) -> String {
        library?.render(model, withTemplate: name.rawValue) ?? notLoaded
    }

    /// What every page is if the templates failed to load (the tests load them): plain, and saying so.
    static let notLoaded = """
        <!DOCTYPE html>
        <html><head><meta charset="utf-8"><title>jump-emulator error</title></head>
        <body><h1>jump-emulator error</h1><p>The emulator's page templates did not load.</p></body></html>
        """
}
