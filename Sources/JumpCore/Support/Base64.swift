import CCrypto

/// Standard base64 (RFC 4648 §4, padded), by libcrypto's EVP_EncodeBlock / EVP_DecodeBlock.
public enum Base64 {
    public static func encode(_ input: [UInt8]) -> String {
        guard !input.isEmpty, input.count <= Int(Int32.max / 4 * 3) - 3 else { return "" }
        let capacity = (input.count + 2) / 3 * 4
        return String(unsafeUninitializedCapacity: capacity + 1) { buffer -> Int in
            guard let out = buffer.baseAddress else { return 0 }
            let written = input.withUnsafeBufferPointer { source -> Int32 in
                guard let source = source.baseAddress else { return 0 }
                return EVP_EncodeBlock(out, source, Int32(input.count))  // writes a NUL after the text
            }
            return max(0, min(Int(written), capacity))
        }
    }

    /// The bytes of padded standard base64 (length a multiple of 4), or nil when it is not that.
    public static func decode(_ text: String) -> [UInt8]? {
        let input = Array(text.utf8)
        guard !input.isEmpty, input.count % 4 == 0, input.count <= Int(Int32.max) else { return input.isEmpty ? [] : nil }
        // EVP_DecodeBlock skips surrounding blanks and counts padding as zero bytes: refuse blanks, drop padding.
        guard let first = input.first, let last = input.last, first > 0x20, last > 0x20 else { return nil }
        let padding = input.reversed().prefix { $0 == UInt8(ascii: "=") }.count
        guard padding <= 2 else { return nil }
        var output = [UInt8](repeating: 0, count: input.count / 4 * 3)
        let decoded = output.withUnsafeMutableBufferPointer { out -> Int32 in
            input.withUnsafeBufferPointer { source -> Int32 in
                guard let out = out.baseAddress, let source = source.baseAddress else { return -1 }
                return EVP_DecodeBlock(out, source, Int32(input.count))
            }
        }
        guard decoded >= 0, Int(decoded) == output.count else { return nil }
        output.removeLast(padding)
        return output
    }
}
