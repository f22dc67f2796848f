/// The fake identity provider's sign-in page (see `EngageSignInPage`). Markup that tests and libjump's
/// loopback tests drive is load-bearing: the form per identity with its hidden start parameters and the
/// `identity-N` button (`name="identity_id"`, text "Continue as NAME (EMAIL)"), `new-name`, `new-email`,
/// `create-identity`, `cancel` (`name="cancel" value="1"`), the identities before the cancel form, and no
/// other forms. The meta line under each button tells identities with the same name and email apart.
enum IdentityProviderTemplate {
    static let text = """
        {{<layout}}
        {{$title}}Sign in with {{provider}} (jump-emulator){{/title}}
        {{$header}}<header class="top"><span class="brand">jump-emulator <small>fake identity provider</small></span></header>
        <div class="banner" id="emulator-banner" role="note">Emulator — not a real {{provider}} sign-in</div>{{/header}}
        {{$mainClass}} class="idp"{{/mainClass}}
        {{$main}}
        <h1>Sign in with {{provider}}</h1>
        <p class="lead">Choose a test identity, or make a new one. Nothing is sent to {{provider}}.</p>
        {{#forceReauth}}<p class="alert note" id="reauth">Re-authentication requested</p>
        {{/forceReauth}}{{#hasError}}<p class="alert error" role="alert">{{error}}</p>
        {{/hasError}}<h2>Test identities</h2>
        {{^hasIdentities}}<p class="empty">No test identities yet.</p>
        {{/hasIdentities}}{{#hasIdentities}}<ul class="identities">
        {{#identities}}<li><form method="post" action="{{callbackPath}}">{{#hidden}}<input type="hidden" name="{{name}}" value="{{value}}">{{/hidden}}<button type="submit" id="identity-{{number}}" name="identity_id" value="{{id}}">Continue as {{name}} ({{email}})</button></form>
        <span class="meta" id="identity-{{number}}-meta">#{{id}} · <span class="mono">{{identifier}}</span> · created {{created}}{{#appOnly}} · this app only{{/appOnly}}</span></li>
        {{/identities}}</ul>
        {{/hasIdentities}}<h2>New identity</h2>
        <div class="card"><form method="post" action="{{callbackPath}}" class="stack">{{#hidden}}<input type="hidden" name="{{name}}" value="{{value}}">{{/hidden}}<label>Name <input type="text" id="new-name" name="display_name"></label>
        <label>Email <input type="email" id="new-email" name="email"></label>
        <div><button type="submit" id="create-identity">Create and continue</button></div></form></div>
        <form method="post" action="{{callbackPath}}">{{#hidden}}<input type="hidden" name="{{name}}" value="{{value}}">{{/hidden}}<button type="submit" id="cancel" name="cancel" value="1" class="secondary">Cancel</button></form>
        {{/main}}
        {{$footer}}jump-emulator's stand-in for {{provider}}: the identities are test fixtures.{{/footer}}
        {{/layout}}
        """
}
