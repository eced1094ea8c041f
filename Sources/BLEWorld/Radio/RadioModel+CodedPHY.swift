import BLEController

extension RadioModel {
    /// How much weaker a packet on `phy` may arrive than on LE 1M and still be received, in
    /// dB: a receiver's ``DeviceDescription/sensitivityDBm`` is its LE 1M figure, and on LE
    /// Coded its sensitivity is that much lower (Core 5.4, Vol 6, Part A, §4.1 sets only the
    /// minimum: −70 dBm on 1M, −75 dBm at S=2, −82 dBm at S=8).
    ///
    /// The figures are those of a common chip, Nordic's nRF52840 (Product Specification,
    /// RADIO electrical specification): −95 dBm on 1M, −99 dBm at S=2 (500 kb/s) and −103 dBm
    /// at S=8 (125 kb/s), so 4 dB and 8 dB. Later chips keep about the same gaps (nRF54L15:
    /// −96, −99, −104 dBm). LE 2M keeps the 1M figure here, as it always has in this model
    /// (the nRF52840's is about 3 dB worse), so that no 2M link of an existing world changes.
    ///
    /// With the path-loss exponent n, a gain of g dB multiplies the reach by 10^(g / (10·n)):
    /// at S=8 by 2.09 under the default n = 2.5, by 2.51 in free space (n = 2).
    public static func sensitivityGainDB(for phy: RadioPHY) -> Double {
        switch phy {
        case .le1M, .le2M: 0
        case .leCoded(.s2): 4
        case .leCoded(.s8): 8
        }
    }

    /// The weakest level, in dBm, at which a receiver whose LE 1M sensitivity is
    /// `sensitivityDBm` receives a packet on `phy` (``sensitivityGainDB(for:)``).
    public static func sensitivityDBm(_ sensitivityDBm: Double, on phy: RadioPHY) -> Double {
        sensitivityDBm - sensitivityGainDB(for: phy)
    }
}
