import BLEController

extension World {
    /// Carries connection data over an airtime-free ideal link (``DirectLinkData``): every
    /// other powered device's controller is offered it at once, at ``now``, and the one
    /// holding the connection with that access address takes it. No air, no loss, no
    /// capture on the air, as on Bumble's LocalLink.
    func handOver(_ data: DirectLinkData, from sender: Int) {
        for index in deviceStates.indices where index != sender {
            let state = deviceStates[index]
            guard state.powered else { continue }
            let outputs = state.controller.receiveLinkData(data, at: now)
            guard !outputs.isEmpty else { continue }
            carryOut(outputs, from: index)
            refreshTimer(index)
            return
        }
    }
}
