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
        enqueue { [weak self] in
            guard let self else { return }
            let free = await self.onQueue { () -> (device: BLEDevice, psm: CBL2CAPPSM)? in
                guard let device = self.device, self.state == .poweredOn else {
                    self.delegate?.peripheralManager(self, didPublishL2CAPChannel: 0, error: CBError(.unknown, reason: "the peripheral manager is not powered on"))
                    return nil
                }
                guard let psm = (CBL2CAPPSM(0x0080) ... 0x00FF).first(where: { self.listeners[$0] == nil }) else {
                    self.delegate?.peripheralManager(self, didPublishL2CAPChannel: 0, error: CBError(.outOfSpace))
                    return nil
                }
                return (device, psm)
            }
            guard let free else { return }
            let psm = free.psm
            do {
                let listener = try await free.device.peripheral.publishL2CAPChannel(psm: psm)
                let loop = Task { [weak self] in
                    for await channel in listener {
                        guard let self else { return }
                        await self.onQueue { self.opened(channel) }
                    }
                }
                await self.onQueue {
                    self.listeners[psm] = listener
                    self.loops.append(loop)
                    self.delegate?.peripheralManager(self, didPublishL2CAPChannel: psm, error: nil)
                }
            } catch {
                let reason = "\(error)"
                await self.onQueue {
                    self.delegate?.peripheralManager(self, didPublishL2CAPChannel: psm, error: CBError(.unknown, reason: reason))
                }
            }
        }
    }

    /// Stops accepting channels to `PSM`; channels open stay open.
    public func unpublishL2CAPChannel(_ PSM: CBL2CAPPSM) {
        enqueue { [weak self] in
            guard let self else { return }
            let listener = await self.onQueue { () -> L2CAPListener? in
                guard let listener = self.listeners.removeValue(forKey: PSM) else {
                    self.delegate?.peripheralManager(self, didUnpublishL2CAPChannel: PSM, error: CBError(.invalidParameters, reason: "the PSM is not published"))
                    return nil
                }
                return listener
            }
            guard let listener else { return }
            await listener.unpublish()
            await self.onQueue { self.delegate?.peripheralManager(self, didUnpublishL2CAPChannel: PSM, error: nil) }
        }
    }

    private func opened(_ channel: L2CAPChannel) {
        let connection = channel.connection
        let central = centrals[connection.handle] ?? makeCentral(connection)
        centrals[connection.handle] = central
        delegate?.peripheralManager(self, didOpen: CBL2CAPChannel(peer: central, channel: channel, managerQueue: isolation), error: nil)
    }
}
