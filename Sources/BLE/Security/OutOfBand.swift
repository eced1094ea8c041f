import BLECrypto
import BLEHost

/// What one device hands another out of band (NFC, a QR code) before pairing, as AD
/// structures (Core 5.4, Vol 3, Part H, §2.3.5.6.4; Core Specification Supplement, Part A,
/// §1.6, §1.8, §1.16): an address, Secure Connections r and C, a legacy Temporary Key.
/// `OutOfBandBlock(advertisingData:)` reads what a peer sent; ``LocalOutOfBandData/block``
/// is what we send.
public typealias OutOfBandBlock = SMPOutOfBandBlock

/// Out-of-band data for pairing (Core 5.4, Vol 3, Part H, §2.3.5.4 and §2.3.5.6.4): ours,
/// given to the peer, the peer's, received from it, and the legacy Temporary Key. Secure
/// Connections uses OOB when at least one side received the other's data; legacy pairing
/// only when both hold the same Temporary Key (§2.3.5.1).
public struct OutOfBandPairing: Hashable, Sendable {
    /// Our Secure Connections data and the key pair it commits to; `nil` uses the data of
    /// ``BLEDevice/makeOutOfBandData()``, if any was made.
    public var local: LocalOutOfBandData?
    /// The peer's random value and confirm value, as received.
    public var peer: OutOfBandData?
    /// The 128-bit Temporary Key of LE legacy OOB pairing (§2.3.5.4), the same on both sides.
    public var temporaryKey: UInt128?

    /// OOB data, every part optional.
    public init(local: LocalOutOfBandData? = nil, peer: OutOfBandData? = nil, temporaryKey: UInt128? = nil) {
        self.local = local
        self.peer = peer
        self.temporaryKey = temporaryKey
    }
}

/// This device's Secure Connections OOB data (Core 5.4, Vol 3, Part H, §2.3.5.6.4): a
/// fresh P-256 key pair, a random value r and the commitment C = f4(PKx, PKx, r, 0), with
/// our address. Give ``block`` (or ``data`` and ``address``) to the peer; pairing then
/// uses the same key pair, so the peer's check of C holds.
public struct LocalOutOfBandData: Hashable, Sendable {
    /// What the peer must receive: r and C.
    public let data: OutOfBandData
    /// The address the peer will see us at, when known.
    public let address: BluetoothAddress?
    let keyPair: BLECrypto.P256KeyPair

    /// New data with a fresh key pair and random value.
    /// - Parameter address: our address, to go in ``block`` (LE Bluetooth Device Address).
    /// - Throws: ``BLEError/procedureFailed(_:)`` if the cryptography backend fails.
    public static func generate(address: BluetoothAddress? = nil) throws(BLEError) -> LocalOutOfBandData {
        var random = SMPSystemRandom()
        let keyPair = random.makeKeyPair()
        do {
            return LocalOutOfBandData(data: try SMPOutOfBandData.local(keyPair: keyPair, random: random.next128()),
                                      address: address, keyPair: keyPair)
        } catch {
            throw .procedureFailed("the OOB commitment could not be computed: \(error)")
        }
    }

    /// What to send the peer: our address (when known), C and r. Its
    /// `SMPOutOfBandBlock.advertisingData` is the AD form for an NFC tag or a QR code.
    public var block: OutOfBandBlock { OutOfBandBlock(address: address, secureConnections: data) }

    /// Equal when the data and address are (the data commits to the key pair).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.data == rhs.data && lhs.address == rhs.address }
    /// Hashes the data and address.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(data)
        hasher.combine(address)
    }
}

extension BLEDevice {
    /// Makes this device's Secure Connections OOB data (Core 5.4, Vol 3, Part H,
    /// §2.3.5.6.4) and keeps it: every later pairing uses its key pair and r, in either
    /// role, until it is made again (pairings already running keep theirs). Send the result's
    /// ``LocalOutOfBandData/block`` to the peer before pairing; ``PairingOptions/outOfBand``
    /// with its own ``OutOfBandPairing/local`` data overrides it.
    /// - Returns: the data, with the controller's public address when it has one.
    /// - Throws: ``BLEError/procedureFailed(_:)`` if the cryptography backend fails.
    public func makeOutOfBandData() async throws(BLEError) -> LocalOutOfBandData {
        let made = try LocalOutOfBandData.generate(address: address)
        await core.security.keepOutOfBand(made, on: core.host)
        return made
    }
}
