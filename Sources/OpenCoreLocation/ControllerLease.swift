import BLE

/// The controller a ``CLLocationManager``'s engines share (beacons and location updates),
/// opened by the first that needs it and closed when the manager goes away, so both see
/// the same device in the same world.
actor ControllerLease {
    private let hci: String?
    private var opened: BLEDevice?
    private var opening: Task<Result<BLEDevice, BLEError>, Never>?
    private var closed = false

    init(hci: String?) {
        self.hci = hci
    }

    /// The open device, opening it on first use (or again after ``release(_:)``).
    func device() async throws(BLEError) -> BLEDevice {
        if closed { throw .closed }
        if let opened { return opened }
        let task = opening ?? Task { [hci] in
            do throws(BLEError) {
                return .success(try await BLEDevice.open(hci: hci, bonds: .memory))  // location never pairs
            } catch {
                return .failure(error)
            }
        }
        opening = task
        let result = await task.value
        opening = nil
        switch result {
        case let .success(device):
            if closed {
                await device.close()
                throw .closed
            }
            opened = device
            return device
        case let .failure(error):
            throw error
        }
    }

    /// `device` failed (its transport closed): it is closed, and the next ``device()``
    /// opens the controller again.
    func release(_ device: BLEDevice) async {
        guard opened === device else { return }
        opened = nil
        await device.close()
    }

    /// Closes the device for good: the manager is going away.
    func close() async {
        closed = true
        let device = opened
        opened = nil
        await device?.close()
    }
}
