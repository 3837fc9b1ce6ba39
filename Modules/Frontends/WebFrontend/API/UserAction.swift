import Foundation
import JSON

/// One thing a visitor did on the page, in the JSON form the API accepts: a `type` and the fields
/// that type takes.
///
/// ```json
/// {"type": "counter.increment", "id": "9A1C…"}
/// {"type": "search.query", "query": "Seoul"}
/// {"type": "settings.set", "field": "displayName", "value": "Blob"}
/// ```
///
/// A value comes out of ``WebAPI/decode(_:)``, which accepts only a `type` some registered
/// ``WebFeature`` routes, with exactly the fields its route declares, each readable as what the
/// route says; what the action means in a session's state is decided when it is performed
/// (``WebAPI/rootAction(for:in:)``). Only user actions have a JSON form: effect responses
/// (`searchResponse`, `factResponse`, `timerTicked`, …) have no route, so no client can send
/// them.
public struct UserAction: Equatable, Sendable, Encodable, CustomStringConvertible {
  /// The action's `type`, e.g. `counter.increment`.
  public let type: String
  /// Its fields besides `type`.
  public let fields: [String: JSONValue]

  /// An action with its fields, as a client builds one to send. Nothing is checked here: the
  /// server checks what it receives.
  public init(_ type: String, _ fields: [String: JSONValue] = [:]) {
    self.type = type
    self.fields = fields
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: AnyKey.self)
    try container.encode(type, forKey: AnyKey("type"))
    for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
      try container.encode(value, forKey: AnyKey(name))
    }
  }

  public var description: String {
    String(decoding: (try? JSONEncoder().encode(self)) ?? Data(), as: UTF8.self)
  }
}

extension JSONValue: Encodable {
  public func encode(to encoder: any Encoder) throws {
    switch self {
    case .null:
      var container = encoder.singleValueContainer()
      try container.encodeNil()
    case .bool(let value):
      var container = encoder.singleValueContainer()
      try container.encode(value)
    case .number(let text):
      var container = encoder.singleValueContainer()
      if let integer = Int(text) {
        try container.encode(integer)
      } else {
        try container.encode(Double(text) ?? .nan)
      }
    case .string(let text):
      var container = encoder.singleValueContainer()
      try container.encode(text)
    case .array(let elements):
      var container = encoder.unkeyedContainer()
      for element in elements { try container.encode(element) }
    case .object(let members):
      var container = encoder.container(keyedBy: AnyKey.self)
      for (name, value) in members.sorted(by: { $0.0 < $1.0 }) {
        try container.encode(value, forKey: AnyKey(name))
      }
    }
  }
}

/// Any JSON key.
package struct AnyKey: CodingKey {
  package var stringValue: String
  package var intValue: Int? { nil }
  package init(_ string: String) { self.stringValue = string }
  package init?(stringValue: String) { self.stringValue = stringValue }
  package init?(intValue: Int) { nil }
}
