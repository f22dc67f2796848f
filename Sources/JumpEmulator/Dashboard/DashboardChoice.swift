/// One option of a dashboard form's <select> (the clock's units, an edit's merge or replace mode).
struct DashboardChoice: Sendable {
    let value: String
    let label: String
    let selected: Bool
}
