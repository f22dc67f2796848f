/// `/emulator/ui/faults`: the armed faults (each taken by the next matching non-admin request) and a form
/// that arms one.
enum FaultsTemplate {
    static let text = """
        {{<layout}}
        {{$title}}Faults · jump-emulator{{/title}}
        {{$main}}
        <h1>Faults</h1>
        <p class="lead">Armed faults answer the next matching requests instead of the endpoint (admin and dashboard requests are never faulted).</p>
        {{#hasError}}<p class="alert error" role="alert">{{error}}</p>
        {{/hasError}}<h2>Armed</h2>
        {{^faults}}<p class="empty" id="no-faults">No faults armed.</p>
        {{/faults}}{{#hasFaults}}<div class="table-wrap"><table id="faults">
        <thead><tr><th>Kind</th><th>Remaining</th><th>Path</th><th>Details</th></tr></thead>
        <tbody>
        {{#faults}}<tr><td><span class="badge bad">{{kind}}</span></td><td>{{remaining}}</td><td class="mono">{{path}}</td><td>{{details}}</td></tr>
        {{/faults}}</tbody></table></div>
        <form method="post" action="/emulator/ui/faults/clear"><button type="submit" class="danger" id="clear-faults">Disarm all</button></form>
        {{/hasFaults}}<h2>Arm a fault</h2>
        <div class="card">
        <form method="post" action="/emulator/ui/faults" class="stack" id="arm-form">
        <label>Kind <select name="kind" id="fault-kind">{{#kinds}}<option value="{{value}}">{{label}}</option>{{/kinds}}</select></label>
        <label>Requests it applies to <input type="number" name="count" id="fault-count" value="1" min="1" max="10000"></label>
        <label>Only this path (empty: every non-admin path) <input type="text" name="path" id="fault-path" placeholder="/oauth/auth_native_traditional"></label>
        <label>Delay in ms (delay) <input type="number" name="delay_ms" id="fault-delay" value="1000" min="0" max="120000"></label>
        <label>Capture error code (capture_error) <input type="number" name="code" id="fault-code" placeholder="330"></label>
        <div><button type="submit" id="arm">Arm</button></div>
        </form></div>
        {{/main}}
        {{/layout}}
        """
}
