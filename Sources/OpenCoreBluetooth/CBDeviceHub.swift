import BLE
import Foundation
import Synchronization

/// The devices the managers of this process use: one `BLEDevice` per controller, shared by
/// every central and peripheral manager naming that controller, since one controller
/// serves both roles at once (DESIGN.md, "Two faces, one engine"). Opened lazily, on the
/// first manager's request, with privacy on (an iPhone never shows its public address), and
/// kept for the life of the process. A device the app opened and registered
/// (``OpenCoreBluetooth/use(_:as:)``) is used as the app set it up.
final class CBDeviceHub: Sendable {
    /// The process's hub.
    static let shared = CBDeviceHub()

    private struct Entry {
        let generation: Int
        let opening: Task<Result<BLEDevice, BLEError>, Never>
        /// Given by the app (``OpenCoreBluetooth/use(_:as:)``): not closed by the hub.
        let isGiven: Bool
    }

    private struct State {
        var defaultController: String?
        var entries: [String: Entry] = [:]
        var nextGeneration = 0
        /// The Supported Commands each open device's controller reported at start-up, by name or spec.
        var controllers: [String: HCI.SupportedCommands] = [:]
    }

    private let state = Mutex(State())

    /// The controller managers use when their options name none: the one set by
    /// ``OpenCoreBluetooth/useController(hci:)``, else `$SWIFTBLE_HCI`, else `sim`.
    var defaultController: String {
        state.withLock { $0.defaultController } ?? ProcessInfo.processInfo.environment["SWIFTBLE_HCI"] ?? "sim"
    }

    /// Sets the controller managers made from now on use by default.
    func setDefaultController(_ spec: String) {
        state.withLock { $0.defaultController = spec }
    }

    /// Registers an open device under `name`, for managers whose options name it.
    func register(_ device: BLEDevice, as name: String) {
        state.withLock { state in
            state.nextGeneration += 1
            state.entries[name] = Entry(generation: state.nextGeneration, opening: Task { .success(device) }, isGiven: true)
            state.controllers[name] = device.controller.supportedCommands
        }
    }

    /// The device for `controller` (a name given to ``register(_:as:)`` or an `--hci`
    /// spec; `nil` for the default), opening it on first use. A failed open is not kept,
    /// so a later manager tries again.
    func device(for controller: String?) async -> Result<BLEDevice, BLEError> {
        let spec = controller ?? defaultController
        let entry = state.withLock { state in
            if let entry = state.entries[spec] { return entry }
            state.nextGeneration += 1
            let entry = Entry(generation: state.nextGeneration, opening: Task { await CBDeviceHub.open(spec) }, isGiven: false)
            state.entries[spec] = entry
            return entry
        }
        let result = await entry.opening.value
        state.withLock { state in
            guard state.entries[spec]?.generation == entry.generation else { return }
            switch result {
            case let .success(device): state.controllers[spec] = device.controller.supportedCommands
            case .failure: state.entries[spec] = nil
            }
        }
        return result
    }

    /// The device for a manager of `app`: the phone's own device when the options name no
    /// controller (an iPhone's apps share its one radio), else as ``device(for:)``.
    func device(for controller: String?, of app: PhoneApp?) async -> Result<BLEDevice, BLEError> {
        if controller == nil, let device = app?.phone.device { return .success(device) }
        return await device(for: controller)
    }

    /// The Supported Commands the controller of the open device `spec` (`nil`: the default
    /// one) reported at start-up, or `nil` when no manager has opened it yet: synchronous,
    /// for class methods such as ``CBCentralManager/supports(_:)``.
    func openedControllerCommands(_ spec: String?) -> HCI.SupportedCommands? {
        let spec = spec ?? defaultController
        return state.withLock { $0.controllers[spec] }
    }

    /// Forgets the device of `spec`, closing it if the hub opened it.
    func close(_ spec: String) async {
        guard let entry = state.withLock({ state in
            state.controllers[spec] = nil
            return state.entries.removeValue(forKey: spec)
        }), !entry.isGiven else { return }
        if case let .success(device) = await entry.opening.value { await device.close() }
    }

    /// Forgets every device; closes the ones the hub opened.
    func closeAll() async {
        let entries = state.withLock { state in
            defer {
                state.entries = [:]
                state.controllers = [:]
            }
            return Array(state.entries.values)
        }
        for entry in entries where !entry.isGiven {
            if case let .success(device) = await entry.opening.value { await device.close() }
        }
    }

    /// Opens `spec` as an iPhone runs its radio: an iPhone's host profile (ATT MTU 185,
    /// connection parameter requests checked against Apple's Accessory Design Guidelines),
    /// and privacy on, so advertising, scanning and connecting use a resolvable private
    /// address that changes every 15 minutes and the controller's public address never goes
    /// on air (Core 5.4, Vol 3, Part C, §10.7).
    private static func open(_ spec: String) async -> Result<BLEDevice, BLEError> {
        let device: BLEDevice
        do {
            device = try await BLEDevice.open(hci: spec, profile: .iPhone)
        } catch {
            return .failure(error)
        }
        do {
            try await device.enablePrivacy(rotation: privateAddressRotation)
        } catch {
            await device.close()
            return .failure(error)
        }
        return .success(device)
    }

    /// How often the private address changes: 15 minutes, as iOS does and the specification
    /// recommends (Vol 3, Part C, Appendix A, TGAP(private_addr_int)).
    static let privateAddressRotation: Duration = .seconds(900)
}

/// SwiftBLE-only settings of OpenCoreBluetooth: which controller the managers use. Core
/// Bluetooth has no such thing (an Apple device has one controller); an unchanged program
/// uses `$SWIFTBLE_HCI` (DESIGN.md, the CLI contract), else `sim`, the embedded world.
public enum OpenCoreBluetooth {
    /// The controller managers use when their options do not name one
    /// (``OpenCoreBluetoothControllerOptionKey``).
    public static var defaultController: String { CBDeviceHub.shared.defaultController }

    /// Makes managers created from now on use the controller `hci` names (`sim`,
    /// `sim:FILE.yaml`, `tcp:HOST:PORT`, `unix:PATH`, `serial:DEV@BAUD`, `hci:N`) instead of
    /// `$SWIFTBLE_HCI`.
    public static func useController(hci: String) {
        CBDeviceHub.shared.setDefaultController(hci)
    }

    /// Lets managers use a device the caller opened (e.g. one of several hosts in a test's
    /// world): a manager whose options give `name` under
    /// ``OpenCoreBluetoothControllerOptionKey`` uses `device`. The caller keeps it and closes it.
    public static func use(_ device: BLEDevice, as name: String) {
        CBDeviceHub.shared.register(device, as: name)
    }

    /// Closes the devices OpenCoreBluetooth opened and forgets every device, so the next
    /// manager opens its controller anew; for tests and orderly shutdown. Managers still
    /// alive lose their controller.
    public static func closeControllers() async {
        await CBDeviceHub.shared.closeAll()
    }
}
