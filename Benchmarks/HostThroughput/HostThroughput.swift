import BLEBench
import BLEWire
import Benchmark

// GATT between two of our hosts in the ideal world (no airtime, as Bumble's LocalLink),
// lock-stepped and as fast as the processor allows: the workloads `ble bench notify` and
// `ble bench write` run, here with package-benchmark's statistics and baselines. Each
// iteration is one notification or one write round trip; every run builds a fresh world,
// connects and discovers before the clock starts (BLEBench times its own span, so the
// figure package-benchmark reports includes the set-up: compare runs with each other).

/// The link `ble bench` makes by default: 7.5 ms, LE 2M, 251-octet PDUs from the sender.
func benchLink(dataFromPeripheral: Bool) -> BenchLinkRequest {
    BenchLinkRequest(intervalUnits: 6, phy: .le2M, dataLength: 251, dataFromPeripheral: dataFromPeripheral)
}

/// Runs `body` in a fresh ideal, lock-stepped bench world and closes it.
func inIdealWorld<T: Sendable>(_ body: @escaping @Sendable (BenchWorld) async throws -> T) async throws -> T {
    let world = try BenchWorld(timing: .ideal, speed: .infinity, seed: 1, snoopDirectory: nil, airtimeFreeIdeal: true)
    return try await world.measureThenClose(body)
}

let benchmarks: @Sendable () -> Void = {
    let configuration = Benchmark.Configuration(
        metrics: [.wallClock, .cpuTotal, .throughput],
        scalingFactor: .kilo,
        maxDuration: .seconds(5),
        maxIterations: 20
    )

    Benchmark("GATT notifications, 20 octets, ideal world", configuration: configuration) { benchmark in
        let count = benchmark.scaledIterations.count
        let result = try await inIdealWorld {
            try await GATTNotifyThroughput(size: 20, count: count, request: benchLink(dataFromPeripheral: true)).run(in: $0)
        }
        guard result.inOrder == count else { throw BenchFailure("\(result.inOrder) of \(count) notifications arrived in order.") }
        blackHole(result)
    }

    Benchmark("GATT write round trips, 20 octets, ideal world", configuration: configuration) { benchmark in
        let count = benchmark.scaledIterations.count
        let result = try await inIdealWorld {
            try await GATTWriteRate(size: 20, count: count, request: benchLink(dataFromPeripheral: false)).run(in: $0)
        }
        guard result.storedInOrder == count else { throw BenchFailure("\(result.storedInOrder) of \(count) writes stored in order.") }
        blackHole(result)
    }
}
