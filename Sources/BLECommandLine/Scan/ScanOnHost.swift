import BLEHost
import BLEWire
import Foundation
import Synchronization

extension ScanCommand {
    /// `ble scan` on the host stack, for every `--hci` controller: GAP scans and merges
    /// (Core 5.4, Vol 3, Part C, §9.2.5–9.2.6), this prints the same JSON lines and table.
    func runOnHost() async throws {
        let opened = try await openAdapter(hci: hci, seed: seed, snoop: snoop)
        do {
            try await scan(on: opened.host)
        } catch {
            await opened.close()
            throw CommandFailure("Scanning failed: \(error).")
        }
        await opened.close()
    }

    private func scan(on host: BLEHost.Host) async throws {
        _ = try await host.start()
        try await privacyOptions.enable(on: host, hci: hci)
        let parameters = GAPScanParameters(
            active: !passive, interval: 0x0060, window: 0x0060, allowDuplicates: duplicates,
            serviceUUIDs: service.compactMap(ArgumentChecks.uuid), extended: extended, extendedPHYs: scanPHYs ?? .le1M)
        let advertisements = try await host.startScanning(parameters)
        // The host's clock: an embedded world's virtual time, or the wall clock on a real
        // controller; the JSON lines' `time` and the --seconds timer both read it.
        let clock = host.clock
        let start = clock.microseconds
        let records = Mutex<[BluetoothAddress: ScannedDevice]>([:])
        let json = self.json
        let reader = Task {
            for await advertisement in advertisements {
                let elapsed = clock.microseconds - start
                let record = ScannedDevice(
                    address: advertisement.address, addressType: advertisement.addressType, rssi: advertisement.rssi,
                    connectable: advertisement.connectable, advertisingData: advertisement.advertisingBytes,
                    scanResponse: advertisement.scanResponseBytes, firstSeen: elapsed, lastSeen: elapsed,
                    extended: advertisement.extended)
                records.withLock { $0[advertisement.address] = record }
                if json { FileHandle.standardOutput.write(Data((ScanOutput.json(record, time: elapsed) + "\n").utf8)) }
            }
        }
        let total = Int64(seconds * 1_000_000)
        let live = !json && isatty(STDOUT_FILENO) == 1
        // A piped scan prints its table at the end; interrupted, it prints the table of what
        // it heard so far and exits 0, as ping prints its statistics.
        let interruption = json || live ? [] : Self.printTableOnInterrupt { ScanOutput.table(Array(records.withLock { $0.values }), elapsed: clock.microseconds - start) }
        defer {
            for source in interruption { source.cancel() }
            if !interruption.isEmpty {
                signal(SIGINT, SIG_DFL)
                signal(SIGTERM, SIG_DFL)
            }
        }
        var elapsed: Int64 = 0
        while elapsed < total {
            // Redrawn twice a second: a timer for the display, the scan itself is event-driven.
            elapsed = min(total, elapsed + 500_000)
            try await clock.sleep(untilMicroseconds: start + elapsed)
            if live { print("\u{1B}[H\u{1B}[2J" + ScanOutput.table(Array(records.withLock { $0.values }), elapsed: elapsed)) }
        }
        try await host.stopScanning()
        reader.cancel()
        if !json && !live { print(ScanOutput.table(Array(records.withLock { $0.values }), elapsed: elapsed)) }
    }

    /// Handles SIGINT and SIGTERM by writing `table()` to stdout and exiting 0.
    private static func printTableOnInterrupt(_ table: @escaping @Sendable () -> String) -> [any DispatchSourceSignal] {
        [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                FileHandle.standardOutput.write(Data((table() + "\n").utf8))
                Foundation.exit(0)
            }
            source.resume()
            return source
        }
    }
}
