import ComposableArchitecture
import Foundation
import JSON

/// One feature's part of the web API: the user actions it accepts, its part of the state, and
/// its section of the page.
///
/// A feature that wants to be reachable from the page gets a web adapter folder
/// (`Modules/Frontends/Adapters/<Feature>/Web`): a type conforming to this protocol, written
/// against the feature alone, and its section's markup and module in `Public/`
/// (``PageSection``). The app registers it with one line in its `webAPI`, and a preview server
/// serves it alone:
///
/// ```swift
/// enum CounterListPage: WebFeature {
///   static let section: PageSection? = PageSection(id: "counters", title: "Counters", bundle: .module)
///   static let routes: [WebRoute<CounterList>] = [
///     WebRoute("counter.add") { _ in .addCounterButtonTapped },
///     WebRoute("counter.increment", ["id": "a counter id, a UUID string"]) { fields in
///       try fields.uuid("id")
///     } resolve: { id, state in
///       try counter(id, .incrementButtonTapped, in: state)
///     },
///   ]
///
///   struct View: Codable, Equatable, Sendable { var counters: [CounterView] }
///   static func view(of state: CounterList.State) -> View { … }
/// }
/// ```
///
/// The routes are the action catalogue (`GET /api/actions`); the view's keys are the feature's
/// top-level keys of the state JSON, and its type is its part of the state's JSON Schema
/// (`GET /api/state-schema`). Two features may not claim the same action type or state key.
public protocol WebFeature: SendableMetatype {
  /// The reducer whose state and actions the routes and the view work on (the app's root).
  associatedtype Root: Reducer
  /// The feature's part of the state JSON: its keys sit at the top level of the state object.
  /// Equatable, so that a state change re-encodes only the views it changed.
  associatedtype View: Codable & Equatable & Sendable

  /// The user actions this feature accepts.
  static var routes: [WebRoute<Root>] { get }

  /// This feature's part of what the page shows.
  static func view(of state: Root.State) -> View

  /// The feature's section of the page: its markup and its module. `nil` (the default) for a
  /// part without a section of its own, such as an app's frame (its greeting and tab bar).
  static var section: PageSection? { get }
}

extension WebFeature {
  public static var section: PageSection? { nil }
}

/// One user action the API accepts: its `type`, its fields with what each must be, how the fields
/// are read, and the root action it stands for in a given state.
///
/// Reading (`read`) happens when the request body is decoded and may only look at the fields: a
/// missing or malformed field is a 400. Resolving (`resolve`) happens on the session's store, with
/// its current state: naming something that does not exist, or what is not shown now, is an
/// ``ActionRefusal`` (answered 422 or 409), and
/// nothing is sent then.
public struct WebRoute<Root: Reducer>: Sendable {
  /// The catalogue entry: the `type` and the fields it takes.
  public let description: ActionDescription
  package let check: @Sendable (ActionFields) throws(DecodingFailure) -> Void
  package let resolve: @Sendable (ActionFields, Root.State) throws(ActionRefusal) -> Root.Action

  /// A route whose fields are read into a `Payload` and resolved with it.
  ///
  /// - Parameters:
  ///   - type: The action's `type`, `feature.verb` by convention (`counter.increment`).
  ///   - fields: Field name → what its value must be, as error messages and the catalogue say it.
  ///     A field not named here is refused.
  ///   - read: Reads the payload off the fields; throws the reader's failures (or its own, for a
  ///     constraint the reader does not know, such as a length).
  ///   - resolve: The root action for the payload in the current state.
  public init<Payload>(
    _ type: String, _ fields: [String: String] = [:],
    read: @escaping @Sendable (ActionFields) throws(DecodingFailure) -> Payload,
    resolve: @escaping @Sendable (Payload, Root.State) throws(ActionRefusal) -> Root.Action
  ) {
    self.description = ActionDescription(type: type, fields: fields)
    self.check = { fields throws(DecodingFailure) in _ = try read(fields) }
    self.resolve = { fields, state throws(ActionRefusal) in
      let payload: Payload
      do throws(DecodingFailure) {
        payload = try read(fields)
      } catch {
        // Fields are read once when the body is decoded; reading them again cannot fail.
        throw ActionRefusal.malformed(error.message)
      }
      return try resolve(payload, state)
    }
  }

  package init(
    description: ActionDescription,
    check: @escaping @Sendable (ActionFields) throws(DecodingFailure) -> Void,
    resolve: @escaping @Sendable (ActionFields, Root.State) throws(ActionRefusal) -> Root.Action
  ) {
    self.description = description
    self.check = check
    self.resolve = resolve
  }

  /// This route in a parent's domain: it reads the child's state at `toChildState` and its
  /// action is embedded with `embed`.
  package func lifted<Parent: Reducer>(
    state toChildState: KeyPath<Parent.State, Root.State> & Sendable,
    embed: @escaping @Sendable (Root.Action) -> Parent.Action
  ) -> WebRoute<Parent> {
    let resolve = self.resolve
    return WebRoute<Parent>(
      description: description, check: check,
      resolve: { fields, parent throws(ActionRefusal) in
        embed(try resolve(fields, parent[keyPath: toChildState]))
      })
  }

