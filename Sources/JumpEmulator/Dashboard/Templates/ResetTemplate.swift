/// `/emulator/ui/reset`: the confirmation before the emulator goes back to a fresh start, with what would
/// go and the way to keep it (Export).
enum ResetTemplate {
    static let text = """
        {{<layout}}
        {{$title}}Reset · jump-emulator{{/title}}
        {{$main}}
        <h1>Reset the emulator</h1>
        <p class="lead">Back to a fresh start, as <span class="mono">POST /emulator/reset</span> does.</p>
        {{#hasError}}<p class="alert error" role="alert" id="reset-error">{{error}}</p>
        {{/hasError}}<div class="card">
        <p>Gone: every user ({{users}} now) with their sessions, codes and social identities; apps but the default one ({{apps}} now); access schemas, emails, token users and their tokens, extra teams, Engage apps but the default, test identities, activities and share errors; armed faults ({{faults}} now) and counters. The clock goes back to real time (offset {{offset}} now) and the settings to their defaults.</p>
        <form method="post" action="/emulator/ui/reset" class="row"><input type="hidden" name="confirm" value="yes"><button type="submit" class="danger" id="confirm-reset">Reset the emulator</button><a class="button secondary" href="/emulator" id="cancel-reset">Cancel</a></form>
        </div>
        <p class="muted">To keep this state, export it first: <span class="mono">--import</span> loads the file into a new emulator.</p>
        <form method="post" action="/emulator/ui/export"><button type="submit" class="secondary" id="export">Export</button></form>
        {{/main}}
        {{/layout}}
        """
}
