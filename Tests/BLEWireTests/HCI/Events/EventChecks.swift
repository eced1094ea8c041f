import BLEWire
import Testing

/// Shared checks for event types: generated round trips through the typed value, the
/// event packet and ``HCI/Event``, plus the malformed-input sweep on a few samples.
enum EventChecks {
    /// How many generated values each type gets.
    static let generatedCount = 300
    /// How many of them also get the (slower) malformed-input sweep.
    static let malformedSamples = 3

    /// Round-trips generated `Event` values and checks ``HCI/Event`` wraps them as `wrap` does.
    static func roundTrip<Event: HCIEvent>(
        seed: UInt64, truncationMustFail: Bool = true,
        _ make: (inout SeededGenerator) -> Event, wrap: (Event) -> HCI.Event
    ) throws {
        var generator = SeededGenerator(seed: seed)
        for index in 0 ..< generatedCount {
            let value = make(&generator)
            let parameters = value.encoded()
            #expect(try Event(decoding: parameters) == value)
            let packet = try HCI.EventPacket(value)
            #expect(packet.eventCode == Event.eventCode)
            #expect(try packet.decode(as: Event.self) == value)
            let event = try HCI.Event(decoding: packet)
            #expect(event == wrap(value))
            #expect(event.packet == packet)
            let wire = event.encoded()
            #expect(wire == [Event.eventCode.rawValue, UInt8(parameters.count)] + parameters)
            #expect(try HCI.Event(decoding: wire) == event)
            if index < malformedSamples {
                sweep(parameters, as: Event.self, truncationMustFail: truncationMustFail)
                MalformedInput.check(wire, as: HCI.Event.self)
            }
        }
    }

    /// Round-trips generated LE subevents and checks ``HCI/Event`` wraps them as `wrap` does.
    static func roundTrip<Subevent: HCILEMetaEvent>(
        seed: UInt64, _ make: (inout SeededGenerator) -> Subevent, wrap: (Subevent) -> HCI.LEMetaEvent
    ) throws {
        var generator = SeededGenerator(seed: seed)
        for index in 0 ..< generatedCount {
            let value = make(&generator)
            let parameters = value.encoded()
            #expect(try Subevent(decoding: parameters) == value)
            let packet = try HCI.EventPacket(leMeta: value)
            #expect(packet.eventCode == .leMeta)
            #expect(Array(packet.parameters) == [Subevent.subeventCode.rawValue] + parameters)
            #expect(try packet.decode(asLEMeta: Subevent.self) == value)
            let event = try HCI.Event(decoding: packet)
            #expect(event == .leMeta(wrap(value)))
            #expect(event.packet == packet)
            #expect(try HCI.LEMetaEvent(decoding: packet.parameters) == wrap(value))
            let wire = event.encoded()
            #expect(try HCI.Event(decoding: wire) == event)
            if index < malformedSamples {
                sweep(parameters, as: Subevent.self)
                MalformedInput.check(wire, as: HCI.Event.self)
            }
        }
    }

    /// The malformed-input sweep, plus: dropping the last octet must be noticed (for
    /// types whose length is fixed or declared).
    static func sweep<Value: WireCodable>(_ valid: [UInt8], as type: Value.Type, truncationMustFail: Bool = true) {
        let rejected = MalformedInput.check(valid, as: Value.self)
        if truncationMustFail, !valid.isEmpty {
            #expect(rejected >= 1)
            #expect(throws: WireError.self) { try Value(decoding: Array(valid.dropLast())) }
        }
    }
}
