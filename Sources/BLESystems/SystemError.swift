/// Why a field system could not run from a scenario: one sentence that says what to do.
public struct SystemError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The sentence.
    public var description: String

    /// An error with that sentence.
    public init(_ description: String) { self.description = description }
}
