import BLE
import Foundation

extension CBPeripheralManager {
    /// Publishes an L2CAP credit-based channel PSM (Core 5.4, Vol 3, Part A, §4.22) that
    /// centrals may open channels to; the delegate gets the PSM chosen (the first free one
    /// from 0x0080, the dynamic range) through `didPublishL2CAPChannel`, and each channel
    /// opened through `didOpen`.
    /// - Parameter encryptionRequired: accepted; SwiftBLE's listener does not yet demand
    ///   an encrypted link for a channel (a departure: pair first if it matters).
    public func publishL2CAPChannel(withEncryption encryptionRequired: Bool) {
        enqueue { [weak self] _ in
            guard let self else { return }
            guard let device = self.device, self.state == .poweredOn else {
                self.delegate?.peripheralManager(self, didPublishL2CAPChannel: 0, error: CBError(.unknown, reason: "the peripheral manager is not powered on"))
                return
            }
            guard let psm = (CBL2CAPPSM(0x0080) ... 0x00FF).first(where: { self.listeners[$0] == nil }) else {
                self.delegate?.peripheralManager(self, didPublishL2CAPChannel: 0, error: CBError(.outOfSpace))
                return
            }
            do {
                let listener = try await device.peripheral.publishL2CAPChannel(psm: psm)
                self.listeners[psm] = listener
                self.loops.append(self.perform { [weak self] _ in
                    for await channel in listener {
                        guard let self else { return }
                        self.opened(channel)
                    }
                })
                self.delegate?.peripheralManager(self, didPublishL2CAPChannel: psm, error: nil)
            } catch {
                self.delegate?.peripheralManager(self, didPublishL2CAPChannel: psm, error: CBError(.unknown, reason: "\(error)"))
            }
        }
    }

    /// Stops accepting channels to `PSM`; channels open stay open.
    public func unpublishL2CAPChannel(_ PSM: CBL2CAPPSM) {
        enqueue { [weak self] _ in
            guard let self else { return }
            guard let listener = self.listeners.removeValue(forKey: PSM) else {
                self.delegate?.peripheralManager(self, didUnpublishL2CAPChannel: PSM, error: CBError(.invalidParameters, reason: "the PSM is not published"))
                return
            }
            await listener.unpublish()
            self.delegate?.peripheralManager(self, didUnpublishL2CAPChannel: PSM, error: nil)
        }
    }

    private func opened(_ channel: L2CAPChannel) {
        let connection = channel.connection
        let central = centrals[connection.handle] ?? makeCentral(connection)
        centrals[connection.handle] = central
        delegate?.peripheralManager(self, didOpen: CBL2CAPChannel(peer: central, channel: channel), error: nil)
    }
}
