extension HCI {
    /// The LE_Event_Mask of HCI_LE_Set_Event_Mask (Core 5.4, Vol 4, Part E, §7.8.1): bit n
    /// enables LE Meta subevent n + 1. Every bit is kept, named or not, so the value
    /// round-trips.
    public struct LEEventMask: OptionSet, Hashable, Sendable {
        /// The 64-bit mask as on the wire.
        public var rawValue: UInt64
        /// A mask from its bits.
        public init(rawValue: UInt64) { self.rawValue = rawValue }

        /// Bit 0: LE Connection Complete (subevent 0x01).
        public static let connectionComplete = LEEventMask(rawValue: 1 << 0)
        /// Bit 1: LE Advertising Report (subevent 0x02).
        public static let advertisingReport = LEEventMask(rawValue: 1 << 1)
        /// Bit 2: LE Connection Update Complete (subevent 0x03).
        public static let connectionUpdateComplete = LEEventMask(rawValue: 1 << 2)
        /// Bit 3: LE Read Remote Features Complete (subevent 0x04).
        public static let readRemoteFeaturesComplete = LEEventMask(rawValue: 1 << 3)
        /// Bit 4: LE Long Term Key Request (subevent 0x05).
        public static let longTermKeyRequest = LEEventMask(rawValue: 1 << 4)
        /// Bit 5: LE Remote Connection Parameter Request (subevent 0x06).
        public static let remoteConnectionParameterRequest = LEEventMask(rawValue: 1 << 5)
        /// Bit 6: LE Data Length Change (subevent 0x07).
        public static let dataLengthChange = LEEventMask(rawValue: 1 << 6)
        /// Bit 7: LE Read Local P-256 Public Key Complete (subevent 0x08).
        public static let readLocalP256PublicKeyComplete = LEEventMask(rawValue: 1 << 7)
        /// Bit 8: LE Generate DHKey Complete (subevent 0x09).
        public static let generateDHKeyComplete = LEEventMask(rawValue: 1 << 8)
        /// Bit 9: LE Enhanced Connection Complete (subevent 0x0A).
        public static let enhancedConnectionComplete = LEEventMask(rawValue: 1 << 9)
        /// Bit 10: LE Directed Advertising Report (subevent 0x0B).
        public static let directedAdvertisingReport = LEEventMask(rawValue: 1 << 10)
        /// Bit 11: LE PHY Update Complete (subevent 0x0C).
        public static let phyUpdateComplete = LEEventMask(rawValue: 1 << 11)
        /// Bit 12: LE Extended Advertising Report (subevent 0x0D).
        public static let extendedAdvertisingReport = LEEventMask(rawValue: 1 << 12)
        /// Bit 13: LE Periodic Advertising Sync Established (subevent 0x0E).
        public static let periodicAdvertisingSyncEstablished = LEEventMask(rawValue: 1 << 13)
        /// Bit 14: LE Periodic Advertising Report (subevent 0x0F).
        public static let periodicAdvertisingReport = LEEventMask(rawValue: 1 << 14)
        /// Bit 15: LE Periodic Advertising Sync Lost (subevent 0x10).
        public static let periodicAdvertisingSyncLost = LEEventMask(rawValue: 1 << 15)
        /// Bit 16: LE Scan Timeout (subevent 0x11).
        public static let scanTimeout = LEEventMask(rawValue: 1 << 16)
        /// Bit 17: LE Advertising Set Terminated (subevent 0x12).
        public static let advertisingSetTerminated = LEEventMask(rawValue: 1 << 17)
        /// Bit 18: LE Scan Request Received (subevent 0x13).
        public static let scanRequestReceived = LEEventMask(rawValue: 1 << 18)
        /// Bit 19: LE Channel Selection Algorithm (subevent 0x14).
        public static let channelSelectionAlgorithm = LEEventMask(rawValue: 1 << 19)
        /// Bit 20: LE Connectionless IQ Report (subevent 0x15).
        public static let connectionlessIQReport = LEEventMask(rawValue: 1 << 20)
        /// Bit 21: LE Connection IQ Report (subevent 0x16).
        public static let connectionIQReport = LEEventMask(rawValue: 1 << 21)
        /// Bit 22: LE CTE Request Failed (subevent 0x17).
        public static let cteRequestFailed = LEEventMask(rawValue: 1 << 22)
        /// Bit 23: LE Periodic Advertising Sync Transfer Received (subevent 0x18).
        public static let periodicAdvertisingSyncTransferReceived = LEEventMask(rawValue: 1 << 23)
        /// Bit 24: LE CIS Established (subevent 0x19).
        public static let cisEstablished = LEEventMask(rawValue: 1 << 24)
        /// Bit 25: LE CIS Request (subevent 0x1A).
        public static let cisRequest = LEEventMask(rawValue: 1 << 25)
        /// Bit 26: LE Create BIG Complete (subevent 0x1B).
        public static let createBIGComplete = LEEventMask(rawValue: 1 << 26)
        /// Bit 27: LE Terminate BIG Complete (subevent 0x1C).
        public static let terminateBIGComplete = LEEventMask(rawValue: 1 << 27)
        /// Bit 28: LE BIG Sync Established (subevent 0x1D).
        public static let bigSyncEstablished = LEEventMask(rawValue: 1 << 28)
        /// Bit 29: LE BIG Sync Lost (subevent 0x1E).
        public static let bigSyncLost = LEEventMask(rawValue: 1 << 29)
        /// Bit 30: LE Request Peer SCA Complete (subevent 0x1F).
        public static let requestPeerSCAComplete = LEEventMask(rawValue: 1 << 30)
        /// Bit 31: LE Path Loss Threshold (subevent 0x20).
        public static let pathLossThreshold = LEEventMask(rawValue: 1 << 31)
        /// Bit 32: LE Transmit Power Reporting (subevent 0x21).
        public static let transmitPowerReporting = LEEventMask(rawValue: 1 << 32)
        /// Bit 33: LE BIGInfo Advertising Report (subevent 0x22).
        public static let bigInfoAdvertisingReport = LEEventMask(rawValue: 1 << 33)
        /// Bit 34: LE Subrate Change (subevent 0x23).
        public static let subrateChange = LEEventMask(rawValue: 1 << 34)
        /// The controller's value after reset: bits 0 to 4 (0x000000000000001F).
        public static let defaultAfterReset = LEEventMask(rawValue: 0x1F)
    }

