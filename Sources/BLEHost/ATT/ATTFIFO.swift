/// A first-in, first-out queue with O(1) amortized push and pop, for the bearer's queued
/// requests and indications (thousands may be queued in a benchmark; `removeFirst()` on an
/// array would make that quadratic).
struct ATTFIFO<Element: Sendable>: Sendable {
    private var storage: [Element] = []
    private var head = 0

    /// How many elements wait.
    var count: Int { storage.count - head }
    /// Whether nothing waits.
    var isEmpty: Bool { head >= storage.count }

    /// Appends at the back.
    mutating func push(_ element: Element) { storage.append(element) }

    /// Takes the front element, or `nil` when empty.
    mutating func pop() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        if head >= 64, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }

    /// Takes every element, front first.
    mutating func drain() -> [Element] {
        let all = Array(storage[head...])
        storage = []
        head = 0
        return all
    }
}
