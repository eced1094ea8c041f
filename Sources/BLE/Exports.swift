// The front door's vocabulary — addresses, UUIDs, advertising data, status codes — is the
// wire layer's, so an app that imports BLE can name it without importing BLEWire too.
@_exported import BLEWire