    /// The LE_Features bit field (Core 5.4, Vol 6, Part B, §4.6), as HCI_LE_Read_Local_Supported_Features
    /// and LE Read Remote Features Complete carry it. Every bit is kept so the value round-trips.
    public struct LEFeatures: OptionSet, Hashable, Sendable {
        /// The 64 feature bits as on the wire.
        public var rawValue: UInt64
        /// A set from its bits.
        public init(rawValue: UInt64) { self.rawValue = rawValue }

        /// Bit 0: LE Encryption.
        public static let leEncryption = LEFeatures(rawValue: 1 << 0)
        /// Bit 1: Connection Parameters Request Procedure.
        public static let connectionParametersRequestProcedure = LEFeatures(rawValue: 1 << 1)
        /// Bit 2: Extended Reject Indication.
        public static let extendedRejectIndication = LEFeatures(rawValue: 1 << 2)
        /// Bit 3: Peripheral-initiated Features Exchange.
        public static let peripheralInitiatedFeaturesExchange = LEFeatures(rawValue: 1 << 3)
        /// Bit 4: LE Ping.
        public static let lePing = LEFeatures(rawValue: 1 << 4)
        /// Bit 5: LE Data Packet Length Extension.
        public static let leDataPacketLengthExtension = LEFeatures(rawValue: 1 << 5)
        /// Bit 6: LL Privacy.
        public static let llPrivacy = LEFeatures(rawValue: 1 << 6)
        /// Bit 7: Extended Scanning Filter Policies.
        public static let extendedScanningFilterPolicies = LEFeatures(rawValue: 1 << 7)
        /// Bit 8: LE 2M PHY.
        public static let le2MPHY = LEFeatures(rawValue: 1 << 8)
        /// Bit 9: Stable Modulation Index - Transmitter.
        public static let stableModulationIndexTransmitter = LEFeatures(rawValue: 1 << 9)
        /// Bit 10: Stable Modulation Index - Receiver.
        public static let stableModulationIndexReceiver = LEFeatures(rawValue: 1 << 10)
        /// Bit 11: LE Coded PHY.
        public static let leCodedPHY = LEFeatures(rawValue: 1 << 11)
        /// Bit 12: LE Extended Advertising.
        public static let leExtendedAdvertising = LEFeatures(rawValue: 1 << 12)
        /// Bit 13: LE Periodic Advertising.
        public static let lePeriodicAdvertising = LEFeatures(rawValue: 1 << 13)
        /// Bit 14: Channel Selection Algorithm #2.
        public static let channelSelectionAlgorithm2 = LEFeatures(rawValue: 1 << 14)
        /// Bit 15: LE Power Class 1.
        public static let lePowerClass1 = LEFeatures(rawValue: 1 << 15)
        /// Bit 16: Minimum Number of Used Channels Procedure.
        public static let minimumNumberOfUsedChannelsProcedure = LEFeatures(rawValue: 1 << 16)
        /// Bit 17: Connection CTE Request.
        public static let connectionCTERequest = LEFeatures(rawValue: 1 << 17)
        /// Bit 18: Connection CTE Response.
        public static let connectionCTEResponse = LEFeatures(rawValue: 1 << 18)
        /// Bit 19: Connectionless CTE Transmitter.
        public static let connectionlessCTETransmitter = LEFeatures(rawValue: 1 << 19)
        /// Bit 20: Connectionless CTE Receiver.
        public static let connectionlessCTEReceiver = LEFeatures(rawValue: 1 << 20)
        /// Bit 21: Antenna Switching During CTE Transmission (AoD).
        public static let antennaSwitchingDuringCTETransmission = LEFeatures(rawValue: 1 << 21)
        /// Bit 22: Antenna Switching During CTE Reception (AoA).
        public static let antennaSwitchingDuringCTEReception = LEFeatures(rawValue: 1 << 22)
        /// Bit 23: Receiving Constant Tone Extensions.
        public static let receivingConstantToneExtensions = LEFeatures(rawValue: 1 << 23)
        /// Bit 24: Periodic Advertising Sync Transfer - Sender.
        public static let periodicAdvertisingSyncTransferSender = LEFeatures(rawValue: 1 << 24)
        /// Bit 25: Periodic Advertising Sync Transfer - Recipient.
        public static let periodicAdvertisingSyncTransferRecipient = LEFeatures(rawValue: 1 << 25)
        /// Bit 26: Sleep Clock Accuracy Updates.
        public static let sleepClockAccuracyUpdates = LEFeatures(rawValue: 1 << 26)
        /// Bit 27: Remote Public Key Validation.
        public static let remotePublicKeyValidation = LEFeatures(rawValue: 1 << 27)
        /// Bit 28: Connected Isochronous Stream - Central.
        public static let connectedIsochronousStreamCentral = LEFeatures(rawValue: 1 << 28)
        /// Bit 29: Connected Isochronous Stream - Peripheral.
        public static let connectedIsochronousStreamPeripheral = LEFeatures(rawValue: 1 << 29)
        /// Bit 30: Isochronous Broadcaster.
        public static let isochronousBroadcaster = LEFeatures(rawValue: 1 << 30)
        /// Bit 31: Synchronized Receiver.
        public static let synchronizedReceiver = LEFeatures(rawValue: 1 << 31)
        /// Bit 32: Connected Isochronous Stream (Host Support).
        public static let connectedIsochronousStreamHostSupport = LEFeatures(rawValue: 1 << 32)
        /// Bit 33: LE Power Control Request.
        public static let lePowerControlRequest = LEFeatures(rawValue: 1 << 33)
        /// Bit 34: LE Power Control Request (second bit).
        public static let lePowerControlRequest2 = LEFeatures(rawValue: 1 << 34)
        /// Bit 35: LE Path Loss Monitoring.
        public static let lePathLossMonitoring = LEFeatures(rawValue: 1 << 35)
        /// Bit 36: Periodic Advertising ADI support.
        public static let periodicAdvertisingADISupport = LEFeatures(rawValue: 1 << 36)
        /// Bit 37: Connection Subrating.
        public static let connectionSubrating = LEFeatures(rawValue: 1 << 37)
        /// Bit 38: Connection Subrating (Host Support).
        public static let connectionSubratingHostSupport = LEFeatures(rawValue: 1 << 38)
        /// Bit 39: Channel Classification.
        public static let channelClassification = LEFeatures(rawValue: 1 << 39)
    }

