import BLE
import BLEChat
import Foundation

/// The session's links on the front door: connecting as central, accepting as peripheral,
/// frames both ways, heartbeats.
extension FrontDoorChat {
    /// As central: connect, find the session characteristic, subscribe, then write frames.
    func connect(_ sighting: Advertisement) {
        guard !connecting, let device else { return }
        if link == nil, linksEstablished == 0 { report(.role(.central(partner: partner ?? advertisement.device))) }
        connecting = true
        Task { [weak self] in
            do {
                let connection = try await device.central.connect(to: sighting)
                await self?.established(connection)
            } catch {
                self?.report(.note("connecting failed: \(error)"))
                self?.connecting = false
            }
        }
    }

    private func established(_ connection: Connection) async {
        do {
            guard let serviceUUID = BluetoothUUID(ChatUUIDs.sessionService),
                  let characteristicUUID = BluetoothUUID(ChatUUIDs.sessionCharacteristic),
                  let service = try await connection.services([serviceUUID]).first,
                  let characteristic = try await connection.characteristics(of: service).first(where: { $0.uuid == characteristicUUID })
            else {
                report(.note("the partner has no session characteristic"))
                try? await connection.disconnect()
                connecting = false
                return
            }
            let notifications = try await connection.notifications(for: characteristic)
            frameRoom = await connection.maximumWriteLength(for: .withoutResponse)
            link = connection
            remote = characteristic
            writing = false
            tasks.append(Task { [weak self] in
                for await value in notifications { self?.received(Data(value)) }
            })
            tasks.append(Task { [weak self] in
                let reason = try? await connection.disconnected
                guard let self, self.link === connection else { return }
                self.link = nil
                self.remote = nil
                self.connecting = false
                self.linkDown("disconnected (\(reason.map { "\($0)" } ?? "cancelled"))")
            })
            linkUp(central: true)
        } catch {
            report(.note("setting up the session failed: \(error)"))
            try? await connection.disconnect()
            connecting = false
        }
    }

    /// As peripheral: every connection a central makes; one that ends takes the link with it.
    func accept(_ device: BLEDevice) async {
        for await connection in device.peripheral.connections {
            incoming[connection.handle] = connection
            tasks.append(Task { [weak self] in
                _ = try? await connection.disconnected
                guard let self else { return }
                self.incoming[connection.handle] = nil
                if self.subscriber === connection {
                    self.subscriber = nil
                    self.linkDown("the partner disconnected")
                }
                // A connection ended our advertising: start it again for the partner to come back.
                self.advertise()
            })
        }
    }

    /// A write to the session characteristic: the central's first frame on a link brings
    /// the link up on this side (it subscribed before writing). Returns `false` for a write
    /// not taken, which is refused, so that the central re-sends it on a new link rather
    /// than believing it arrived.
    func written(_ request: GATTWriteRequest) async -> Bool {
        // The accept loop may not have seen the connection yet: ask the device.
        guard !isCentral,
              let connection = incoming[request.connection] ?? device?.connections.first(where: { $0.handle == request.connection })
        else { return false }
        if subscriber !== connection || !session.isLinkUp {
            subscriber = connection
            notifying = false
            frameRoom = await connection.maximumWriteLength(for: .withoutResponse)
            linkUp(central: false)
        }
        received(Data(request.value))
        return true
    }

    func linkUp(central: Bool) {
        linksEstablished += 1
        session.linkEstablished(now: now)
        report(.linkUp(central: central))
        pump()
    }

    func linkDown(_ reason: String) {
        guard session.isLinkUp else { return }
        session.linkLost()
        report(.linkDown(reason: reason))
    }

    func received(_ frame: Data) {
        for event in session.receive(frame, now: now) {
            switch event {
            case let .message(message): report(.message(message))
            case let .acknowledged(count): report(.acknowledged(count))
            }
        }
        pump()
    }

    /// Sends what the session has due: one write at a time as central, one notification
    /// at a time as peripheral (each waits for the controller's room).
    func pump() {
        guard session.isLinkUp, device != nil else { return }
        // The tasks below read the link from `self` rather than capturing copies: a debug
        // build can crash on a task capturing a copied local that suspends in Host.notify
        // (docs/decisions/0040-a-compiler-hazard-in-tasks-that-notify.md).
        if isCentral {
            guard !writing, link != nil, remote != nil, let frame = session.nextFrame(maximumLength: frameRoom, now: now) else { return }
            writing = true
            Task { [weak self] in
                guard let self else { return }
                guard let link = self.link, let remote = self.remote else {
                    self.writing = false
                    return
                }
                do {
                    try await link.write([UInt8](frame), to: remote, type: .withResponse)
                    self.writing = false
                    self.pump()
                } catch {
                    // The frame may be lost; the session re-sends it on the next link.
                    self.writing = false
                    self.report(.note("write failed: \(error)"))
                    try? await link.disconnect()
                }
            }
        } else {
            guard !notifying, subscriber != nil, local != nil, let frame = session.nextFrame(maximumLength: frameRoom, now: now)
            else { return }
            notifying = true
            Task { [weak self] in
                guard let self else { return }
                guard let device = self.device, let local = self.local, let handle = self.subscriber?.handle else {
                    self.notifying = false
                    return
                }
                do {
                    try await device.peripheral.notify([UInt8](frame), to: local, on: handle)
                } catch {
                    self.report(.note("notification failed: \(error)"))
                }
                self.notifying = false
                self.pump()
            }
        }
    }

    /// Each tick of the controller's clock: heartbeats and the silent-link check.
    func tick() {
        if session.checkLink(now: now) {
            report(.linkDown(reason: "no frame for \(session.configuration.linkTimeout): heartbeats missed"))
            if isCentral, link != nil {
                Task { [weak self] in try? await self?.link?.disconnect() }
            } else {
                subscriber = nil
                advertise()
            }
        }
        pump()
    }
}
