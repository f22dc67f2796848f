/// `/emulator/ui/users/{uuid}`: a user's record in a form that saves it (merge or replace), and the way to
/// delete the user.
enum UserEditTemplate {
    static let text = """
        {{<layout}}
        {{$title}}Edit {{user.email}} · jump-emulator{{/title}}
        {{$main}}
        {{#user}}<h1>Edit {{email}}</h1>
        <p class="lead">A user of app <span class="mono">{{clientId}}</span>. Saving does what <span class="mono">PATCH /emulator/users/{{uuid}}</span> does: the app's schema is checked as for <span class="mono">entity.update</span>, and nothing changes when it refuses.</p>
        {{/user}}{{#hasError}}<p class="alert error" role="alert" id="user-error">{{error}}</p>
        {{/hasError}}{{#user}}<div class="card"><dl class="facts">
        <dt>uuid</dt><dd class="mono">{{uuid}}</dd>
        <dt>Created</dt><dd>{{created}}</dd>
        <dt>Last updated</dt><dd>{{lastUpdated}}</dd>
        <dt>Active sessions</dt><dd>{{activeSessions}}</dd>
        </dl></div>
        <h2>Sessions held</h2>
        {{#hasSessions}}<table id="user-sessions"><thead><tr><th>App</th><th>Signed in or refreshed</th><th>Expires</th><th>State</th><th>Renewed by</th></tr></thead><tbody>
        {{#sessions}}<tr><td class="mono">{{clientId}}</td><td>{{issued}}</td><td>{{expires}}</td><td><span class="badge {{stateClass}}">{{state}}</span></td><td>{{refresh}}</td></tr>
        {{/sessions}}</tbody></table>
        <p class="muted">One row per sign-in a client keeps: its newest access token (a refresh retires the one it replaces). An expired session a client can renew is still held.</p>
        {{/hasSessions}}{{^hasSessions}}<p class="muted" id="user-sessions">No client holds a session of this user.</p>
        {{/hasSessions}}{{/user}}{{#editable}}<div class="card">
        <form method="post" action="/emulator/ui/users/{{user.uuid}}" class="stack wide" id="edit-form">
        <label><span>Record (<span class="mono">id</span>, <span class="mono">uuid</span>, <span class="mono">created</span> and <span class="mono">lastUpdated</span> are the emulator's: not in it)</span> <textarea name="record" id="edit-record" rows="24" spellcheck="false" required>{{record}}</textarea></label>
        <label>How to save <select name="mode" id="edit-mode">{{#modes}}<option value="{{value}}"{{#selected}} selected{{/selected}}>{{label}}</option>{{/modes}}</select></label>
        <div class="row"><button type="submit" id="save-user">Save</button><a class="button secondary" href="/emulator/ui/users#user-{{user.uuid}}" id="cancel-edit">Cancel</a></div>
        </form>
        <p class="muted">The password shows as <span class="mono">{"type": "password-bcrypt"}</span>: leave it to keep the password, write a string to set a new one, <span class="mono">null</span> to remove it. Plural elements keep their <span class="mono">id</span> when merged; an element without one is added.</p>
        </div>
        {{/editable}}{{^editable}}<p class="alert note">The record is {{recordSize}}, too big to edit here: <span class="mono">PATCH /emulator/users/{{user.uuid}}</span> takes it.</p>
        {{/editable}}<h2>Delete</h2>
        <p><a class="button danger" href="/emulator/ui/users/{{user.uuid}}/delete" id="delete-user">Delete this user…</a></p>
        {{/main}}
        {{/layout}}
        """
}
