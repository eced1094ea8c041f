import BLEHost
import BLEWire
import Foundation
import Synchronization

/// A peripheral that serves standard services on a host of its own: the GATT devices of a
/// simulated world (a scenario device with `gatt: [heart-rate, battery]`) run one each.
///
/// It starts the host, sets the device's random static address (Core 5.4, Vol 3, Part C,
/// §10.8.1), publishes the services' default definitions with the device's name in the GAP
/// service, advertises connectably — again after each disconnection (§9.3.4, as a sensor
/// that wants to stay reachable does) — and answers the dynamic values with
/// ``ProfileValues``: a Heart Rate Measurement notified once a second to subscribers
/// (HRS 1.0 §3.1), the control point checked and carried out, a Temperature Measurement
/// indicated each measurement interval (HTS 1.0 §3.1) and Intermediate Temperature
/// notified with it, Current Time read from the wall clock (CTS 1.1 §3.1).
public final class ProfilePeripheral: Sendable {
    /// What to serve and advertise.
    public struct Configuration: Hashable, Sendable {
        /// The device's name: the GAP Device Name (Vol 3, Part C, §12.1).
        public var name: String
        /// The address to advertise with; a random one is set as the random static address.
        public var address: BluetoothAddress
        /// The standard services, by ``StandardService/init(name:)`` names, in order.
        public var profiles: [String]
        /// The advertising interval, units of 0.625 ms (Vol 4, Part E, §7.8.5).
        public var intervalUnits: UInt16
        /// The advertising data octets (at most 31); its Appearance, if any, is also the
        /// GAP service's (Vol 3, Part C, §12.2).
        public var advertisingData: [UInt8]
        /// The scan response data octets (at most 31), possibly empty.
        public var scanResponseData: [UInt8]
        /// Seeds the simulated heart and body temperature; by default the address.
        public var seed: UInt64
        /// The input and output of the device's Security Manager (Core 5.4, Vol 3, Part H,
        /// §2.3.2); `nil` (the default): the host's default, no input and no output, and
        /// the device asks for no pairing. With a display it asks each central that
        /// connects to pair (``PeripheralSecurity``).
        public var ioCapability: SMP.IOCapability?

        /// A configuration with every field; `seed` defaults to the address.
        public init(name: String, address: BluetoothAddress, profiles: [String], intervalUnits: UInt16 = 160,
                    advertisingData: [UInt8], scanResponseData: [UInt8] = [], seed: UInt64? = nil) {
            self.name = name
            self.address = address
            self.profiles = profiles
            self.intervalUnits = intervalUnits
            self.advertisingData = advertisingData
            self.scanResponseData = scanResponseData
            self.seed = seed ?? address.value
        }

        /// The named services; throws ``ProfilePeripheralError`` naming the device and the
        /// unknown name, with the names that exist.
        public func services() throws(ProfilePeripheralError) -> [StandardService] {
            var services: [StandardService] = []
            for name in profiles {
                guard let service = StandardService(name: name) else {
                    throw ProfilePeripheralError("device \"\(self.name)\": no standard service is called \"\(name)\"; use "
                                                 + StandardService.allCases.map(\.name).joined(separator: ", "))
                }
                services.append(service)
            }
            return services
        }
    }

    /// The configuration it serves.
    public let configuration: Configuration
    /// The host it runs.
    public let host: BLEHost.Host
    /// The published database, with its handles.
    public let database: GATTDatabase
    private let values: Mutex<ProfileValues>
    private let tasks: Mutex<[Task<Void, Never>]>

    private init(configuration: Configuration, host: BLEHost.Host, database: GATTDatabase, values: ProfileValues) {
        self.configuration = configuration
        self.host = host
        self.database = database
        self.values = Mutex(values)
        tasks = Mutex([])
    }

