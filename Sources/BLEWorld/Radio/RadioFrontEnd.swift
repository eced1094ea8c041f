/// What the link budget reads of a device's description: its antenna, gain and body loss.
/// The medium takes it from each device in place for every receiver of every packet, where
/// a copy of the whole ``DeviceDescription`` (its name and route held by reference) would
/// cost two reference counts each time.
struct RadioFrontEnd {
    /// The antenna's pattern.
    var antenna: AntennaPattern
    /// The antenna's peak gain in dBi.
    var antennaGainDBi: Double
    /// The body loss behind the device, in dB (``BodyShadow``).
    var bodyLossDB: Double

    /// The front end `description` describes.
    init(_ description: DeviceDescription) {
        antenna = description.antenna
        antennaGainDBi = description.antennaGainDBi
        bodyLossDB = description.bodyLossDB
    }

    /// A front end with every field.
    init(antenna: AntennaPattern, antennaGainDBi: Double, bodyLossDB: Double) {
        self.antenna = antenna
        self.antennaGainDBi = antennaGainDBi
        self.bodyLossDB = bodyLossDB
    }
}

extension DeviceState {
    /// The device's front end, read from its description in place.
    var frontEnd: RadioFrontEnd {
        RadioFrontEnd(antenna: description.antenna, antennaGainDBi: description.antennaGainDBi, bodyLossDB: description.bodyLossDB)
    }
}
