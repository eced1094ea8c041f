import BLEWire

extension ServeFile {
    /// What a server of this file advertises: flags, the advertised UUIDs and the name; the
    /// name goes to the scan response when the 31 octets of legacy advertising data (Core 5.4,
    /// Vol 3, Part C, §11) cannot hold it beside the UUIDs.
    public func advertisingData() -> (data: AdvertisingData, scanResponse: AdvertisingData) {
        var structures: [AdvertisingData.Structure] = [.flags([.leGeneralDiscoverable, .brEdrNotSupported])]
        var length = 3
        let short = advertise.compactMap(\.uuid16)
        let medium = advertise.filter { $0.uuid16 == nil }.compactMap(\.uuid32)
        let long = advertise.filter { $0.uuid16 == nil && $0.uuid32 == nil }.map(\.value)
        if !short.isEmpty { structures.append(.completeList16(short)); length += 2 + 2 * short.count }
        if !medium.isEmpty { structures.append(.completeList32(medium)); length += 2 + 4 * medium.count }
        if !long.isEmpty { structures.append(.completeList128(long)); length += 2 + 16 * long.count }
        guard let name else { return (AdvertisingData(structures: structures), AdvertisingData(structures: [])) }
        let nameLength = 2 + min(name.utf8.count, 29)
        let nameStructure = AdvertisingData.Structure.completeLocalName(String(decoding: Array(name.utf8.prefix(29)), as: UTF8.self))
        if length + nameLength <= 31 {
            return (AdvertisingData(structures: structures + [nameStructure]), AdvertisingData(structures: []))
        }
        return (AdvertisingData(structures: structures), AdvertisingData(structures: [nameStructure]))
    }
}
