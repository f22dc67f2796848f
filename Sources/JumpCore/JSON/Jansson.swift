import CJansson
import Glibc
import JumpRuntime

/// JSON text and jansson values <-> `JSON`. jansson does the parsing and printing (strict RFC 8259,
/// UTF-8 checked); this file only walks its values.
public enum Jansson {
    /// How deep arrays and objects may nest (JUMP_JSON_MAX_DEPTH in jump.h). Parsing, converting and
    /// freeing JSON all recurse once per level; this bound keeps them within a 128 KiB host thread stack.
    /// Capture records nest a handful of levels.
    public static let maxDepth = 64

    /// Parses JSON text (any value at the top level). Throws `.invalidArgument` naming `what`.
    /// What libjump itself saved wraps values a few levels deeper (a journal line, the saved record):
    /// reading it back allows that much more, so a value accepted at maxDepth is never unreadable later.
    static let storageDepth = maxDepth + 8

    /// Documents at least this large give their freed memory back to the system once converted.
    static let trimAfterBytes = 4 << 20

    public static func parse(_ bytes: [UInt8], what: String, deadline: Int64? = nil) throws(JumpError) -> JSON {
        try parse(bytes, what: what, deadline: deadline, maxDepth: maxDepth)
    }

    static func parse(_ bytes: [UInt8], what: String, deadline: Int64? = nil, maxDepth: Int) throws(JumpError) -> JSON {
        var chunks = [bytes]
        return try parse(takingChunks: &chunks, what: what, deadline: deadline, maxDepth: maxDepth)
    }

    /// Parses text that arrived in pieces, releasing each piece once jansson has read it, so a large answer
    /// never exists whole beside its parse tree; the tree is then freed piece by piece as it is converted.
    /// `chunks` is left empty.
    static func parse(takingChunks chunks: inout [[UInt8]], what: String, deadline: Int64? = nil,
                      maxDepth: Int = Jansson.maxDepth) throws(JumpError) -> JSON {
        // Checked before jansson sees the text: its parser recurses once per level too.
        var scan = NestingScan()
        for chunk in chunks { scan.read(chunk) }
        if scan.deepest > maxDepth {
            throw JumpError(.invalidArgument, "\(what) nests arrays and objects deeper than \(maxDepth) levels (found \(scan.deepest))",
                            detail: ["argument": .string(what), "max_depth": .int(Int64(maxDepth))])
        }
        var error = json_error_t()
        let flags = Int(JSON_DECODE_ANY) | Int(JSON_REJECT_DUPLICATES) | Int(JSON_ALLOW_NUL)
        let reader = ChunkReader(chunks)
        chunks = []
        let parsed = withExtendedLifetime(reader) {
            json_load_callback({ buffer, length, context in
                guard let buffer, let context else { return 0 }
                return Unmanaged<ChunkReader>.fromOpaque(context).takeUnretainedValue().read(into: buffer, length)
            }, Unmanaged.passUnretained(reader).toOpaque(), flags, &error)
        }
        guard let root = parsed else {
            let reason = withUnsafeBytes(of: error.text) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            throw JumpError(.invalidArgument, "\(what) is not valid JSON: \(reason) (line \(error.line), column \(error.column))",
                            detail: ["argument": .string(what), "line": .int(Int64(error.line)),
                                     "column": .int(Int64(error.column))])
        }
        let large = reader.total >= Jansson.trimAfterBytes
        defer {
            jumpi_json_decref(root)
            // The tree of a large document was freed in small pieces, which glibc keeps for itself: hand the
            // free pages back, or the process keeps the tree's size resident while it saves the session.
            if large { jumpi_release_free_memory() }
        }
        var budget: Budget? = deadline != nil || large ? Budget(deadline: deadline, releasesMemory: large) : nil
        do throws(ConversionError) {
            return try convert(UnsafePointer(root), validating: false, consuming: true, budget: &budget)
        } catch {
            throw JumpError(.timeout, "\(what) took longer to read than the time allowed")
        }
    }

