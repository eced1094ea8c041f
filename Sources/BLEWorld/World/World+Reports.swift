import BLEController
import BLEWire

extension World {
    /// An LE Advertising Report (Core 5.4, Vol 4, Part E, §7.7.65.2) `device`'s controller
    /// handed over as a value: counted as the HCI event it stands for, captured as its bytes
    /// when the world captures HCI, and given to ``onAdvertisingReport``, or, when that is not
    /// set, encoded and given to ``onHostPacket`` as any other event.
    func handOver(_ report: HCI.LEAdvertisingReport, from device: Int) {
        let state = deviceStates[device]
        state.statistics.hciToHost += 1
        if let onAdvertisingReport, !configuration.capturesHCI {
            onAdvertisingReport(DeviceID(rawValue: device), report)
            return
        }
        let packet = H4.Packet.event(HCI.Event.leMeta(.advertisingReport(report)).packet)
        if configuration.capturesHCI { state.capture.record(packet, direction: .received, at: now) }
        if let onAdvertisingReport {
            onAdvertisingReport(DeviceID(rawValue: device), report)
        } else {
            onHostPacket?(DeviceID(rawValue: device), packet)
        }
    }
}
