import BLEController

/// The world's side of its devices' controllers: inputs handed over, outputs carried out,
/// and one timer per controller at its next deadline.
extension World {
    /// Hands `input` to a powered device's controller and carries out what it returns.
    func deliver(_ input: ControllerInput, to device: Int) {
        let state = deviceStates[device]
        guard state.powered else { return }
        let outputs = state.controller.handle(input, at: now)
        carryOut(outputs, from: device)
        refreshTimer(device)
    }

    /// Carries out what a device's controller returned: HCI to its host (captured when the
    /// world captures), reports as values, transmissions, receive windows and link data.
    func carryOut(_ outputs: [ControllerOutput], from device: Int) {
        let state = deviceStates[device]
        for output in outputs {
            switch output {
            case let .hci(packet):
                state.statistics.hciToHost += 1
                if configuration.capturesHCI { state.capture.record(packet, direction: .received, at: now) }
                onHostPacket?(DeviceID(rawValue: device), packet)
            case let .advertisingReport(report):
                handOver(report, from: device)
            case let .transmit(transmission):
                scheduleTransmission(transmission, from: device)
            case let .listen(window):
                openReceiver(window, device: device)
            case .stopListening:
                closeReceiver(device)
            case let .linkData(data):
                handOver(data, from: device)
            }
        }
    }

    /// The controller's next deadline, read in place: reading it through the class's
    /// property would copy the whole controller first (the world asks after every input).
    static func nextDeadline(of controller: inout any SimulatedController) -> Microseconds? {
        controller.nextDeadline
    }

    /// Keeps exactly one wake-up scheduled per device, at its controller's deadline.
    func refreshTimer(_ device: Int) {
        let state = deviceStates[device]
        let deadline = state.powered ? Self.nextDeadline(of: &state.controller) : nil
        guard deadline != state.scheduledDeadline else { return }
        timerGenerations[device] &+= 1
        state.scheduledDeadline = deadline
        if let deadline {
            queue.schedule(at: Swift.max(deadline, now), .timer, device, timerGenerations[device])
        }
    }
}
