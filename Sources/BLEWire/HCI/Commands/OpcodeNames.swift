extension HCI.Opcode {
    /// HCI_Disconnect (Core 5.4, Vol 4, Part E, §7.1).
    public static let disconnect = HCI.Opcode(ogf: 0x01, ocf: 0x0006)
    /// HCI_Read_Remote_Version_Information (Core 5.4, Vol 4, Part E, §7.1).
    public static let readRemoteVersionInformation = HCI.Opcode(ogf: 0x01, ocf: 0x001D)
    /// HCI_Set_Event_Mask (Core 5.4, Vol 4, Part E, §7.3).
    public static let setEventMask = HCI.Opcode(ogf: 0x03, ocf: 0x0001)
    /// HCI_Reset (Core 5.4, Vol 4, Part E, §7.3).
    public static let reset = HCI.Opcode(ogf: 0x03, ocf: 0x0003)
    /// HCI_Read_Transmit_Power_Level (Core 5.4, Vol 4, Part E, §7.3).
    public static let readTransmitPowerLevel = HCI.Opcode(ogf: 0x03, ocf: 0x002D)
    /// HCI_Set_Controller_To_Host_Flow_Control (Core 5.4, Vol 4, Part E, §7.3).
    public static let setControllerToHostFlowControl = HCI.Opcode(ogf: 0x03, ocf: 0x0031)
    /// HCI_Host_Buffer_Size (Core 5.4, Vol 4, Part E, §7.3).
    public static let hostBufferSize = HCI.Opcode(ogf: 0x03, ocf: 0x0033)
    /// HCI_Host_Number_Of_Completed_Packets (Core 5.4, Vol 4, Part E, §7.3).
    public static let hostNumberOfCompletedPackets = HCI.Opcode(ogf: 0x03, ocf: 0x0035)
    /// HCI_Set_Event_Mask_Page_2 (Core 5.4, Vol 4, Part E, §7.3).
    public static let setEventMaskPage2 = HCI.Opcode(ogf: 0x03, ocf: 0x0063)
    /// HCI_Read_LE_Host_Support (Core 5.4, Vol 4, Part E, §7.3).
    public static let readLEHostSupport = HCI.Opcode(ogf: 0x03, ocf: 0x006C)
    /// HCI_Write_LE_Host_Support (Core 5.4, Vol 4, Part E, §7.3).
    public static let writeLEHostSupport = HCI.Opcode(ogf: 0x03, ocf: 0x006D)
    /// HCI_Read_Authenticated_Payload_Timeout (Core 5.4, Vol 4, Part E, §7.3).
    public static let readAuthenticatedPayloadTimeout = HCI.Opcode(ogf: 0x03, ocf: 0x007B)
    /// HCI_Write_Authenticated_Payload_Timeout (Core 5.4, Vol 4, Part E, §7.3).
    public static let writeAuthenticatedPayloadTimeout = HCI.Opcode(ogf: 0x03, ocf: 0x007C)
    /// HCI_Read_Local_Version_Information (Core 5.4, Vol 4, Part E, §7.4).
    public static let readLocalVersionInformation = HCI.Opcode(ogf: 0x04, ocf: 0x0001)
    /// HCI_Read_Local_Supported_Commands (Core 5.4, Vol 4, Part E, §7.4).
    public static let readLocalSupportedCommands = HCI.Opcode(ogf: 0x04, ocf: 0x0002)
    /// HCI_Read_Local_Supported_Features (Core 5.4, Vol 4, Part E, §7.4).
    public static let readLocalSupportedFeatures = HCI.Opcode(ogf: 0x04, ocf: 0x0003)
    /// HCI_Read_Local_Extended_Features (Core 5.4, Vol 4, Part E, §7.4.4).
    public static let readLocalExtendedFeatures = HCI.Opcode(ogf: 0x04, ocf: 0x0004)
    /// HCI_Read_Buffer_Size (Core 5.4, Vol 4, Part E, §7.4).
    public static let readBufferSize = HCI.Opcode(ogf: 0x04, ocf: 0x0005)
    /// HCI_Read_BD_ADDR (Core 5.4, Vol 4, Part E, §7.4).
    public static let readBDADDR = HCI.Opcode(ogf: 0x04, ocf: 0x0009)
    /// HCI_Read_RSSI (Core 5.4, Vol 4, Part E, §7.5).
    public static let readRSSI = HCI.Opcode(ogf: 0x05, ocf: 0x0005)
    /// HCI_Read_Encryption_Key_Size (Core 5.4, Vol 4, Part E, §7.5.7).
    public static let readEncryptionKeySize = HCI.Opcode(ogf: 0x05, ocf: 0x0008)
    /// HCI_LE_Set_Event_Mask (Core 5.4, Vol 4, Part E, §7.8).
    public static let leSetEventMask = HCI.Opcode(ogf: 0x08, ocf: 0x0001)
    /// HCI_LE_Read_Buffer_Size (Core 5.4, Vol 4, Part E, §7.8).
    public static let leReadBufferSize = HCI.Opcode(ogf: 0x08, ocf: 0x0002)
    /// HCI_LE_Read_Local_Supported_Features (Core 5.4, Vol 4, Part E, §7.8).
    public static let leReadLocalSupportedFeatures = HCI.Opcode(ogf: 0x08, ocf: 0x0003)
    /// HCI_LE_Set_Random_Address (Core 5.4, Vol 4, Part E, §7.8).
    public static let leSetRandomAddress = HCI.Opcode(ogf: 0x08, ocf: 0x0005)
    /// HCI_LE_Set_Advertising_Parameters (Core 5.4, Vol 4, Part E, §7.8).
    public static let leSetAdvertisingParameters = HCI.Opcode(ogf: 0x08, ocf: 0x0006)
    /// HCI_LE_Read_Advertising_Physical_Channel_Tx_Power (Core 5.4, Vol 4, Part E, §7.8).
    public static let leReadAdvertisingPhysicalChannelTxPower = HCI.Opcode(ogf: 0x08, ocf: 0x0007)
    /// HCI_LE_Set_Advertising_Data (Core 5.4, Vol 4, Part E, §7.8).
    public static let leSetAdvertisingData = HCI.Opcode(ogf: 0x08, ocf: 0x0008)
    /// HCI_LE_Set_Scan_Response_Data (Core 5.4, Vol 4, Part E, §7.8).
    public static let leSetScanResponseData = HCI.Opcode(ogf: 0x08, ocf: 0x0009)
    /// HCI_LE_Set_Advertising_Enable (Core 5.4, Vol 4, Part E, §7.8).
    public static let leSetAdvertisingEnable = HCI.Opcode(ogf: 0x08, ocf: 0x000A)
    /// HCI_LE_Set_Scan_Parameters (Core 5.4, Vol 4, Part E, §7.8).
    public static let leSetScanParameters = HCI.Opcode(ogf: 0x08, ocf: 0x000B)
    /// HCI_LE_Set_Scan_Enable (Core 5.4, Vol 4, Part E, §7.8).
    public static let leSetScanEnable = HCI.Opcode(ogf: 0x08, ocf: 0x000C)
    /// HCI_LE_Create_Connection (Core 5.4, Vol 4, Part E, §7.8).
    public static let leCreateConnection = HCI.Opcode(ogf: 0x08, ocf: 0x000D)
    /// HCI_LE_Create_Connection_Cancel (Core 5.4, Vol 4, Part E, §7.8).
    public static let leCreateConnectionCancel = HCI.Opcode(ogf: 0x08, ocf: 0x000E)
    /// HCI_LE_Read_Filter_Accept_List_Size (Core 5.4, Vol 4, Part E, §7.8).
    public static let leReadFilterAcceptListSize = HCI.Opcode(ogf: 0x08, ocf: 0x000F)
    /// HCI_LE_Clear_Filter_Accept_List (Core 5.4, Vol 4, Part E, §7.8).
    public static let leClearFilterAcceptList = HCI.Opcode(ogf: 0x08, ocf: 0x0010)
    /// HCI_LE_Add_Device_To_Filter_Accept_List (Core 5.4, Vol 4, Part E, §7.8).
    public static let leAddDeviceToFilterAcceptList = HCI.Opcode(ogf: 0x08, ocf: 0x0011)
    /// HCI_LE_Remove_Device_From_Filter_Accept_List (Core 5.4, Vol 4, Part E, §7.8).
    public static let leRemoveDeviceFromFilterAcceptList = HCI.Opcode(ogf: 0x08, ocf: 0x0012)
    /// HCI_LE_Connection_Update (Core 5.4, Vol 4, Part E, §7.8).
    public static let leConnectionUpdate = HCI.Opcode(ogf: 0x08, ocf: 0x0013)
    /// HCI_LE_Set_Host_Channel_Classification (Core 5.4, Vol 4, Part E, §7.8).
    public static let leSetHostChannelClassification = HCI.Opcode(ogf: 0x08, ocf: 0x0014)
    /// HCI_LE_Read_Channel_Map (Core 5.4, Vol 4, Part E, §7.8).
    public static let leReadChannelMap = HCI.Opcode(ogf: 0x08, ocf: 0x0015)
    /// HCI_LE_Read_Remote_Features (Core 5.4, Vol 4, Part E, §7.8).
    public static let leReadRemoteFeatures = HCI.Opcode(ogf: 0x08, ocf: 0x0016)
    /// HCI_LE_Encrypt (Core 5.4, Vol 4, Part E, §7.8).
    public static let leEncrypt = HCI.Opcode(ogf: 0x08, ocf: 0x0017)
    /// HCI_LE_Rand (Core 5.4, Vol 4, Part E, §7.8).
    public static let leRand = HCI.Opcode(ogf: 0x08, ocf: 0x0018)
    /// HCI_LE_Enable_Encryption (Core 5.4, Vol 4, Part E, §7.8).
    public static let leEnableEncryption = HCI.Opcode(ogf: 0x08, ocf: 0x0019)
    /// HCI_LE_Long_Term_Key_Request_Reply (Core 5.4, Vol 4, Part E, §7.8).
    public static let leLongTermKeyRequestReply = HCI.Opcode(ogf: 0x08, ocf: 0x001A)
    /// HCI_LE_Long_Term_Key_Request_Negative_Reply (Core 5.4, Vol 4, Part E, §7.8).
    public static let leLongTermKeyRequestNegativeReply = HCI.Opcode(ogf: 0x08, ocf: 0x001B)
    /// HCI_LE_Read_Supported_States (Core 5.4, Vol 4, Part E, §7.8).
    public static let leReadSupportedStates = HCI.Opcode(ogf: 0x08, ocf: 0x001C)
    /// HCI_LE_Remote_Connection_Parameter_Request_Reply (Core 5.4, Vol 4, Part E, §7.8).
    public static let leRemoteConnectionParameterRequestReply = HCI.Opcode(ogf: 0x08, ocf: 0x0020)
    /// HCI_LE_Remote_Connection_Parameter_Request_Negative_Reply (Core 5.4, Vol 4, Part E, §7.8).
    public static let leRemoteConnectionParameterRequestNegativeReply = HCI.Opcode(ogf: 0x08, ocf: 0x0021)
    /// HCI_LE_Set_Data_Length (Core 5.4, Vol 4, Part E, §7.8).
    public static let leSetDataLength = HCI.Opcode(ogf: 0x08, ocf: 0x0022)
    /// HCI_LE_Read_Suggested_Default_Data_Length (Core 5.4, Vol 4, Part E, §7.8).
    public static let leReadSuggestedDefaultDataLength = HCI.Opcode(ogf: 0x08, ocf: 0x0023)
    /// HCI_LE_Write_Suggested_Default_Data_Length (Core 5.4, Vol 4, Part E, §7.8).
    public static let leWriteSuggestedDefaultDataLength = HCI.Opcode(ogf: 0x08, ocf: 0x0024)
    /// HCI_LE_Read_Local_P-256_Public_Key (Core 5.4, Vol 4, Part E, §7.8).
    public static let leReadLocalP256PublicKey = HCI.Opcode(ogf: 0x08, ocf: 0x0025)
    /// HCI_LE_Generate_DHKey (Core 5.4, Vol 4, Part E, §7.8).
    public static let leGenerateDHKey = HCI.Opcode(ogf: 0x08, ocf: 0x0026)
    /// HCI_LE_Add_Device_To_Resolving_List (Core 5.4, Vol 4, Part E, §7.8).
    public static let leAddDeviceToResolvingList = HCI.Opcode(ogf: 0x08, ocf: 0x0027)
    /// HCI_LE_Remove_Device_From_Resolving_List (Core 5.4, Vol 4, Part E, §7.8).
    public static let leRemoveDeviceFromResolvingList = HCI.Opcode(ogf: 0x08, ocf: 0x0028)
    /// HCI_LE_Clear_Resolving_List (Core 5.4, Vol 4, Part E, §7.8).
    public static let leClearResolvingList = HCI.Opcode(ogf: 0x08, ocf: 0x0029)
    /// HCI_LE_Read_Resolving_List_Size (Core 5.4, Vol 4, Part E, §7.8).
    public static let leReadResolvingListSize = HCI.Opcode(ogf: 0x08, ocf: 0x002A)
    /// HCI_LE_Read_Peer_Resolvable_Address (Core 5.4, Vol 4, Part E, §7.8).
    public static let leReadPeerResolvableAddress = HCI.Opcode(ogf: 0x08, ocf: 0x002B)
    /// HCI_LE_Read_Local_Resolvable_Address (Core 5.4, Vol 4, Part E, §7.8).
    public static let leReadLocalResolvableAddress = HCI.Opcode(ogf: 0x08, ocf: 0x002C)
    /// HCI_LE_Set_Address_Resolution_Enable (Core 5.4, Vol 4, Part E, §7.8).
    public static let leSetAddressResolutionEnable = HCI.Opcode(ogf: 0x08, ocf: 0x002D)
    /// HCI_LE_Set_Resolvable_Private_Address_Timeout (Core 5.4, Vol 4, Part E, §7.8).
    public static let leSetResolvablePrivateAddressTimeout = HCI.Opcode(ogf: 0x08, ocf: 0x002E)
    /// HCI_LE_Read_Maximum_Data_Length (Core 5.4, Vol 4, Part E, §7.8).
    public static let leReadMaximumDataLength = HCI.Opcode(ogf: 0x08, ocf: 0x002F)
    /// HCI_LE_Read_PHY (Core 5.4, Vol 4, Part E, §7.8).
    public static let leReadPHY = HCI.Opcode(ogf: 0x08, ocf: 0x0030)
    /// HCI_LE_Set_Default_PHY (Core 5.4, Vol 4, Part E, §7.8).
    public static let leSetDefaultPHY = HCI.Opcode(ogf: 0x08, ocf: 0x0031)
    /// HCI_LE_Set_PHY (Core 5.4, Vol 4, Part E, §7.8).
    public static let leSetPHY = HCI.Opcode(ogf: 0x08, ocf: 0x0032)
    /// HCI_LE_Set_Advertising_Set_Random_Address (Core 5.4, Vol 4, Part E, §7.8).
    public static let leSetAdvertisingSetRandomAddress = HCI.Opcode(ogf: 0x08, ocf: 0x0035)
    /// HCI_LE_Set_Extended_Advertising_Parameters (Core 5.4, Vol 4, Part E, §7.8).
    public static let leSetExtendedAdvertisingParameters = HCI.Opcode(ogf: 0x08, ocf: 0x0036)
    /// HCI_LE_Set_Extended_Advertising_Data (Core 5.4, Vol 4, Part E, §7.8).
    public static let leSetExtendedAdvertisingData = HCI.Opcode(ogf: 0x08, ocf: 0x0037)
    /// HCI_LE_Set_Extended_Scan_Response_Data (Core 5.4, Vol 4, Part E, §7.8).
    public static let leSetExtendedScanResponseData = HCI.Opcode(ogf: 0x08, ocf: 0x0038)
    /// HCI_LE_Set_Extended_Advertising_Enable (Core 5.4, Vol 4, Part E, §7.8).
    public static let leSetExtendedAdvertisingEnable = HCI.Opcode(ogf: 0x08, ocf: 0x0039)
    /// HCI_LE_Read_Maximum_Advertising_Data_Length (Core 5.4, Vol 4, Part E, §7.8).
    public static let leReadMaximumAdvertisingDataLength = HCI.Opcode(ogf: 0x08, ocf: 0x003A)
    /// HCI_LE_Read_Number_Of_Supported_Advertising_Sets (Core 5.4, Vol 4, Part E, §7.8).
    public static let leReadNumberOfSupportedAdvertisingSets = HCI.Opcode(ogf: 0x08, ocf: 0x003B)
    /// HCI_LE_Remove_Advertising_Set (Core 5.4, Vol 4, Part E, §7.8).
    public static let leRemoveAdvertisingSet = HCI.Opcode(ogf: 0x08, ocf: 0x003C)
    /// HCI_LE_Clear_Advertising_Sets (Core 5.4, Vol 4, Part E, §7.8).
    public static let leClearAdvertisingSets = HCI.Opcode(ogf: 0x08, ocf: 0x003D)
    /// HCI_LE_Set_Periodic_Advertising_Parameters [v1] (Core 5.4, Vol 4, Part E, §7.8.61).
    public static let leSetPeriodicAdvertisingParameters = HCI.Opcode(ogf: 0x08, ocf: 0x003E)
    /// HCI_LE_Set_Periodic_Advertising_Data (Core 5.4, Vol 4, Part E, §7.8.62).
    public static let leSetPeriodicAdvertisingData = HCI.Opcode(ogf: 0x08, ocf: 0x003F)
    /// HCI_LE_Set_Periodic_Advertising_Enable (Core 5.4, Vol 4, Part E, §7.8.63).
    public static let leSetPeriodicAdvertisingEnable = HCI.Opcode(ogf: 0x08, ocf: 0x0040)
    /// HCI_LE_Set_Extended_Scan_Parameters (Core 5.4, Vol 4, Part E, §7.8).
    public static let leSetExtendedScanParameters = HCI.Opcode(ogf: 0x08, ocf: 0x0041)
    /// HCI_LE_Set_Extended_Scan_Enable (Core 5.4, Vol 4, Part E, §7.8).
    public static let leSetExtendedScanEnable = HCI.Opcode(ogf: 0x08, ocf: 0x0042)
    /// HCI_LE_Extended_Create_Connection (Core 5.4, Vol 4, Part E, §7.8).
    public static let leExtendedCreateConnection = HCI.Opcode(ogf: 0x08, ocf: 0x0043)
    /// HCI_LE_Periodic_Advertising_Create_Sync (Core 5.4, Vol 4, Part E, §7.8.67).
    public static let lePeriodicAdvertisingCreateSync = HCI.Opcode(ogf: 0x08, ocf: 0x0044)
    /// HCI_LE_Periodic_Advertising_Create_Sync_Cancel (Core 5.4, Vol 4, Part E, §7.8.68).
    public static let lePeriodicAdvertisingCreateSyncCancel = HCI.Opcode(ogf: 0x08, ocf: 0x0045)
    /// HCI_LE_Periodic_Advertising_Terminate_Sync (Core 5.4, Vol 4, Part E, §7.8.69).
    public static let lePeriodicAdvertisingTerminateSync = HCI.Opcode(ogf: 0x08, ocf: 0x0046)
    /// HCI_LE_Read_Transmit_Power (Core 5.4, Vol 4, Part E, §7.8).
    public static let leReadTransmitPower = HCI.Opcode(ogf: 0x08, ocf: 0x004B)
    /// HCI_LE_Set_Privacy_Mode (Core 5.4, Vol 4, Part E, §7.8).
    public static let leSetPrivacyMode = HCI.Opcode(ogf: 0x08, ocf: 0x004E)
    /// HCI_LE_Read_Buffer_Size_V2 (Core 5.4, Vol 4, Part E, §7.8).
    public static let leReadBufferSizeV2 = HCI.Opcode(ogf: 0x08, ocf: 0x0060)
    /// HCI_LE_Set_Extended_Advertising_Parameters [v2] (Core 5.4, Vol 4, Part E, §7.8.53).
    public static let leSetExtendedAdvertisingParametersV2 = HCI.Opcode(ogf: 0x08, ocf: 0x007F)

    /// The specification's names of the commands this module knows, for btmon-style logs.
    static let names: [HCI.Opcode: String] = [
        .disconnect: "Disconnect",
        .readRemoteVersionInformation: "Read Remote Version Information",
        .setEventMask: "Set Event Mask",
        .reset: "Reset",
        .readTransmitPowerLevel: "Read Transmit Power Level",
        .setControllerToHostFlowControl: "Set Controller To Host Flow Control",
        .hostBufferSize: "Host Buffer Size",
        .hostNumberOfCompletedPackets: "Host Number Of Completed Packets",
        .setEventMaskPage2: "Set Event Mask Page 2",
        .readLEHostSupport: "Read LE Host Support",
        .writeLEHostSupport: "Write LE Host Support",
        .readAuthenticatedPayloadTimeout: "Read Authenticated Payload Timeout",
        .writeAuthenticatedPayloadTimeout: "Write Authenticated Payload Timeout",
        .readLocalVersionInformation: "Read Local Version Information",
        .readLocalSupportedCommands: "Read Local Supported Commands",
        .readLocalSupportedFeatures: "Read Local Supported Features",
        .readLocalExtendedFeatures: "Read Local Extended Features",
        .readBufferSize: "Read Buffer Size",
        .readBDADDR: "Read BD_ADDR",
        .readRSSI: "Read RSSI",
        .readSimulatedLocation: "SwiftBLE Read Simulated Location",
        .readEncryptionKeySize: "Read Encryption Key Size",
        .leSetEventMask: "LE Set Event Mask",
        .leReadBufferSize: "LE Read Buffer Size",
        .leReadLocalSupportedFeatures: "LE Read Local Supported Features",
        .leSetRandomAddress: "LE Set Random Address",
        .leSetAdvertisingParameters: "LE Set Advertising Parameters",
        .leReadAdvertisingPhysicalChannelTxPower: "LE Read Advertising Physical Channel Tx Power",
        .leSetAdvertisingData: "LE Set Advertising Data",
        .leSetScanResponseData: "LE Set Scan Response Data",
        .leSetAdvertisingEnable: "LE Set Advertising Enable",
        .leSetScanParameters: "LE Set Scan Parameters",
        .leSetScanEnable: "LE Set Scan Enable",
        .leCreateConnection: "LE Create Connection",
        .leCreateConnectionCancel: "LE Create Connection Cancel",
        .leReadFilterAcceptListSize: "LE Read Filter Accept List Size",
        .leClearFilterAcceptList: "LE Clear Filter Accept List",
        .leAddDeviceToFilterAcceptList: "LE Add Device To Filter Accept List",
        .leRemoveDeviceFromFilterAcceptList: "LE Remove Device From Filter Accept List",
        .leConnectionUpdate: "LE Connection Update",
        .leSetHostChannelClassification: "LE Set Host Channel Classification",
        .leReadChannelMap: "LE Read Channel Map",
        .leReadRemoteFeatures: "LE Read Remote Features",
        .leEncrypt: "LE Encrypt",
        .leRand: "LE Rand",
        .leEnableEncryption: "LE Enable Encryption",
        .leLongTermKeyRequestReply: "LE Long Term Key Request Reply",
        .leLongTermKeyRequestNegativeReply: "LE Long Term Key Request Negative Reply",
        .leReadSupportedStates: "LE Read Supported States",
        .leRemoteConnectionParameterRequestReply: "LE Remote Connection Parameter Request Reply",
        .leRemoteConnectionParameterRequestNegativeReply: "LE Remote Connection Parameter Request Negative Reply",
        .leSetDataLength: "LE Set Data Length",
        .leReadSuggestedDefaultDataLength: "LE Read Suggested Default Data Length",
        .leWriteSuggestedDefaultDataLength: "LE Write Suggested Default Data Length",
        .leReadLocalP256PublicKey: "LE Read Local P-256 Public Key",
        .leGenerateDHKey: "LE Generate DHKey",
        .leAddDeviceToResolvingList: "LE Add Device To Resolving List",
        .leRemoveDeviceFromResolvingList: "LE Remove Device From Resolving List",
        .leClearResolvingList: "LE Clear Resolving List",
        .leReadResolvingListSize: "LE Read Resolving List Size",
        .leReadPeerResolvableAddress: "LE Read Peer Resolvable Address",
        .leReadLocalResolvableAddress: "LE Read Local Resolvable Address",
        .leSetAddressResolutionEnable: "LE Set Address Resolution Enable",
        .leSetResolvablePrivateAddressTimeout: "LE Set Resolvable Private Address Timeout",
        .leReadMaximumDataLength: "LE Read Maximum Data Length",
        .leReadPHY: "LE Read PHY",
        .leSetDefaultPHY: "LE Set Default PHY",
        .leSetPHY: "LE Set PHY",
        .leSetAdvertisingSetRandomAddress: "LE Set Advertising Set Random Address",
        .leSetExtendedAdvertisingParameters: "LE Set Extended Advertising Parameters",
        .leSetExtendedAdvertisingData: "LE Set Extended Advertising Data",
        .leSetExtendedScanResponseData: "LE Set Extended Scan Response Data",
        .leSetExtendedAdvertisingEnable: "LE Set Extended Advertising Enable",
        .leReadMaximumAdvertisingDataLength: "LE Read Maximum Advertising Data Length",
        .leReadNumberOfSupportedAdvertisingSets: "LE Read Number Of Supported Advertising Sets",
        .leRemoveAdvertisingSet: "LE Remove Advertising Set",
        .leClearAdvertisingSets: "LE Clear Advertising Sets",
        .leSetExtendedScanParameters: "LE Set Extended Scan Parameters",
        .leSetExtendedScanEnable: "LE Set Extended Scan Enable",
        .leExtendedCreateConnection: "LE Extended Create Connection",
        .leSetPeriodicAdvertisingParameters: "LE Set Periodic Advertising Parameters",
        .leSetPeriodicAdvertisingData: "LE Set Periodic Advertising Data",
        .leSetPeriodicAdvertisingEnable: "LE Set Periodic Advertising Enable",
        .lePeriodicAdvertisingCreateSync: "LE Periodic Advertising Create Sync",
        .lePeriodicAdvertisingCreateSyncCancel: "LE Periodic Advertising Create Sync Cancel",
        .lePeriodicAdvertisingTerminateSync: "LE Periodic Advertising Terminate Sync",
        .leReadTransmitPower: "LE Read Transmit Power",
        .leSetPrivacyMode: "LE Set Privacy Mode",
        .leReadBufferSizeV2: "LE Read Buffer Size [v2]",
        .leSetExtendedAdvertisingParametersV2: "LE Set Extended Advertising Parameters [v2]",
    ]

    /// The specification's name of the command, e.g. "LE Set Scan Enable", or `nil` for an
    /// opcode this module does not know (vendor commands, newer or BR/EDR-only commands).
    public var name: String? { HCI.Opcode.names[self] }
}
