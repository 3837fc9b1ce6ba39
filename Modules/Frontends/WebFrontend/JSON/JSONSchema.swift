import Foundation

/// A JSON Schema (draft 2020-12) of a `Decodable` type, read off the type itself: a decoder that
/// records every key the type asks for, and what it asks for there, instead of reading data. So
/// the schema of the state (`GET /api/state-schema`) cannot drift from the types the server
/// encodes: adding a field to a feature's ``WebFeature/View`` adds it to the schema.
///
/// What it can tell: objects and their keys (required unless read with `decodeIfPresent`, which
/// synthesized `Codable` uses for optionals, whose `nil` the encoder leaves out; the standard
/// library's `decodeIfPresent` asks `contains` first, which is how an optional key is told from
/// a required one), arrays and their
/// element, strings (a `UUID` as `"format": "uuid"`), integers, numbers and booleans. Every
/// object is closed (`additionalProperties: false`). A type that contains itself would recurse
/// without end: no view has one.
///
/// ```swift
/// let schema = try JSONSchema.of(CounterListPage.View.self)   // ["type": "object", "properties": …]
/// ```
public enum JSONSchema {
  /// The schema of `type` as a JSON object.
  public static func of<T: Decodable>(_ type: T.Type, title: String? = nil) throws -> [String: Any]
  {
    var schema = try SchemaRecorder().schema(of: type)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    if let title { schema["title"] = title }
    return schema
  }

  /// The schema as JSON text, keys sorted.
  public static func json<T: Decodable>(of type: T.Type, title: String? = nil) throws -> Data {
    try JSONSerialization.data(
      withJSONObject: of(type, title: title), options: [.sortedKeys, .prettyPrinted])
  }
}

/// Decodes a value of each type it is asked for out of nothing — empty strings, zeros, `false`,
/// one element per array, no optionals — recording on the way what was asked for where.
private final class SchemaRecorder {
  /// The schema of `type`, and a value of it to hand back to whoever asked.
  package func record<T: Decodable>(_ type: T.Type) throws -> (schema: [String: Any], value: T) {
    if let (schema, value) = Self.primitive(type) { return (schema, value as! T) }
    let node = Node()
    let value = try T(from: RecordingDecoder(recorder: self, node: node))
    return (node.schema, value)
  }

  package func schema<T: Decodable>(of type: T.Type) throws -> [String: Any] {
    try record(type).schema
  }

  package static func primitive(_ type: Any.Type) -> ([String: Any], Any)? {
    switch type {
    case is String.Type: (["type": "string"], "")
    case is UUID.Type: (["type": "string", "format": "uuid"], UUID())
    case is Bool.Type: (["type": "boolean"], false)
    case is Int.Type: (["type": "integer"], 0)
    case is Double.Type: (["type": "number"], 0.0)
    default: nil
    }
  }
}

/// What one value was decoded as.
private final class Node {
  package var schema: [String: Any] = [:]
  package var properties: [String: [String: Any]] = [:]
  package var required: Set<String> = []
  /// Keys asked about first (`contains`), as `decodeIfPresent` does before it decodes: optional.
  package var optional: Set<String> = []

  package func finishObject() {
    schema = [
      "type": "object", "properties": properties, "required": required.sorted(),
      "additionalProperties": false,
    ]
  }
}

private struct RecordingDecoder: Decoder {
  package let recorder: SchemaRecorder
  package let node: Node
  package var codingPath: [any CodingKey] = []
  package var userInfo: [CodingUserInfoKey: Any] = [:]

  package func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<
    Key
  > {
    node.finishObject()
    return KeyedDecodingContainer(KeyedRecorder<Key>(recorder: recorder, node: node))
  }

  package func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
    UnkeyedRecorder(recorder: recorder, node: node)
  }

  package func singleValueContainer() throws -> any SingleValueDecodingContainer {
    SingleValueRecorder(recorder: recorder, node: node)
  }
}

/// An object: every key asked for is a property; required unless asked with `decodeIfPresent`.
private struct KeyedRecorder<Key: CodingKey>: KeyedDecodingContainerProtocol {
  package let recorder: SchemaRecorder
  package let node: Node
  package var codingPath: [any CodingKey] = []
  package var allKeys: [Key] { [] }

  package func contains(_ key: Key) -> Bool {
    node.optional.insert(key.stringValue)
    return true
  }

  package func decodeNil(forKey key: Key) throws -> Bool { false }

  package func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
    let (schema, value) = try recorder.record(type)
    node.properties[key.stringValue] = schema
    if !node.optional.contains(key.stringValue) { node.required.insert(key.stringValue) }
    node.finishObject()
    return value
  }

  package func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
    node.properties[key.stringValue] = try recorder.schema(of: type)
    node.finishObject()
    return nil
  }

  package func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type, forKey key: Key
  ) throws -> KeyedDecodingContainer<NestedKey> {
    throw unsupported("nested keyed containers")
  }

  package func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
    throw unsupported("nested unkeyed containers")
  }

  package func superDecoder() throws -> any Decoder { throw unsupported("super decoders") }
  package func superDecoder(forKey key: Key) throws -> any Decoder {
    throw unsupported("super decoders")
  }
}

/// An array: its element is decoded once, then the array ends.
private struct UnkeyedRecorder: UnkeyedDecodingContainer {
  package let recorder: SchemaRecorder
  package let node: Node
  package var codingPath: [any CodingKey] = []
  package var count: Int? { nil }
  package var currentIndex = 0
  package var isAtEnd: Bool { currentIndex > 0 }

  package mutating func decodeNil() throws -> Bool { false }

  package mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let (schema, value) = try recorder.record(type)
    node.schema = ["type": "array", "items": schema]
    currentIndex += 1
    return value
  }

  package mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy type: NestedKey.Type
  ) throws -> KeyedDecodingContainer<NestedKey> { throw unsupported("nested keyed containers") }

  package mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
    throw unsupported("nested unkeyed containers")
  }

  package mutating func superDecoder() throws -> any Decoder { throw unsupported("super decoders") }
}

private struct SingleValueRecorder: SingleValueDecodingContainer {
  package let recorder: SchemaRecorder
  package let node: Node
  package var codingPath: [any CodingKey] = []

  package func decodeNil() -> Bool { false }

  package func decode<T: Decodable>(_ type: T.Type) throws -> T {
    let (schema, value) = try recorder.record(type)
    node.schema = schema
    return value
  }
}

private func unsupported(_ what: String) -> DecodingError {
  DecodingError.dataCorrupted(
    .init(codingPath: [], debugDescription: "JSONSchema does not describe \(what)"))
}
