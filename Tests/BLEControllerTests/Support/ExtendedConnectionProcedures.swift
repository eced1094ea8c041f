import BLEController
import BLEWire

/// Host procedures for connections over extended advertising, and what the tests read back.
extension TestAir {
    /// The LE events the connection tests watch, beside the defaults after reset.
    static let connectionTestEvents = HCI.LEEventMask.defaultAfterReset.union(
        [.enhancedConnectionComplete, .advertisingSetTerminated, .channelSelectionAlgorithm, .extendedAdvertisingReport])

    /// A connectable extended set (directed to `target` when given) with `data` and own
    /// address type `ownAddressType`, enabled;
    /// returns the statuses of the parameters, the data and the enable.
    @discardableResult
    mutating func startConnectableSet(
        _ index: Int, handle: UInt8 = 0, primaryPHY: HCI.PHY = .le1M, secondaryPHY: HCI.PHY = .le1M,
        target: BluetoothAddress? = nil, data: [UInt8] = [0x02, 0x01, 0x06], ownAddressType: HCI.OwnAddressType = .public
    ) -> [UInt8?] {
        var properties: HCI.AdvertisingEventProperties = [.connectable]
        if target != nil { properties.insert(.directed) }
        let parameters = command(index, HCI.LESetExtendedAdvertisingParameters(
            advertisingHandle: handle, advertisingEventProperties: properties, primaryAdvertisingIntervalMin: 0x0030,
            primaryAdvertisingIntervalMax: 0x0030, ownAddressType: ownAddressType, peerAddress: target ?? BluetoothAddress(0),
            primaryAdvertisingPHY: primaryPHY, secondaryAdvertisingPHY: secondaryPHY)).first?.commandResult?.status
        let data = setExtendedData(index, handle: handle, data)
        let enable = enableSets(index, [.init(advertisingHandle: handle, duration: 0, maxExtendedAdvertisingEvents: 0)])
        return [parameters] + data + [enable]
    }

    /// The connection parameters the tests ask for on each PHY: a different interval for
    /// each, so that the one used shows which PHY's set was taken.
    static func connectionParameters(for phy: HCI.PHY) -> HCI.LEConnectionParameters {
        let interval: UInt16 = phy == .le1M ? 24 : phy == .le2M ? 32 : 40
        return HCI.LEConnectionParameters(
            connectionIntervalMin: interval, connectionIntervalMax: interval, maxLatency: 0, supervisionTimeout: 200)
    }

    /// LE Extended Create Connection towards `peer`, scanning on `scanning` (LE 1M and/or LE
    /// Coded) and ready to connect on LE 2M too when `le2M`.
    static func extendedCreateConnection(
        to peer: BluetoothAddress, scanning: [HCI.PHY] = [.le1M, .leCoded], le2M: Bool = true
    ) -> HCI.LEExtendedCreateConnection {
        func parameters(_ phy: HCI.PHY) -> HCI.LEExtendedCreateConnection.PHYParameters {
            HCI.LEExtendedCreateConnection.PHYParameters(
                scanInterval: 0x0030, scanWindow: 0x0030, connectionParameters: connectionParameters(for: phy))
        }
        return HCI.LEExtendedCreateConnection(
            ownAddressType: .public, peerAddressType: .public, peerAddress: peer,
            le1M: scanning.contains(.le1M) ? parameters(.le1M) : nil, le2M: le2M ? parameters(.le2M) : nil,
            leCoded: scanning.contains(.leCoded) ? parameters(.leCoded) : nil)
    }

    /// The LE meta events device `index`'s host received, in order.
    func leMetaEvents(_ index: Int) -> [HCI.LEMetaEvent] {
        devices[index].events.compactMap { item in
            if case let .leMeta(event) = item.event { return event }
            return nil
        }
    }

    /// LE Read PHY of device `index`'s first connection: (TX, RX), or `nil`.
    mutating func readPHY(_ index: Int) -> (tx: HCI.PHY, rx: HCI.PHY)? {
        guard let handle = devices[index].controller.connectionHandles.first,
              case let .commandComplete(read)? = command(index, HCI.LEReadPHY(connectionHandle: handle)).first,
              let result = try? read.returnParameters(for: HCI.LEReadPHY.self)
        else { return nil }
        return (result.txPHY, result.rxPHY)
    }
}
