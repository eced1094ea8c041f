import BLEWire
import Testing

@Suite("HCI events round-trip with generated values")
struct EventRoundTripTests {
    @Test("Disconnection Complete") func disconnectionComplete() throws {
        try EventChecks.roundTrip(seed: 0x05, HCI.DisconnectionComplete.random, wrap: HCI.Event.disconnectionComplete)
    }

    @Test("Encryption Change v1") func encryptionChange() throws {
        try EventChecks.roundTrip(seed: 0x08, HCI.EncryptionChange.random, wrap: HCI.Event.encryptionChange)
    }

    @Test("Encryption Change v2") func encryptionChangeV2() throws {
        try EventChecks.roundTrip(seed: 0x59, HCI.EncryptionChangeV2.random, wrap: HCI.Event.encryptionChangeV2)
    }

    @Test("Read Remote Version Information Complete") func readRemoteVersion() throws {
        try EventChecks.roundTrip(
            seed: 0x0C, HCI.ReadRemoteVersionInformationComplete.random,
            wrap: HCI.Event.readRemoteVersionInformationComplete)
    }

    @Test("Command Complete (return parameters may be any length)") func commandComplete() throws {
        try EventChecks.roundTrip(
            seed: 0x0E, truncationMustFail: false, HCI.CommandComplete.random, wrap: HCI.Event.commandComplete)
    }

    @Test("Command Status") func commandStatus() throws {
        try EventChecks.roundTrip(seed: 0x0F, HCI.CommandStatus.random, wrap: HCI.Event.commandStatus)
    }

    @Test("Hardware Error") func hardwareError() throws {
        try EventChecks.roundTrip(seed: 0x10, HCI.HardwareError.random, wrap: HCI.Event.hardwareError)
    }

    @Test("Number Of Completed Packets") func numberOfCompletedPackets() throws {
        try EventChecks.roundTrip(seed: 0x13, HCI.NumberOfCompletedPackets.random, wrap: HCI.Event.numberOfCompletedPackets)
    }

    @Test("Data Buffer Overflow") func dataBufferOverflow() throws {
        try EventChecks.roundTrip(seed: 0x1A, HCI.DataBufferOverflow.random, wrap: HCI.Event.dataBufferOverflow)
    }

    @Test("Encryption Key Refresh Complete") func encryptionKeyRefreshComplete() throws {
        try EventChecks.roundTrip(
            seed: 0x30, HCI.EncryptionKeyRefreshComplete.random, wrap: HCI.Event.encryptionKeyRefreshComplete)
    }

    @Test("Authenticated Payload Timeout Expired") func authenticatedPayloadTimeoutExpired() throws {
        try EventChecks.roundTrip(
            seed: 0x57, HCI.AuthenticatedPayloadTimeoutExpired.random, wrap: HCI.Event.authenticatedPayloadTimeoutExpired)
    }
}

@Suite("LE Meta subevents round-trip with generated values")
struct LEMetaRoundTripTests {
    @Test("LE Connection Complete") func connectionComplete() throws {
        try EventChecks.roundTrip(seed: 0x3E01, HCI.LEConnectionComplete.random, wrap: HCI.LEMetaEvent.connectionComplete)
    }

    @Test("LE Advertising Report") func advertisingReport() throws {
        try EventChecks.roundTrip(seed: 0x3E02, HCI.LEAdvertisingReport.random, wrap: HCI.LEMetaEvent.advertisingReport)
    }

    @Test("LE Connection Update Complete") func connectionUpdateComplete() throws {
        try EventChecks.roundTrip(
            seed: 0x3E03, HCI.LEConnectionUpdateComplete.random, wrap: HCI.LEMetaEvent.connectionUpdateComplete)
    }

    @Test("LE Read Remote Features Complete") func readRemoteFeaturesComplete() throws {
        try EventChecks.roundTrip(
            seed: 0x3E04, HCI.LEReadRemoteFeaturesComplete.random, wrap: HCI.LEMetaEvent.readRemoteFeaturesComplete)
    }

    @Test("LE Long Term Key Request") func longTermKeyRequest() throws {
        try EventChecks.roundTrip(seed: 0x3E05, HCI.LELongTermKeyRequest.random, wrap: HCI.LEMetaEvent.longTermKeyRequest)
    }

    @Test("LE Remote Connection Parameter Request") func remoteConnectionParameterRequest() throws {
        try EventChecks.roundTrip(
            seed: 0x3E06, HCI.LERemoteConnectionParameterRequest.random,
            wrap: HCI.LEMetaEvent.remoteConnectionParameterRequest)
    }

