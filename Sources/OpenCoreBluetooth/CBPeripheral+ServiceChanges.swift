import BLE

extension CBPeripheral {
    /// Turns on the peer's Service Changed indications after the first service discovery
    /// on a link, as Core Bluetooth does, and reports each change as
    /// `peripheral(_:didModifyServices:)` (Core 5.4, Vol 3, Part G, §7.1). A peer without
    /// Service Changed, or one that refuses it, leaves the delegate method uncalled.
    func watchServiceChanges(on connection: Connection) async {
        // Claimed before the wait, so a second discovery does not start another watch.
        let claimed = await onQueue { () -> Bool in
            guard !self.watchesServiceChanges, self.connection === connection else { return false }
            self.watchesServiceChanges = true
            return true
        }
        guard claimed, let changes = try? await connection.serviceChanges() else { return }
        let watch = Task { [weak self] in
            for await range in changes {
                guard let self else { return }
                await self.onQueue { self.servicesChanged(in: range) }
            }
        }
        await onQueue {
            guard self.connection === connection else { return watch.cancel() }
            self.serviceChangeWatch = watch
        }
    }

    /// The peer changed the attributes in `range`: the services we know there are dropped
    /// from ``services`` (their characteristics stop notifying) and given to the delegate,
    /// which discovers again what it still needs. The call comes also when the change only
    /// added services, with an empty list, as Apple documents.
    func servicesChanged(in range: ClosedRange<UInt16>) {
        let invalidated = (services ?? []).filter { $0.remote?.handles.overlaps(range) == true }
        for service in invalidated {
            for characteristic in service.characteristics ?? [] {
                characteristic.isNotifying = false
                guard let handle = characteristic.remote?.valueHandle,
                      let subscription = subscriptions.removeValue(forKey: handle) else { continue }
                subscription.values.cancel()
                subscription.reader.cancel()
            }
        }
        services = services?.filter { service in !invalidated.contains { $0 === service } }
        tell("didModifyServices") { self.delegate?.peripheral(self, didModifyServices: invalidated) }
    }
}
