import Foundation
#if canImport(CoreBluetooth)
import CoreBluetooth
#else
import OpenCoreBluetooth
#endif

/// A workout app's heart-rate monitor, written as an iOS app writes it: it scans for the
/// Heart Rate service (0x180D), connects to the first strap it finds, subscribes to the Heart
/// Rate Measurement (0x2A37) and keeps every beat it hears. It opts into Core Bluetooth's
/// state preservation, so when the system ends the app mid-workout, a measurement relaunches
/// it, `centralManager(_:willRestoreState:)` hands back the connected strap, and the workout
/// goes on.
///
/// On Apple platforms this file compiles against Core Bluetooth; here against
/// `OpenCoreBluetooth`. Nothing else changes.
public final class HeartRateMonitor: NSObject, CBCentralManagerDelegate, CBPeripheralDelegate {
    /// The Heart Rate service (Bluetooth SIG Assigned Numbers, 0x180D).
    public static let heartRateService = CBUUID(string: "180D")
    /// The Heart Rate Measurement characteristic (0x2A37).
    public static let measurement = CBUUID(string: "2A37")

    /// The restore identifier the app's central manager keeps across relaunches.
    public let restoreIdentifier: String
    /// Beats per minute in the order they arrived, this launch.
    public private(set) var beats: [Int] = []
    /// Whether this launch began with the system handing back a strap.
    public private(set) var restored = false
    /// Receives one line per thing the app does (its own log).
    public var onLog: ((String) -> Void)?

    private var manager: CBCentralManager!
    private var strap: CBPeripheral?

    /// Starts the monitor, as `application(_:didFinishLaunchingWithOptions:)` does: the
    /// central manager is made with the same restore identifier at every launch, so that
    /// the system can hand back what the previous one had.
    public init(restoreIdentifier: String = "heart-rate-monitor", onLog: ((String) -> Void)? = nil) {
        self.restoreIdentifier = restoreIdentifier
        self.onLog = onLog
        super.init()
        manager = CBCentralManager(delegate: self, queue: nil,
                                   options: [CBCentralManagerOptionRestoreIdentifierKey: restoreIdentifier])
    }

    public func centralManager(_ central: CBCentralManager, willRestoreState dict: [String: Any]) {
        let peripherals = dict[CBCentralManagerRestoredStatePeripheralsKey] as? [CBPeripheral] ?? []
        restored = !peripherals.isEmpty
        strap = peripherals.first
        strap?.delegate = self
        onLog?("restored with \(peripherals.map { $0.name ?? "a strap" })")
    }

    public func centralManagerDidUpdateState(_ central: CBCentralManager) {
        guard central.state == .poweredOn else { return }
        if let strap {
            // A restored strap is connected and subscribed; connecting again completes at once.
            if strap.state != .connected { central.connect(strap, options: nil) }
        } else {
            central.scanForPeripherals(withServices: [Self.heartRateService], options: nil)
        }
    }

    public func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
                               advertisementData: [String: Any], rssi RSSI: NSNumber) {
        guard strap == nil else { return }
        strap = peripheral
        central.stopScan()
        onLog?("found \(peripheral.name ?? "a strap") at \(RSSI) dBm")
        central.connect(peripheral, options: nil)
    }

    public func centralManager(_ central: CBCentralManager, didConnect peripheral: CBPeripheral) {
        peripheral.delegate = self
        peripheral.discoverServices([Self.heartRateService])
    }

    public func centralManager(_ central: CBCentralManager, didFailToConnect peripheral: CBPeripheral, error: (any Error)?) {
        onLog?("could not connect: \(error.map { "\($0)" } ?? "no reason given")")
        central.connect(peripheral, options: nil)
    }

    public func centralManager(_ central: CBCentralManager, didDisconnectPeripheral peripheral: CBPeripheral,
                               error: (any Error)?) {
        // A strap out of range comes back: a pending connect never times out on iOS.
        onLog?("strap lost\(error.map { ": \($0)" } ?? "")")
        central.connect(peripheral, options: nil)
    }

    public func peripheral(_ peripheral: CBPeripheral, didDiscoverServices error: (any Error)?) {
        for service in peripheral.services ?? [] where service.uuid == Self.heartRateService {
            peripheral.discoverCharacteristics([Self.measurement], for: service)
        }
    }

    public func peripheral(_ peripheral: CBPeripheral, didDiscoverCharacteristicsFor service: CBService, error: (any Error)?) {
        for characteristic in service.characteristics ?? [] where characteristic.uuid == Self.measurement {
            peripheral.setNotifyValue(true, for: characteristic)
        }
    }

    public func peripheral(_ peripheral: CBPeripheral, didUpdateValueFor characteristic: CBCharacteristic, error: (any Error)?) {
        guard error == nil, characteristic.uuid == Self.measurement, let value = characteristic.value,
              let bpm = Self.beatsPerMinute(in: value) else { return }
        beats.append(bpm)
        onLog?("\(bpm) bpm")
    }

    /// The heart rate of a Heart Rate Measurement value: bit 0 of the flags says whether it
    /// is one octet or two, little-endian (Heart Rate Service 1.0, §3.1.1.1); `nil` for a
    /// value too short to hold it.
    public static func beatsPerMinute(in value: Data) -> Int? {
        let octets = [UInt8](value)
        guard let flags = octets.first else { return nil }
        if flags & 0x01 == 0 {
            return octets.count >= 2 ? Int(octets[1]) : nil
        }
        return octets.count >= 3 ? Int(octets[1]) | Int(octets[2]) << 8 : nil
    }
}
