import Foundation

/// Encodes an `Encodable` value to JSON bytes as the value walks itself, with no tree in between.
///
/// `JSONEncoder` first builds a tree of boxed values and then serialises it; the state JSON is
/// encoded after every change of every session, and that detour was most of its cost. This
/// writer appends each key and value to one byte buffer as the value's `encode(to:)` hands them
/// over, and closes an object or array when its owner writes again (or at the end).
///
/// The output is the JSON `JSONEncoder` writes with its default strategies (compared by content
/// in the tests): `nil` optionals left out, dates and data as `JSONEncoder` would need a strategy
/// for are not supported, non-finite numbers refused; keys come in the order the value encodes
/// them (for synthesised conformances, the order of the properties). A value that uses its
/// containers out of order (writes to an outer container, then again to an inner one it opened
/// before) or asks for a super encoder makes ``encode(_:)`` fall back to `JSONEncoder`.
package enum JSONWriter {
  /// The JSON of `value`.
  package static func encode<Value: Encodable>(_ value: Value) throws -> Data {
    let encoder = StreamingEncoder()
    do {
      try encoder.encodeValue(value, level: 0)
      if encoder.failed { throw OutOfOrder() }
      encoder.closeFrames(above: -1)
      return Data(encoder.bytes)
    } catch is OutOfOrder {
      return try JSONEncoder().encode(value)
    }
  }

  /// The value used its containers in an order a streaming writer cannot follow.
  package struct OutOfOrder: Error {}
}

/// The encoder behind ``JSONWriter``: one buffer and the stack of open objects and arrays.
private final class StreamingEncoder: Encoder {
  // One encoder writes from one call stack at a time; the runtime's exclusivity checks on every
  // append were a measurable part of the cost.
  @exclusivity(unchecked) package var bytes: [UInt8] = []
  /// A container could not be opened where it was asked for (the output is not to be used).
  package var failed = false
  package var codingPath: [any CodingKey] { [] }
  package var userInfo: [CodingUserInfoKey: Any] { [:] }

  /// An open object or array; `serial` tells a container whether its frame is still the one
  /// it opened.
  package struct Frame {
    let isObject: Bool
    let serial: Int
    var count = 0
  }

  @exclusivity(unchecked) private var frames: [Frame] = []
  private var nextSerial = 0
  /// The level of the value being encoded now: the containers it asks for open there.
  private var level = 0

  package init() {
    bytes.reserveCapacity(512)
  }

  /// Encodes `value` at `level` (its container, if it asks for one, is frame `level`); `{}` when
  /// it encodes nothing, as `JSONEncoder` does.
  package func encodeValue<Value: Encodable>(_ value: Value, level: Int) throws {
    let before = bytes.count
    let outer = self.level
    self.level = level
    defer { self.level = outer }
    try value.encode(to: self)
    if bytes.count == before { bytes.append(contentsOf: "{}".utf8) }
  }

