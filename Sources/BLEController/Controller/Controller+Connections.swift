import BLEWire

extension Controller {
    /// The connection handle a connection-related command names, or `nil` for commands that
    /// are not about one connection.
    static func connectionHandle(of command: any HCICommand) -> UInt16? {
        switch command {
        case let command as HCI.Disconnect: return command.connectionHandle
        case let command as HCI.ReadRemoteVersionInformation: return command.connectionHandle
        case let command as HCI.ReadTransmitPowerLevel: return command.connectionHandle
        case let command as HCI.ReadAuthenticatedPayloadTimeout: return command.connectionHandle
        case let command as HCI.WriteAuthenticatedPayloadTimeout: return command.connectionHandle
        case let command as HCI.ReadRSSI: return command.connectionHandle
        case let command as HCI.ReadEncryptionKeySize: return command.connectionHandle
        case let command as HCI.LEConnectionUpdate: return command.connectionHandle
        case let command as HCI.LEReadChannelMap: return command.connectionHandle
        case let command as HCI.LEReadRemoteFeatures: return command.connectionHandle
        case let command as HCI.LEEnableEncryption: return command.connectionHandle
        case let command as HCI.LELongTermKeyRequestReply: return command.connectionHandle
        case let command as HCI.LELongTermKeyRequestNegativeReply: return command.connectionHandle
        case let command as HCI.LESetDataLength: return command.connectionHandle
        case let command as HCI.LEReadPHY: return command.connectionHandle
        case let command as HCI.LESetPHY: return command.connectionHandle
        default: return nil
        }
    }

