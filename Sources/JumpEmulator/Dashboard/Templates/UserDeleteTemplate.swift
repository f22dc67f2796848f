/// `/emulator/ui/users/{uuid}/delete`: the confirmation before a user is deleted.
enum UserDeleteTemplate {
    static let text = """
        {{<layout}}
        {{$title}}Delete {{user.email}} · jump-emulator{{/title}}
        {{$main}}
        <h1>Delete a user</h1>
        {{#hasError}}<p class="alert error" role="alert" id="delete-error">{{error}}</p>
        {{/hasError}}{{#user}}<div class="card">
        <p>Delete <strong>{{email}}</strong> (<span class="mono">{{uuid}}</span>) of app <span class="mono">{{clientId}}</span>? The record goes with its sessions ({{activeSessions}} active), codes and linked social identities, as <span class="mono">DELETE /emulator/users/{{uuid}}</span> does. There is no undo.</p>
        <form method="post" action="/emulator/ui/users/{{uuid}}/delete" class="row"><input type="hidden" name="confirm" value="yes"><button type="submit" class="danger" id="confirm-delete">Delete {{email}}</button><a class="button secondary" href="/emulator/ui/users#user-{{uuid}}" id="cancel-delete">Cancel</a></form>
        </div>
        {{/user}}
        {{/main}}
        {{/layout}}
        """
}
