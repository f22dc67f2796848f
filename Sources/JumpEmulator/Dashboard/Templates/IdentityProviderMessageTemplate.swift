/// A page of the fake identity provider that only says what went wrong (unknown app or provider, a bad
/// token_url): the flow cannot send these back to the app. Same frame and banner as the sign-in page.
enum IdentityProviderMessageTemplate {
    static let text = """
        {{<layout}}
        {{$title}}{{title}} (jump-emulator){{/title}}
        {{$header}}<header class="top"><span class="brand">jump-emulator <small>fake identity provider</small></span></header>
        <div class="banner" id="emulator-banner" role="note">Emulator — not a real identity provider</div>{{/header}}
        {{$mainClass}} class="idp"{{/mainClass}}
        {{$main}}
        <h1>{{title}}</h1>
        <p class="alert error" role="alert">{{text}}</p>
        {{/main}}
        {{/layout}}
        """
}
