import Foundation

/// A `Decoder` over a recorded value, so that a `Decodable` model (a client's response) can be
/// built again from a record without a conformance of its own.
///
/// A record names a struct's fields as its source does, while coding keys may rename them
/// (`case dailyUnits = "daily_units"`). A key is looked up by its name, then in camel case, then
/// as the field at the position the key was first asked for — the order of a synthesized
/// `init(from:)`, and of most written by hand. A replay records what it built and compares it
/// with the record, so a model read wrongly is reported there.
struct _RecordedValueDecoder: Decoder {
  let value: RecordedValue
  let codingPath: [any CodingKey]
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
    switch value {
    case .structure(_, let fields, _):
      return KeyedDecodingContainer(
        KeyedContainer<Key>(fields: fields, codingPath: codingPath, order: KeyOrder()))
    case .enumeration(let name, let payload):
      // A synthesized enum decoding: one key, the case, holding its payload by label (`_0`).
      let fields = payload.enumerated().map { index, field in
        RecordedValue.Field(field.label.isEmpty ? "_\(index)" : field.label, field.value)
      }
      return KeyedDecodingContainer(
        KeyedContainer<Key>(
          fields: [
            RecordedValue.Field(name, .structure(type: name, fields: fields, isState: false))
          ],
          codingPath: codingPath, order: KeyOrder()))
    case .dictionary(let pairs):
      let fields = try pairs.map { pair -> RecordedValue.Field in
        switch pair.key {
        case .string(let key): return RecordedValue.Field(key, pair.value)
        case .integer(let key): return RecordedValue.Field(key, pair.value)
        default: throw mismatch(pair.key, String.self)
        }
      }
      return KeyedDecodingContainer(
        KeyedContainer<Key>(fields: fields, codingPath: codingPath, order: nil))
    default:
      throw mismatch(value, Key.self)
    }
  }

  func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    switch value {
    case .array(let elements), .identified(let elements):
      return UnkeyedContainer(elements: elements, codingPath: codingPath)
    default:
      throw mismatch(value, [Any].self)
    }
  }

  func singleValueContainer() throws -> any SingleValueDecodingContainer {
    SingleValueContainer(value: value, codingPath: codingPath)
  }

  /// The keys a container was asked for, in order.
  final class KeyOrder {
    var keys: [String] = []
    func position(of key: String) -> Int {
      if let index = keys.firstIndex(of: key) { return index }
      keys.append(key)
      return keys.count - 1
    }
  }

  struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let fields: [RecordedValue.Field]
    let codingPath: [any CodingKey]
    /// `nil`: no positional lookup (a dictionary).
    let order: KeyOrder?

    var allKeys: [Key] { fields.compactMap { Key(stringValue: $0.label) } }

    func field(_ key: Key) -> RecordedValue? {
      let position = order?.position(of: key.stringValue)
      if let field = fields.first(where: { $0.label == key.stringValue }) { return field.value }
      let camel = camelCase(key.stringValue)
      if let field = fields.first(where: { $0.label == camel }) { return field.value }
      guard let position, position < fields.count,
        Key(stringValue: fields[position].label) == nil
      else { return nil }
      return fields[position].value
    }

    func contains(_ key: Key) -> Bool { field(key) != nil }

    func value(_ key: Key) throws -> RecordedValue {
      guard let value = field(key) else {
        throw DecodingError.keyNotFound(
          key, .init(codingPath: codingPath, debugDescription: "not in the record"))
      }
      return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try value(key) == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
      let value = try value(key)
      return try RecordDecoding.at(key.stringValue) {
        try RecordDecoding.decode(T.self, from: value)
      }
    }

    func nestedContainer<NestedKey: CodingKey>(
      keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
      try _RecordedValueDecoder(value: value(key), codingPath: codingPath + [key])
        .container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
      try _RecordedValueDecoder(value: value(key), codingPath: codingPath + [key])
        .unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
      throw DecodingError.dataCorrupted(
        .init(codingPath: codingPath, debugDescription: "a record has no super values"))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
      _RecordedValueDecoder(value: try value(key), codingPath: codingPath + [key])
    }

    /// `temperature_2m_max` → `temperature2mMax`.
    private func camelCase(_ key: String) -> String {
      let words = key.split(separator: "_")
      guard let first = words.first, words.count > 1 else { return key }
      return String(first)
        + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }
        .joined()
    }
  }

  struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [RecordedValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    mutating func next() throws -> RecordedValue {
      guard !isAtEnd else {
        throw DecodingError.valueNotFound(
          RecordedValue.self, .init(codingPath: codingPath, debugDescription: "no more elements"))
      }
      defer { currentIndex += 1 }
      return elements[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
      guard !isAtEnd, elements[currentIndex] == .null else { return false }
      currentIndex += 1
      return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
      try RecordDecoding.decode(T.self, from: next())
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
      -> KeyedDecodingContainer<NestedKey>
    {
      try _RecordedValueDecoder(value: next(), codingPath: codingPath).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
      try _RecordedValueDecoder(value: next(), codingPath: codingPath).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
      _RecordedValueDecoder(value: try next(), codingPath: codingPath)
    }
  }

  struct SingleValueContainer: SingleValueDecodingContainer {
    let value: RecordedValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
      if T.self == String.self {
        // A raw-value enum's or a UUID's own decoding asks for its string.
        switch value {
        case .uuid(let uuid): return uuid.uuidString as! T
        case .enumeration(let name, let payload) where payload.isEmpty: return name as! T
        default: break
        }
      }
      return try RecordDecoding.decode(T.self, from: value)
    }
  }
}