    /// Bounds the time a conversion may take: the clock is read every few thousand values.
    /// While converting a large document, also hands the memory of the jansson values freed so far back to
    /// the system now and then: glibc keeps small freed blocks, and without this the process would hold the
    /// whole jansson tree and the whole `JSON` at once.
    struct Budget {
        let deadline: Int64?
        var releasesMemory = false
        var countdown = 4096
        var rounds = 0

        mutating func spend() throws(ConversionError) {
            countdown -= 1
            if countdown > 0 { return }
            countdown = 4096
            rounds &+= 1
            if releasesMemory && rounds % 8 == 0 { jumpi_release_free_memory() }
            if let deadline, Clock.monotonicMilliseconds() > deadline { throw .outOfTime }
        }
    }

    public static func parse(_ text: String, what: String) throws(JumpError) -> JSON {
        try parse(Array(text.utf8), what: what)
    }

    /// Compact JSON text with sorted keys.
    public static func serialize(_ json: JSON) -> String {
        String(decoding: serializedBytes(json), as: UTF8.self)
    }

    /// The text of `serialize`, as UTF-8 bytes. jansson prints it, one piece at a time: a container of more
    /// than `pieceNodes` values is written member by member, so a large record never exists whole as a
    /// jansson tree, nor its text twice (a 31 MiB record used to cost 4x its size to save).
    public static func serializedBytes(_ json: JSON) -> [UInt8] {
        var out: [UInt8] = []
        // A large text is given its room up front: growing by doubling would hold the old and the new buffer
        // at once, 1.5x the text, at the moment a session save is largest.
        if exceedsNodes(json, pieceNodes) { out.reserveCapacity(estimatedSize(json)) }
        do throws(JumpError) {
            try write(json, into: &out, flushingAt: Int.max) { _ throws(JumpError) in }
        } catch {}  // nothing above throws
        return out
    }

    /// The same text, handed to `emit` in pieces of about `pieceBytes` as it is printed: a saved session is
    /// written out while it is printed, never held whole in memory beside the record.
    public static func serialize(_ json: JSON, inPiecesOf pieceBytes: Int,
                                 to emit: ([UInt8]) throws(JumpError) -> Void) throws(JumpError) {
        var out: [UInt8] = []
        out.reserveCapacity(pieceBytes + 4096)
        try write(json, into: &out, flushingAt: pieceBytes) { piece throws(JumpError) in
            try emit(piece)
            piece.removeAll(keepingCapacity: true)
        }
        if !out.isEmpty { try emit(out) }
    }

    /// About the length of the text of `json` (strings as if nothing needed escaping, numbers generously).
    static func estimatedSize(_ json: JSON) -> Int {
        switch json {
        case .null, .bool: return 5
        case .int, .double: return 20
        case .string(let s): return s.utf8.count + 2
        case .array(let items): return items.reduce(2) { $0 + 1 + estimatedSize($1) }
        case .object(let members): return members.reduce(2) { $0 + 4 + $1.key.utf8.count + estimatedSize($1.value) }
        }
    }

    static let pieceNodes = 512

