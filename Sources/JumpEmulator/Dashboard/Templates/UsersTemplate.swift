/// `/emulator/ui/users`: every Capture user, by app, with the record as the admin API shows it and the
/// linked social identities.
enum UsersTemplate {
    static let text = """
        {{<layout}}
        {{$title}}Users · jump-emulator{{/title}}
        {{$main}}
        <h1>Users</h1>
        <p class="lead">{{total}} Capture user(s). Records are shown as <span class="mono">GET /emulator/users/&lt;uuid&gt;</span> answers them.</p>
        {{#apps}}<h2 id="app-{{clientId}}">App <span class="mono">{{clientId}}</span> <span class="muted">({{count}})</span></h2>
        {{^users}}<p class="empty">No users.</p>
        {{/users}}{{#users}}<div class="card user" id="user-{{uuid}}">
        <h3>{{email}}</h3>
        <dl class="facts">
        <dt>uuid</dt><dd class="mono">{{uuid}}</dd>
        <dt>Created</dt><dd>{{created}}</dd>
        <dt>Last updated</dt><dd>{{lastUpdated}}</dd>
        <dt>Linked identities</dt><dd>{{^identities}}<span class="muted">none</span>{{/identities}}{{#identities}}<div><span class="badge plain">{{provider}}</span> <span class="mono">{{identifier}}</span></div>{{/identities}}</dd>
        </dl>
        <details{{#openRecord}} open{{/openRecord}}><summary>Record</summary>{{#recordShown}}<pre class="record">{{record}}</pre>{{/recordShown}}{{^recordShown}}<p class="muted">The record is {{recordSize}}; <span class="mono">GET /emulator/users/{{uuid}}</span> has it.</p>{{/recordShown}}</details>
        </div>
        {{/users}}{{#truncated}}<p class="alert note">Only the first {{shown}} users of this app are shown.</p>
        {{/truncated}}{{/apps}}
        {{/main}}
        {{/layout}}
        """
}
