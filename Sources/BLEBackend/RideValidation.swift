import BLEFleet

/// The checks a posted ride log or phone-sighting batch passes before it is stored: text fields
/// present and of sane length, times in order, RSSI and coordinates in range. A body that fails
/// one is a 400 naming the field, so a phone app's bug shows in its log, not in the store.
enum RideValidation {
    /// Checks a ride log.
    static func check(_ ride: RideLog) throws(BackendError) {
        try text(ride.rider, "rider")
        try text(ride.vehicle, "vehicle")
        if let route = ride.route { try text(route, "route") }
        try text(ride.boarded.zone, "boarded.zone")
        if let alighted = ride.alighted {
            try text(alighted.zone, "alighted.zone")
            guard alighted.time >= ride.boarded.time else {
                throw .invalid("alighted.time (\(alighted.time)) is before boarded.time (\(ride.boarded.time))")
            }
        }
        guard ride.stops.count <= BackendLimits.stopsPerRide else {
            throw .invalid("stops holds \(ride.stops.count) stops; at most \(BackendLimits.stopsPerRide) are taken")
        }
        for (index, stop) in ride.stops.enumerated() { try text(stop.zone, "stops[\(index)].zone") }
    }

    /// Checks a batch of phone sightings.
    static func check(_ batch: BackendPayloads.PhoneSightingBatch) throws(BackendError) {
        guard !batch.sightings.isEmpty else { throw .invalid("sightings is empty; send at least one") }
        guard batch.sightings.count <= BackendLimits.phoneSightingsPerBatch else {
            throw .invalid("sightings holds \(batch.sightings.count); at most \(BackendLimits.phoneSightingsPerBatch) are taken per request")
        }
        for (index, sighting) in batch.sightings.enumerated() {
            let field = "sightings[\(index)]"
            try text(sighting.phone, field + ".phone")
            try text(sighting.identity, field + ".identity")
            guard (-127 ... 20).contains(sighting.rssi) else { throw .invalid("\(field).rssi \(sighting.rssi) is not an RSSI from -127 to 20 dBm") }
            let position = sighting.position
            let geographic = position.latitude != nil && position.longitude != nil
            let planar = position.x != nil && position.y != nil
            guard geographic || planar else {
                throw .invalid("\(field).position needs latitude and longitude, or x and y")
            }
            if let latitude = position.latitude, !(-90 ... 90).contains(latitude) {
                throw .invalid("\(field).position.latitude \(latitude) is not from -90 to 90")
            }
            if let longitude = position.longitude, !(-180 ... 180).contains(longitude) {
                throw .invalid("\(field).position.longitude \(longitude) is not from -180 to 180")
            }
            if let accuracy = position.accuracy, !(accuracy >= 0) {
                throw .invalid("\(field).position.accuracy \(accuracy) must be 0 or more metres")
            }
        }
    }

    static func text(_ value: String, _ field: String) throws(BackendError) {
        do throws(BackendError) {
            try BackendParameters.checkText(value, name: field)
        } catch {
            throw .invalid(error.reason)
        }
    }
}
