/// The app that exists from the start, so `jump-emulator` with no arguments is ready to use.
enum DefaultApp {
    static let clientId = "jump-default-client"
    static let captureAppId = "default-app"
    static let engageAppId = "jump-default-engage"
    static let clientSecret = "jump-default-secret"

    static var row: AppRow {
        AppRow(
            clientId: clientId, captureAppId: captureAppId, flowName: DefaultFlow.name,
            flowVersion: DefaultFlow.version,
            locales: JSONValue.array(DefaultFlow.locales.map(JSONValue.string)).serialized(),
            thinRegistration: false, engageAppId: engageAppId, flowJSON: nil, schemaJSON: nil, isDefault: true,
            clientSecret: clientSecret, passwordRecoverURL: nil)
    }
}
