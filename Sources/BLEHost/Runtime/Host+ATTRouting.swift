import BLEWire

// How ATT PDUs move between a link, its bearer, our GATT client and our GATT server.

extension Host {
    /// Fragments of one link that may wait in the host for controller buffers before a
    /// notification or write without response suspends (a few PDUs' worth: enough to keep
    /// the controller busy, few enough that the app feels the air's pace).
    static let aclQueueLimit = 8

    /// A link came up: it gets a bearer (ATT_MTU 23 until an exchange) and our server
    /// starts a fresh client state for it.
    func attLinkOpened(_ handle: UInt16) {
        attLinks[handle] = HostATTLink(configuration: attConfiguration)
        gattServer.setMTU(ATTBearerConfiguration.defaultMTU, for: handle)
    }

    /// A link went down: its procedures and indications fail, our server forgets the
    /// client, and senders waiting for buffers on it are released with the error.
    func attLinkClosed(_ handle: UInt16, reason: HCI.StatusCode) {
        if var att = attLinks[handle] {
            let outputs = att.bearer.disconnected()
            let step = att.client.handle(outputs, on: &att.bearer, at: now)
            attLinks[handle] = att
            carryOut(step, attLink: handle)
        }
        attLinks[handle] = nil
        if let record = gattServer.disconnected(handle), let handler = departedClientHandler,
           let peer = gap.connections.first(where: { $0.handle == handle })?.peer {
            handler(peer, record)
        }
        let waiting = aclRoomWaiters.removeValue(forKey: handle) ?? []
        for waiter in waiting { waiter.resume() }
    }

    /// An ATT PDU arrived on a link's fixed channel (Core 5.4, Vol 3, Part A, §2.1).
    func attReceived(_ pdu: [UInt8], link handle: UInt16) {
        let time = now
        let before = attLinks[handle]?.bearer.counters
        guard let step = withATTLink(handle, { att in
            let outputs = att.bearer.receive(pdu, at: time)
            return att.client.handle(outputs, on: &att.bearer, at: time)
        }) else { return }
        logATTRefusals(since: before, link: handle)
        carryOut(step, attLink: handle)
    }

    /// The bearers' transaction timers (§3.3.3).
    func attTimerFired(at time: HostTime) {
        for handle in attLinks.keys.sorted() {
            guard var att = attLinks[handle], let deadline = att.bearer.nextDeadline, deadline <= time else { continue }
            let outputs = att.bearer.tick(now: time)
            let step = att.client.handle(outputs, on: &att.bearer, at: time)
            attLinks[handle] = att
            carryOut(step, attLink: handle)
        }
    }

    /// The earliest bearer deadline, for the host's one timer.
    var attNextDeadline: HostTime? {
        var earliest: HostTime?
        // Read in place through inout accesses, walking plain indices (a `values.indices`
        // collection would hold the storage and make each access copy the dictionary); a
        // plain read copied each link, queues included, after every packet.
        var index = attLinks.values.startIndex
        while index != attLinks.values.endIndex {
            if let deadline = Self.inPlace(&attLinks.values[index], { $0.bearer.nextDeadline }),
               earliest.map({ deadline < $0 }) ?? true {
                earliest = deadline
            }
            attLinks.values.formIndex(after: &index)
        }
        return earliest
    }

    /// Carries out what the client left over and reports its events.
    func carryOut(_ step: GATTClientStep, attLink handle: UInt16) {
        carryOut(step.outputs, attLink: handle)
        for event in step.events {
            switch event {
            case let .completed(id, result):
                let waiter = withATTLink(handle) { $0.procedures.removeValue(forKey: id) } ?? nil
                switch result {
                case let .success(value): waiter?.resume(returning: value)
                case let .failure(error): waiter?.resume(throwing: error)
                }
            case let .notification(attribute, value):
                emitGATT(.notification(connection: handle, handle: attribute, value: value))
            case let .indication(attribute, value):
                emitGATT(.indication(connection: handle, handle: attribute, value: value))
            case let .serviceChanged(range):
                emitGATT(.serviceChanged(connection: handle, handles: range))
            }
        }
    }

