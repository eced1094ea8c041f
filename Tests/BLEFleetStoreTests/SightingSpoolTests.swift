import BLEFleet
@testable import BLEFleetStore
import FleetStoreTesting
import Foundation
import Synchronization
import Testing

@Suite("Sighting spool")
struct SightingSpoolTests {
    @Test("Batches come back oldest first and go when removed")
    func appendOldestRemove() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let spool = try SightingSpool(directory: directory + "/spool")
        #expect(spool.oldest() == nil)
        let first = try spool.append(makeBatch(sequences: 0..<3))
        try spool.append(makeBatch(sequences: 3..<8))
        #expect(spool.count == 2)
        #expect(spool.sightingCount == 8)
        #expect(spool.byteSize > 0)
        let oldest = try #require(spool.oldest())
        #expect(oldest.id == first.id)
        #expect(oldest.batch == makeBatch(sequences: 0..<3))
        try spool.remove(oldest.id)
        #expect(spool.oldest()?.batch == makeBatch(sequences: 3..<8))
        #expect(spool.count == 1)
        #expect(spool.sightingCount == 5)
    }

    @Test("File names sort in write order")
    func fileNamesSortInWriteOrder() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let spool = try SightingSpool(directory: directory)
        for index in Int64(0)..<12 { try spool.append(makeBatch(sequences: index..<index + 1)) }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names.count == 12)
        #expect(names.first == "00000000000000000001.batch")
        #expect(names.last == "00000000000000000012.batch")
    }

    @Test("A new spool on the same directory sees every batch appended before")
    func survivesReopen() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let before = try SightingSpool(directory: directory)
        for index in Int64(0)..<5 { try before.append(makeBatch(sequences: (index * 10)..<(index * 10 + 10))) }
        try before.remove(try #require(before.oldest()).id)
        // No close: a process killed now leaves only its files behind.
        let after = try SightingSpool(directory: directory)
        #expect(after.count == 4)
        #expect(after.sightingCount == 40)
        #expect(after.byteSize == before.byteSize)
        #expect(after.oldest()?.batch == makeBatch(sequences: 10..<20))
        let appended = try after.append(makeBatch(sequences: 50..<51))
        #expect(appended.id.value == 6)
    }

    @Test("Passing the byte limit drops the oldest batches and counts their sightings")
    func limitDropsOldest() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let size = try SpoolRecord.encode(makeBatch(sequences: 0..<10)).count
        let spool = try SightingSpool(directory: directory, byteLimit: size * 3 + size / 2)
        for index in Int64(0)..<3 {
            #expect(try spool.append(makeBatch(sequences: (index * 10)..<(index * 10 + 10))).droppedSightings == 0)
        }
        let fourth = try spool.append(makeBatch(sequences: 30..<40))
        #expect(fourth.droppedBatches == 1)
        #expect(fourth.droppedSightings == 10)
        #expect(spool.count == 3)
        #expect(spool.byteSize <= spool.byteLimit ?? 0)
        #expect(spool.oldest()?.batch.firstKey?.sequence == 10)
        try spool.append(makeBatch(sequences: 40..<50))
        #expect(spool.droppedSightings == 20)
        #expect(spool.droppedBatches == 2)
    }

    @Test("A batch larger than the whole limit is refused, and nothing is dropped for it")
    func batchLargerThanLimit() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let spool = try SightingSpool(directory: directory, byteLimit: 2000)
        try spool.append(makeBatch(sequences: 0..<1))
        #expect(throws: FleetStoreError.self) { try spool.append(makeBatch(sequences: 0..<100)) }
        #expect(spool.count == 1)
    }

    @Test("A full disk is a typed error and leaves no file half-written")
    func diskFull() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var files = SpoolFiles()
        // The disk fills after a few bytes of the file: the first write is short, the next fails.
        let writes = LockedCounter()
        files.write = { descriptor, buffer in
            if writes.increment() == 1 { return Glibc.write(descriptor, buffer.baseAddress, min(buffer.count, 7)) }
            errno = ENOSPC
            return -1
        }
        let spool = try SightingSpool(directory: directory, byteLimit: nil, files: files)
        #expect(throws: FleetStoreError.spoolDiskFull(directory: directory)) { try spool.append(makeBatch(sequences: 0..<3)) }
        #expect(spool.count == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test("A truncated or damaged file is moved aside as .corrupt and reported")
    func corruptFilesAreSetAside() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let spool = try SightingSpool(directory: directory)
        for index in Int64(0)..<3 { try spool.append(makeBatch(sequences: (index * 10)..<(index * 10 + 10))) }
        // Batch 1 cut short, batch 2 with one byte flipped, and a temporary file a crash left half-written.
        let first = directory + "/00000000000000000001.batch"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: first))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: first))
        let second = directory + "/00000000000000000002.batch"
        var damaged = try Data(contentsOf: URL(fileURLWithPath: second))
        damaged[damaged.count - 3] ^= 0x20
        try damaged.write(to: URL(fileURLWithPath: second))
        try Data([0x42, 0x53]).write(to: URL(fileURLWithPath: directory + "/.tmp-00000000000000000004.batch"))

        let reopened = try SightingSpool(directory: directory)
        #expect(reopened.count == 1)
        #expect(reopened.oldest()?.batch == makeBatch(sequences: 20..<30))
        let reasons = reopened.corruptFiles.map(\.reason)
        #expect(reopened.corruptFiles.count == 3)
        #expect(reasons.contains { $0.contains("CRC-32") })
        #expect(reasons.contains { $0.contains("announces") })
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        #expect(names == ["00000000000000000001.batch.corrupt", "00000000000000000002.batch.corrupt",
                          "00000000000000000003.batch", "00000000000000000004.batch.tmp.corrupt"])
        // The counter goes on past every file seen, so nothing is overwritten.
        #expect(try reopened.append(makeBatch(sequences: 30..<31)).id.value == 5)
    }

    @Test("A whole temporary file a crash left before its rename is kept")
    func wholeTemporaryFileIsKept() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let bytes = try SpoolRecord.encode(makeBatch(sequences: 0..<4))
        try Data(bytes).write(to: URL(fileURLWithPath: directory + "/.tmp-00000000000000000009.batch"))
        let spool = try SightingSpool(directory: directory)
        #expect(spool.oldest()?.id.value == 9)
        #expect(spool.corruptFiles.isEmpty)
    }

    @Test("CRC-32 matches the standard check value")
    func crcCheckValue() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
    }
}

/// A counter the fault-injecting `write` closure can bump from any thread.
final class LockedCounter: Sendable {
    private let value = Mutex(0)
    func increment() -> Int { value.withLock { $0 += 1; return $0 } }
}
