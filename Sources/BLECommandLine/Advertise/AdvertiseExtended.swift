import ArgumentParser
import BLEHost
import BLEWire

extension AdvertiseCommand {
    /// The test company identifier `--data-size` fills with: 0xFFFF, which the Bluetooth SIG
    /// reserves for internal use and testing (Assigned Numbers, Company Identifiers).
    static let testCompany: UInt16 = 0xFFFF

    /// Checks the options of `--extended`: they need it, and their ranges.
    func validateExtended() throws {
        if connectable {
            guard extended else { throw ValidationError("--connectable makes an extended set connectable: add --extended (legacy advertising is connectable unless --nonconnectable).") }
            guard !nonconnectable else { throw ValidationError("--connectable and --nonconnectable contradict each other: choose one.") }
            guard periodic == nil else { throw ValidationError("--periodic needs a non-connectable set: only one carries a periodic train; drop --connectable.") }
            if let dataSize, dataSize > GAPCore.connectableExtendedDataLength {
                throw ValidationError("--data-size \(dataSize) is above \(GAPCore.connectableExtendedDataLength) octets, what a connectable set's one AUX_ADV_IND holds.")
            }
        }
        guard extended else {
            if dataSize != nil || phy != "1m" || sid != 0 || codedS != nil || periodic != nil {
                throw ValidationError("--data-size, --phy, --coded-s, --sid and --periodic describe an extended set: add --extended.")
            }
            if periodicData != nil { throw ValidationError("--periodic-data is the data of a periodic train: add --extended --periodic MS.") }
            return
        }
        if let periodic, !(periodic.isFinite && (7.5 ... 4800).contains(periodic)) {
            throw ValidationError("--periodic \(periodic.formatted(decimals: 3)) ms is outside 7.5 ms to 4800 ms, the periodic intervals the controller takes.")
        }
        if let periodicData {
            guard periodic != nil else { throw ValidationError("--periodic-data is the data of a periodic train: add --periodic MS.") }
            guard let bytes = bytes(fromHex: periodicData), bytes.count <= AdvertisingData.extendedMaximumLength else {
                throw ValidationError("--periodic-data must be hex octets, at most \(AdvertisingData.extendedMaximumLength) of them.")
            }
        }
        guard ["1m", "2m", "coded"].contains(phy.lowercased()) else {
            throw ValidationError("--phy \(phy) is not 1m, 2m or coded.")
        }
        if let codedS {
            guard phy.lowercased() == "coded" else { throw ValidationError("--coded-s \(codedS) sets the coding of LE Coded: add --phy coded.") }
            guard codedS == 2 || codedS == 8 else { throw ValidationError("--coded-s \(codedS) is not 2 or 8, the two codings of LE Coded.") }
        }
        guard sid <= 15 else { throw ValidationError("--sid \(sid) is above 15, the largest Advertising SID.") }
        if let dataSize, !(0 ... AdvertisingData.extendedMaximumLength).contains(dataSize) {
            throw ValidationError("--data-size \(dataSize) is outside 0 to \(AdvertisingData.extendedMaximumLength) octets, what an extended set holds.")
        }
    }

    /// The extended set the options describe: the name whole, the services, the manufacturer
    /// data, then test manufacturer data up to `--data-size` octets; non-connectable unless
    /// `--connectable` (Core 5.4, Vol 6, Part B, §4.4.2.8: the data in one AUX_ADV_IND).
    func extendedParameters() throws -> GAPAdvertisingParameters {
        var structures: [AdvertisingData.Structure] = []
        if let name { structures.append(.completeLocalName(name)) }
        structures += GAPAdvertisingContent.serviceLists(service.compactMap(ArgumentChecks.uuid))
        if let bytes = manufacturer.flatMap({ bytes(fromHex: $0) }) {
            structures.append(AdvertisingData.Structure(type: .manufacturerSpecificData, data: bytes))
        }
        var data = AdvertisingData(structures)
        if let dataSize {
            guard dataSize >= data.encodedLength else {
                throw CommandFailure("--data-size \(dataSize) is smaller than the \(data.encodedLength) octets the name, services and manufacturer data take.")
            }
            try Self.fill(&data, to: dataSize)
        }
        guard data.encodedLength <= AdvertisingData.extendedMaximumLength else {
            throw CommandFailure("The data takes \(data.encodedLength) octets, more than the \(AdvertisingData.extendedMaximumLength) an extended set holds.")
        }
        let units = UInt16((interval / 0.625).rounded())
        var set = extendedSet
        if let periodic {
            // Units of 1.25 ms (Core 5.4, Vol 4, Part E, §7.8.61); the set's own data unless --periodic-data.
            set.periodic = GAPPeriodicAdvertising(
                interval: UInt16((periodic / 1.25).rounded()), data: periodicData.flatMap { bytes(fromHex: $0) } ?? data.encoded())
        }
        return GAPAdvertisingParameters(kind: connectable ? .connectable : .nonConnectable, intervalMin: units, intervalMax: units,
                                        data: data, restartAfterDisconnection: connectable, extended: set)
    }

    /// The PHYs `--phy` names, with the SID: LE Coded for every packet, or the ADV_EXT_INDs
    /// on LE 1M and the AUX packets on LE 1M or 2M.
    var extendedSet: GAPExtendedAdvertising {
        switch phy.lowercased() {
        // --coded-s requires its coding, through LE Set Extended Advertising Parameters [v2]'s PHY options.
        case "coded": .coded(sid: sid, codedPHYOptions: codedS.map { $0 == 2 ? .requireS2 : .requireS8 } ?? .noPreference)
        case "2m": GAPExtendedAdvertising(secondaryPHY: .le2M, sid: sid)
        default: GAPExtendedAdvertising(secondaryPHY: .le1M, sid: sid)
        }
    }

    /// Appends test manufacturer-data structures (2 octets of header, the company identifier
    /// and up to 247 counting octets each, so that each fits one 251-octet command fragment
    /// whole) until the encoded data is exactly `size` octets.
    /// - Throws: ``CommandFailure`` when 1 to 3 octets would be left, too few for a structure.
    static func fill(_ data: inout AdvertisingData, to size: Int) throws {
        var remaining = size - data.encodedLength
        guard remaining == 0 || remaining >= 4 else {
            throw CommandFailure("--data-size \(size) leaves \(remaining) octet(s) after the rest of the data, too few for a structure: "
                                 + "choose \(size - remaining) or at least \(size - remaining + 4).")
        }
        var counter: UInt8 = 0
        while remaining > 0 {
            var chunk = min(remaining, HCI.maximumExtendedAdvertisingDataFragmentLength)
            // Never leave 1 to 3 octets for the next structure.
            if (1 ... 3).contains(remaining - chunk) { chunk -= 4 }
            let bytes = (0 ..< chunk - 4).map { _ in
                defer { counter &+= 1 }
                return counter
            }
            data.structures.append(.manufacturerData(company: testCompany, data: bytes))
            remaining -= chunk
        }
    }
}
