import BLEBackend
import BLEFleet
import BLEFleetSimulation
import BLEFleetStore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A scenario's gateways played into a fleet store, as gateways would write it, with what the
/// radio and the gateways did as story lines; then an office's session to the back end over
/// that store, in process. The fleet systems (bus office, shop, carer's visits) share it.
struct FleetPlay {
    /// The run, whose truth the tests judge against.
    let run: FleetWorldRun
    /// What the radio and the gateways did.
    let story: [SystemStoryLine]

    /// The longest silence, in seconds, within one span of a receiver (a gateway, a phone's radio) hearing an identity.
    static let hearingGap = 10.0

    /// Plays `setup`'s gateways for its seconds into `store` (migrated), batch by batch every
    /// 10 virtual seconds, then assigns each gateway its zone.
    static func play(_ setup: SystemSetup, into store: any FleetStore) async throws -> FleetPlay {
        let run: FleetWorldRun
        do {
            run = try FleetWorldRun(scenario: setup.scenario)
        } catch {
            throw SystemError("scenario \"\(setup.scenario.name)\": \(error)")
        }
        var sightings: [Sighting] = []
        var batches: [String: Int] = [:]
        var time = 0.0
        repeat {
            time = min(setup.seconds, time + 10)
            run.run(until: time, flush: time >= setup.seconds)
            for batch in run.takeBatches() {
                _ = try await store.write(batch)
                sightings += batch.sightings
                if let gateway = batch.sightings.first?.gateway { batches[gateway, default: 0] += 1 }
            }
        } while time < setup.seconds
        for (gateway, zone) in run.zoneOfGateway.sorted(by: { $0.key < $1.key }) { _ = try await store.assignZone(zone, toGateway: gateway) }

        var story = hearing(sightings, epoch: run.epoch)
        let end = setup.microseconds
        for (gateway, zone) in run.zoneOfGateway.sorted(by: { $0.key < $1.key }) {
            let count = sightings.count(where: { $0.gateway == gateway })
            story.append(SystemStoryLine(time: end, actor: .gateway, who: gateway,
                                         text: "zone \(zone): wrote \(count) sightings in \(batches[gateway] ?? 0) batches to the store"))
        }
        return FleetPlay(run: run, story: story)
    }

    /// Two lines per span in which one gateway kept hearing one identity (no silence longer
    /// than ``hearingGap``): when it began, and when it last heard it, how often and how loud.
    static func hearing(_ sightings: [Sighting], epoch: Int64) -> [SystemStoryLine] {
        hearing(sightings.map { Heard(time: $0.time, receiver: $0.gateway, identity: $0.identity, rssi: $0.rssi) }, epoch: epoch)
    }

    /// One advertisement a receiver (a gateway, a phone's radio) heard, as the story counts it.
    struct Heard: Hashable, Sendable {
        /// When, in µs, on the scale of the `epoch` the story lines are made with.
        var time: Int64
        /// The receiver's name: the story line's `who`.
        var receiver: String
        /// What was heard, named as a gateway names it (`ibeacon:UUID:MAJOR:MINOR`).
        var identity: String
        /// How loud, in dBm.
        var rssi: Int
    }

    /// Two lines per span in which one receiver kept hearing one identity (no silence longer
    /// than ``hearingGap``), as `.radio` lines by the receiver: when it began, and when it
    /// last heard it, how often and how loud. `epoch` is the time of the story's 0.
    static func hearing(_ heard: [Heard], epoch: Int64) -> [SystemStoryLine] {
        struct Span {
            var first: Int64, last: Int64, count: Int, strongest: Int
        }
        var open: [String: [String: Span]] = [:]
        var lines: [SystemStoryLine] = []
        func close(_ receiver: String, _ identity: String, _ span: Span) {
            lines.append(SystemStoryLine(time: span.first - epoch, actor: .radio, who: receiver, text: "began hearing \(identity)"))
            lines.append(SystemStoryLine(time: span.last - epoch, actor: .radio, who: receiver,
                                         text: "last heard \(identity): \(span.count) sightings since "
                                             + String(format: "%.1f s", Double(span.first - epoch) / 1e6) + ", strongest \(span.strongest) dBm"))
        }
        let gap = Int64(hearingGap * 1e6)
        for one in heard.sorted(by: { ($0.time, $0.receiver, $0.identity, $0.rssi) < ($1.time, $1.receiver, $1.identity, $1.rssi) }) {
            if var span = open[one.receiver]?[one.identity], one.time - span.last <= gap {
                span.last = one.time
                span.count += 1
                span.strongest = max(span.strongest, one.rssi)
                open[one.receiver]?[one.identity] = span
                continue
            }
            if let span = open[one.receiver]?[one.identity] { close(one.receiver, one.identity, span) }
            open[one.receiver, default: [:]][one.identity] = Span(first: one.time, last: one.time, count: 1, strongest: one.rssi)
        }
        for (receiver, spans) in open.sorted(by: { $0.key < $1.key }) {
            for (identity, span) in spans.sorted(by: { $0.key < $1.key }) { close(receiver, identity, span) }
        }
        return lines
    }

    /// Runs `ask` with an office's session to the back end over `store`, and returns its result
    /// with the back end's answers as story lines at `time`.
    static func asking<Answer>(_ store: any FleetStore, at time: Int64,
                               _ ask: (URLSession, URL) async throws -> Answer) async throws -> (Answer, [SystemStoryLine]) {
        let backend = RecordingBackend(BackendInProcess(store: store)) { time }
        let (session, baseURL, host) = BackendURLProtocol.session(for: backend)
        defer { BackendURLProtocol.forget(host) }
        let result = try await ask(session, baseURL)
        return (result, backend.storyLines())
    }
}
