import BLEController

extension World {
    /// Opens `device`'s receiver as `window` asks; on a channel it did not listen on, the
    /// device joins that channel's listeners and ``listenerGrid``.
    func openReceiver(_ window: ReceiverWindow, device: Int) {
        let state = deviceStates[device]
        let channel = Int(window.channel)
        state.radioClock.settleReceiver(state.window, at: now)
        if state.window != window { state.radioClock.startWindow(at: now) }
        if state.listenerChannel != channel {
            closeReceiver(device)
            state.listenerChannel = channel
            state.listenerIndex = listeners[channel].count
            listenerGrid.setListenerIndex(state.listenerIndex, of: device)
            listeners[channel].append(device)
            fileListener(device)
        }
        state.window = window
    }

    /// Closes `device`'s receiver: it leaves its channel's listeners and ``listenerGrid``.
    func closeReceiver(_ device: Int) {
        let state = deviceStates[device]
        state.radioClock.settleReceiver(state.window, at: now)
        state.radioClock.startWindow(at: now)
        state.window = nil
        let channel = state.listenerChannel
        guard channel >= 0 else { return }
        unfileListener(device)
        let index = state.listenerIndex
        let lastIndex = listeners[channel].count - 1
        if index != lastIndex {
            let moved = listeners[channel][lastIndex]
            listeners[channel][index] = moved
            deviceStates[moved].listenerIndex = index
            listenerGrid.setListenerIndex(index, of: moved)
        }
        listeners[channel].removeLast()
        state.listenerChannel = -1
        state.listenerIndex = -1
        listenerGrid.setListenerIndex(-1, of: device)
    }

    /// Files `device`, whose receiver has just opened on a channel, in ``listenerGrid``.
    func fileListener(_ device: Int) {
        let state = deviceStates[device]
        let channel = state.listenerChannel
        guard channel >= 0, state.filing == nil else { return }
        if listenerGrid.cellSize == 0 { listenerGrid.cellSize = Self.cellSize(reach: reach(txPowerDBm: 0, senderGainDBi: 0)?.metres) }
        if state.carrier == nil, state.plan == nil, let key = listenerGrid.cell(of: state.description.position, channel: channel) {
            state.filing = .cell(key)
            listenerGrid.setCellChannel(channel, of: device)
            if !state.isListedStationary {
                state.isListedStationary = true
                listenerGrid.stationary.append(device)
                listenerGrid.version &+= 1
            }
            state.filingSlot = listenerGrid.cells[key, default: []].count
            listenerGrid.cells[key, default: []].append(
                ListenerGrid.FiledListener(device: device, position: state.description.position, reachScale: state.reachScale))
        } else {
            state.filing = .moving(channel: channel)
            state.filingSlot = listenerGrid.moving[channel].count
            listenerGrid.moving[channel].append(ListenerGrid.MovingListener(
                device: device, reachScale: state.reachScale, speedLimit: state.carrier == nil ? state.routeSpeedLimit : nil))
        }
    }

    /// Takes `device` out of ``listenerGrid`` (its receiver closes or changes channel).
    func unfileListener(_ device: Int) {
        let state = deviceStates[device]
        guard let filing = state.filing else { return }
        let slot = state.filingSlot
        switch filing {
        case let .cell(key):
            guard var filed = listenerGrid.cells.removeValue(forKey: key) else { break }
            if filed.indices.contains(slot) {
                filed.swapAt(slot, filed.count - 1)
                filed.removeLast()
                if slot < filed.count { deviceStates[filed[slot].device].filingSlot = slot }
            }
            if !filed.isEmpty { listenerGrid.cells[key] = filed }
            listenerGrid.setCellChannel(-1, of: device)
        case let .moving(channel):
            Self.removeSwapping(slot, from: &listenerGrid.moving[channel], states: deviceStates)
        }
        state.filing = nil
        state.filingSlot = -1
    }

    /// Files `device` again after its position or the way it moves changed (``move(_:to:)``,
    /// ``carry(_:by:offset:)``), if its receiver is open.
    func refileListener(_ device: Int) {
        guard deviceStates[device].filing != nil else { return }
        unfileListener(device)
        fileListener(device)
    }

    /// Removes the listener at `slot` of `list` by moving the last one into its place.
    private static func removeSwapping(_ slot: Int, from list: inout [ListenerGrid.MovingListener], states: [DeviceState]) {
        guard list.indices.contains(slot) else { return }
        let last = list.count - 1
        if slot != last {
            list[slot] = list[last]
            states[list[slot].device].filingSlot = slot
        }
        list.removeLast()
    }

    /// A cell about one typical reach wide (that of a 0 dBm packet), so that a transmission
    /// looks at a few cells: between 10 m and 5 km, 100 m when there is no reach.
    private static func cellSize(reach: Double?) -> Double {
        guard let reach, reach.isFinite, reach > 0 else { return 100 }
        return Swift.min(5_000, Swift.max(10, reach))
    }
}