    @Test("LE Data Length Change") func dataLengthChange() throws {
        try EventChecks.roundTrip(seed: 0x3E07, HCI.LEDataLengthChange.random, wrap: HCI.LEMetaEvent.dataLengthChange)
    }

    @Test("LE Read Local P-256 Public Key Complete") func readLocalP256PublicKeyComplete() throws {
        try EventChecks.roundTrip(
            seed: 0x3E08, HCI.LEReadLocalP256PublicKeyComplete.random,
            wrap: HCI.LEMetaEvent.readLocalP256PublicKeyComplete)
    }

    @Test("LE Generate DHKey Complete") func generateDHKeyComplete() throws {
        try EventChecks.roundTrip(
            seed: 0x3E09, HCI.LEGenerateDHKeyComplete.random, wrap: HCI.LEMetaEvent.generateDHKeyComplete)
    }

    @Test("LE Enhanced Connection Complete v1") func enhancedConnectionComplete() throws {
        try EventChecks.roundTrip(
            seed: 0x3E0A, HCI.LEEnhancedConnectionComplete.random, wrap: HCI.LEMetaEvent.enhancedConnectionComplete)
    }

    @Test("LE Enhanced Connection Complete v2") func enhancedConnectionCompleteV2() throws {
        try EventChecks.roundTrip(
            seed: 0x3E29, HCI.LEEnhancedConnectionCompleteV2.random, wrap: HCI.LEMetaEvent.enhancedConnectionCompleteV2)
    }

    @Test("LE Directed Advertising Report") func directedAdvertisingReport() throws {
        try EventChecks.roundTrip(
            seed: 0x3E0B, HCI.LEDirectedAdvertisingReport.random, wrap: HCI.LEMetaEvent.directedAdvertisingReport)
    }

    @Test("LE PHY Update Complete") func phyUpdateComplete() throws {
        try EventChecks.roundTrip(seed: 0x3E0C, HCI.LEPHYUpdateComplete.random, wrap: HCI.LEMetaEvent.phyUpdateComplete)
    }

    @Test("LE Extended Advertising Report, reserved event type bits kept") func extendedAdvertisingReport() throws {
        try EventChecks.roundTrip(
            seed: 0x3E0D, HCI.LEExtendedAdvertisingReport.random, wrap: HCI.LEMetaEvent.extendedAdvertisingReport)
    }

    @Test("LE Periodic Advertising Sync Established") func periodicAdvertisingSyncEstablished() throws {
        try EventChecks.roundTrip(
            seed: 0x3E0E, HCI.LEPeriodicAdvertisingSyncEstablished.random, wrap: HCI.LEMetaEvent.periodicAdvertisingSyncEstablished)
    }

    @Test("LE Periodic Advertising Report") func periodicAdvertisingReport() throws {
        try EventChecks.roundTrip(
            seed: 0x3E0F, HCI.LEPeriodicAdvertisingReport.random, wrap: HCI.LEMetaEvent.periodicAdvertisingReport)
    }

    @Test("LE Periodic Advertising Sync Lost") func periodicAdvertisingSyncLost() throws {
        try EventChecks.roundTrip(
            seed: 0x3E10, { HCI.LEPeriodicAdvertisingSyncLost(syncHandle: $0.uint16()) },
            wrap: HCI.LEMetaEvent.periodicAdvertisingSyncLost)
    }

    @Test("LE Scan Timeout (no parameters)") func scanTimeout() throws {
        try EventChecks.roundTrip(seed: 0x3E11, { _ in HCI.LEScanTimeout() }, wrap: HCI.LEMetaEvent.scanTimeout)
    }

    @Test("LE Advertising Set Terminated") func advertisingSetTerminated() throws {
        try EventChecks.roundTrip(
            seed: 0x3E12, HCI.LEAdvertisingSetTerminated.random, wrap: HCI.LEMetaEvent.advertisingSetTerminated)
    }

    @Test("LE Scan Request Received") func scanRequestReceived() throws {
        try EventChecks.roundTrip(
            seed: 0x3E13, HCI.LEScanRequestReceived.random, wrap: HCI.LEMetaEvent.scanRequestReceived)
    }

    @Test("LE Channel Selection Algorithm") func channelSelectionAlgorithm() throws {
        try EventChecks.roundTrip(
            seed: 0x3E14, HCI.LEChannelSelectionAlgorithm.random, wrap: HCI.LEMetaEvent.channelSelectionAlgorithm)
    }
}