  /// A route without fields.
  public init(
    _ type: String,
    resolve: @escaping @Sendable (Root.State) throws(ActionRefusal) -> Root.Action
  ) {
    self.init(
      type, read: { _ in () }, resolve: { _, state throws(ActionRefusal) in try resolve(state) })
  }
}

/// One entry of the action catalogue: a `type` and the fields it takes, each with what its value
/// must be. `GET /api/actions` serves the whole catalogue, so that clients (the page and its
/// contract test) use no name the server does not accept.
public struct ActionDescription: Codable, Equatable, Sendable {
  /// The action's `type`.
  public var type: String
  /// Field name → what its value must be.
  public var fields: [String: String]

  public init(type: String, fields: [String: String] = [:]) {
    self.type = type
    self.fields = fields
  }
}

/// Why a request body is not a user action; ``message`` is meant for the person calling the API.
public struct DecodingFailure: Error, Equatable, Sendable, CustomStringConvertible {
  /// What was wrong, e.g. `missing field 'id' (a counter id, a UUID string) for 'counter.increment'`.
  public var message: String

  /// Creates a failure with its message.
  public init(_ message: String) {
    self.message = message
  }

  public var description: String { message }
}

/// The fields of one action object, read with messages that name the field, what it must be (as
/// the route declares it) and the action.
public struct ActionFields: Sendable {
  package let members: [String: JSONValue]
  package let description: ActionDescription

  private var suffix: String { description.type.isEmpty ? "" : " for '\(description.type)'" }

  /// The field `name` as a value of a JSON type (`String`, `Bool`, `Int`, `UUID`).
  ///
  /// `expecting` says what the value must be when that depends on another field; by default the
  /// route's declaration says it.
  public func value<Value: JSONFieldValue>(
    _ name: String, as _: Value.Type = Value.self, expecting: String? = nil
  ) throws(DecodingFailure) -> Value {
    let expected = expecting ?? description.fields[name] ?? "a value"
    guard let json = members[name] else {
      throw DecodingFailure("missing field '\(name)' (\(expected))\(suffix)")
    }
    guard let value = Value(json: json) else {
      throw DecodingFailure("field '\(name)' must be \(expected)\(suffix)")
    }
    return value
  }

  /// The field `name` as a UUID written as a string.
  public func uuid(_ name: String) throws(DecodingFailure) -> UUID {
    try value(name)
  }

  /// The field `name` as one of the raw values of `Value`.
  public func choice<Value: RawRepresentable>(
    _ name: String, _: Value.Type = Value.self, expecting: String? = nil
  ) throws(DecodingFailure) -> Value where Value.RawValue == String {
    let raw: String = try value(name, expecting: expecting)
    guard let choice = Value(rawValue: raw) else {
      let expected = expecting ?? description.fields[name] ?? "a known value"
      throw DecodingFailure("field '\(name)' must be \(expected), not '\(raw.prefix(64))'\(suffix)")
    }
    return choice
  }
}

/// A type a field of an action can have.
public protocol JSONFieldValue {
  init?(json: JSONValue)
}

extension String: JSONFieldValue {
  public init?(json: JSONValue) {
    guard let text = json.string else { return nil }
    self = text
  }
}

extension Bool: JSONFieldValue {
  public init?(json: JSONValue) {
    guard let value = json.bool else { return nil }
    self = value
  }
}

extension Int: JSONFieldValue {
  public init?(json: JSONValue) {
    guard let value = json.int else { return nil }
    self = value
  }
}

extension UUID: JSONFieldValue {
  public init?(json: JSONValue) {
    // The usual form is read over the bytes; anything else as Foundation reads it, which on
    // Linux is `sscanf` (1% of app-server's CPU for one id per action) and lets a few odd forms
    // through (a space or a `-` inside a pair of digits), which stay accepted.
    guard let text = json.string,
      let id = UUID(hyphenated: text) ?? UUID(uuidString: text)
    else { return nil }
    self = id
  }

  /// The usual form of a UUID: 36 characters, 32 hexadecimal digits of either case in groups of
  /// 8, 4, 4, 4 and 12 separated by `-`.
  init?(hyphenated text: String) {
    var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    let parsed = withUnsafeMutableBytes(of: &bytes) { out -> Bool in
      var utf8 = text.utf8.makeIterator()
      var count = 0
      var index = 0
      while index < 16 {
        if count == 8 || count == 13 || count == 18 || count == 23 {
          guard utf8.next() == UInt8(ascii: "-") else { return false }
          count += 1
          continue
        }
        guard let high = utf8.next().flatMap(Self.hexValue),
          let low = utf8.next().flatMap(Self.hexValue)
        else { return false }
        out[index] = high << 4 | low
        index += 1
        count += 2
      }
      return utf8.next() == nil
    }
    guard parsed else { return nil }
    self.init(uuid: bytes)
  }

  private static func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
