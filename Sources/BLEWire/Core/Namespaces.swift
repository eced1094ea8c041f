/// Host Controller Interface (Core 5.4, Vol 4, Part E): commands, events, ACL data.
public enum HCI {}

/// Logical Link Control and Adaptation Protocol (Core 5.4, Vol 3, Part A): frames and
/// LE signaling.
public enum L2CAP {}

/// Attribute Protocol (Core 5.4, Vol 3, Part F): the PDUs GATT is built on.
public enum ATT {}

/// Security Manager Protocol (Core 5.4, Vol 3, Part H): pairing and key distribution.
public enum SMP {}

/// H4 framing of HCI packets over a byte stream (Core 5.4, Vol 4, Part A, §2).
public enum H4 {}

/// Link Layer (Core 5.4, Vol 6, Part B): advertising-channel and data-channel PDUs and
/// LL control PDUs, as the simulated controllers exchange them over the air.
public enum LL {}
