extension HCI.Opcode {
    /// SwiftBLE's vendor-specific Read Simulated Location (OGF 0x3F, the vendor group of
    /// Core 5.4, Vol 4, Part E, §5.4.1).
    public static let readSimulatedLocation = HCI.Opcode(ogf: 0x3F, ocf: 0x0201)
}

extension HCI {
    /// SwiftBLE's vendor-specific command asking a simulated controller where its device is
    /// in its world: what a phone's location hardware would say. A real controller answers
    /// Unknown HCI Command (0x01), as the specification asks of any command it does not
    /// support (Core 5.4, Vol 4, Part E, §4.5), which tells the host that no location is
    /// available.
    ///
    /// Return parameters, little-endian: Status (1 octet); Flags (1: bit 0 set when the
    /// world has a geographic origin); X, Y, Z (3 × 4 octets, signed millimetres, +x east,
    /// +y north, +z up); Heading (2 octets, hundredths of a degree clockwise from north,
    /// 0–35 999); Origin latitude and longitude (2 × 4 octets, signed 1e-7 degrees, of the
    /// world's (0, 0); zero without an origin).
    public struct ReadSimulatedLocation: ParameterlessCommand {
        /// The command's opcode, ``HCI/Opcode/readSimulatedLocation``.
        public static let opcode = Opcode.readSimulatedLocation
        /// The command (it has no parameters).
        public init() {}

        /// The Command Complete return parameters.
        public struct ReturnParameters: WireCodable, Hashable {
            /// Whether the command succeeded.
            public var status: StatusCode
            /// Whether ``originLatitude`` and ``originLongitude`` say where the world is.
            public var hasOrigin: Bool
            /// East of the world's origin, in millimetres.
            public var xMillimetres: Int32
            /// North of the world's origin, in millimetres.
            public var yMillimetres: Int32
            /// Above the world's origin, in millimetres.
            public var zMillimetres: Int32
            /// The direction the device faces, hundredths of a degree clockwise from north.
            public var headingCentidegrees: UInt16
            /// The latitude of the world's (0, 0), in 1e-7 degrees.
            public var originLatitude: Int32
            /// The longitude of the world's (0, 0), in 1e-7 degrees.
            public var originLongitude: Int32

            /// Return parameters with every field.
            public init(status: StatusCode, hasOrigin: Bool, xMillimetres: Int32, yMillimetres: Int32, zMillimetres: Int32,
                        headingCentidegrees: UInt16, originLatitude: Int32, originLongitude: Int32) {
                self.status = status
                self.hasOrigin = hasOrigin
                self.xMillimetres = xMillimetres
                self.yMillimetres = yMillimetres
                self.zMillimetres = zMillimetres
                self.headingCentidegrees = headingCentidegrees
                self.originLatitude = originLatitude
                self.originLongitude = originLongitude
            }

            public init(from reader: inout ByteReader) throws(WireError) {
                status = try StatusCode(from: &reader, field: "HCI.ReadSimulatedLocation.status")
                hasOrigin = try reader.readUInt8("HCI.ReadSimulatedLocation.flags") & 0x01 != 0
                xMillimetres = Int32(bitPattern: try reader.readUInt32("HCI.ReadSimulatedLocation.x"))
                yMillimetres = Int32(bitPattern: try reader.readUInt32("HCI.ReadSimulatedLocation.y"))
                zMillimetres = Int32(bitPattern: try reader.readUInt32("HCI.ReadSimulatedLocation.z"))
                headingCentidegrees = try reader.readUInt16("HCI.ReadSimulatedLocation.heading")
                guard headingCentidegrees < 36_000 else {
                    throw WireError(field: "HCI.ReadSimulatedLocation.heading", reason: .invalidValue(UInt64(headingCentidegrees)))
                }
                originLatitude = Int32(bitPattern: try reader.readUInt32("HCI.ReadSimulatedLocation.originLatitude"))
                originLongitude = Int32(bitPattern: try reader.readUInt32("HCI.ReadSimulatedLocation.originLongitude"))
            }

            public func encode(to writer: inout ByteWriter) {
                status.encode(to: &writer)
                writer.write(UInt8(hasOrigin ? 0x01 : 0x00))
                writer.write(UInt32(bitPattern: xMillimetres))
                writer.write(UInt32(bitPattern: yMillimetres))
                writer.write(UInt32(bitPattern: zMillimetres))
                writer.write(headingCentidegrees)
                writer.write(UInt32(bitPattern: originLatitude))
                writer.write(UInt32(bitPattern: originLongitude))
            }
        }
    }
}
