import BLE

extension CBPeripheral {
    /// Turns on the peer's Service Changed indications after the first service discovery
    /// on a link, as Core Bluetooth does, and reports each change as
    /// `peripheral(_:didModifyServices:)` (Core 5.4, Vol 3, Part G, §7.1). A peer without
    /// Service Changed, or one that refuses it, leaves the delegate method uncalled.
    func watchServiceChanges(on connection: Connection) async {
        guard serviceChangeWatch == nil, self.connection === connection else { return }
        // Claimed before the wait, so a second discovery does not start another watch.
        serviceChangeWatch = Task.detached {}
        guard let changes = try? await connection.serviceChanges(), self.connection === connection else { return }
        dbg("watch starts")
        serviceChangeWatch = startTask(on: isolation) { [weak self] _ in
            dbg("watch loop")
            for await range in changes {
                dbg("watch got")
                self?.servicesChanged(in: range)
            }
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
        delegate?.peripheral(self, didModifyServices: invalidated)
    }
}
