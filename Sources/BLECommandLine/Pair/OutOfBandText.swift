import BLECrypto
import BLEHost
import BLEWire
import Foundation

/// Out-of-band data as the command line writes and reads it (Core 5.4, Vol 3, Part H,
/// §2.3.5.4 and §2.3.5.6.4). Values are 128-bit numbers in hex, most significant octet
/// first, as the specification writes its sample data: `--oob-peer C:R`, `--oob-tk TK`.
/// The AD form (LE Bluetooth Device Address 0x1B, LE SC Confirmation Value 0x22, LE SC Random
/// Value 0x23, Security Manager TK Value 0x10; values little-endian as in any AD) is
/// accepted too, as NFC tags and QR codes carry it.
enum OutOfBandText {
    /// `C:R`, or AD structures in hex holding 0x22 and 0x23.
    static func peerData(_ text: String) -> SMPOutOfBandData? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        if parts.count == 2, let confirm = number(String(parts[0])), let random = number(String(parts[1])) {
            return SMPOutOfBandData(random: random, confirm: confirm)
        }
        return block(text)?.secureConnections
    }

    /// 32 hex digits, or AD structures in hex holding 0x10.
    static func temporaryKey(_ text: String) -> UInt128? {
        number(text) ?? block(text)?.temporaryKey
    }

    /// A 128-bit number: exactly 32 hex digits (a leading 0x allowed).
    static func number(_ text: String) -> UInt128? {
        var digits = text.lowercased()
        if digits.hasPrefix("0x") { digits.removeFirst(2) }
        guard digits.count == 32, let high = UInt64(digits.prefix(16), radix: 16),
              let low = UInt64(digits.suffix(16), radix: 16) else { return nil }
        return UInt128(high) << 64 | UInt128(low)
    }

    /// AD structures in hex, as ``BLEHost/SMPOutOfBandBlock`` reads them.
    static func block(_ text: String) -> SMPOutOfBandBlock? {
        guard let octets = bytes(fromHex: text), !octets.isEmpty,
              let data = try? AdvertisingData(decoding: octets) else { return nil }
        return try? SMPOutOfBandBlock(advertisingData: data)
    }

    /// 32 hex digits, most significant first.
    static func hex(_ value: UInt128) -> String {
        let high = String(UInt64(truncatingIfNeeded: value >> 64), radix: 16)
        let low = String(UInt64(truncatingIfNeeded: value), radix: 16)
        return String(repeating: "0", count: 16 - high.count) + high + String(repeating: "0", count: 16 - low.count) + low
    }
}

/// Our own Secure Connections OOB data for one run of a command (`--oob-show`): a key pair,
/// r and C = f4(PKx, PKx, r, 0) (§2.3.5.6.4). It lives as long as the process: pairing in
/// this run uses the key pair, so the data must reach the peer while the command runs.
struct LocalOutOfBand: Sendable {
    let keyPair: BLECrypto.P256KeyPair
    let data: SMPOutOfBandData

    /// Fresh data from the system's random source.
    static func generate() throws -> LocalOutOfBand {
        var random = SMPSystemRandom()
        let keyPair = random.makeKeyPair()
        do {
            return LocalOutOfBand(keyPair: keyPair, data: try SMPOutOfBandData.local(keyPair: keyPair, random: random.next128()))
        } catch {
            throw CommandFailure("Our OOB data could not be made: \(error).")
        }
    }

    /// The data with our address as the AD structures a peer reads.
    func block(address: BluetoothAddress?) -> SMPOutOfBandBlock {
        SMPOutOfBandBlock(address: address, secureConnections: data)
    }

    /// `oob address A c C r R ad HEX`: one line for a person or a script.
    func sentence(address: BluetoothAddress?) -> String {
        let shown = address.map { "\($0)\($0.kind == .random ? "/random" : "")" } ?? "unknown"
        return "oob address \(shown) c \(OutOfBandText.hex(data.confirm)) r \(OutOfBandText.hex(data.random)) "
            + "ad \(hexText(block(address: address).advertisingData.encoded()))"
    }

    /// The same as JSON fields: address, confirm, random, ad.
    func jsonFields(address: BluetoothAddress?) -> [(String, JSONText)] {
        [("address", address.map { .string("\($0)\($0.kind == .random ? "/random" : "")") } ?? .null),
         ("confirm", .string(OutOfBandText.hex(data.confirm))), ("random", .string(OutOfBandText.hex(data.random))),
         ("ad", .string(hexText(block(address: address).advertisingData.encoded())))]
    }
}
