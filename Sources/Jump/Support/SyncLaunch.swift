import JumpCore

/// The synchronous twin of AsyncLaunch. An export pair shares one prepare step: it reads the arguments once,
/// on the caller's thread, into the work to do. The _async export hands that work to a libjump thread; the
/// synchronous one runs it here and writes its result.
enum SyncLaunch {
    /// `out` may be NULL (the result is dropped) unless `required` names it; it is NULL after a failure.
    static func run(client handle: OpaquePointer?, out: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil,
                    required: String? = nil, prepare: () throws(ABIError) -> AsyncLaunch.Work) -> Int32 {
        abiCall { () throws(ABIError) in
            if let required { _ = try Marshal.prepare(out, required) } else { out?.pointee = nil }
            let client = try jumpClient(handle)
            let work = try prepare()
            try Marshal.write(try client.call { () throws(JumpError) in try work(client, nil) }, to: out)
        }
    }
}
