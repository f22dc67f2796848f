/// A closure kept as a `Lock`'s value, boxed. Stored bare, a closure came back from each `withLock` wrapped
/// in two more reabstraction thunks (the generic body's `inout` is converted to the closure's own
/// representation and back, and the converted copy is written back), so the n-th call through it recursed
/// 2n frames deep until a thread's stack overflowed. A class reference needs no conversion.
public final class ClosureBox<Function: Sendable>: Sendable {
    public let function: Function
    public init(_ function: Function) { self.function = function }
}