    /// Carries out a bearer's outputs: PDUs to the link, requests and commands to our server.
    func carryOut(_ outputs: [ATTBearerOutput], attLink handle: UInt16) {
        for output in outputs {
            switch output {
            case let .send(pdu):
                carryOut(withL2CAPLink(handle) { $0.sendATT(pdu) } ?? [], link: handle)
            case let .incomingRequest(pdu), let .incomingCommand(pdu):
                serve(gattServer.handle(pdu, from: handle, security: linkSecurity(handle)))
            case let .mtuChanged(mtu):
                HostLog.att.info("ATT_MTU \(mtu)", metadata: logMetadata(handle))
                gattServer.setMTU(mtu, for: handle)
                emitGATT(.mtuChanged(connection: handle, mtu: mtu))
            case let .indicationConfirmed(id):
                (withATTLink(handle) { $0.indications.removeValue(forKey: id) } ?? nil)?.resume()
            case let .indicationFailed(id, error):
                (withATTLink(handle) { $0.indications.removeValue(forKey: id) } ?? nil)?.resume(throwing: error)
            case let .closed(reason):
                HostLog.att.debug("bearer closed: \(reason)", metadata: logMetadata(handle))
                let indications = attLinks[handle]?.indications ?? [:]
                attLinks[handle]?.indications = [:]
                for waiter in indications.values { waiter.resume(throwing: reason) }
                emitGATT(.bearerClosed(connection: handle, reason: reason))
            case .response, .requestFailed, .notification, .multipleNotification, .indication:
                break  // the client consumed these; they come back only when no procedure matched
            }
        }
    }

    /// Carries out our server's outputs.
    func serve(_ outputs: [GATTServerOutput]) {
        for output in outputs {
            switch output {
            case let .send(connection, pdu):
                guard let sent = withATTLink(connection, { $0.bearer.sendResponse(pdu) }) else { continue }
                carryOut(sent, attLink: connection)
            case let .appRead(request):
                emitGATT(.readRequest(request))
            case let .appWrite(request):
                emitGATT(.writeRequest(request))
            case let .subscriptionChanged(connection, valueHandle, notify, indicate):
                emitGATT(.subscriptionChanged(GATTSubscription(
                    connection: connection, valueHandle: valueHandle, notify: notify, indicate: indicate)))
            case let .valueWritten(connection, handle, value):
                emitGATT(.valueWritten(connection: connection, handle: handle, value: value))
            case let .mtuChanged(connection, mtu):
                emitGATT(.mtuChanged(connection: connection, mtu: mtu))
            case .indicationConfirmed:
                break  // confirmations are matched by the bearer, which sees them first
            }
        }
    }

    /// The security of link `handle` as our GATT server's permission checks see it (Core
    /// 5.4, Vol 3, Part C, §10.3): level 1 until encryption succeeds, then the level the
    /// key was made with and the key size; `hasKey` once a key was used on the link or
    /// ``setLinkHasKey(_:_:)`` said one exists.
    public func linkSecurity(_ handle: UInt16) -> LinkSecurity { gap.linkSecurity(handle) }

    // MARK: Back-pressure

    /// Suspends while more than ``aclQueueLimit`` fragments of `handle` wait for the
    /// controller's buffers; Number Of Completed Packets wakes it.
    func waitForACLRoom(_ handle: UInt16) async throws {
        // `index(forKey:)`, not `attLinks[handle] != nil`: the subscript copies the link out.
        while attLinks.index(forKey: handle) != nil, driver.queuedACLFragments(handle: handle) >= Self.aclQueueLimit {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                aclRoomWaiters[handle, default: []].append(continuation)
            }
        }
        guard attLinks.index(forKey: handle) != nil else { throw HostError.gap(.unknownConnection(handle: handle)) }
        if let closed { throw closed }
    }

    /// Wakes senders whose link has room again; called after every packet from the controller.
    func wakeACLRoomWaiters() {
        wakeDrainWaiters()
        guard !aclRoomWaiters.isEmpty else { return }
        for handle in aclRoomWaiters.keys.sorted() where driver.queuedACLFragments(handle: handle) < Self.aclQueueLimit {
            let waiting = aclRoomWaiters.removeValue(forKey: handle) ?? []
            for waiter in waiting { waiter.resume() }
        }
    }

    /// The transport is gone: every ATT waiter fails.
    func failATTWaiters(_ error: HostError) {
        for handle in attLinks.keys.sorted() {
            let att = attLinks[handle]
            for waiter in att?.procedures.values ?? [:].values { waiter.resume(throwing: error) }
            for waiter in att?.indications.values ?? [:].values { waiter.resume(throwing: error) }
        }
        attLinks = [:]
        let waiting = aclRoomWaiters
        aclRoomWaiters = [:]
        for waiter in waiting.values.joined() { waiter.resume() }
        releaseDrainWaiters()
        gattOutput.finish()
    }
}