    /// Starts a host on `transport` and serves `configuration` on it until ``stop()``.
    /// - Parameters:
    ///   - driver: the host's driver configuration (e.g. a patient command timeout for an
    ///     embedded world on a loaded machine).
    ///   - clock: the host's clock, which also times the notifications (an embedded world's
    ///     simulation's, from ``SimulatedPeripheralPort/clock``).
    ///   - pairingSeed: seeds the host's pairing random values in a simulation.
    ///   - display: where the device shows a passkey (its ``Configuration/ioCapability``
    ///     has a display), for the central's user to read.
    /// - Throws: ``ProfilePeripheralError`` for an unknown service name or advertising data
    ///   that does not decode (before anything starts), the host's errors otherwise (the
    ///   host is then closed).
    public static func start(_ configuration: Configuration, transport: any HostTransport,
                             driver: HCIDriverConfiguration = .init(), clock: (any StackClock)? = nil,
                             pairingSeed: UInt64? = nil, display: (@Sendable (UInt32) -> Void)? = nil) async throws -> ProfilePeripheral {
        let services = try configuration.services()
        let data: AdvertisingData
        let scanResponse: AdvertisingData
        do {
            data = try AdvertisingData(decoding: configuration.advertisingData)
            scanResponse = try AdvertisingData(decoding: configuration.scanResponseData)
        } catch {
            throw ProfilePeripheralError("device \"\(configuration.name)\": its advertising data does not decode (\(error))")
        }
        let host = BLEHost.Host(transport: transport, configuration: driver, clock: clock, pairingSeed: pairingSeed,
                                logLabel: configuration.name)
        do {
            _ = try await host.start()
            let random = configuration.address.kind == .random
            if random { try await host.setRandomStaticAddress(configuration.address) }
            let database = try await host.publishGATT(
                services.map(\.defaultDefinition),
                configuration: GATTDatabase.Configuration(deviceName: configuration.name, appearance: data.appearance ?? 0))
            let peripheral = ProfilePeripheral(configuration: configuration, host: host, database: database,
                                               values: ProfileValues(services: services, database: database,
                                                                     seed: configuration.seed))
            peripheral.run()
            if let io = configuration.ioCapability {
                let security = await PeripheralSecurity.start(on: host, io: io, display: display ?? { _ in })
                peripheral.tasks.withLock { $0 += security }
            }
            try await host.startAdvertising(GAPAdvertisingParameters(
                kind: .connectable, intervalMin: configuration.intervalUnits, intervalMax: configuration.intervalUnits,
                data: data, scanResponse: scanResponse, useRandomAddress: random, restartAfterDisconnection: true))
            return peripheral
        } catch {
            await host.close()
            throw error
        }
    }

    /// Stops answering and measuring and closes the host (its links drop with it).
    public func stop() async {
        let running = tasks.withLock { tasks in
            defer { tasks = [] }
            return tasks
        }
        for task in running { task.cancel() }
        await host.close()
    }

    /// The wall clock in microseconds since 1970, for Current Time and time stamps.
    private static var unixMicroseconds: Int64 { Int64((Date().timeIntervalSince1970 * 1_000_000).rounded()) }

    /// The tasks hold the peripheral until ``stop()`` cancels them (or the host closes).
    private func run() {
        let host = self.host
        let answering = Task(executorPreference: host.executor) { [self] in
            for await event in host.gattEvents {
                switch event {
                case let .readRequest(request):
                    let result = values.withLock { $0.read(handle: request.handle, offset: request.offset, unixMicroseconds: Self.unixMicroseconds) }
                    await host.respond(to: request.id, with: result)
                case let .writeRequest(request):
                    let result = values.withLock { $0.write(request.value, to: request.handle) }
                    if request.expectsResponse { await host.respond(to: request.id, with: result) }
                default:
                    break
                }
            }
        }
        var running = [answering]
        if values.withLock({ $0.heartRateMeasurementHandle }) != nil {
            running.append(Task(executorPreference: host.executor) { [self] in
                // HRS 1.0 §3.1.1: about one measurement a second; a timer, not a poll.
                while !Task.isCancelled {
                    do { try await host.clock.sleep(for: .microseconds(HeartRateService.notificationInterval)) } catch { return }
                    guard let (handle, value) = values.withLock({ $0.nextHeartRateMeasurement() }) else { return }
                    for subscription in await host.subscriptions(of: handle) where subscription.notify {
                        try? await host.notify(value, valueHandle: handle, on: subscription.connection)
                    }
                }
            })
        }
        if let temperature = values.withLock({ $0.temperatureMeasurementHandle }) {
            let intermediate = values.withLock { $0.intermediateTemperatureHandle }
            let seconds = HealthThermometerService().measurementInterval.map { max(1, Int($0.seconds)) } ?? 2
            running.append(Task(executorPreference: host.executor) { [self] in
                // HTS 1.0 §3.4: one measurement per Measurement Interval; a timer, not a poll.
                while !Task.isCancelled {
                    do { try await host.clock.sleep(for: .seconds(seconds)) } catch { return }
                    guard let measurement = values.withLock({ $0.nextTemperature(unixMicroseconds: Self.unixMicroseconds) })
                    else { return }
                    let value = measurement.encoded()
                    if let intermediate {
                        for subscription in await host.subscriptions(of: intermediate) where subscription.notify {
                            try? await host.notify(value, valueHandle: intermediate, on: subscription.connection)
                        }
                    }
                    for subscription in await host.subscriptions(of: temperature) where subscription.indicate {
                        try? await host.indicate(value, valueHandle: temperature, on: subscription.connection)
                    }
                }
            })
        }
        tasks.withLock { $0 += running }
    }
}

/// Why a ``ProfilePeripheral`` cannot start: one sentence naming the device.
public struct ProfilePeripheralError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The sentence.
    public var description: String
    /// An error with that sentence.
    public init(_ description: String) { self.description = description }
}
