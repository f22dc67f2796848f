/// Why a `filter` (or `sort_on` / `attributes`) of `entity.find` / `entity.count` was refused; the
/// endpoint answers it as 200 invalid_argument naming the parameter.
struct FilterError: Error, Sendable, Equatable {
    var message: String

    init(_ message: String) {
        self.message = message
    }

    func captureError(argument: String = "filter") -> CaptureError {
        CaptureError.invalidArgument(argument, "invalid \(argument): \(message)")
    }
}
