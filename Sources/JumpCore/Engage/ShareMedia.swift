/// The "media" member of an activity: each element is an image, a flash movie or an mp3, and Engage drops
/// (or the provider refuses) an element without the members its type needs.
enum ShareMedia {
    private static let required: [String: [String]] = [
        "image": ["src", "href"],
        "flash": ["swfsrc", "imgsrc"],
        "mp3": ["src"],
    ]
    /// Optional text members. flash sizes are not listed: iOS sends them as strings, Android as numbers.
    private static let optionalStrings: [String: [String]] = [
        "image": [],
        "flash": [],
        "mp3": ["title", "artist", "album"],
    ]
    private static let flashSizes = ["width", "height", "expanded_width", "expanded_height"]

    static func check(_ value: JSON?) throws(JumpError) {
        guard let value = ShareActivity.present(value) else { return }
        guard let items = value.arrayValue else {
            throw ShareActivity.invalid("the activity's \"media\" must be an array, not \(value.typeName)")
        }
        for (index, item) in items.enumerated() {
            try checkItem(item, at: index)
        }
    }

    private static func checkItem(_ item: JSON, at index: Int) throws(JumpError) {
        let owner = "media[\(index)]"
        guard let members = item.objectValue else {
            throw ShareActivity.invalid("\(owner) must be an object, not \(item.typeName)")
        }
        guard let type = members["type"]?.stringValue, let needed = required[type] else {
            throw ShareActivity.invalid("\(owner)'s \"type\" must be \"image\", \"flash\" or \"mp3\"")
        }
        for key in needed {
            if try ShareActivity.string(members, key, in: owner) == nil {
                throw ShareActivity.invalid("\(owner) (\(type)) needs a \"\(key)\" string")
            }
        }
        for key in optionalStrings[type] ?? [] {
            _ = try ShareActivity.string(members, key, in: owner)
        }
        guard type == "flash" else { return }
        for key in flashSizes {
            guard let size = ShareActivity.present(members[key]) else { continue }
            switch size {
            case .int, .double, .string: continue
            default: throw ShareActivity.invalid("\(owner)'s \"\(key)\" must be a number, not \(size.typeName)")
            }
        }
    }
}
