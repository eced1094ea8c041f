/// Why a benchmark could not run or did not finish: one sentence a tool can print as it
/// stands (``ble bench`` does), saying what went wrong and, where it helps, what to try.
public struct BenchFailure: Error, CustomStringConvertible, Sendable {
    /// The sentence.
    public var description: String

    /// A failure that says `description`.
    public init(_ description: String) { self.description = description }
}
