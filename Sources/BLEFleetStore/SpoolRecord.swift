import BLEFleet
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One spool file's bytes: a 12-byte header, then the batch as JSON.
///
/// ```
/// offset 0  "BSP1"              magic, names the format and its version
/// offset 4  UInt32 big-endian   length of the JSON that follows
/// offset 8  UInt32 big-endian   CRC-32 (IEEE) of the JSON
/// offset 12 JSON                the SightingBatch (Codable)
/// ```
///
/// A file cut short by a crash, or damaged on disk, fails the length or the CRC check and is
/// set aside, never trapped on. JSON keeps a spool file readable with `tail -c +13 | jq`.
enum SpoolRecord {
    static let magic: [UInt8] = Array("BSP1".utf8)
    static let headerSize = 12

    /// The file's bytes for `batch`.
    static func encode(_ batch: SightingBatch) throws(FleetStoreError) -> [UInt8] {
        let payload: [UInt8]
        do {
            payload = Array(try JSONEncoder().encode(batch))
        } catch {
            throw .spoolIOError(path: "(batch)", reason: "the batch could not be encoded: \(error)")
        }
        var bytes = magic
        bytes.reserveCapacity(headerSize + payload.count)
        appendBigEndian(UInt32(payload.count), to: &bytes)
        appendBigEndian(CRC32.checksum(payload), to: &bytes)
        bytes += payload
        return bytes
    }

    /// The batch in a file's bytes, or why they are not one.
    static func decode(_ bytes: [UInt8]) -> Result<SightingBatch, Corruption> {
        guard bytes.count >= headerSize else { return .failure(.init(reason: "the file is \(bytes.count) bytes, shorter than its 12-byte header")) }
        guard Array(bytes[0..<4]) == magic else { return .failure(.init(reason: "the file does not start with BSP1")) }
        let length = Int(readBigEndian(bytes, at: 4))
        let expected = readBigEndian(bytes, at: 8)
        guard bytes.count - headerSize == length else {
            return .failure(.init(reason: "the header announces \(length) bytes of batch, the file holds \(bytes.count - headerSize)"))
        }
        let payload = bytes[headerSize...]
        let actual = CRC32.checksum(payload)
        guard actual == expected else { return .failure(.init(reason: "the CRC-32 is \(hex(actual)), the header says \(hex(expected))")) }
        do {
            return .success(try JSONDecoder().decode(SightingBatch.self, from: Data(payload)))
        } catch {
            return .failure(.init(reason: "the batch does not decode: \(error)"))
        }
    }

    /// Why a file is not a spool record.
    struct Corruption: Error, Sendable {
        let reason: String
    }

    private static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func readBigEndian(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (UInt32(bytes[offset]) << 24) | (UInt32(bytes[offset + 1]) << 16) | (UInt32(bytes[offset + 2]) << 8) | UInt32(bytes[offset + 3])
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
    }
}