    /// Sends a connection command to the connection with `handle`, or answers it from the
    /// controller's bookkeeping; an unknown handle gets Unknown Connection Identifier (0x02).
    mutating func routeConnectionCommand(_ command: any HCICommand, handle: UInt16, into outputs: inout [ControllerOutput]) {
        let opcode = type(of: command).opcode
        guard let index = slotIndex(handle: handle) else {
            switch type(of: command).completion {
            case .commandStatus: respond(opcode, status: .unknownConnectionIdentifier, into: &outputs)
            case .commandComplete:
                respond(opcode, complete: unknownHandleReturnParameters(command, handle: handle), into: &outputs)
            }
            return
        }
        let slot = connections[index]
        // The controller answers routed commands (Command Status, or Command Complete for the
        // key replies and Set Data Length); the connection sends the completion events.
        let acceptedWithHandle = HCI.StatusAndHandleReturnParameters(status: .success, connectionHandle: handle).encoded()
        switch command {
        case let command as HCI.Disconnect:
            respond(opcode, status: .success, into: &outputs)
            feed(connectionAt: index, .command(.disconnect(reason: command.reason)), into: &outputs)
        case is HCI.ReadRemoteVersionInformation:
            respond(opcode, status: .success, into: &outputs)
            feed(connectionAt: index, .command(.readRemoteVersion), into: &outputs)
        case is HCI.LEReadRemoteFeatures:
            respond(opcode, status: .success, into: &outputs)
            feed(connectionAt: index, .command(.readRemoteFeatures), into: &outputs)
        case let command as HCI.LEConnectionUpdate:
            respond(opcode, status: .success, into: &outputs)
            feed(connectionAt: index, .command(.updateParameters(command)), into: &outputs)
        case let command as HCI.LEEnableEncryption:
            // Only the central starts encryption (Core 5.4, Vol 4, Part E, §7.8.24).
            guard slot.link.role == .central else {
                respond(opcode, status: .commandDisallowed, into: &outputs)
                return
            }
            respond(opcode, status: .success, into: &outputs)
            feed(connectionAt: index, .command(.startEncryption(
                random: command.randomNumber, ediv: command.encryptedDiversifier, longTermKey: command.longTermKey)),
                into: &outputs)
        case let command as HCI.LELongTermKeyRequestReply:
            respond(opcode, complete: acceptedWithHandle, into: &outputs)
            feed(connectionAt: index, .command(.longTermKeyReply(command.longTermKey)), into: &outputs)
        case is HCI.LELongTermKeyRequestNegativeReply:
            respond(opcode, complete: acceptedWithHandle, into: &outputs)
            feed(connectionAt: index, .command(.longTermKeyReply(nil)), into: &outputs)
        case let command as HCI.LESetDataLength:
            respond(opcode, complete: acceptedWithHandle, into: &outputs)
            feed(connectionAt: index, .command(.setDataLength(txOctets: command.txOctets, txTime: command.txTime)),
                 into: &outputs)
        case let command as HCI.LESetPHY:
            guard !namesUnsupportedPHY(allPHYs: command.allPHYs, tx: command.txPHYs, rx: command.rxPHYs) else {
                respond(opcode, status: .unsupportedFeatureOrParameterValue, into: &outputs)
                return
            }
            respond(opcode, status: .success, into: &outputs)
            feed(connectionAt: index, .command(.setPHY(command)), into: &outputs)
        case is HCI.ReadRSSI:
            // Without a packet received yet there is no measurement: 127, "not available".
            let rssi = slot.link.lastRSSI ?? 127
            respond(opcode, complete: HCI.ReadRSSI.ReturnParameters(
                status: .success, connectionHandle: handle, rssi: rssi).encoded(), into: &outputs)
        case is HCI.ReadEncryptionKeySize:
            // The link layer encrypts with the whole 128-bit LTK the host gave (Vol 6, Part E,
            // §1), so an encrypted link reports 16 octets; an unencrypted one has no key
            // (Insufficient Security, Vol 4, Part E, §7.5.7).
            let encrypted = slot.link.encryption.transmitEncrypted
            respond(opcode, complete: HCI.ReadEncryptionKeySize.ReturnParameters(
                status: encrypted ? .success : .insufficientSecurity, connectionHandle: handle,
                keySize: encrypted ? 16 : 0).encoded(), into: &outputs)
        case is HCI.ReadTransmitPowerLevel:
            respond(opcode, complete: HCI.ReadTransmitPowerLevel.ReturnParameters(
                status: .success, connectionHandle: handle, transmitPowerLevel: txPowerLevel).encoded(), into: &outputs)
        case is HCI.ReadAuthenticatedPayloadTimeout:
            respond(opcode, complete: HCI.ReadAuthenticatedPayloadTimeout.ReturnParameters(
                status: .success, connectionHandle: handle,
                authenticatedPayloadTimeout: slot.authenticatedPayloadTimeout).encoded(), into: &outputs)
        case let command as HCI.WriteAuthenticatedPayloadTimeout:
            connections[index].authenticatedPayloadTimeout = command.authenticatedPayloadTimeout
            respond(opcode, complete: HCI.StatusAndHandleReturnParameters(
                status: .success, connectionHandle: handle).encoded(), into: &outputs)
        case is HCI.LEReadChannelMap:
            respond(opcode, complete: HCI.LEReadChannelMap.ReturnParameters(
                status: .success, connectionHandle: handle,
                channelMap: HCI.LEChannelMap(rawValue: slot.link.currentChannelMap)).encoded(), into: &outputs)
        case is HCI.LEReadPHY:
            respond(opcode, complete: HCI.LEReadPHY.ReturnParameters(
                status: .success, connectionHandle: handle, txPHY: slot.transmitPHY, rxPHY: slot.receivePHY).encoded(),
                into: &outputs)
        default:
            respond(opcode, complete: [HCI.StatusCode.unknownHCICommand.rawValue], into: &outputs)
        }
    }

    /// Whether LE Set PHY or LE Set Default PHY names, for a direction it has a preference for,
    /// LE Coded on a controller without the LE Coded PHY feature (Vol 4, Part E, §7.8.48–49:
    /// Unsupported Feature or Parameter Value, 0x11).
    func namesUnsupportedPHY(allPHYs: HCI.AllPHYsPreference, tx: HCI.LEPHYs, rx: HCI.LEPHYs) -> Bool {
        guard !reportedLEFeatures.contains(.leCodedPHY) else { return false }
        return !allPHYs.contains(.noTransmitPreference) && tx.contains(.leCoded)
            || !allPHYs.contains(.noReceivePreference) && rx.contains(.leCoded)
    }

