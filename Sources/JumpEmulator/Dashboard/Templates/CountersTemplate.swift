/// `/emulator/ui/counters`: non-admin requests and their body bytes, by `METHOD /path`.
enum CountersTemplate {
    static let text = """
        {{<layout}}
        {{$title}}Request counters · jump-emulator{{/title}}
        {{$main}}
        <h1>Request counters</h1>
        <p class="lead">{{total}} non-admin request(s) since the start or the last reset.</p>
        {{^rows}}<p class="empty">No requests counted yet.</p>
        {{/rows}}{{#hasRows}}<div class="table-wrap"><table id="counters">
        <thead><tr><th>Method</th><th>Path</th><th>Requests</th><th>Body bytes</th></tr></thead>
        <tbody>
        {{#rows}}<tr><td class="mono">{{method}}</td><td class="mono">{{path}}</td><td>{{count}}</td><td>{{bytes}}</td></tr>
        {{/rows}}</tbody></table></div>
        <form method="post" action="/emulator/ui/counters/clear"><button type="submit" class="danger" id="clear-counters">Reset counters</button></form>
        {{/hasRows}}
        {{/main}}
        {{/layout}}
        """
}
