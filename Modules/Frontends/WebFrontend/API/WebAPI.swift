import ComposableArchitecture
import Foundation
import JSON

/// The web API of a root reducer, put together from the ``WebFeature``s registered with it: the
/// action catalogue, decoding and resolving user actions, the state JSON and its schema.
///
/// The app's (`webAPI`, in `Apps/AppWeb`) is the one place that lists its features.
/// Every feature adds its routes and its keys of the state; the server itself knows no feature:
/// it is handed the API inside a ``WebApp``.
///
/// ```swift
/// let api = WebAPI<Home>([.feature(CounterListPage.self), .feature(SearchPage.self)])
/// let action = try api.decode(Data(#"{"type":"counter.add"}"#.utf8))
/// store.send(try api.rootAction(for: action, in: store.state))
/// let json = api.stateJSON(store.state)   // {"counters":[…],"search":{…}}
/// ```
public struct WebAPI<Root: Reducer>: Sendable {
  /// One registered feature, with its feature type erased.
  public struct Part: Sendable {
    let name: String
    let routes: [WebRoute<Root>]
    /// The part's view and members of the state JSON, or `nil` when its view equals the
    /// previous one.
    let encode: @Sendable (Root.State, _ previous: PartView?) throws -> EncodedPart?
    let schema: @Sendable () throws -> [String: Any]
    /// The feature's section of the page, if it has one.
    let section: PageSection?

    /// The part of `feature`.
    public static func feature<Feature: WebFeature>(_ feature: Feature.Type) -> Part
    where Feature.Root == Root {
      Part(
        name: String(describing: feature),
        routes: feature.routes,
        encode: { state, previous in
          try EncodedPart.of(Feature.view(of: state), after: previous)
        },
        schema: { try JSONSchema.of(Feature.View.self) },
        section: feature.section)
    }

    /// The part of `feature`, whose feature the root holds at `state` and whose actions it wraps
    /// in the case `action` (what the root's `Scope(state:action:)` names for the same child).
    ///
    /// The feature's routes read the feature's state and answer its actions, embedded in the
    /// root's; its view is made from the feature's state. So an adapter written against its
    /// feature alone serves the app and any other root that holds the feature.
    public static func feature<Feature: WebFeature>(
      _ feature: Feature.Type,
      state toChildState: KeyPath<Root.State, Feature.Root.State> & Sendable,
      action toChildAction: CaseKeyPath<Root.Action, Feature.Root.Action>
    ) -> Part where Root.Action: CasePathable {
      // Case key paths are immutable values; they are not declared `Sendable`.
      nonisolated(unsafe) let toChildAction = toChildAction
      return Part(
        name: String(describing: feature),
        routes: feature.routes.map { route in
          route.lifted(state: toChildState) { toChildAction($0) }
        },
        encode: { state, previous in
          try EncodedPart.of(Feature.view(of: state[keyPath: toChildState]), after: previous)
        },
        schema: { try JSONSchema.of(Feature.View.self) },
        section: feature.section)
    }
  }

  private let parts: [Part]
  private let routes: [String: WebRoute<Root>]
  /// Every action the API accepts, with its fields, in the order the features were registered.
  public let catalogue: [ActionDescription]
  /// The JSON Schema of the state JSON: every feature's view, merged into one object.
  public let schema: Data
  /// The sections of the page, one per feature that has one, in the order of registration.
  public var sections: [PageSection] { parts.compactMap(\.section) }

