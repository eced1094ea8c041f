import BLEWorld
import Testing