    private static func write(_ json: JSON, into out: inout [UInt8], flushingAt limit: Int,
                              _ flush: (inout [UInt8]) throws(JumpError) -> Void) throws(JumpError) {
        switch json {
        case .array(let items) where exceedsNodes(json, pieceNodes):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                try write(item, into: &out, flushingAt: limit, flush)
                if out.count >= limit { try flush(&out) }
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members) where exceedsNodes(json, pieceNodes):
            out.append(UInt8(ascii: "{"))
            // jansson's JSON_SORT_KEYS order: strcmp, i.e. by UTF-8 bytes.
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            for (index, member) in sorted.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                dump(.string(member.key), into: &out)
                out.append(UInt8(ascii: ":"))
                try write(member.value, into: &out, flushingAt: limit, flush)
                if out.count >= limit { try flush(&out) }
            }
            out.append(UInt8(ascii: "}"))
        default:
            dump(json, into: &out)
        }
    }

    /// Whether `json` holds more than `limit` values (a walk that stops as soon as it knows).
    private static func exceedsNodes(_ json: JSON, _ limit: Int) -> Bool {
        var budget = limit
        return !fits(json, &budget)
    }

    private static func fits(_ json: JSON, _ budget: inout Int) -> Bool {
        budget -= 1
        if budget < 0 { return false }
        switch json {
        case .array(let items):
            for item in items where !fits(item, &budget) { return false }
        case .object(let members):
            for member in members.values where !fits(member, &budget) { return false }
        default:
            break
        }
        return true
    }

    /// Appends jansson's compact, key-sorted text of `json`.
    private static func dump(_ json: JSON, into out: inout [UInt8]) {
        guard let value = makeValue(json) else {
            out.append(contentsOf: "null".utf8)
            return
        }
        defer { jumpi_json_decref(value) }
        let flags = Int(JSON_COMPACT) | Int(JSON_SORT_KEYS) | Int(JSON_ENCODE_ANY)
        withUnsafeMutablePointer(to: &out) { sink in
            _ = json_dump_callback(value, { text, size, sink in
                guard let text, let sink else { return -1 }
                sink.assumingMemoryBound(to: [UInt8].self).pointee
                    .append(contentsOf: UnsafeRawBufferPointer(start: text, count: size))
                return 0
            }, sink, flags)
        }
    }

    /// Converts a borrowed jansson value. jansson checks UTF-8 when it parses, but a caller can build values
    /// with the *_nocheck functions, so a value handed in through the C API is checked again here.
    public static func value(of pointer: UnsafePointer<json_t>?) -> JSON {
        var budget: Budget?
        return (try? convert(pointer, validating: false, budget: &budget)) ?? .null
    }

    /// Like `value(of:)`, refusing strings and keys that are not valid UTF-8 (values from a C caller), and
    /// values nested deeper than `maxDepth`.
    public static func validatedValue(of pointer: UnsafePointer<json_t>?, what: String) throws(JumpError) -> JSON {
        if exceedsDepth(pointer, limit: maxDepth) {
            throw JumpError(.invalidArgument, "\(what) nests arrays and objects deeper than \(maxDepth) levels",
                            detail: ["argument": .string(what), "max_depth": .int(Int64(maxDepth))])
        }
        do {
            var budget: Budget?
            return try convert(pointer, validating: true, budget: &budget)
        } catch {
            throw .invalidArgument("\(what) holds a string or key that is not valid UTF-8", argument: what)
        }
    }

    /// Whether a jansson value nests deeper than `limit`, found by a walk with its own stack (no recursion),
    /// which stops as soon as the limit is passed (so a cycle built by a caller ends it too).
    static func exceedsDepth(_ root: UnsafePointer<json_t>?, limit: Int) -> Bool {
        guard let root else { return false }
        var pending: [(UnsafeMutablePointer<json_t>, Int)] = [(UnsafeMutablePointer(mutating: root), 1)]
        while let (node, depth) = pending.popLast() {
            switch jumpi_json_typeof(node) {
            case Int32(JSON_OBJECT.rawValue):
                if depth > limit { return true }
                var iter = json_object_iter(node)
                while let it = iter {
                    if let child = json_object_iter_value(it) { pending.append((child, depth + 1)) }
                    iter = json_object_iter_next(node, it)
                }
            case Int32(JSON_ARRAY.rawValue):
                if depth > limit { return true }
                for i in 0..<json_array_size(node) {
                    if let child = json_array_get(node, i) { pending.append((child, depth + 1)) }
                }
            default:
                break
            }
        }
        return false
    }

    enum ConversionError: Error { case invalidUTF8, outOfTime }

    private static func text(_ bytes: UnsafeRawBufferPointer, validating: Bool) throws(ConversionError) -> String {
        guard validating else { return String(decoding: bytes, as: UTF8.self) }
        guard let s = String(validating: bytes, as: UTF8.self) else { throw .invalidUTF8 }
        return s
    }

    /// `consuming`: the value is libjump's own (just parsed); each member is released once converted, so the
    /// jansson tree shrinks while the `JSON` grows.
    private static func convert(_ pointer: UnsafePointer<json_t>?, validating: Bool, consuming: Bool = false,
                                budget: inout Budget?) throws(ConversionError) -> JSON {
        guard let p = pointer else { return .null }
        try budget?.spend()
        switch jumpi_json_typeof(p) {
        case Int32(JSON_OBJECT.rawValue):
            var members: [String: JSON] = [:]
            var iter = json_object_iter(UnsafeMutablePointer(mutating: p))
            while let it = iter {
                if let key = json_object_iter_key(it) {
                    let keyBytes = UnsafeRawBufferPointer(start: key, count: json_object_iter_key_len(it))
                    members[try text(keyBytes, validating: validating)] = try convert(json_object_iter_value(it), validating: validating,
                                                                                      consuming: consuming, budget: &budget)
                    if consuming { json_object_iter_set_new(UnsafeMutablePointer(mutating: p), it, json_null()) }
                }
                iter = json_object_iter_next(UnsafeMutablePointer(mutating: p), it)
            }
            return .object(members)
        case Int32(JSON_ARRAY.rawValue):
            let count = json_array_size(p)
            var items: [JSON] = []
            items.reserveCapacity(count)
            for i in 0..<count {
                items.append(try convert(json_array_get(p, i), validating: validating, consuming: consuming, budget: &budget))
                if consuming { json_array_set_new(UnsafeMutablePointer(mutating: p), i, json_null()) }
            }
            return .array(items)
        case Int32(JSON_STRING.rawValue):
            guard let chars = json_string_value(p) else { return .string("") }
            return .string(try text(UnsafeRawBufferPointer(start: chars, count: json_string_length(p)), validating: validating))
        case Int32(JSON_INTEGER.rawValue):
            return .int(Int64(json_integer_value(p)))
        case Int32(JSON_REAL.rawValue):
            return .double(json_real_value(p))
        case Int32(JSON_TRUE.rawValue):
            return .bool(true)
        case Int32(JSON_FALSE.rawValue):
            return .bool(false)
        default:
            return .null
        }
    }

    /// A new jansson reference for `json` (nil only when jansson cannot allocate).
    public static func makeValue(_ json: JSON) -> UnsafeMutablePointer<json_t>? {
        switch json {
        case .null: return json_null()
        case .bool(let b): return b ? json_true() : json_false()
        case .int(let i): return json_integer(json_int_t(i))
        case .double(let d): return d.isFinite ? json_real(d) : json_null()
        case .string(let s):
            var s = s
            return s.withUTF8 { buf in
                buf.withMemoryRebound(to: CChar.self) { chars in
                    chars.baseAddress.map { json_stringn_nocheck($0, buf.count) } ?? json_string_nocheck("")
                }
            }
        case .array(let items):
            guard let array = json_array() else { return nil }
            for item in items {
                guard let v = makeValue(item) else { jumpi_json_decref(array); return nil }
                json_array_append_new(array, v)
            }
            return array
        case .object(let members):
            guard let object = json_object() else { return nil }
            for (key, member) in members {
                guard let v = makeValue(member) else { jumpi_json_decref(object); return nil }
                json_object_setn_new_nocheck(object, key, key.utf8.count, v)
            }
            return object
        }
    }
}

