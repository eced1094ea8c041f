import BLEDashboard
import BLEScenarios
import BLEWorld
import Foundation
import HummingbirdWSClient
import Logging

/// A world served as `ble sim serve --watch-port` serves it, in this process: the scenario
/// built into a world with a ``WorldWatch``, paced by a ``WorldRunner``, and the watch's
/// server on a port.
struct WatchedWorld {
    let port: Int
    private let runner: WorldRunner
    private let running: Task<Void, Never>
    private let serving: Task<Void, any Error>
    private let go: AsyncStream<Void>.Continuation

    /// Starts `scenario` at `speed` with its watch served on `port` (0: a free one); with
    /// `paused`, the world stands at time 0, served, until ``resume()``, so that a test can
    /// connect everything before the first simulated second (a loaded machine may take
    /// seconds to).
    static func start(_ scenario: Scenario, port: Int = 0, speed: Double, paused: Bool = false) async throws -> WatchedWorld {
        let world = World(configuration: scenario.worldConfiguration)
        let built = try scenario.build(into: world)
        let watch = try WorldWatch(scenario: scenario, built: built, world: world)
        let runner = try WorldRunner(world: world, speed: speed)
        let (gate, go) = AsyncStream<Void>.makeStream()
        if !paused { go.finish() }
        let running = Task {
            for await _ in gate {}
            _ = await runner.run()
        }
        let server = try DashboardServer(watch: watch, configuration: .init(port: port, speed: speed))
        let (ready, announce) = AsyncStream<Int>.makeStream()
        let serving = Task {
            defer { announce.finish() }
            try await server.run { port in announce.yield(port) }
        }
        var iterator = ready.makeAsyncIterator()
        guard let listening = await iterator.next() else {
            go.finish()
            running.cancel()
            await runner.stop()
            throw DashboardError.cannotListen(address: "127.0.0.1", port: port, reason: "\(await serving.result)")
        }
        return WatchedWorld(port: listening, runner: runner, running: running, serving: serving, go: go)
    }

    /// Starts `scenario` again on `port`, which a stopped world has just given up: the port is
    /// free once its listener closes, but until a new one binds, any other program (another
    /// test asking the system for a free port, say) may be handed it for a moment, so a bind
    /// refused with ``DashboardError/cannotListen(address:port:reason:)`` is tried again, a
    /// quarter of a second apart, for up to `seconds` of wall time; the last refusal is thrown.
    static func restart(_ scenario: Scenario, port: Int, speed: Double, within seconds: Double = 30) async throws -> WatchedWorld {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while true {
            do {
                return try await start(scenario, port: port, speed: speed)
            } catch let error as DashboardError {
                guard case .cannotListen = error, ContinuousClock.now < deadline else { throw error }
                try await Task.sleep(for: .milliseconds(250))
            }
        }
    }

    /// Lets a paused world run.
    func resume() {
        go.finish()
    }

    /// Stops the server and the world, and waits for both.
    func stop() async {
        go.finish()
        serving.cancel()
        _ = await serving.result
        await runner.stop()
        await running.value
    }
}

/// The text messages of a WebSocket, as a page would receive them, until `seconds` have passed.
func webSocketTexts(_ url: String, seconds: Double) -> AsyncStream<String> {
    let (stream, continuation) = AsyncStream<String>.makeStream()
    let reading = Task {
        do {
            try await WebSocketClient.connect(url: url, configuration: .init(maxFrameSize: 64 << 20), logger: Logger(label: "test")) { inbound, _, _ in
                for try await message in inbound.messages(maxSize: 64 << 20) {
                    if case let .text(text) = message { continuation.yield(text) }
                }
            }
        } catch {}
        continuation.finish()
    }
    let deadline = Task {
        try? await Task.sleep(for: .seconds(seconds))
        reading.cancel()
        continuation.finish()
    }
    continuation.onTermination = { _ in
        reading.cancel()
        deadline.cancel()
    }
    return stream
}
