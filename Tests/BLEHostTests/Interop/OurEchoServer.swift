import BLEHost
import BLEWire
import Synchronization

/// Our host as an LE credit-based echo server for Bumble clients: every SDU of every
/// channel opened to one PSM goes back unchanged, in order, with the host's back-pressure
/// (a blocked send stops reading, which stops the peer's credits).
final class OurEchoServer: Sendable {
    /// What one channel carried.
    struct Tally: Sendable {
        var sdus = 0
        var octets = 0
        /// Set once the channel's reader saw the end (`receive` returned `nil`).
        var ended = false
    }

    /// The tallies, shared with the echo tasks.
    private final class Tallies: Sendable {
        let state = Mutex<[L2CAPChannelID: Tally]>([:])
    }

    private let tallies = Tallies()
    private let task: Task<Void, Never>

    /// Listens on `psm` with `parameters` and echoes until the host closes.
    init(_ host: BLEHost.Host, psm: UInt16, parameters: HostChannelParameters = HostChannelParameters()) async {
        let incoming = await host.listen(psm: psm, parameters: parameters)
        let tallies = tallies
        task = Task {
            await withTaskGroup(of: Void.self) { group in
                for await channel in incoming {
                    tallies.state.withLock { $0[channel.id] = Tally() }
                    group.addTask {
                        do {
                            while let sdu = try await host.receive(on: channel.id) {
                                try await host.send(sdu, on: channel.id)
                                tallies.state.withLock {
                                    $0[channel.id]?.sdus += 1
                                    $0[channel.id]?.octets += sdu.count
                                }
                            }
                        } catch {
                            // A send on a channel the peer just closed: the tally says how far it got.
                        }
                        tallies.state.withLock { $0[channel.id]?.ended = true }
                    }
                }
            }
        }
    }

    /// Every channel opened so far and what it carried, by channel ID.
    var channels: [L2CAPChannelID: Tally] { tallies.state.withLock { $0 } }

    /// Stops echoing (the host's own close also ends it).
    func stop() { task.cancel() }
}
