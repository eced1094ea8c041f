import BLEBeacons
import BLEHost
import BLEWire

/// What the monitor and range commands are fed, in order.
enum BeaconInput: Sendable {
    /// A beacon frame heard: from `address` at `rssi` dBm (`nil`: not available), at `time`
    /// microseconds since the scan started.
    case heard(BeaconFrame, address: BluetoothAddress, rssi: Int?, time: BeaconTime)
    /// A whole second since the scan started passed (`time` in microseconds).
    case tick(BeaconTime)
}

/// Listening for beacons on a started host: a passive scan reporting every advertisement
/// (Core 5.4, Vol 3, Part C, §9.2.5; each report is an RSSI sample), merged with a tick
/// once a second. The `BLE` front door's beacon sessions do the same over its central;
/// this command line drives the host directly, like `ble scan`.
enum BeaconListening {
    /// Starts the scan and returns its inputs; the stream ends after `seconds` (or when the
    /// host stops scanning), and dropping it stops the reading and the timer.
    static func inputs(host: BLEHost.Host, seconds: Double?) async throws -> AsyncStream<BeaconInput> {
        let start = host.now
        let reports = try await host.startScanning(
            GAPScanParameters(active: false, interval: 0x0060, window: 0x0060, allowDuplicates: true))
        let (stream, output) = AsyncStream.makeStream(of: BeaconInput.self, bufferingPolicy: .unbounded)
        let reader = Task {
            for await report in reports {
                guard let frame = BeaconFrame(decoding: report.advertisingBytes) ?? BeaconFrame(decoding: report.scanResponseBytes)
                else { continue }
                output.yield(.heard(frame, address: report.address, rssi: report.rssi == 127 ? nil : Int(report.rssi),
                                    time: report.time - start))
            }
            output.finish()
        }
        let total = Int64((seconds ?? 86_400 * 365) * 1_000_000)
        let clock = host.clock
        let ticker = Task {
            let origin = clock.microseconds
            var next: Int64 = 1_000_000
            while true {
                // The ranging and monitoring timer, on the host's clock: once a second, as
                // Core Location reports; the last wait ends the command at --seconds.
                let wake = min(next, total)
                do { try await clock.sleep(untilMicroseconds: origin + wake) } catch { return }
                if wake == next { output.yield(.tick(host.now - start)) }
                if wake >= total { break }
                next += 1_000_000
            }
            output.finish()
        }
        output.onTermination = { _ in
            reader.cancel()
            ticker.cancel()
        }
        return stream
    }
}
