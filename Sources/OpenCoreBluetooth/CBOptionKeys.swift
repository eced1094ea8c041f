// The option keys of the central and peripheral managers, with Apple's string values.

/// `init(delegate:queue:options:)`: whether to warn when Bluetooth is off (`NSNumber`);
/// accepted and ignored on Linux (there is no user to alert).
public let CBCentralManagerOptionShowPowerAlertKey = "kCBInitOptionShowPowerAlert"
/// `init(delegate:queue:options:)`: the identifier to restore the manager's state under
/// (`String`). For an app of a simulated iPhone (`SimulatedPhone`), the system keeps the
/// manager's links, subscriptions and scan when it terminates the app, and the manager made
/// again with this identifier after the relaunch gets them in
/// `centralManager(_:willRestoreState:)`. A manager on no phone gets that call first, with
/// nothing to restore.
public let CBCentralManagerOptionRestoreIdentifierKey = "kCBInitOptionRestoreIdentifier"
/// `scanForPeripherals(withServices:options:)`: report every advertisement (`true`) or one
/// discovery per peripheral per scan (`false`, the default) (`NSNumber` / `Bool`).
public let CBCentralManagerScanOptionAllowDuplicatesKey = "kCBScanOptionAllowDuplicates"
/// `scanForPeripherals(withServices:options:)`: also report peripherals soliciting any of
/// these services (`[CBUUID]`).
public let CBCentralManagerScanOptionSolicitedServiceUUIDsKey = "kCBScanOptionSolicitedServiceUUIDs"
/// `connect(_:options:)`: the system alerts on connection while the app is suspended (a
/// simulated iPhone's timeline shows it; no effect elsewhere).
public let CBConnectPeripheralOptionNotifyOnConnectionKey = "kCBConnectOptionNotifyOnConnection"
/// `connect(_:options:)`: the system alerts on disconnection while the app is suspended.
public let CBConnectPeripheralOptionNotifyOnDisconnectionKey = "kCBConnectOptionNotifyOnDisconnection"
/// `connect(_:options:)`: the system alerts on each notification while the app is suspended.
public let CBConnectPeripheralOptionNotifyOnNotificationKey = "kCBConnectOptionNotifyOnNotification"
/// `connect(_:options:)`: seconds (`NSNumber`) to wait before the first connection attempt.
public let CBConnectPeripheralOptionStartDelayKey = "kCBConnectOptionStartDelay"
/// `connect(_:options:)`: bridge classic and LE transports; accepted and ignored (LE only).
public let CBConnectPeripheralOptionEnableTransportBridgingKey = "kCBConnectOptionEnableTransportBridging"
/// `connect(_:options:)`: require ANCS; accepted and ignored (Linux serves no ANCS).
public let CBConnectPeripheralOptionRequiresANCS = "kCBConnectOptionRequiresANCS"
/// `connect(_:options:)`: the system connects again after a link the app did not end goes
/// down, reporting `isReconnecting` true in the disconnection (`Bool`, iOS 17).
public let CBConnectPeripheralOptionEnableAutoReconnect = "kCBConnectOptionEnableAutoReconnect"
/// `centralManager(_:willRestoreState:)`: the peripherals restored (`[CBPeripheral]`).
public let CBCentralManagerRestoredStatePeripheralsKey = "kCBRestoredPeripherals"
/// `centralManager(_:willRestoreState:)`: the services scanned for (`[CBUUID]`).
public let CBCentralManagerRestoredStateScanServicesKey = "kCBRestoredScanServices"
/// `centralManager(_:willRestoreState:)`: the scan options (`[String: Any]`).
public let CBCentralManagerRestoredStateScanOptionsKey = "kCBRestoredScanOptions"
/// `registerForConnectionEvents(options:)`: service UUIDs to match; accepted and ignored.
public let CBConnectionEventMatchingOptionServiceUUIDs = "kCBConnectionEventMatchingOptionServiceUUIDs"
/// `registerForConnectionEvents(options:)`: peripheral identifiers to match; accepted and ignored.
public let CBConnectionEventMatchingOptionPeripheralUUIDs = "kCBConnectionEventMatchingOptionPeripheralUUIDs"
/// `CBPeripheralManager(delegate:queue:options:)`: whether to warn when Bluetooth is off;
/// accepted and ignored on Linux.
public let CBPeripheralManagerOptionShowPowerAlertKey = "kCBInitOptionShowPowerAlert"
/// `CBPeripheralManager(delegate:queue:options:)`: the identifier to restore state under
/// (`String`). For an app of a simulated iPhone, the system keeps the manager's published
/// services, advertising and subscribed centrals when it terminates the app, relaunches the
/// app for a central's request, and the manager made again with this identifier gets them
/// in `peripheralManager(_:willRestoreState:)`. Ignored off a phone.
public let CBPeripheralManagerOptionRestoreIdentifierKey = "kCBInitOptionRestoreIdentifier"
/// `peripheralManager(_:willRestoreState:)`: the services published when the app was
/// terminated (`[CBMutableService]`, the same objects, with their subscribed centrals).
public let CBPeripheralManagerRestoredStateServicesKey = "kCBRestoredServices"
/// `peripheralManager(_:willRestoreState:)`: the advertisement data in use when the app was
/// terminated (`[String: Any]`, in `startAdvertising(_:)`'s keys); the system goes on
/// advertising it in the background form.
public let CBPeripheralManagerRestoredStateAdvertisementDataKey = "kCBRestoredAdvertisement"

/// SwiftBLE-only option of both managers' `options:` dictionaries: the controller the
/// manager uses (`String`), as `--hci` spells it (`sim`, `sim:FILE.yaml`, `tcp:HOST:PORT`,
/// …), or a name given to ``OpenCoreBluetooth/use(_:as:)``. Without it the manager uses
/// ``OpenCoreBluetooth/defaultController`` (`$SWIFTBLE_HCI`, else `sim`). Managers naming
/// the same controller share one device.
public let OpenCoreBluetoothControllerOptionKey = "SwiftBLEController"
