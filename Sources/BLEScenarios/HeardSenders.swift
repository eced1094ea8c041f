#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BLEBeacons
import BLEWire
import BLEWorld

/// What a ``ScenarioRunner`` has learnt of the advertisers its observers hear, so that a
/// beacon heard again costs one dictionary look-up: each address's device and name, resolved
/// once, and the advertising data it sent last, decoded once, with a dense number for the
/// iBeacon identity it carries (what observers index their bookkeeping by, in place of
/// hashing the identity per report).
///
/// Everything kept is a function of what it is keyed by: the scenario's devices and
/// addresses are fixed when the runner is built, and the decoded frame is kept together with
/// the very bytes it came from, so an address whose advertising data changes is decoded
/// afresh.
struct HeardSenders {
    /// One advertiser's address as the runner knows it.
    struct Sender {
        /// The scenario's device with the address, `nil` for an address no device has.
        let device: DeviceID?
        /// That device's name, `nil` when the address belongs to no device.
        let name: String?
        /// The advertising data decoded last for the address (`nil` before the first).
        var data: [UInt8]?
        /// ``data`` as an iBeacon, `nil` when it is not one (or nothing was decoded yet).
        var frame: IBeacon?
        /// The number of ``frame``'s identity (see ``HeardSenders/number(of:)``).
        var identityNumber = 0
        /// The name the timeline gives the beacon: its device's, else its identity.
        var beaconName = ""
    }

    /// The scenario's devices by address (the last device declared with an address wins).
    private let devices: [AddressKey: DeviceID]
    /// The scenario's names of devices.
    private let names: (DeviceID) -> String?
    /// Positions in ``senders`` by ``packed(_:)`` address.
    private var indexByAddress: [UInt64: Int] = [:]
    /// Every address heard so far, in the order first heard.
    private(set) var senders: [Sender] = []
    private var numbers: [IBeaconIdentity: Int] = [:]

    /// The senders of a scenario whose devices have the addresses of `devices` and the
    /// names `names` gives.
    init(devices: [AddressKey: DeviceID], names: @escaping (DeviceID) -> String?) {
        self.devices = devices
        self.names = names
    }

    /// How many identities are numbered: every number is below it.
    var identityCount: Int { numbers.count }

    /// An address and its kind in one integer (the kind above the 48 bits): an integer key
    /// hashes in a fraction of the time a structure takes, and this runs for every report.
    static func packed(_ address: BluetoothAddress) -> UInt64 {
        address.value | (address.kind == .random ? 1 << 48 : 0)
    }

    /// The position in ``senders`` of the sender with `address`, resolved on first hearing.
    mutating func index(of address: BluetoothAddress) -> Int {
        let key = Self.packed(address)
        if let index = indexByAddress[key] { return index }
        let device = devices[AddressKey(address)]
        senders.append(Sender(device: device, name: device.flatMap(names)))
        indexByAddress[key] = senders.count - 1
        return senders.count - 1
    }

    /// The iBeacon in `data`, sent by the sender at `index`, or `nil` when `data` is not
    /// one; decoded only when `data` differs from what that sender sent last.
    mutating func beacon(in data: ArraySlice<UInt8>, from index: Int) -> IBeacon? {
        if let last = senders[index].data, Self.same(last, data) { return senders[index].frame }
        let bytes = Array(data)
        let frame = try? IBeacon(decoding: bytes)
        senders[index].data = bytes
        senders[index].frame = frame
        if let frame {
            senders[index].identityNumber = number(of: frame.identity)
            senders[index].beaconName = senders[index].name ?? frame.identity.description
        }
        return frame
    }

    /// Whether `cached` and `data` hold the same octets (compared as memory: a generic
    /// element-wise comparison cost more than the rest of a cache hit).
    static func same(_ cached: [UInt8], _ data: ArraySlice<UInt8>) -> Bool {
        guard cached.count == data.count else { return false }
        return cached.withUnsafeBytes { cachedBytes in
            data.withUnsafeBytes { dataBytes in
                guard let cachedStart = cachedBytes.baseAddress, let dataStart = dataBytes.baseAddress else { return true }
                return memcmp(cachedStart, dataStart, cachedBytes.count) == 0
            }
        }
    }

    /// A dense number for `identity`: the same identity always gets the same number, two
    /// different ones never do; numbers start at zero and grow by one per new identity.
    mutating func number(of identity: IBeaconIdentity) -> Int {
        if let number = numbers[identity] { return number }
        numbers[identity] = numbers.count
        return numbers.count - 1
    }
}
