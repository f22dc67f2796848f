/// `/emulator/ui/outbox`: the emails the emulator would have sent, with their links clickable.
enum OutboxTemplate {
    static let text = """
        {{<layout}}
        {{$title}}Outbox · jump-emulator{{/title}}
        {{$main}}
        <h1>Outbox</h1>
        <p class="lead">Password-reset and verification emails, oldest first. A link is single use.</p>
        {{^emails}}<p class="empty">No emails yet.</p>
        {{/emails}}{{#hasEmails}}<div class="table-wrap"><table>
        <thead><tr><th>#</th><th>Sent</th><th>Kind</th><th>To</th><th>App</th><th>Locale</th><th>Link</th></tr></thead>
        <tbody>
        {{#emails}}<tr id="email-{{id}}"><td>{{id}}</td><td>{{created}}</td><td><span class="badge plain">{{kind}}</span></td><td>{{to}}</td><td class="mono">{{clientId}}</td><td>{{locale}}</td><td>{{#clickable}}<a class="email-link" href="{{link}}">{{linkLabel}}</a><div class="muted mono">{{link}}</div>{{/clickable}}{{^clickable}}<span class="mono">{{link}}</span>{{/clickable}}</td></tr>
        {{/emails}}</tbody></table></div>
        {{/hasEmails}}
        {{/main}}
        {{/layout}}
        """
}
