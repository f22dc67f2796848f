/// The pages the outbox's links open (`/verify_email`, `/password_recover`, see `EmailLinkRoutes`), in the
/// same frame as the other emulator pages.
enum EmailLinkTemplate {
    static let text = """
        {{<layout}}
        {{$title}}{{title}} (jump-emulator){{/title}}
        {{$header}}<header class="top"><span class="brand">jump-emulator <small>email link</small></span></header>
        <div class="banner" id="emulator-banner" role="note">Emulator — the page an email's link opens</div>{{/header}}
        {{$mainClass}} class="idp"{{/mainClass}}
        {{$main}}
        <h1>{{title}}</h1>
        <div class="card"><p>{{text}}</p>
        {{#hasCode}}<p>Reset code: <code id="reset-code">{{code}}</code>. Exchange it with <span class="mono">POST /oauth/token</span>.</p>
        {{/hasCode}}</div>
        {{/main}}
        {{/layout}}
        """
}