/// How deeply JSON text nests arrays and objects, read in pieces (the state carries over between them).
struct NestingScan {
    private(set) var deepest = 0
    private var depth = 0
    private var inString = false
    private var escaped = false

    mutating func read(_ bytes: [UInt8]) {
        for b in bytes {
            if inString {
                if escaped { escaped = false } else if b == UInt8(ascii: "\\") { escaped = true } else if b == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch b {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
    }
}

/// Hands jansson's json_load_callback the pieces of a text in order, releasing each once it is read.
private final class ChunkReader {
    private var chunks: [[UInt8]]
    private var index = 0
    private var offset = 0
    let total: Int

    init(_ chunks: [[UInt8]]) {
        self.chunks = chunks
        total = chunks.reduce(0) { $0 + $1.count }
    }

    /// Copies up to `length` bytes into `buffer`; 0 at the end.
    func read(into buffer: UnsafeMutableRawPointer, _ length: Int) -> Int {
        while index < chunks.count {
            let left = chunks[index].count - offset
            if left <= 0 {
                chunks[index] = []  // read whole: released
                index += 1
                offset = 0
                continue
            }
            let n = min(left, length)
            chunks[index].withUnsafeBytes { bytes in
                guard let base = bytes.baseAddress else { return }
                buffer.copyMemory(from: base + offset, byteCount: n)
            }
            offset += n
            return n
        }
        return 0
    }
}
