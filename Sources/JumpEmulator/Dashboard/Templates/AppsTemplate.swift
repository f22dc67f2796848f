/// `/emulator/ui/apps`: the Capture apps (API clients) and the Engage apps.
enum AppsTemplate {
    static let text = """
        {{<layout}}
        {{$title}}Apps · jump-emulator{{/title}}
        {{$main}}
        <h1>Apps</h1>
        <p class="lead">Secrets and API keys are masked; <span class="mono">GET /emulator/apps</span> and <span class="mono">GET /emulator/engage_apps</span> show them.</p>
        <h2>Capture apps</h2>
        {{#captureApps}}<div class="card" id="app-{{clientId}}">
        <h3><span class="mono">{{clientId}}</span> {{#isDefault}}<span class="badge plain">default</span>{{/isDefault}}</h3>
        <dl class="facts">
        <dt>Capture app id</dt><dd class="mono">{{captureAppId}}</dd>
        <dt>Client secret</dt><dd class="mono">{{secret}}</dd>
        <dt>Flow</dt><dd><span class="mono">{{flowName}}</span> version <span class="mono">{{flowVersion}}</span>{{#customFlow}} <span class="badge warn">custom</span>{{/customFlow}}</dd>
        <dt>Schema</dt><dd>{{#customSchema}}<span class="badge warn">custom</span>{{/customSchema}}{{^customSchema}}default{{/customSchema}}</dd>
        <dt>Locales</dt><dd>{{locales}}</dd>
        <dt>Thin registration</dt><dd>{{#thinRegistration}}yes{{/thinRegistration}}{{^thinRegistration}}no{{/thinRegistration}}</dd>
        <dt>Engage app</dt><dd class="mono">{{engageAppId}}</dd>
        <dt>Password reset page</dt><dd class="mono">{{recoverURL}}</dd>
        <dt>Users</dt><dd><a href="/emulator/ui/users#app-{{clientId}}">{{userCount}}</a></dd>
        </dl></div>
        {{/captureApps}}
        <h2>Engage apps</h2>
        {{#engageApps}}<div class="card" id="engage-app-{{id}}">
        <h3><span class="mono">{{id}}</span> {{#isDefault}}<span class="badge plain">default</span>{{/isDefault}}</h3>
        <dl class="facts">
        <dt>API key</dt><dd class="mono">{{apiKey}}</dd>
        <dt>Sign-in providers</dt><dd>{{providers}}</dd>
        <dt>Sharing providers</dt><dd>{{sharingProviders}}</dd>
        <dt>Custom providers</dt><dd>{{customProviders}}</dd>
        <dt>Whitelisted domains</dt><dd class="mono">{{whitelistedDomains}}</dd>
        </dl></div>
        {{/engageApps}}
        {{/main}}
        {{/layout}}
        """
}
