// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "SwiftBLE",
    products: [
        .library(name: "BLEWire", targets: ["BLEWire"]),
        .library(name: "BLELogging", targets: ["BLELogging"]),
        .library(name: "BLECrypto", targets: ["BLECrypto"]),
        .library(name: "BLETime", targets: ["BLETime"]),
        .library(name: "BLEController", targets: ["BLEController"]),
        .library(name: "BLEWorld", targets: ["BLEWorld"]),
        .library(name: "BLETransport", targets: ["BLETransport"]),
        .library(name: "BLEHost", targets: ["BLEHost"]),
        .library(name: "BLEAdapter", targets: ["BLEAdapter"]),
        .library(name: "BLEStorage", targets: ["BLEStorage"]),
        .library(name: "BLE", targets: ["BLE"]),
        .library(name: "BLEBeacons", targets: ["BLEBeacons"]),
        .library(name: "BLEProfiles", targets: ["BLEProfiles"]),
        .library(name: "BLEServe", targets: ["BLEServe"]),
        .library(name: "OpenCoreLocation", targets: ["OpenCoreLocation"]),
        .library(name: "OpenCoreBluetooth", targets: ["OpenCoreBluetooth"]),
        .library(name: "OpenUserNotifications", targets: ["OpenUserNotifications"]),
        .library(name: "BLEScenarios", targets: ["BLEScenarios"]),
        .library(name: "BLEBench", targets: ["BLEBench"]),
        .library(name: "BLEFleet", targets: ["BLEFleet"]),
        .library(name: "BLEGateway", targets: ["BLEGateway"]),
        .library(name: "BLEPresence", targets: ["BLEPresence"]),
        .library(name: "BLEFleetSimulation", targets: ["BLEFleetSimulation"]),
        .library(name: "BLEFleetStore", targets: ["BLEFleetStore"]),
        .library(name: "BLEBackend", targets: ["BLEBackend"]),
        .library(name: "BLESystems", targets: ["BLESystems"]),
        .library(name: "BLEDashboard", targets: ["BLEDashboard"]),
        .executable(name: "ble", targets: ["BLECommandLine"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        // The fleet store's engines: SQLite (bundled, no system library) and PostgreSQL.
        .package(url: "https://github.com/vapor/sqlite-nio.git", from: "1.13.2"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        // A gateway's metrics, and their Prometheus exposition.
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        // The fleet back end's HTTP server (`ble backend`).
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        // The dashboard's live updates to its page (`ble dashboard`).
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        // The HTTP types Hummingbird speaks, for the back end answering in-process (BackendInProcess).
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // `swift package generate-documentation`: the DocC catalogs of BLE, OpenCoreBluetooth and OpenCoreLocation.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .target(name: "BLEWire"),
        // The per-layer loggers (swift-log) and the levels SWIFTBLE_LOG and `ble --log` set.
        .target(name: "BLELogging", dependencies: [.product(name: "Logging", package: "swift-log")]),
        // The stack's one clock: the wall clock, or a simulation's virtual time and the executor that keeps it.
        .target(name: "BLETime"),
        .target(
            name: "BLECrypto",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .target(name: "BLEController", dependencies: ["BLEWire", "BLECrypto"]),
        .target(name: "BLEWorld", dependencies: ["BLEController", "BLECrypto", "BLETime", "BLEWire", "BLELogging", "BLEPhone", .product(name: "Yams", package: "Yams")]),
        .target(name: "BLETransport", dependencies: ["BLEWire"]),
        .target(name: "BLEHost", dependencies: ["BLETime", "BLEWire", "BLECrypto", "BLELogging"]),
        // Files the host's state lives in (the bond store): the I/O BLEHost, being sans-IO, leaves out.
        .target(name: "BLEStorage", dependencies: ["BLEHost", "BLEWire"]),
        .target(name: "BLEAdapter", dependencies: ["BLEHost", "BLETransport", "BLEWorld", "BLEController", "BLELogging", "BLEWire", "BLEScenarios"]),
        .target(name: "BLE", dependencies: ["BLEAdapter", "BLEBeacons", "BLECrypto", "BLEHost", "BLELogging", "BLEPhone", "BLEProfiles", "BLEScenarios", "BLEStorage", "BLETime",
                                            "BLEWire", "BLEWorld"]),
        .target(name: "BLEBeacons", dependencies: ["BLEWire", "BLECrypto"]),
        // Standard GATT services (Battery, Device Information, Heart Rate, ...): definitions and value codecs.
        .target(name: "BLEProfiles", dependencies: ["BLEAdapter", "BLEHost", "BLEWire"]),
        // A GATT server from a YAML serve file, its dynamic values, streams and events (`ble serve` prints them).
        .target(name: "BLEServe", dependencies: ["BLEHost", "BLEProfiles", "BLEStorage", "BLEWire", "BLEWorld"]),
        .target(name: "OpenCoreLocation", dependencies: ["BLE", "BLEBeacons", "BLETime", "BLEWire"]),
        // Core Bluetooth's API on the front door, so Apple-platform code runs here with one import changed.
        .target(name: "OpenCoreBluetooth", dependencies: ["BLE", "BLEPhone", "BLEProfiles", "BLETime"]),
        // UserNotifications' API on the simulated phone's notification centre and lock screen,
        // so Apple-platform code that posts local notifications compiles with one import changed.
        .target(name: "OpenUserNotifications", dependencies: ["BLE", "BLEPhone", "BLETime", "OpenCoreLocation"]),
        // The simulated iPhone's system: apps, their states and the background rules (sans-IO).
        .target(name: "BLEPhone"),
        // Scenario runs with a timeline: the world composed with the beacon cores (apps & tools level).
        .target(name: "BLEScenarios", dependencies: ["BLEWorld", "BLEBeacons", "BLEWire", "BLEController", "BLEPhone"]),
        // Throughput benchmarks of two of our hosts in an embedded world: `ble bench` and Benchmarks/ run them.
        .target(name: "BLEBench", dependencies: ["BLEAdapter", "BLEController", "BLEHost", "BLETime", "BLEWire", "BLEWorld"]),
        // Zone presence from gateway sightings: three algorithms and their scoring against the truth (sans-IO, no dependencies).
        .target(name: "BLEPresence"),
        // The chat app's protocol: framing, acknowledgements, heartbeats, roles. Foundation only,
        // so Examples/Chat builds against Apple's Core Bluetooth too.
        .target(name: "BLEChat"),
        // A fleet's values: sightings and their batches, named so that a store can refuse duplicates.
        .target(name: "BLEFleet"),
        // A gateway: filters and identities (IRKs resolved), sightings numbered and batched, spooled and stored.
        .target(name: "BLEGateway", dependencies: [
            "BLEAdapter", "BLEFleet", "BLEFleetStore", "BLEBeacons", "BLEHost", "BLELogging", "BLEProfiles", "BLETime", "BLEWire",
            .product(name: "Logging", package: "swift-log"), .product(name: "Metrics", package: "swift-metrics"),
            .product(name: "Prometheus", package: "swift-prometheus"), .product(name: "NIOCore", package: "swift-nio"),
            .product(name: "NIOHTTP1", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            .product(name: "Yams", package: "Yams"),
        ]),
        // A scenario's gateways on the world's virtual clock, with the truth presence is scored against.
        .target(name: "BLEFleetSimulation", dependencies: ["BLEController", "BLEFleet", "BLEFleetStore", "BLEGateway", "BLEPresence", "BLEWorld", "BLEWire"]),
        // The fleet's store (one schema on SQLite or PostgreSQL) and the gateway's durable spool.
        .target(
            name: "BLEFleetStore",
            dependencies: [
                "BLEFleet",
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The fleet back end: an HTTP JSON API over the store, its contract in openapi.yaml (`ble backend`).
        .target(
            name: "BLEBackend",
            dependencies: [
                "BLEBeacons", "BLEFleet", "BLEFleetStore", "BLEPhone", "BLEPresence",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            resources: [.copy("openapi.yaml")]
        ),
        // The chat app (Examples/Chat), written against Core Bluetooth's API: OpenCoreBluetooth here.
        .target(name: "ChatApp", dependencies: ["BLEChat", "OpenCoreBluetooth"], path: "Examples/Chat/Sources/ChatApp"),
        // The same chat on SwiftBLE's own async front door (`ble chat --api frontdoor`): BLEChat's core on `BLE`.
        .target(name: "FrontDoorChatApp", dependencies: ["BLE", "BLEAdapter", "BLEChat", "BLEHost", "BLEProfiles", "BLEStorage"],
                path: "Examples/Chat/Sources/FrontDoorChatApp"),
        // The heart-rate monitor (Examples/HeartRateMonitor): an iOS-style central that restores its state.
        .target(name: "HeartRateMonitor", dependencies: ["OpenCoreBluetooth"], path: "Examples/HeartRateMonitor/Sources/HeartRateMonitor"),
        // The notification light (Examples/NotificationLight): an ANCS accessory on the BLE API.
        .target(name: "NotificationLight", dependencies: ["BLE", "BLEProfiles"], path: "Examples/NotificationLight/Sources/NotificationLight"),
        // The bus office (Examples/BusOffice): where a bus is and when it passed each stop, asked of the back end over HTTP.
        .target(name: "BusOffice", path: "Examples/BusOffice/Sources/BusOffice"),
        // The carer's visits (Examples/CarerVisits): time per room from the back end, drawn as a heat map.
        .target(name: "CarerVisits", path: "Examples/CarerVisits/Sources/CarerVisits"),
        // The ride log (Examples/RideLog): an iOS-style rider's app that logs a bus ride from beacon regions and posts it.
        .target(name: "RideLog", dependencies: ["OpenCoreLocation", "OpenUserNotifications"], path: "Examples/RideLog/Sources/RideLog"),
        // The stolen-car finder (Examples/CarFinder): an iOS-style app that reports the tags it hears with the phone's position.
        .target(name: "CarFinder", dependencies: ["OpenCoreLocation"], path: "Examples/CarFinder/Sources/CarFinder"),
        // The shop coupon (Examples/ShopCoupon): iOS-style coupons keyed on a static iBeacon and on a rotating Eddystone-EID.
        .target(name: "ShopCoupon", dependencies: ["OpenCoreBluetooth", "OpenCoreLocation", "OpenUserNotifications"], path: "Examples/ShopCoupon/Sources/ShopCoupon"),
        // The field systems run from their scenarios (docs/systems.md): world, gateways, store, back end, phones and apps, told as a story.
        .target(name: "BLESystems", dependencies: ["BLE", "BLEAdapter", "BLEPhone", "BLEBackend", "BLEFleet", "BLEFleetSimulation", "BLEFleetStore", "BLEGateway", "BLELogging", "BLEScenarios", "BLETime", "BLEWire", "BLEWorld",
                                                   "OpenCoreBluetooth", "OpenCoreLocation", "OpenUserNotifications", "BusOffice", "CarerVisits", "RideLog", "CarFinder", "ShopCoupon"]),
        // The live dashboard (`ble dashboard`, docs/dashboard.md): a world with its gateways, the store and the back end, on one page over a WebSocket.
        .target(
            name: "BLEDashboard",
            dependencies: [
                "BLEBackend", "BLEController", "BLEFleet", "BLEFleetSimulation", "BLEFleetStore", "BLEPhone", "BLEScenarios", "BLEWorld",
                .product(name: "Hummingbird", package: "hummingbird"), .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            resources: [.copy("Page")]
        ),
        // The `ble` executable; its module is not called `ble` so that it cannot collide
        // with the `BLE` library's module on a case-insensitive file system.
        .executableTarget(
            name: "BLECommandLine",
            dependencies: [
                "BLEAdapter", "BLEBeacons", "BLEBench", "BLEHost", "BLEProfiles", "BLEScenarios", "BLEServe", "BLEStorage", "BLETransport", "BLEWorld",
                "BLEController", "BLEWire", "BLE", "BLEChat", "ChatApp", "FrontDoorChatApp", "BLELogging", "BLEBackend", "BLEFleetStore", "BLEFleetSimulation", "BLEGateway", "BLEPresence", "BLEPhone", "BLETime", "HeartRateMonitor", "NotificationLight", "OpenCoreBluetooth", "BLESystems", "BLEDashboard",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // The `.simulated` test trait and waits on the test's clock, for every test target.
        .target(name: "SimulatedTesting", dependencies: ["BLETime"], path: "Tests/Support/SimulatedTesting"),
        // A fleet store per test on SQLite, and on PostgreSQL when SWIFTBLE_TEST_POSTGRES is set: the store's and the back end's tests.
        .target(name: "FleetStoreTesting", dependencies: ["BLEFleetStore"], path: "Tests/Support/FleetStoreTesting"),
        // Several devices of ours in one simulated world, registered with OpenCoreBluetooth.
        .target(name: "WorldTesting", dependencies: ["SimulatedTesting", "BLE", "BLEController", "BLEHost", "BLEWorld", "OpenCoreBluetooth"],
                path: "Tests/Support/WorldTesting"),
        .testTarget(name: "BLETimeTests", dependencies: ["BLETime", "SimulatedTesting"]),
        .testTarget(name: "BLEWireTests", dependencies: ["SimulatedTesting", "BLEWire"], exclude: ["Fixtures"]),
        .testTarget(name: "BLECryptoTests", dependencies: ["SimulatedTesting", "BLECrypto"]),
        .testTarget(name: "BLEControllerTests", dependencies: ["SimulatedTesting", "BLEController", "BLEWire", "BLECrypto"]),
        .testTarget(name: "BLETransportTests", dependencies: ["SimulatedTesting", "BLETransport", "BLEWire", "BLEWorld", "BLEController"]),
        .testTarget(name: "BLEHostTests", dependencies: ["SimulatedTesting", "BLEHost", "BLEStorage", "BLETransport", "BLEWire", "BLEWorld", "BLEController"]),
        .testTarget(name: "BLEStorageTests", dependencies: ["SimulatedTesting", "BLEStorage", "BLEHost", "BLEWire"]),
        .testTarget(name: "BLEWorldTests", dependencies: ["SimulatedTesting", "BLEWorld", "BLEController", "BLEWire", "BLEChat", "BusOffice",
                                                      "BLE", "BLEPhone", "BLETime", "RideLog", "OpenCoreLocation", "BLEFleetStore", "FleetStoreTesting"]),
        .testTarget(name: "BLEBeaconsTests", dependencies: ["SimulatedTesting", "BLEBeacons", "BLEWire", "BLECrypto"]),
        .testTarget(name: "BLEProfilesTests", dependencies: ["SimulatedTesting", "BLEProfiles", "BLEHost", "BLEWire"]),
        .testTarget(name: "BLEServeTests", dependencies: ["BLEServe", "BLEHost", "BLEProfiles", "BLEWire"]),
        // Unit tests of the `ble` executable's parsers (`@testable import BLECommandLine`).
        .testTarget(name: "BLECommandLineTests", dependencies: ["SimulatedTesting", "BLECommandLine", "BLESystems", "BLEProfiles", "BLEHost", "BLEServe", "BLEWire"]),
        .testTarget(name: "BLEBenchTests", dependencies: ["BLEBench", "BLEWire"]),
        .testTarget(name: "BLEPresenceTests", dependencies: ["SimulatedTesting", "BLEPresence"]),
        .testTarget(name: "BLEScenariosTests", dependencies: ["SimulatedTesting", "BLEScenarios", "BLEWorld", "BLEBeacons", "BLEController", "BLEPhone", "BLEWire"]),
        .testTarget(name: "BLEGatewayTests", dependencies: ["SimulatedTesting", "BLEGateway", "BLEFleet", "BLEFleetStore", "BLEHost", "BLEBeacons", "BLEWire",
                                                        .product(name: "Prometheus", package: "swift-prometheus"), .product(name: "Logging", package: "swift-log")]),
        // The field systems end to end, judged against the world's truth.
        .testTarget(name: "SystemsTests", dependencies: ["SimulatedTesting", "BusOffice", "CarerVisits", "RideLog", "CarFinder", "ShopCoupon", "BLE", "BLEPhone", "OpenCoreBluetooth", "OpenCoreLocation",
                                                      "OpenUserNotifications", "BLEBackend", "BLEFleetSimulation", "BLEFleetStore", "BLESystems", "BLEWorld"]),
        .testTarget(name: "BLEFleetSimulationTests", dependencies: ["SimulatedTesting", "BLEFleetSimulation", "BLEGateway", "BLEFleet", "BLEPresence", "BLEWorld"]),
        // The dashboard's world feed and errors, and its page in headless Chromium (Selenium) when Chromium is installed.
        .testTarget(name: "BLEDashboardTests", dependencies: ["BLEDashboard", "BLEFleetStore", "BLEScenarios", "BLEWorld",
                                                           .product(name: "HummingbirdWSClient", package: "hummingbird-websocket")], exclude: ["Browser"]),
        .testTarget(name: "BLEChatTests", dependencies: ["SimulatedTesting", "BLEChat"]),
        .testTarget(name: "BLEPhoneTests", dependencies: ["BLEPhone"]),
        // Apps on a simulated phone reaching servers through its cellular link with URLSession (docs/network.md).
        .testTarget(name: "PhoneNetworkTests", dependencies: ["SimulatedTesting", "BLE", "BLEPhone", "BLEBackend", "BLEFleet", "BLEFleetStore", "BLETime", "BLEWorld"]),
        // PostgreSQL cases run when SWIFTBLE_TEST_POSTGRES is set (scripts/test-postgres.sh start).
        .testTarget(name: "BLEFleetStoreTests", dependencies: ["BLEFleetStore", "BLEFleet", "FleetStoreTesting"]),
        // Every endpoint over a real server, checked against openapi.yaml; PostgreSQL too when SWIFTBLE_TEST_POSTGRES is set.
        .testTarget(name: "BLEBackendTests", dependencies: ["BLEBackend", "BLEFleetStore", "BLEFleet", "FleetStoreTesting", .product(name: "Logging", package: "swift-log"),
                                                          .product(name: "Yams", package: "Yams")]),
        .testTarget(name: "OpenCoreLocationTests", dependencies: ["SimulatedTesting", "OpenCoreLocation", "BLE", "BLEBeacons", "BLEWorld"]),
        .testTarget(name: "OpenUserNotificationsTests", dependencies: ["SimulatedTesting", "OpenUserNotifications", "OpenCoreLocation", "BLE", "BLEPhone", "BLEWorld"]),
        .testTarget(name: "OpenCoreBluetoothTests", dependencies: ["SimulatedTesting", "WorldTesting", "OpenCoreBluetooth", "BLE", "BLEAdapter", "BLEHost", "BLEProfiles", "BLEWire",
                                                               "BLEWorld", "BLEController", "BLEChat", "ChatApp"]),
        // The same Apple-style sources (Tests/AppleStyle, linked under both names) in each
        // language mode, as code written for Apple platforms arrives in either.
        .testTarget(name: "AppleStyleSwift5Tests", dependencies: ["SimulatedTesting", "WorldTesting", "OpenCoreBluetooth", "OpenCoreLocation", "OpenUserNotifications", "BLE"],
                    swiftSettings: [.swiftLanguageMode(.v5)]),
        .testTarget(name: "AppleStyleSwift6Tests", dependencies: ["SimulatedTesting", "WorldTesting", "OpenCoreBluetooth", "OpenCoreLocation", "OpenUserNotifications",
                                                            "BLE"]),
        .testTarget(name: "BLETests", dependencies: ["SimulatedTesting", "BLE", "BLEAdapter", "BLEBeacons", "BLEHost", "BLEProfiles", "BLETime", "BLEWire", "BLEWorld",
                                                  "BLEController", "BLEScenarios", "HeartRateMonitor", "NotificationLight"]),
    ],
    swiftLanguageModes: [.v6]
)
