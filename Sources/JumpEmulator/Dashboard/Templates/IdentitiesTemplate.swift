/// `/emulator/ui/identities`: the fake identity provider's test identities.
enum IdentitiesTemplate {
    static let text = """
        {{<layout}}
        {{$title}}Engage identities · jump-emulator{{/title}}
        {{$main}}
        <h1>Engage identities</h1>
        <p class="lead">The test identities the fake identity provider offers ("Continue as …").</p>
        {{^identities}}<p class="empty">No test identities yet.</p>
        {{/identities}}{{#hasIdentities}}<div class="table-wrap"><table>
        <thead><tr><th>#</th><th>Provider</th><th>Name</th><th>Email</th><th>Identifier</th><th>Offered to</th><th>Created</th></tr></thead>
        <tbody>
        {{#identities}}<tr id="identity-{{id}}"><td>{{id}}</td><td><span class="badge plain">{{provider}}</span></td><td>{{name}}</td><td>{{email}}{{#unverified}} <span class="badge warn">unverified</span>{{/unverified}}</td><td class="mono">{{identifier}}</td><td class="mono">{{offeredTo}}</td><td>{{created}}</td></tr>
        {{/identities}}</tbody></table></div>
        {{/hasIdentities}}
        {{/main}}
        {{/layout}}
        """
}
