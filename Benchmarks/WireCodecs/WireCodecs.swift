import Benchmark
import BLEWire

let benchmarks: @Sendable () -> Void = {
    Benchmark("UUID decode", configuration: .init(metrics: [.wallClock, .mallocCountTotal])) { benchmark in
        let bytes: [UInt8] = [0x0D, 0x18]
        for _ in benchmark.scaledIterations {
            blackHole(try? BluetoothUUID(decoding: bytes[...]))
        }
    }
}