  /// The API of `parts`.
  ///
  /// - Precondition: no two parts route the same action type or claim the same state key; every
  ///   part's view has a shape ``JSONSchema`` describes. These are mistakes in the registration,
  ///   found the first time the API is built (at start, and by the tests).
  public init(_ parts: [Part], title: String = "The state of a session") {
    self.parts = parts
    var routes: [String: WebRoute<Root>] = [:]
    var catalogue: [ActionDescription] = []
    var properties: [String: Any] = [:]
    var required: Set<String> = []
    // Which part routes each action type, and which claims each state key.
    var typeOwners: [String: String] = [:]
    var keyOwners: [String: String] = [:]
    for part in parts {
      for route in part.routes {
        let type = route.description.type
        if let owner = typeOwners[type] {
          preconditionFailure("\(part.name) routes '\(type)', which \(owner) routes")
        }
        typeOwners[type] = part.name
        routes[type] = route
        catalogue.append(route.description)
      }
      let schema: [String: Any]
      do {
        schema = try part.schema()
      } catch {
        preconditionFailure("\(part.name).View has a shape JSONSchema cannot describe: \(error)")
      }
      for (key, property) in schema["properties"] as? [String: Any] ?? [:] {
        if let owner = keyOwners[key] {
          preconditionFailure("\(part.name) claims the state key '\(key)', which \(owner) claims")
        }
        keyOwners[key] = part.name
        properties[key] = property
      }
      required.formUnion(schema["required"] as? [String] ?? [])
    }
    self.routes = routes
    self.catalogue = catalogue
    let document: [String: Any] = [
      "$schema": "https://json-schema.org/draft/2020-12/schema", "title": title,
      "type": "object", "properties": properties, "required": required.sorted(),
      "additionalProperties": false,
    ]
    do {
      self.schema = try JSONSerialization.data(
        withJSONObject: document, options: [.sortedKeys, .prettyPrinted])
    } catch {
      preconditionFailure("the state schema is not JSON: \(error)")
    }
  }

  /// Every `type` the API accepts.
  public var types: [String] { catalogue.map(\.type) }

  /// Decodes an action from a request body, with a message for every way it can be wrong.
  ///
  /// The body is parsed strictly first (``JSONValue``: UTF-8, RFC 8259, no duplicate keys, at
  /// most ``JSONValue/Limits/maximumDepth`` levels); then the `type` picks a route, which reads
  /// its fields; a field the route does not declare is refused. So what is accepted is exactly
  /// what the catalogue documents.
  public func decode(_ data: some Collection<UInt8>) throws(DecodingFailure) -> UserAction {
    let document: JSONValue
    do {
      document = try JSONValue.parse(data)
    } catch {
      throw DecodingFailure("the body is not valid JSON: \(error.message)")
    }
    guard var members = document.object else {
      throw DecodingFailure("the body must be a JSON object with a \"type\" field")
    }
    let description = ActionDescription(type: "", fields: ["type": "a string naming the action"])
    let typeField = ActionFields(members: members, description: description)
    let type: String = try typeField.value("type")
    guard let route = routes[type] else {
      throw DecodingFailure(
        "unknown action type '\(type.prefix(64))'; expected one of: \(types.joined(separator: ", "))"
      )
    }
    members["type"] = nil
    let fields = ActionFields(members: members, description: route.description)
    try route.check(fields)
    if let extra = members.keys.filter({ route.description.fields[$0] == nil }).min() {
      throw DecodingFailure("unknown field '\(extra.prefix(64))' for '\(type)'")
    }
    return UserAction(type, members)
  }

  /// The root action `action` stands for in `state`.
  ///
  /// - Throws: ``ActionRefusal``: invalid (422) when the action names something `state` does not have (a
  ///   counter, an episode, a search result), 409 when it answers something not shown (a
  ///   confirmation, an alert), malformed (400) for an action that did not come from ``decode(_:)``.
  public func rootAction(for action: UserAction, in state: Root.State) throws(ActionRefusal)
    -> Root.Action
  {
    guard let route = routes[action.type] else {
      throw ActionRefusal.malformed("unknown action type '\(action.type.prefix(64))'")
    }
    return try route.resolve(
      ActionFields(members: action.fields, description: route.description), state)
  }

  /// The state as the page reads it: one JSON object with every feature's keys.
  public func stateJSON(_ state: Root.State) -> Data {
    stateJSON(state, after: nil)?.data ?? Data("{}".utf8)
  }

