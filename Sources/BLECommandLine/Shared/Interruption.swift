import Dispatch
import Foundation

/// Runs `body` until it returns or the process gets SIGINT or SIGTERM, which cancel it, so a
/// long-running command (`ble gateway`) can flush what it holds before it exits; a second
/// signal ends the process at once.
func cancellingOnInterrupt<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
    let task = Task { try await body() }
    var sources: [any DispatchSourceSignal] = []
    for number in [SIGINT, SIGTERM] {
        signal(number, SIG_IGN)
        let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
        source.setEventHandler {
            if task.isCancelled { exit(128 + number) }
            task.cancel()
        }
        source.resume()
        sources.append(source)
    }
    defer {
        for source in sources { source.cancel() }
        signal(SIGINT, SIG_DFL)
        signal(SIGTERM, SIG_DFL)
    }
    return try await task.value
}
