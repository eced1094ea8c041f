// Reading the controller's connection slots in place, for the per-packet paths.

extension Controller {
    /// The index of the connection with `handle`, if open.
    func slotIndex(handle: UInt16) -> Int? {
        readingSlots { slots in slots.indices.first { slots.inPlace($0).pointee.link.handleValue == handle } }
    }

    /// Runs `body` with the slots, to be read through ``UnsafeBufferPointer/inPlace(_:)``.
    /// A read through ``connections``' subscript (or a buffer pointer's) copies the whole
    /// slot before it reads a computed property of it, and the controller reads them
    /// several times for every packet; a pointer's `pointee` reads in place.
    func readingSlots<T>(_ body: (UnsafeBufferPointer<ConnectionSlot>) -> T) -> T {
        connections.withUnsafeBufferPointer(body)
    }
}

extension UnsafeBufferPointer {
    /// The element at `index` (which must be in bounds), to read in place through `pointee`.
    /// Callers pass indices of the same buffer, never a number from a packet: the check
    /// guards the controller's own loops.
    func inPlace(_ index: Int) -> UnsafePointer<Element> {
        precondition(indices.contains(index), "slot index out of range")
        return baseAddress.unsafelyUnwrapped + index
    }
}
