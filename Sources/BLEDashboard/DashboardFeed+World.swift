import BLEFleetStore
import Foundation

extension DashboardFeed {
    /// The most wall-clock seconds' worth of simulated time one tick advances (at `speed`).
    static let catchUpLimit = 1.0

    /// Runs `world` at `speed` until the task is cancelled or the scenario's duration has
    /// passed, one tick every `tick` of wall-clock time; a world slower than that falls behind.
    func play(_ world: DashboardWorld, tick: Duration) async {
        let clock = ContinuousClock()
        let start = clock.now
        while !Task.isCancelled {
            do { try await Task.sleep(for: tick) } catch { return }
            let elapsed = clock.now - start
            var target = (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18) * speed
            // At most a second of wall-clock time's worth a tick: a world that cannot keep up
            // falls behind the wall clock rather than taking ever longer steps, so pages keep
            // getting an update every step instead of waiting longer and longer for one.
            target = min(target, world.seconds + speed * Self.catchUpLimit)
            if let duration = world.duration { target = min(target, duration) }
            guard target > world.seconds else {
                if world.duration.map({ world.seconds >= $0 }) ?? false { return }
                continue
            }
            await advance(world, to: target)
        }
    }
}

extension DashboardFeed {
    /// One tick of a run-here world: advances it to `seconds`, stores the batches and tells every page.
    func advance(_ world: DashboardWorld, to seconds: Double) async {
        let advanced = world.advance(to: seconds)
        var update = advanced.update
        if let store {
            for batch in advanced.batches {
                do {
                    stored += try await store.write(batch)
                } catch {
                    update.events.append(.init(time: update.time, kind: "store", who: batch.sightings.first?.gateway ?? "gateway",
                                               text: "the store refused a batch: \(error)"))
                    continue
                }
                // A gateway's zone is set once the store knows the gateway (its first batch), as an installer would.
                guard let gateway = batch.sightings.first?.gateway, !zoned.contains(gateway), let zone = world.zoneOfGateway[gateway] else { continue }
                do {
                    if try await store.assignZone(zone, toGateway: gateway) { zoned.insert(gateway) }
                } catch {
                    update.events.append(.init(time: update.time, kind: "store", who: gateway, text: "the store refused \(gateway)'s zone: \(error)"))
                    zoned.insert(gateway)
                }
            }
        }
        update.stored = stored
        publish(update)
    }
}
