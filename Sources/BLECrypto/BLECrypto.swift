/// Cryptographic functions of Bluetooth LE: the AES-128 block function, AES-CMAC, the
/// Security Manager toolbox (Core 5.4, Vol 3, Part H, §2.2), P-256 ECDH and the link
/// layer's AES-CCM (Core 5.4, Vol 6, Part E).
public enum BLECrypto {}