  /// The state JSON of `state`, or `nil` when it is the same as `previous`.
  ///
  /// Only the features whose view changed since `previous` are encoded again; the others' JSON
  /// is copied from `previous`. An action touches one feature or two, so a change costs the
  /// encoding of those.
  ///
  /// The object is written between `prefix` and `suffix`, into one buffer of exactly the size it
  /// needs: a caller that sends the state inside an envelope (`{"revision":3,"state":…}`) keeps
  /// one copy of it, and the next call reads the unchanged features from that same buffer.
  public func stateJSON(
    _ state: Root.State, after previous: StateJSON?, prefix: Data = Data(), suffix: Data = Data()
  ) -> StateJSON? {
    // The views `previous` was written from; none after ``StateJSON/compacted()``: then every
    // part is encoded again, and a part whose bytes are the same is no change.
    let known = previous?.views ?? []
    var views: [PartView] = []
    views.reserveCapacity(parts.count)
    // The new members of each part that changed; `nil` keeps the previous bytes.
    var fresh: [Data?] = []
    fresh.reserveCapacity(parts.count)
    var changed = previous == nil
    for (index, part) in parts.enumerated() {
      let view = known.isEmpty ? nil : known[index]
      let encoded: EncodedPart?
      do {
        encoded = try part.encode(state, view)
      } catch {
        // Views are plain values; a failure here is a bug in a feature's view, not bad input.
        preconditionFailure("\(part.name).View could not be encoded: \(error)")
      }
      guard let encoded else {
        // Unchanged: `encode` answers `nil` only when given a view equal to the new one.
        views.append(view!)
        fresh.append(nil)
        continue
      }
      views.append(encoded.view)
      if view == nil, let previous, encoded.members == previous.data[previous.members[index]] {
        fresh.append(nil)
      } else {
        changed = true
        fresh.append(encoded.members)
      }
    }
    guard changed else { return nil }
    // Each part's members: the fresh encoding, or the previous bytes.
    let members = parts.indices.map { index in
      fresh[index] ?? previous.map { $0.data[$0.members[index]] } ?? Data()
    }
    // The braces, the members and a comma after each but the last.
    let size = members.reduce(prefix.count + 2 + suffix.count) { size, bytes in
      bytes.isEmpty ? size : size + bytes.count + 1
    }
    var data = Data()
    data.reserveCapacity(size)
    data.append(prefix)
    let objectStart = data.count
    data.append(UInt8(ascii: "{"))
    var ranges: [Range<Int>] = []
    ranges.reserveCapacity(parts.count)
    for bytes in members {
      if !bytes.isEmpty, data.count > objectStart + 1 { data.append(UInt8(ascii: ",")) }
      let start = data.count
      data.append(bytes)
      ranges.append(start..<data.count)
    }
    data.append(UInt8(ascii: "}"))
    let object = objectStart..<data.count
    data.append(suffix)
    return StateJSON(views: views, members: ranges, data: data, object: object)
  }
}

/// A state's JSON as ``WebAPI`` wrote it, with each feature's view and where its members are,
/// so that the next state re-encodes only what changed.
public struct StateJSON: Sendable {
  /// Each part's view, in the order the parts were registered; none once ``compacted()``.
  package let views: [PartView]
  /// Where each part's members are in ``data`` (an empty range for a part without members).
  package let members: [Range<Int>]
  /// The JSON object, between the prefix and the suffix it was written with.
  public let data: Data
  /// Where the JSON object is in ``data``.
  public let object: Range<Int>

  /// The same JSON without the views kept to compare the next state with: what a session that
  /// waits for its visitor needs. The next state is then encoded in full once, and compared by
  /// its bytes.
  public func compacted() -> StateJSON {
    StateJSON(views: [], members: members, data: data, object: object)
  }

  /// Whether the views are gone (``compacted()``).
  public var isCompacted: Bool { views.isEmpty }
}

/// One feature's view and its members of the state JSON.
package struct EncodedPart: Sendable {
  package let view: PartView
  package let members: Data

  /// `view`'s part, or `nil` when it equals the view in `previous`, which the same part made.
  package static func of<View: Codable & Equatable & Sendable>(
    _ view: View, after previous: PartView?
  )
    throws -> EncodedPart?
  {
    if let previous {
      // Each part is handed back only the views it made (``StateJSON/views`` is indexed by
      // part), so the box is known to hold a `View`: no dynamic cast per part and state.
      assert(previous is TypedPartView<View>, "a part was handed another part's view")
      if unsafeDowncast(previous, to: TypedPartView<View>.self).view == view { return nil }
    }
    // `{"counters":[…],"removalConfirmation":…}` without its braces: the members.
    let object = try JSONWriter.encode(view)
    return EncodedPart(view: TypedPartView(view), members: object.dropFirst().dropLast())
  }
}

/// A part's view as ``StateJSON`` keeps it to compare the next state's with: an object, so that
/// an unchanged view is kept by a retain, not copied into a new existential box.
package class PartView: @unchecked Sendable {}

/// A ``PartView`` of one view type. Immutable.
package final class TypedPartView<View: Sendable>: PartView, @unchecked Sendable {
  package let view: View

  package init(_ view: View) {
    self.view = view
  }
}
