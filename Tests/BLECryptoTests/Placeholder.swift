import BLECrypto
import Testing
