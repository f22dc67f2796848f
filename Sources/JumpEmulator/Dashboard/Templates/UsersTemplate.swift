/// `/emulator/ui/users`: every Capture user, by app, with the record as the admin API shows it, the
/// linked social identities and links to edit or delete each; a form that creates a user.
enum UsersTemplate {
    static let text = """
        {{<layout}}
        {{$title}}Users · jump-emulator{{/title}}
        {{$main}}
        <h1>Users</h1>
        <p class="lead">{{total}} Capture user(s). Records are shown as <span class="mono">GET /emulator/users/&lt;uuid&gt;</span> answers them.</p>
        {{#hasError}}<p class="alert error" role="alert" id="users-error">{{error}}</p>
        {{/hasError}}<details class="card"{{#openCreate}} open{{/openCreate}} id="create-user-card"><summary>Create a user</summary>
        {{#create}}<form method="post" action="/emulator/ui/users" class="stack" id="create-user-form">
        <label>App <select name="client_id" id="new-user-app">{{#apps}}<option value="{{clientId}}"{{#selected}} selected{{/selected}}>{{clientId}}</option>{{/apps}}</select></label>
        <label>Email <input type="email" name="email" id="new-user-email" value="{{email}}" required></label>
        <label>Password (empty: none, the user signs in with a social identity only) <input type="password" name="password" id="new-user-password" autocomplete="new-password"></label>
        <label>Display name (optional) <input type="text" name="display_name" id="new-user-display-name" value="{{displayName}}"></label>
        <label>More of the record (optional JSON object, checked against the app's schema) <textarea name="record" id="new-user-record" rows="5" spellcheck="false" placeholder="{&quot;givenName&quot;: &quot;Ada&quot;}">{{record}}</textarea></label>
        <div><button type="submit" id="create-user">Create</button></div>
        </form>{{/create}}
        <p class="muted">As <span class="mono">POST /emulator/users</span> creates it: the same checks, and a taken email is refused.</p>
        </details>
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
        <div class="row actions"><a class="button secondary" href="/emulator/ui/users/{{uuid}}" id="edit-{{uuid}}">Edit</a><a class="button danger" href="/emulator/ui/users/{{uuid}}/delete" id="delete-{{uuid}}">Delete…</a></div>
        </div>
        {{/users}}{{#truncated}}<p class="alert note">Only the first {{shown}} users of this app are shown.</p>
        {{/truncated}}{{/apps}}
        {{/main}}
        {{/layout}}
        """
}
