// The beacon vocabulary — frames, identities, regions, ranged beacons — is BLEBeacons', so
// an app that emits, ranges or monitors through the front door can name it with `import BLE`.
@_exported import BLEBeacons
