import BLEDashboard
import Foundation

/// `ble sim serve --watch-port`'s server: BLEDashboard's page and stream over the world the
/// command runs, started before the READY line so that the line can name its port.
enum WatchServing {
    /// Starts serving `watch` on 127.0.0.1:`port`; returns the server's task and the port it listens on.
    /// - Throws: ``CommandFailure`` when it cannot listen.
    static func start(_ watch: WorldWatch, port: Int, speed: Double) async throws -> (Task<Void, Never>, Int) {
        let server: DashboardServer
        do {
            server = try DashboardServer(watch: watch, configuration: .init(address: "127.0.0.1", port: port, speed: speed))
        } catch {
            throw CommandFailure("Cannot watch the world: \(error.description).")
        }
        let (ready, readyContinuation) = AsyncStream<Result<Int, CommandFailure>>.makeStream()
        let task = Task {
            do {
                try await server.run { port in readyContinuation.yield(.success(port)) }
            } catch is CancellationError {
            } catch {
                readyContinuation.yield(.failure(CommandFailure("Cannot serve the world's state on 127.0.0.1:\(port): "
                                                                + "\(SimServeCommand.reason(error)); pick another --watch-port or stop what uses it.")))
            }
            readyContinuation.finish()
        }
        for await result in ready {
            switch result {
            case let .success(listening): return (task, listening)
            case let .failure(failure): throw failure
            }
        }
        throw CommandFailure("The world's state server on 127.0.0.1:\(port) stopped before it listened.")
    }
}