    /// Full-length return parameters with status 0x02 for a Command Complete command that
    /// named an unknown handle: status and handle, then zeros for the remaining fields.
    private func unknownHandleReturnParameters(_ command: any HCICommand, handle: UInt16) -> [UInt8] {
        let status = HCI.StatusCode.unknownConnectionIdentifier
        switch command {
        case is HCI.ReadRSSI:
            return HCI.ReadRSSI.ReturnParameters(status: status, connectionHandle: handle, rssi: 127).encoded()
        case is HCI.ReadEncryptionKeySize:
            return HCI.ReadEncryptionKeySize.ReturnParameters(status: status, connectionHandle: handle, keySize: 0).encoded()
        case is HCI.ReadTransmitPowerLevel:
            return HCI.ReadTransmitPowerLevel.ReturnParameters(
                status: status, connectionHandle: handle, transmitPowerLevel: 0).encoded()
        case is HCI.ReadAuthenticatedPayloadTimeout:
            return HCI.ReadAuthenticatedPayloadTimeout.ReturnParameters(
                status: status, connectionHandle: handle, authenticatedPayloadTimeout: 0).encoded()
        case is HCI.LEReadChannelMap:
            return HCI.LEReadChannelMap.ReturnParameters(
                status: status, connectionHandle: handle, channelMap: HCI.LEChannelMap(rawValue: 0)).encoded()
        case is HCI.LEReadPHY:
            return HCI.LEReadPHY.ReturnParameters(status: status, connectionHandle: handle, txPHY: .le1M, rxPHY: .le1M).encoded()
        default:
            return HCI.StatusAndHandleReturnParameters(status: status, connectionHandle: handle).encoded()
        }
    }

    /// Host → controller ACL data (Core 5.4, Vol 4, Part E, §4.1.1, §5.4.2): an unknown handle,
    /// a packet longer than the LE ACL buffer, or one beyond the host's credits is dropped
    /// and counted; anything else goes to its connection.
    mutating func handleHostACL(_ packet: HCI.ACLPacket, into outputs: inout [ControllerOutput]) {
        guard let index = slotIndex(handle: packet.connectionHandle) else {
            counters.aclUnknownHandle += 1
            return
        }
        var outstanding = 0
        readingSlots { slots in
            for index in slots.indices { outstanding += slots.inPlace(index).pointee.outstandingACLPackets + slots.inPlace(index).pointee.directCompletions }
        }
        guard packet.data.count <= configuration.leACLBufferSize, outstanding < configuration.leACLBufferCount else {
            counters.aclOverflow += 1
            return
        }
        if configuration.airtimeFreeData, readingSlots({ $0.inPlace(index).pointee.outstandingACLPackets }) == 0,
           let data = readingSlots({ LinkLayerConnection.directLinkData(at: $0.inPlace(index), for: packet) }) {
            sendDirectly(data, connectionAt: index, into: &outputs)
            return
        }
        connections[index].outstandingACLPackets += 1
        feed(connectionAt: index, .hostData(packet), into: &outputs)
    }

    /// Gives `input` to the connection at `index` and carries out what it asks.
    mutating func feed(connectionAt index: Int, _ input: ConnectionInput, into outputs: inout [ControllerOutput]) {
        guard index < connections.count else { return }
        let handle = connections[index].link.handleValue
        let refusedBefore = connections[index].link.refusals
        let results = connections[index].link.handle(input, at: now)
        counters.linkRefusals.add(connections[index].link.refusals, since: refusedBefore)
        for result in results {
            guard let position = slotIndex(handle: handle) else { break }
            switch result {
            case let .radio(output):
                // A link's listen and stop-listening wait for the arbitration of the one receiver.
                switch output {
                case let .listen(window): connections[position].window = window
                case .stopListening: connections[position].window = nil
                case .transmit, .hci, .linkData, .advertisingReport: outputs.append(output)
                }
            case let .event(event):
                if case let .leMeta(.phyUpdateComplete(update)) = event, update.status == .success {
                    connections[position].transmitPHY = update.txPHY
                    connections[position].receivePHY = update.rxPHY
                }
                emit(event, into: &outputs)
            case let .aclToHost(packet):
                outputs.append(.hci(.acl(packet)))
            case let .completedPackets(count):
                let released = min(count, connections[position].outstandingACLPackets)
                connections[position].outstandingACLPackets -= released
                guard count > 0 else { continue }
                let entry = HCI.NumberOfCompletedPackets.Entry(
                    connectionHandle: handle, numCompletedPackets: UInt16(clamping: count))
                emit(.numberOfCompletedPackets(HCI.NumberOfCompletedPackets(entries: [entry])), into: &outputs)
            case .closed:
                connections.remove(at: position)
                if radioOwner == handle { radioOwner = nil }
            }
        }
    }
}