  /// Closes every frame deeper than `index`.
  package func closeFrames(above index: Int) {
    while frames.count > index + 1 {
      let frame = frames.removeLast()
      bytes.append(frame.isObject ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    }
  }

  /// Opens a frame at `level` (closing any deeper ones left open), writing its bracket.
  package func open(isObject: Bool, at level: Int) throws(JSONWriter.OutOfOrder) -> (
    index: Int, serial: Int
  ) {
    guard frames.count >= level else {
      failed = true
      throw JSONWriter.OutOfOrder()
    }
    closeFrames(above: level - 1)
    nextSerial += 1
    frames.append(Frame(isObject: isObject, serial: nextSerial))
    bytes.append(isObject ? UInt8(ascii: "{") : UInt8(ascii: "["))
    return (level, nextSerial)
  }

  /// Prepares frame `index` for its next member: closes deeper frames, writes the comma.
  package func beginMember(of index: Int, serial: Int) throws(JSONWriter.OutOfOrder) {
    guard index < frames.count, frames[index].serial == serial else {
      failed = true
      throw JSONWriter.OutOfOrder()
    }
    closeFrames(above: index)
    if frames[index].count > 0 { bytes.append(UInt8(ascii: ",")) }
    frames[index].count += 1
  }

  package func writeNull() {
    bytes.append(contentsOf: "null".utf8)
  }

  package func writeBool(_ value: Bool) {
    bytes.append(contentsOf: (value ? "true" : "false").utf8)
  }

  package func writeInt(_ value: Int) {
    bytes.append(contentsOf: String(value).utf8)
  }

  package func writeKey(_ key: String) {
    writeString(key)
    bytes.append(UInt8(ascii: ":"))
  }

  package func writeString(_ string: String) {
    bytes.append(UInt8(ascii: "\""))
    for byte in string.utf8 {
      switch byte {
      case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
      case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
      case UInt8(ascii: "\n"): bytes.append(contentsOf: #"\n"#.utf8)
      case UInt8(ascii: "\r"): bytes.append(contentsOf: #"\r"#.utf8)
      case UInt8(ascii: "\t"): bytes.append(contentsOf: #"\t"#.utf8)
      case 0..<0x20:
        bytes.append(contentsOf: #"\u00"#.utf8)
        bytes.append(Self.hexDigits[Int(byte >> 4)])
        bytes.append(Self.hexDigits[Int(byte & 0xF)])
      default: bytes.append(byte)
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  package func writeDouble(_ value: Double) throws {
    guard value.isFinite else {
      throw EncodingError.invalidValue(
        value, .init(codingPath: [], debugDescription: "\(value) is not valid in JSON"))
    }
    // Whole numbers without a fraction, as JSONEncoder writes them.
    if value == value.rounded(), abs(value) < 1e15 {
      bytes.append(contentsOf: String(Int64(value)).utf8)
    } else {
      bytes.append(contentsOf: value.description.utf8)
    }
  }

  /// Writes a single value (a string, number, boolean, UUID) or encodes a nested value.
  ///
  /// The type is told by comparing metatypes, which is cheap, rather than by casting the value,
  /// which is not (this runs for every value of every change).
  package func writeSingle<Value: Encodable>(_ value: Value, level: Int) throws {
    if Value.self == String.self {
      writeString(unsafeBitCast(value, to: String.self))
    } else if Value.self == Int.self {
      writeInt(unsafeBitCast(value, to: Int.self))
    } else if Value.self == Bool.self {
      writeBool(unsafeBitCast(value, to: Bool.self))
    } else if Value.self == Double.self {
      try writeDouble(unsafeBitCast(value, to: Double.self))
    } else if Value.self == UUID.self {
      writeUUID(unsafeBitCast(value, to: UUID.self))
    } else if let value = value as? any FixedWidthInteger {
      bytes.append(contentsOf: String(describing: value).utf8)
    } else if let value = value as? Float {
      try writeDouble(Double(value))
    } else if value is Date || value is Data || value is URL || value is Decimal {
      // JSONEncoder gives these special forms; leave them to it.
      throw JSONWriter.OutOfOrder()
    } else {
      try encodeValue(value, level: level)
    }
  }

  private static let hexDigits = Array("0123456789ABCDEF".utf8)

  /// A UUID as `UUID.uuidString` writes it (upper-case hex in 8-4-4-4-12 groups).
  package func writeUUID(_ uuid: UUID) {
    bytes.append(UInt8(ascii: "\""))
    withUnsafeBytes(of: uuid.uuid) { raw in
      for (index, byte) in raw.enumerated() {
        if index == 4 || index == 6 || index == 8 || index == 10 {
          bytes.append(UInt8(ascii: "-"))
        }
        bytes.append(Self.hexDigits[Int(byte >> 4)])
        bytes.append(Self.hexDigits[Int(byte & 0xF)])
      }
    }
    bytes.append(UInt8(ascii: "\""))
  }

  package func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(KeyedContainer<Key>(encoder: self, opening: level))
  }

  package func unkeyedContainer() -> any UnkeyedEncodingContainer {
    UnkeyedContainer(encoder: self, opening: level)
  }

  package func singleValueContainer() -> any SingleValueEncodingContainer {
    SingleValueContainer(encoder: self, level: level)
  }
}

/// Where a container writes: its frame, or the error that opening it met (thrown on first use,
/// since `Encoder`'s container methods cannot throw).
private struct Slot {
  package let encoder: StreamingEncoder
  package let frame: Result<(index: Int, serial: Int), JSONWriter.OutOfOrder>

  package init(encoder: StreamingEncoder, isObject: Bool, level: Int) {
    self.encoder = encoder
    self.frame = Result { () throws(JSONWriter.OutOfOrder) in
      try encoder.open(isObject: isObject, at: level)
    }
  }

  /// Begins a member; returns the level its value encodes at.
  package func begin() throws -> Int {
    let (index, serial) = try frame.get()
    try encoder.beginMember(of: index, serial: serial)
    return index + 1
  }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  package let slot: Slot
  package var codingPath: [any CodingKey] { [] }

  package init(encoder: StreamingEncoder, opening level: Int) {
    slot = Slot(encoder: encoder, isObject: true, level: level)
  }

  /// Begins the member `key` (comma, key); returns the level its value encodes at.
  private func member(_ key: Key) throws -> Int {
    let level = try slot.begin()
    slot.encoder.writeKey(key.stringValue)
    return level
  }

  /// ``member(_:)`` for a nested container, which cannot throw: a failure marks the encoder
  /// failed and the container opens nowhere.
  private func nestedMember(_ key: Key) -> Int {
    (try? member(key)) ?? Int.max
  }

  package mutating func encodeNil(forKey key: Key) throws {
    _ = try member(key)
    slot.encoder.writeNull()
  }

  package mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    try slot.encoder.writeSingle(value, level: member(key))
  }

  package mutating func encode(_ value: String, forKey key: Key) throws {
    _ = try member(key)
    slot.encoder.writeString(value)
  }

  package mutating func encode(_ value: Bool, forKey key: Key) throws {
    _ = try member(key)
    slot.encoder.writeBool(value)
  }

  package mutating func encode(_ value: Int, forKey key: Key) throws {
    _ = try member(key)
    slot.encoder.writeInt(value)
  }

  package mutating func encode(_ value: Double, forKey key: Key) throws {
    _ = try member(key)
    try slot.encoder.writeDouble(value)
  }

  package mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    KeyedEncodingContainer(
      KeyedContainer<NestedKey>(encoder: slot.encoder, opening: nestedMember(key)))
  }

  package mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    UnkeyedContainer(encoder: slot.encoder, opening: nestedMember(key))
  }

  package mutating func superEncoder() -> any Encoder { UnsupportedEncoder() }
  package mutating func superEncoder(forKey key: Key) -> any Encoder { UnsupportedEncoder() }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
  package let slot: Slot
  package var codingPath: [any CodingKey] { [] }
  package var count = 0

  package init(encoder: StreamingEncoder, opening level: Int) {
    slot = Slot(encoder: encoder, isObject: false, level: level)
  }

  package mutating func encodeNil() throws {
    _ = try slot.begin()
    count += 1
    slot.encoder.writeNull()
  }

  package mutating func encode<T: Encodable>(_ value: T) throws {
    let level = try slot.begin()
    count += 1
    try slot.encoder.writeSingle(value, level: level)
  }

  package mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type
  ) -> KeyedEncodingContainer<NestedKey> {
    let level = (try? slot.begin()) ?? Int.max
    count += 1
    return KeyedEncodingContainer(KeyedContainer<NestedKey>(encoder: slot.encoder, opening: level))
  }

  package mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let level = (try? slot.begin()) ?? Int.max
    count += 1
    return UnkeyedContainer(encoder: slot.encoder, opening: level)
  }

  package mutating func superEncoder() -> any Encoder { UnsupportedEncoder() }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
  package let encoder: StreamingEncoder
  package let level: Int
  package var codingPath: [any CodingKey] { [] }

  package mutating func encodeNil() throws {
    encoder.writeNull()
  }

  package mutating func encode<T: Encodable>(_ value: T) throws {
    try encoder.writeSingle(value, level: level)
  }

  package mutating func encode(_ value: String) throws {
    encoder.writeString(value)
  }
}

/// What a super encoder request gets: every use throws, and ``JSONWriter`` falls back.
private struct UnsupportedEncoder: Encoder {
  package var codingPath: [any CodingKey] { [] }
  package var userInfo: [CodingUserInfoKey: Any] { [:] }

  package func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    KeyedEncodingContainer(Refusing<Key>())
  }
  package func unkeyedContainer() -> any UnkeyedEncodingContainer { RefusingUnkeyed() }
  package func singleValueContainer() -> any SingleValueEncodingContainer { RefusingSingle() }

  package struct Refusing<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil(forKey key: Key) throws { throw JSONWriter.OutOfOrder() }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
      throw JSONWriter.OutOfOrder()
    }
    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> { KeyedEncodingContainer(Refusing<NestedKey>()) }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
      RefusingUnkeyed()
    }
    mutating func superEncoder() -> any Encoder { UnsupportedEncoder() }
    mutating func superEncoder(forKey key: Key) -> any Encoder { UnsupportedEncoder() }
  }

  package struct RefusingUnkeyed: UnkeyedEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    var count: Int { 0 }
    mutating func encodeNil() throws { throw JSONWriter.OutOfOrder() }
    mutating func encode<T: Encodable>(_ value: T) throws { throw JSONWriter.OutOfOrder() }
    mutating func nestedContainer<NestedKey: CodingKey>(
      keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> { KeyedEncodingContainer(Refusing<NestedKey>()) }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { RefusingUnkeyed() }
    mutating func superEncoder() -> any Encoder { UnsupportedEncoder() }
  }

  package struct RefusingSingle: SingleValueEncodingContainer {
    var codingPath: [any CodingKey] { [] }
    mutating func encodeNil() throws { throw JSONWriter.OutOfOrder() }
    mutating func encode<T: Encodable>(_ value: T) throws { throw JSONWriter.OutOfOrder() }
  }
}
