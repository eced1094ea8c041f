import BLECrypto
import BLEHost

/// A peer this device holds a bond with (Core 5.4, Vol 3, Part C, §9.4.4), as apps name it.
public struct BondedPeer: Hashable, Sendable {
    /// The bond's stable identifier, an uppercase UUID string (``Connection/peerIdentifier``).
    public let identifier: String
    /// The peer's identity address (public or random static).
    public let identityAddress: BluetoothAddress
}

extension BLEDevice {
    /// The peers this device is bonded with, by identity address.
    public func bondedPeers() async -> [BondedPeer] {
        await core.security.bonds.keeper.store.sortedRecords.map {
            BondedPeer(identifier: $0.peerIdentifier, identityAddress: $0.identityAddress)
        }
    }

    /// The bond identifier of the peer at `address` (its identity address, or a resolvable
    /// private address its IRK resolves, Vol 3, Part H, §2.4.2.3), `nil` when not bonded.
    public func bondedPeerIdentifier(for address: BluetoothAddress) -> String? {
        core.security.bonds.record(for: address)?.peerIdentifier
    }

    /// A UUID for the peer at `address` as this device sees it: name-based (RFC 9562 §5.8,
    /// version 8) from the SHA-256 of the peer's address and type and this controller's
    /// address, truncated to 128 bits. Stable across runs for the same pair of devices and
    /// different for another observer, like Core Bluetooth's peripheral identifiers.
    public func observerScopedIdentifier(for address: BluetoothAddress) -> String {
        var message = Array("SwiftBLE peer".utf8) + [address.kind.rawValue]
        message += (0 ..< 6).map { UInt8(truncatingIfNeeded: address.value >> (8 * UInt64($0))) }
        let own = self.address
        message += [own?.kind.rawValue ?? 0xFF] + (0 ..< 6).map { UInt8(truncatingIfNeeded: (own?.value ?? 0) >> (8 * UInt64($0))) }
        var octets = Array(BLECrypto.sha256(message).prefix(16))
        octets[6] = octets[6] & 0x0F | 0x80  // version 8
        octets[8] = octets[8] & 0x3F | 0x80  // RFC variant
        var text = ""
        for (index, octet) in octets.enumerated() {
            if [4, 6, 8, 10].contains(index) { text.append("-") }
            let hex = String(octet, radix: 16, uppercase: true)
            text += hex.count < 2 ? "0" + hex : hex
        }
        return text
    }

    /// Returns once the device has stopped: closed with ``close()``, or its controller's
    /// transport went away (the host's events ended). Lets an app notice the adapter going
    /// down (Core Bluetooth's `poweredOff`).
    public func stopped() async {
        // No link ever has handle 0xFFFF (handles are 0x0000–0x0EFF, Vol 4, Part E, §5.4.2),
        // so this lookup waits until the events end.
        _ = await dispatcher.connection(handle: 0xFFFF)
    }
}
