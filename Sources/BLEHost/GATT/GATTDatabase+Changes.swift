import BLEWire

extension GATTDatabase {
    /// The handles a Service Changed indication names when this database replaces `old`
    /// (Core 5.4, Vol 3, Part G, §7.1: the first and last handles affected by an addition,
    /// removal or modification): from the first service that differs, in its handles or
    /// its characteristics, to the end of the larger database; `nil` when nothing changed.
    /// A change that leaves every service and characteristic in place (a descriptor's
    /// value, say) names the whole range, since it cannot be placed more exactly here.
    public func changedHandles(since old: GATTDatabase) -> ClosedRange<ATT.Handle>? {
        guard databaseHash != old.databaseHash || services != old.services || characteristics != old.characteristics else { return nil }
        var index = 0
        while index < min(services.count, old.services.count), services[index] == old.services[index],
              characteristics(in: services[index]) == old.characteristics(in: old.services[index]) {
            index += 1
        }
        let starts = [services, old.services].compactMap { index < $0.count ? $0[index].handles.lowerBound : nil }
        guard let start = starts.min() else { return 0x0001 ... 0xFFFF }
        return start ... max(start, lastHandle, old.lastHandle)
    }

    /// The characteristics declared inside `service`.
    private func characteristics(in service: Service) -> [Characteristic] {
        characteristics.filter { service.handles.contains($0.declarationHandle) }
    }
}
