/// An app ready for use by the endpoints: its stored row with the schema and flows decoded.
struct AppConfig: Sendable {
    let row: AppRow
    let schema: Schema
    /// Locales the flow is served in, first one being the fallback.
    let locales: [String]
    /// Custom flow per locale; nil when the app uses the default flow.
    private let customFlows: [String: JSONValue]?

    init(row: AppRow) {
        self.row = row
        self.schema = row.schemaJSON.flatMap(JSONValue.parse).flatMap { try? Schema.parse($0) } ?? DefaultSchema.user
        let stored = row.localeList
        let locales = stored.isEmpty ? DefaultFlow.locales : stored
        self.locales = locales
        self.customFlows = row.flowJSON.flatMap(JSONValue.parse).flatMap { AppConfig.flowsByLocale($0, locales: locales) }
    }

    var clientId: String { row.clientId }

    /// A custom flow is either one flow (`{"fields":...}`) used for every locale, or an object
    /// mapping locale names to flows.
    static func flowsByLocale(_ value: JSONValue, locales: [String]) -> [String: JSONValue]? {
        guard let object = value.objectValue else { return nil }
        if object["fields"] != nil {
            return Dictionary(uniqueKeysWithValues: locales.map { ($0, value) })
        }
        let perLocale = object.filter { $0.value["fields"] != nil }
        return perLocale.isEmpty ? nil : perLocale
    }

    /// The flow document served for `locale`, with the app's version and the locale filled in;
    /// nil when the app does not serve that locale.
    func flowDocument(locale: String) -> JSONValue? {
        guard locales.contains(locale) else { return nil }
        var document: [String: JSONValue]
        if let customFlows {
            guard let flow = customFlows[locale]?.objectValue else { return nil }
            document = flow
        } else {
            document = DefaultFlow.document(locale: MessageLocale(parameter: locale)).objectValue ?? [:]
        }
        document["version"] = .string(row.flowVersion)
        document["locale"] = .string(locale)
        return .object(document)
    }

    /// The locale a request is answered in: the one asked for when the app serves it (`fr` matches
    /// `fr-FR`), else the app's first locale.
    func resolveLocale(_ requested: String?) -> String {
        if let requested, locales.contains(requested) { return requested }
        let mapped = MessageLocale(parameter: requested).rawValue
        if locales.contains(mapped) { return mapped }
        return locales.first ?? MessageLocale.enUS.rawValue
    }

    func flow(locale: String) -> Flow {
        Flow(json: flowDocument(locale: locale) ?? DefaultFlow.document(locale: MessageLocale(parameter: locale)))
    }
}
