extension AdvertisingData {
    /// Checks the content of every structure of a type this library knows against the
    /// rules of CSS v11, Part A, §1 (e.g. a UUID list is a multiple of its UUID width, Tx
    /// Power Level is one octet) and that no structure is over 254 data octets. Throws for
    /// the first offending structure, naming its index and type; unknown types pass.
    ///
    /// Decoding never runs these checks: a scanner keeps what it received, and the typed
    /// accessors return `nil` for malformed content.
    public func validate() throws(WireError) {
        for (index, structure) in structures.enumerated() {
            if let problem = AdvertisingData.problem(with: structure) {
                throw WireError(field: "AdvertisingData.structures[\(index)] (\(structure.type))", reason: .constraint(problem))
            }
        }
    }

    /// Why `structure`'s content breaks its type's rules, or `nil` when it does not.
    static func problem(with structure: Structure) -> String? {
        let count = structure.data.count
        if count > Structure.maximumDataLength {
            return "\(count) data octets exceed the 254 one structure can hold"
        }
        func multiple(of width: Int, nonEmpty: Bool = false) -> String? {
            if count % width != 0 { return "\(count) octets are not a multiple of \(width)" }
            if nonEmpty && count == 0 { return "the list is empty" }
            return nil
        }
        func exactly(_ lengths: Int...) -> String? {
            lengths.contains(count) ? nil
                : "\(count) octets, expected " + lengths.map(String.init).joined(separator: " or ")
        }
        func atLeast(_ minimum: Int) -> String? {
            count >= minimum ? nil : "\(count) octets, expected at least \(minimum)"
        }
        switch structure.type {
        case .incompleteList16BitServiceUUIDs, .completeList16BitServiceUUIDs, .serviceSolicitation16BitUUIDs:
            return multiple(of: 2)
        case .incompleteList32BitServiceUUIDs, .completeList32BitServiceUUIDs, .serviceSolicitation32BitUUIDs:
            return multiple(of: 4)
        case .incompleteList128BitServiceUUIDs, .completeList128BitServiceUUIDs, .serviceSolicitation128BitUUIDs:
            return multiple(of: 16)
        case .publicTargetAddress, .randomTargetAddress:
            return multiple(of: 6, nonEmpty: true)
        case .txPowerLevel: return exactly(1)
        case .peripheralConnectionIntervalRange: return exactly(4)
        case .appearance, .advertisingInterval: return exactly(2)
        case .advertisingIntervalLong: return exactly(3, 4)
        case .leBluetoothDeviceAddress: return exactly(7)
        case .leRole:
            if let problem = exactly(1) { return problem }
            if let octet = structure.data.first, LERole(rawValue: octet) == nil { return "reserved LE Role 0x\(String(octet, radix: 16))" }
            return nil
        case .serviceData16BitUUID, .manufacturerSpecificData: return atLeast(2)
        case .serviceData32BitUUID: return atLeast(4)
        case .serviceData128BitUUID: return atLeast(16)
        case .uri: return atLeast(1)
        default: return nil
        }
    }
}
