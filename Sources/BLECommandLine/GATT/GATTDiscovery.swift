import BLEHost
import BLEWire

/// Discovers and reads a peer's whole GATT tree over one connection, as `ble gatt dump`
/// shows it (Core 5.4, Vol 3, Part G, §4.4.1, §4.5.1, §4.6.1, §4.7.1, §4.8.3, §4.12.2):
/// primary services, their includes (and the secondary services those reach),
/// characteristics and descriptors; every value with the Read property and every descriptor
/// read with Read Long. A read that fails is recorded with its ATT error and the dump goes on.
struct GATTDiscovery {
    let host: BLEHost.Host
    let connection: UInt16

    /// Runs one procedure, turning a failure into a one-sentence CommandFailure.
    func run(_ procedure: GATTProcedure, doing what: String) async throws -> GATTClientResult {
        do {
            return try await host.gatt(procedure, on: connection)
        } catch {
            throw CommandFailure(GATTNames.sentence(error, doing: what))
        }
    }

    /// Services with their includes and characteristics, values not read.
    func discoverServices() async throws -> [(GATTDiscoveredService, [GATTDiscoveredIncludedService])] {
        guard case let .services(primaries) = try await run(.discoverAllPrimaryServices, doing: "primary service discovery") else {
            throw CommandFailure("The GATT client returned no services to primary service discovery.")
        }
        var found: [ATT.Handle: (GATTDiscoveredService, [GATTDiscoveredIncludedService])] = [:]
        var pending = primaries
        for service in primaries { found[service.handles.lowerBound] = (service, []) }
        while !pending.isEmpty {
            let service = pending.removeFirst()
            guard case let .includedServices(includes) = try await run(.findIncludedServices(in: service.handles),
                                                                         doing: "finding included services") else { continue }
            found[service.handles.lowerBound]?.1 = includes
            for include in includes where found[include.handles.lowerBound] == nil {
                let secondary = GATTDiscoveredService(uuid: include.uuid, handles: include.handles, isPrimary: false)
                found[include.handles.lowerBound] = (secondary, [])
                pending.append(secondary)
            }
        }
        return found.keys.sorted().compactMap { found[$0] }
    }

    /// Reads a value with Read Long; an ATT error is returned, anything else thrown.
    func read(_ handle: ATT.Handle) async throws -> Result<[UInt8], ATT.ErrorCode> {
        do {
            guard case let .value(value) = try await host.gatt(.readLong(handle), on: connection) else { return .success([]) }
            return .success(value)
        } catch let GATTClientError.att(code, _) {
            return .failure(code)
        } catch {
            throw CommandFailure(GATTNames.sentence(error, doing: "reading handle \(handleText(handle))"))
        }
    }

    /// The whole tree with values.
    func document(address: String) async throws -> GATTDocument {
        var services: [GATTDocument.Service] = []
        for (service, includes) in try await discoverServices() {
            var entry = GATTDocument.Service(
                uuid: service.uuid, isPrimary: service.isPrimary, startHandle: service.handles.lowerBound,
                endHandle: service.handles.upperBound,
                includes: includes.map { GATTDocument.Include(handle: $0.declarationHandle, startHandle: $0.handles.lowerBound,
                                                               endHandle: $0.handles.upperBound, uuid: $0.uuid) },
                characteristics: [])
            for characteristic in try await characteristics(in: service) {
                entry.characteristics.append(try await read(characteristic))
            }
            services.append(entry)
        }
        return GATTDocument(address: address, mtu: await host.attMTU(on: connection) ?? ATTBearerConfiguration.defaultMTU,
                            services: services)
    }

    func characteristics(in service: GATTDiscoveredService) async throws -> [GATTDiscoveredCharacteristic] {
        guard case let .characteristics(found) = try await run(.discoverAllCharacteristics(in: service.handles),
                                                                doing: "characteristic discovery") else { return [] }
        return found
    }

    func descriptors(of characteristic: GATTDiscoveredCharacteristic) async throws -> [GATTDiscoveredDescriptor] {
        guard case let .descriptors(found) = try await run(.discoverAllDescriptors(of: characteristic),
                                                            doing: "descriptor discovery") else { return [] }
        return found
    }

    private func read(_ characteristic: GATTDiscoveredCharacteristic) async throws -> GATTDocument.Characteristic {
        var entry = GATTDocument.Characteristic(
            uuid: characteristic.uuid, handle: characteristic.declarationHandle, valueHandle: characteristic.valueHandle,
            properties: characteristic.properties, value: nil, error: nil, descriptors: [])
        if characteristic.properties.contains(.read) {
            switch try await read(characteristic.valueHandle) {
            case let .success(value): entry.value = value
            case let .failure(code): entry.error = code
            }
        }
        for descriptor in try await descriptors(of: characteristic) {
            var item = GATTDocument.Descriptor(uuid: descriptor.uuid, handle: descriptor.handle, value: nil, error: nil)
            switch try await read(descriptor.handle) {
            case let .success(value): item.value = value
            case let .failure(code): item.error = code
            }
            entry.descriptors.append(item)
        }
        return entry
    }

    /// The failure for a target the server does not have; a service's UUID given where a
    /// characteristic is wanted names that service's characteristics.
    func absent(_ target: GATTTarget) async throws -> CommandFailure {
        if case let .uuid(uuid) = target {
            for (service, _) in try await discoverServices() where service.uuid == uuid {
                let names = try await characteristics(in: service).map { GATTDocument.label($0.uuid) }
                return CommandFailure("\(GATTDocument.label(uuid)) is a service, not a characteristic; name one of its characteristics"
                                      + (names.isEmpty ? " (it has none)." : ": " + names.joined(separator: ", ") + "."))
            }
        }
        return CommandFailure("The server has no \(target).")
    }

    /// The characteristic a command names: by value handle, or the first of a UUID in
    /// handle order.
    func characteristic(_ target: GATTTarget) async throws -> GATTDiscoveredCharacteristic? {
        for (service, _) in try await discoverServices() {
            for characteristic in try await characteristics(in: service) {
                switch target {
                case let .handle(handle) where characteristic.valueHandle == handle: return characteristic
                case let .uuid(uuid) where characteristic.uuid == uuid: return characteristic
                default: continue
                }
            }
        }
        return nil
    }
}

/// An attribute named on the command line: `0x002A` (a handle, always with 0x) or a UUID.
enum GATTTarget: CustomStringConvertible {
    case handle(ATT.Handle)
    case uuid(BluetoothUUID)

    init?(parsing text: String) {
        if text.lowercased().hasPrefix("0x") {
            guard let handle = ATT.Handle(text.dropFirst(2), radix: 16), handle != 0 else { return nil }
            self = .handle(handle)
        } else if let uuid = BluetoothUUID(text) {
            self = .uuid(uuid)
        } else {
            return nil
        }
    }

    var description: String {
        switch self {
        case let .handle(handle): return "handle \(handleText(handle))"
        case let .uuid(uuid): return "characteristic \(GATTDocument.label(uuid))"
        }
    }
}
