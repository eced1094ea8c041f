import BLEController
import BLEWire

/// How the LE Advertising Reports (Core 5.4, Vol 4, Part E, §7.7.65.2) of a scenario's
/// scripted scanners reach whoever reads them: as values, or encoded as HCI events and decoded
/// again. Both give the same reports in the same order at the same times, so the same
/// results (`ReportDeliveryTests` compares them); the first skips an encoding and a decoding
/// per report, which a city's observers spend much of their time in otherwise
/// (docs/world-benchmarks.md).
public enum ScenarioReports: Hashable, Sendable {
    /// The controllers of scripted scanning devices hand their reports over as values
    /// (``BLEController/ControllerConfiguration/reportsAdvertisingAsValues``), and
    /// ``BuiltScenario/onAdvertisingReport`` gets them when set. Anything that needs the
    /// bytes (an HCI capture, a copier, an attacker, ``BuiltScenario/onHostPacket`` when
    /// ``BuiltScenario/onAdvertisingReport`` is not set) still gets the encoded event.
    case values
    /// Every report is an encoded HCI event, as from any controller.
    case throughHCI
}

extension ScenarioDevice {
    /// Whether the device's host is one of the world's own scanners, whose reports may be
    /// handed over as values (``ScenarioReports/values``): a scripted host, or a phone whose
    /// system scans (``scansAsPhone``).
    var scansInProcess: Bool { host == .scripted || scansAsPhone }
}

extension BuiltScenario {
    /// An LE Advertising Report `device`'s controller handed over as a value. Scripted
    /// scanners and hosts wait only for Command Complete and Command Status, so they would
    /// ignore it; it goes to ``onAdvertisingReport`` when that is set and nothing else needs
    /// the packet (a copier or attacker reads packets), else it is encoded and handled as
    /// every other packet (``receive(_:from:)``).
    func receive(_ report: HCI.LEAdvertisingReport, from device: DeviceID) {
        guard let onAdvertisingReport, copiers.isEmpty, attackers.isEmpty || attackers[device] == nil,
              scanners[device] != nil || hosts[device] != nil, Self.decodesAsItself(report) else {
            receive(.event(HCI.Event.leMeta(.advertisingReport(report)).packet), from: device)
            return
        }
        onAdvertisingReport(device, report)
    }

    /// Whether `report` is what decoding its own encoding gives: every address of the kind
    /// its address type names (§7.7.65.2 carries only the type and 48 bits), lengths that fit
    /// their octet. A report that is not goes the full way, so a reader never sees a value
    /// its bytes would not give.
    static func decodesAsItself(_ report: HCI.LEAdvertisingReport) -> Bool {
        report.reports.count <= Int(UInt8.max)
            && report.reports.allSatisfy { $0.address.kind == $0.addressType.addressKind && $0.data.count <= Int(UInt8.max) }
    }
}