    /// HCI_LE_Set_Event_Mask (Core 5.4, Vol 4, Part E, §7.8.1): which LE Meta subevents the
    /// controller may send (the LE Meta bit of ``EventMask`` must be set too).
    public struct LESetEventMask: HCICommand {
        /// The command's opcode, ``HCI/Opcode/leSetEventMask``.
        public static let opcode = Opcode.leSetEventMask

        // Codec: generated from the stored properties below.
        /// The subevents to enable.
        public var leEventMask: LEEventMask

        /// The command enabling `leEventMask`.
        public init(leEventMask: LEEventMask) { self.leEventMask = leEventMask }
    }

    /// HCI_LE_Read_Local_Supported_Features (Core 5.4, Vol 4, Part E, §7.8.3): the link
    /// layer features the controller supports, e.g. extended advertising or LE 2M.
    public struct LEReadLocalSupportedFeatures: ParameterlessCommand {
        /// The command's opcode, ``HCI/Opcode/leReadLocalSupportedFeatures``.
        public static let opcode = Opcode.leReadLocalSupportedFeatures
        /// The command (it has no parameters).
        public init() {}

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            // Codec: generated from the stored properties below.
            /// Whether the command succeeded.
            public var status: StatusCode
            /// The supported features.
            public var leFeatures: LEFeatures

            /// Return parameters with every field.
            public init(status: StatusCode, leFeatures: LEFeatures) {
                self.status = status
                self.leFeatures = leFeatures
            }
        }
    }
}
