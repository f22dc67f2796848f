/// Reads the value at an attribute path of a shaped record, for `/entity` with `attribute_name`.
struct RecordReader: Sendable {
    let schema: Schema

    func value(at path: AttributePath, in record: JSONValue) throws(CaptureError) -> JSONValue {
        var attribute = schema.root
        var current = record
        var walked = AttributePath.root
        for step in path.steps {
            walked = walked.appending(step.name, elementId: step.elementId)
            if attribute.type == .json {
                // Free-form JSON has no schema below it: follow object keys, null when absent.
                guard step.elementId == nil else {
                    throw CaptureError.invalidArgument("attribute_name", "\(walked.text) is not a plural element")
                }
                current = current[step.name] ?? .null
                continue
            }
            guard attribute.type == .object, let child = attribute.child(named: step.name), child.isReadable else {
                throw CaptureError.unknownAttribute(walked.text)
            }
            current = current[step.name] ?? .null
            attribute = child
            if let elementId = step.elementId {
                guard child.type == .plural else {
                    throw CaptureError.invalidArgument("attribute_name", "\(walked.text): only plurals have elements")
                }
                guard let element = (current.arrayValue ?? []).first(where: { $0["id"]?.intValue == elementId }) else {
                    throw CaptureError.invalidArgument("attribute_name", "\(walked.text) does not exist")
                }
                current = element
                attribute = SchemaAttribute(name: child.name, type: .object, children: child.children)
            } else if child.type == .plural, walked != path {
                throw CaptureError.invalidArgument("attribute_name", "\(walked.text) needs an element id (#id)")
            }
        }
        return current
    }
}
