import BLEHost
import BLEWire
import Synchronization

/// A peer as a user writes it on the command line: `ADDRESS/random` or `ADDRESS/public` (the
/// type forced), a bare `ADDRESS` (the type found by a short scan), or a device's local name,
/// exact or a unique prefix, in any letter case (found by scanning). The type is part of the
/// address on air (Core 5.4, Vol 6, Part B, §2.3), so a bare address is looked up rather than
/// guessed.
struct PeerQuery: Sendable {
    enum Form: Sendable {
        /// An address whose type is known (written, or forced by `--random`).
        case typed(PeerAddress)
        /// An address without a type.
        case address(BluetoothAddress)
        /// A local name.
        case name(String)
    }

    let form: Form

    /// Reads `text`; `random` (the commands' `--random`) forces a bare address random.
    init?(_ text: String, random: Bool = false) {
        if text.contains("/") || random {
            guard let typed = PeerAddress(parsing: text, random: random) else { return nil }
            form = .typed(typed)
        } else if let address = BluetoothAddress(text, kind: .public) {
            form = .address(address)
        } else if text.contains(":"), text.allSatisfy({ $0.isHexDigit || $0 == ":" }) {
            // Meant as an address, but not one: refused rather than looked up as a name.
            return nil
        } else {
            let name = text.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { return nil }
            form = .name(name)
        }
    }

    /// The peer to connect to: a typed address as is; otherwise from what an active scan of
    /// at most `seconds` hears (stopped as soon as the answer is certain). Prints to stderr
    /// what it found.
    /// `hci` is the controller's spec: on an embedded world (`sim`), a name not heard may be
    /// a device of another process's world, and the error says so.
    /// `extendedPHYs` makes the scan an extended one on those primary PHYs (for a connection
    /// made with LE Extended Create Connection: the two command families do not mix).
    /// - Throws: ``CommandFailure`` when no device of that name is heard, or several are.
    func resolve(on host: BLEHost.Host, within seconds: Double, hci: String, extendedPHYs: HCI.LEPHYs? = nil) async throws -> PeerAddress {
        switch form {
        case let .typed(peer):
            return peer
        case let .address(address):
            if let heard = try await scan(on: host, seconds: seconds, extendedPHYs: extendedPHYs,
                                          until: { $0.keys.contains { $0.value == address.value } })
                .first(where: { $0.key.value == address.value }) {
                let peer = PeerAddress(heard.key, type: heard.value.type)
                printError("Found \(peer) by scanning.")
                try Self.checkConnectable(heard.value, peer)
                return peer
            }
            printError("\(address) was not heard in \(seconds.formatted(decimals: 1)) s; trying it as a public address.")
            return PeerAddress(address, type: .public)
        case let .name(name):
            // The whole window: a second device of the same name must have its chance to be heard.
            let heard = try await scan(on: host, seconds: seconds, extendedPHYs: extendedPHYs, until: { devices in
                devices.values.filter { $0.name == name }.count > 1
            })
            // Exact first, then in any letter case, as bluetoothctl and users write names.
            let folded = name.lowercased()
            let exact = heard.filter { $0.value.name == name }
            let anyCase = heard.filter { $0.value.name?.lowercased() == folded }
            let prefixed = heard.filter { $0.value.name?.lowercased().hasPrefix(folded) == true }
            let matches = !exact.isEmpty ? exact : !anyCase.isEmpty ? anyCase : prefixed
            guard !matches.isEmpty else {
                throw CommandFailure("No device called \"\(name)\" was heard in \(seconds.formatted(decimals: 1)) s"
                                     + (heard.isEmpty ? "." : "; heard: " + Self.list(heard) + ".") + Self.ownWorldHint(hci: hci))
            }
            guard matches.count == 1, let match = matches.first else {
                throw CommandFailure("\(matches.count) devices match \"\(name)\": " + Self.list(matches) + "; give the address or the whole name.")
            }
            let peer = PeerAddress(match.key, type: match.value.type)
            printError("Found \"\(match.value.name ?? name)\" at \(peer).")
            try Self.checkConnectable(match.value, peer)
            return peer
        }
    }

    private struct Heard: Sendable {
        var type: HCI.AddressType
        var name: String?
        /// Whether any of its advertisements was connectable (ADV_IND, ADV_DIRECT_IND).
        var connectable: Bool
    }

    /// Refuses at once a peer heard only in non-connectable advertisements (a beacon): a
    /// connection to it could only wait out the whole timeout.
    private static func checkConnectable(_ heard: Heard, _ peer: PeerAddress) throws {
        guard !heard.connectable else { return }
        throw CommandFailure("\(heard.name.map { "\"\($0)\" at " } ?? "")\(peer) advertises as non-connectable "
                             + "(a beacon or a broadcaster): it accepts no connection.")
    }

    /// Scans actively for at most `seconds` (or until `done` holds), merging each device's
    /// advertising data and scan response for its name.
    private func scan(on host: BLEHost.Host, seconds: Double, extendedPHYs: HCI.LEPHYs?,
                      until done: @escaping @Sendable ([BluetoothAddress: Heard]) -> Bool) async throws -> [BluetoothAddress: Heard] {
        let advertisements = try await host.startScanning(GAPScanParameters(
            active: true, interval: 0x0060, window: 0x0060, extended: extendedPHYs != nil, extendedPHYs: extendedPHYs ?? .le1M))
        let heard = Mutex<[BluetoothAddress: Heard]>([:])
        let clock = host.clock
        let reader = Task {
            for await advertisement in advertisements {
                var name: String?
                for bytes in [advertisement.advertisingBytes, advertisement.scanResponseBytes] {
                    if let data = try? AdvertisingData(decoding: bytes), let local = data.localName { name = local }
                }
                let complete = heard.withLock { devices -> Bool in
                    let key = BluetoothAddress(advertisement.address.value,
                                               kind: advertisement.addressType == .random || advertisement.addressType == .randomIdentity ? .random : .public)
                    devices[key] = Heard(type: advertisement.addressType, name: name ?? devices[key]?.name,
                                         connectable: advertisement.connectable || devices[key]?.connectable == true)
                    return done(devices)
                }
                if complete { return }
            }
        }
        let timer = Task { _ = try? await clock.sleep(seconds: seconds) }
        await firstOf(reader, timer)
        try? await host.stopScanning()
        return heard.withLock { $0 }
    }

    /// On an embedded world, why a device another `ble` process runs is not heard, and what
    /// to do; empty on a controller that processes share.
    static func ownWorldHint(hci: String) -> String {
        guard hci == "sim" || hci.hasPrefix("sim:") else { return "" }
        return " Each process with --hci \(hci) has its own simulated world, so a device that another ble process runs "
            + "is not in it: start one shared world with ble sim serve and give each process one of its ports "
            + "(--hci tcp:127.0.0.1:PORT, or SWIFTBLE_HCI)."
    }

    private static func list(_ devices: [BluetoothAddress: Heard]) -> String {
        devices.sorted { $0.key.description < $1.key.description }.prefix(8)
            .map { "\($0.value.name.map { "\"\($0)\" " } ?? "")\(PeerAddress($0.key, type: $0.value.type))" }.joined(separator: ", ")
    }
}
