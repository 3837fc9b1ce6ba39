import AppFeature
import Foundation
import SettingsFeature
import WeatherClient

/// One thing a visitor did on the page, in the JSON form the API accepts.
///
/// Only user actions have a JSON form: effect responses (`searchResponse`, `factResponse`,
/// `timerTicked`, …) cannot be sent by a client because there is no case for them. Every case is
/// an object with a `type` and the fields that type needs:
///
/// ```json
/// {"type": "counter.increment", "id": "9A1C…"}
/// {"type": "search.query", "query": "Seoul"}
/// {"type": "settings.set", "field": "displayName", "value": "Blob"}
/// ```
///
/// Decoding never guesses: a missing field, a field of the wrong type, or an unknown `type`
/// throws a ``UserAction/DecodingFailure`` whose message names the problem.
public enum UserAction: Equatable, Sendable {
  /// `{"type":"tab.select","tab":"search"}` — one of `counters`, `search`, `settings`, `episodes`.
  case selectTab(AppFeature.Tab)
  /// `{"type":"counter.add"}`
  case addCounter
  /// `{"type":"counter.remove","id":"<uuid>"}` — asks for confirmation (`removalConfirmation`).
  case removeCounter(id: UUID)
  /// `{"type":"counter.confirmRemove"}` — the Remove button of the confirmation.
  case confirmRemoveCounter
  /// `{"type":"counter.cancelRemove"}` — the Cancel button of the confirmation.
  case cancelRemoveCounter
  /// `{"type":"counter.increment","id":"<uuid>"}`
  case incrementCounter(id: UUID)
  /// `{"type":"counter.decrement","id":"<uuid>"}`
  case decrementCounter(id: UUID)
  /// `{"type":"counter.fact","id":"<uuid>"}`
  case requestFact(id: UUID)
  /// `{"type":"counter.random","id":"<uuid>"}`
  case requestRandomNumber(id: UUID)
  /// `{"type":"counter.timer","id":"<uuid>"}` — turns the counter's timer on or off.
  case toggleTimer(id: UUID)
  /// `{"type":"search.query","query":"Seoul"}` — the query as typed; searched after 300 ms of
  /// stillness.
  case changeSearchQuery(String)
  /// `{"type":"search.submit"}` — searches the current query now (the Enter key).
  case submitSearch
  /// `{"type":"search.select","id":1835848}` — a result of the current search, by its id.
  case selectSearchResult(id: Int)
  /// `{"type":"settings.set","field":"<name>","value":<value>}`
  case changeSetting(SettingChange)
  /// `{"type":"settings.reset"}` — asks for confirmation (`settings.resetConfirmation`).
  case resetSettings
  /// `{"type":"settings.confirmReset"}` — the Reset button of the confirmation.
  case confirmResetSettings
  /// `{"type":"settings.cancelReset"}` — the Cancel button of the confirmation.
  case cancelResetSettings
  /// `{"type":"episode.favorite","id":"<uuid>"}`
  case toggleFavorite(episodeID: UUID)
  /// `{"type":"episode.dismissAlert","id":"<uuid>"}` — the OK button of the failure alert.
  case dismissFavoriteAlert(episodeID: UUID)
  /// `{"type":"episode.open","id":"<uuid>"}` — pushes the episode's screen.
  case openEpisode(id: UUID)
  /// `{"type":"screen.favorite"}` — the favorite button of the episode screen on top.
  case toggleScreenFavorite
  /// `{"type":"screen.dismissAlert"}` — the OK button of the top screen's failure alert.
  case dismissScreenAlert
  /// `{"type":"screen.close"}` — the top screen closes itself.
  case closeScreen

  /// The longest search query accepted, in characters.
  public static let maximumQueryLength = 200

  /// One entry of the action catalogue: a `type` and the fields it takes, each with what its
  /// value must be. `GET /api/actions` serves the whole catalogue, so that clients (the page and
  /// its contract test) use no name the server does not accept.
  public struct Description: Codable, Equatable, Sendable {
    /// The action's `type`.
    public var type: String
    /// Field name → what its value must be.
    public var fields: [String: String]

    init(_ type: String, _ fields: [String: String] = [:]) {
      self.type = type
      self.fields = fields
    }
  }

  /// Every action the API accepts, with its fields.
  public static let catalogue: [Description] = {
    let counter = ["id": "a counter id, a UUID string"]
    let episode = ["id": "an episode id, a UUID string"]
    return [
      Description("tab.select", ["tab": "one of counters, search, settings, episodes"]),
      Description("counter.add"),
      Description("counter.remove", counter),
      Description("counter.confirmRemove"),
      Description("counter.cancelRemove"),
      Description("counter.increment", counter),
      Description("counter.decrement", counter),
      Description("counter.fact", counter),
      Description("counter.random", counter),
      Description("counter.timer", counter),
      Description("search.query", ["query": "a string of at most 200 characters"]),
      Description("search.submit"),
      Description("search.select", ["id": "the integer id of a search result"]),
      Description(
        "settings.set",
        ["field": "the name of a setting", "value": "the setting's value (see SettingChange)"]),
      Description("settings.reset"),
      Description("settings.confirmReset"),
      Description("settings.cancelReset"),
      Description("episode.favorite", episode),
      Description("episode.open", episode),
      Description("screen.favorite"),
      Description("screen.dismissAlert"),
      Description("screen.close"),
      Description("episode.dismissAlert", episode),
    ]
  }()

  /// Every `type` the API accepts, for error messages and documentation.
  public static let types = catalogue.map(\.type)

  /// The `type` of this action in its JSON form.
  public var type: String {
    switch self {
    case .selectTab: "tab.select"
    case .addCounter: "counter.add"
    case .removeCounter: "counter.remove"
    case .confirmRemoveCounter: "counter.confirmRemove"
    case .cancelRemoveCounter: "counter.cancelRemove"
    case .incrementCounter: "counter.increment"
    case .decrementCounter: "counter.decrement"
    case .requestFact: "counter.fact"
    case .requestRandomNumber: "counter.random"
    case .toggleTimer: "counter.timer"
    case .changeSearchQuery: "search.query"
    case .submitSearch: "search.submit"
    case .selectSearchResult: "search.select"
    case .changeSetting: "settings.set"
    case .resetSettings: "settings.reset"
    case .confirmResetSettings: "settings.confirmReset"
    case .cancelResetSettings: "settings.cancelReset"
    case .toggleFavorite: "episode.favorite"
    case .dismissFavoriteAlert: "episode.dismissAlert"
    case .openEpisode: "episode.open"
    case .toggleScreenFavorite: "screen.favorite"
    case .dismissScreenAlert: "screen.dismissAlert"
    case .closeScreen: "screen.close"
    }
  }
}

/// A new value for one field of the settings form: the payload of `settings.set`.
///
/// `field` names a property of `Settings.State`; `value` has that property's JSON type:
///
/// | field | value |
/// |---|---|
/// | `digest` | `"daily"`, `"weekly"` or `"off"` |
/// | `displayName` | a string (validated by the feature: trimmed, at most 32 characters) |
/// | `enableNotifications`, `sendEmailNotifications`, `sendMobileNotifications`, `protectMyPosts`, `isHapticFeedbackEnabled` | `true` or `false` |
/// | `temperatureUnit` | `"celsius"` or `"fahrenheit"` |
public enum SettingChange: Equatable, Sendable {
  case digest(Settings.Digest)
  case displayName(String)
  case enableNotifications(Bool)
  case sendEmailNotifications(Bool)
  case sendMobileNotifications(Bool)
  case protectMyPosts(Bool)
  case isHapticFeedbackEnabled(Bool)
  case temperatureUnit(TemperatureUnit)

  /// Every settable field, for error messages.
  public static let fields = [
    "digest", "displayName", "enableNotifications", "sendEmailNotifications",
    "sendMobileNotifications", "protectMyPosts", "isHapticFeedbackEnabled", "temperatureUnit",
  ]

  /// The longest display name accepted before the feature's own validation, in characters.
  ///
  /// The feature caps names at 32 characters and explains why; this bound only keeps absurd
  /// inputs out.
  public static let maximumDisplayNameInputLength = 256

  /// The field's name in the JSON form.
  public var field: String {
    switch self {
    case .digest: "digest"
    case .displayName: "displayName"
    case .enableNotifications: "enableNotifications"
    case .sendEmailNotifications: "sendEmailNotifications"
    case .sendMobileNotifications: "sendMobileNotifications"
    case .protectMyPosts: "protectMyPosts"
    case .isHapticFeedbackEnabled: "isHapticFeedbackEnabled"
    case .temperatureUnit: "temperatureUnit"
    }
  }
}

// MARK: - JSON

extension UserAction: Encodable {
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

  /// Decodes an action from a request body, with a message for every way it can be wrong.
  ///
  /// The body is parsed strictly first (``JSONValue``: UTF-8, RFC 8259, no duplicate keys, at
  /// most ``JSONValue/Limits/maximumDepth`` levels), and fields the action does not have are
  /// refused, so what is accepted is exactly what is documented.
  ///
  /// ```swift
  /// let action = try UserAction.decode(Data(#"{"type":"counter.add"}"#.utf8))
  /// ```
  public static func decode(_ data: some Collection<UInt8>) throws(DecodingFailure) -> UserAction {
    let document: JSONValue
    do {
      document = try JSONValue.parse(data)
    } catch {
      throw DecodingFailure("the body is not valid JSON: \(error.message)")
    }
    guard let members = document.object else {
      throw DecodingFailure("the body must be a JSON object with a \"type\" field")
    }
    return try UserAction(members)
  }

  private init(_ members: [String: JSONValue]) throws(DecodingFailure) {
    let type: String = try Fields(members, type: nil).required("type", "a string naming the action")
    let payload = Fields(members, type: type)
    switch type {
    case "tab.select":
      self = .selectTab(
        try payload.choice(
          "tab", AppFeature.Tab.self, "one of counters, search, settings, episodes"))
    case "counter.add":
      self = .addCounter
    case "counter.remove":
      self = .removeCounter(id: try payload.counterID())
    case "counter.confirmRemove":
      self = .confirmRemoveCounter
    case "counter.cancelRemove":
      self = .cancelRemoveCounter
    case "counter.increment":
      self = .incrementCounter(id: try payload.counterID())
    case "counter.decrement":
      self = .decrementCounter(id: try payload.counterID())
    case "counter.fact":
      self = .requestFact(id: try payload.counterID())
    case "counter.random":
      self = .requestRandomNumber(id: try payload.counterID())
    case "counter.timer":
      self = .toggleTimer(id: try payload.counterID())
    case "search.query":
      let query: String = try payload.required("query", "a string")
      guard query.count <= Self.maximumQueryLength else {
        throw DecodingFailure(
          "field 'query' is too long: at most \(Self.maximumQueryLength) characters")
      }
      self = .changeSearchQuery(query)
    case "search.submit":
      self = .submitSearch
    case "search.select":
      self = .selectSearchResult(
        id: try payload.required("id", "the integer id of a search result"))
    case "settings.set":
      self = .changeSetting(try SettingChange(payload))
    case "settings.reset":
      self = .resetSettings
    case "settings.confirmReset":
      self = .confirmResetSettings
    case "settings.cancelReset":
      self = .cancelResetSettings
    case "episode.favorite":
      self = .toggleFavorite(episodeID: try payload.episodeID())
    case "episode.dismissAlert":
      self = .dismissFavoriteAlert(episodeID: try payload.episodeID())
    case "episode.open":
      self = .openEpisode(id: try payload.episodeID())
    case "screen.favorite":
      self = .toggleScreenFavorite
    case "screen.dismissAlert":
      self = .dismissScreenAlert
    case "screen.close":
      self = .closeScreen
    default:
      throw DecodingFailure(
        "unknown action type '\(type.prefix(64))'; expected one of: \(Self.types.joined(separator: ", "))"
      )
    }
    try payload.refuseUnread()
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: Key.self)
    try container.encode(type, forKey: Key("type"))
    switch self {
    case .selectTab(let tab):
      try container.encode(tab, forKey: Key("tab"))
    case .addCounter, .confirmRemoveCounter, .cancelRemoveCounter, .submitSearch, .resetSettings,
      .confirmResetSettings, .cancelResetSettings,
      .toggleScreenFavorite, .dismissScreenAlert,
      .closeScreen:
      break
    case .removeCounter(let id), .incrementCounter(let id), .decrementCounter(let id),
      .requestFact(let id), .requestRandomNumber(let id), .toggleTimer(let id),
      .toggleFavorite(let id), .dismissFavoriteAlert(let id), .openEpisode(let id):
      try container.encode(id, forKey: Key("id"))
    case .changeSearchQuery(let query):
      try container.encode(query, forKey: Key("query"))
    case .selectSearchResult(let id):
      try container.encode(id, forKey: Key("id"))
    case .changeSetting(let change):
      try container.encode(change.field, forKey: Key("field"))
      switch change {
      case .digest(let digest): try container.encode(digest, forKey: Key("value"))
      case .displayName(let name): try container.encode(name, forKey: Key("value"))
      case .enableNotifications(let value), .sendEmailNotifications(let value),
        .sendMobileNotifications(let value), .protectMyPosts(let value),
        .isHapticFeedbackEnabled(let value):
        try container.encode(value, forKey: Key("value"))
      case .temperatureUnit(let unit): try container.encode(unit, forKey: Key("value"))
      }
    }
  }
}

extension SettingChange {
  fileprivate init(_ payload: Fields) throws(UserAction.DecodingFailure) {
    let field: String = try payload.required(
      "field", "the name of a setting (\(Self.fields.joined(separator: ", ")))")
    let yesNo = "true or false"
    switch field {
    case "digest":
      self = .digest(try payload.choice("value", Settings.Digest.self, "one of daily, weekly, off"))
    case "displayName":
      let name: String = try payload.required("value", "a string")
      guard name.count <= Self.maximumDisplayNameInputLength else {
        throw UserAction.DecodingFailure(
          "field 'value' is too long for displayName: at most \(Self.maximumDisplayNameInputLength) characters"
        )
      }
      self = .displayName(name)
    case "enableNotifications":
      self = .enableNotifications(try payload.required("value", yesNo))
    case "sendEmailNotifications":
      self = .sendEmailNotifications(try payload.required("value", yesNo))
    case "sendMobileNotifications":
      self = .sendMobileNotifications(try payload.required("value", yesNo))
    case "protectMyPosts":
      self = .protectMyPosts(try payload.required("value", yesNo))
    case "isHapticFeedbackEnabled":
      self = .isHapticFeedbackEnabled(try payload.required("value", yesNo))
    case "temperatureUnit":
      self = .temperatureUnit(
        try payload.choice("value", TemperatureUnit.self, "one of celsius, fahrenheit"))
    default:
      throw UserAction.DecodingFailure(
        "unknown setting '\(field.prefix(64))'; expected one of: \(Self.fields.joined(separator: ", "))"
      )
    }
  }
}

/// Any JSON key.
private struct Key: CodingKey {
  var stringValue: String
  var intValue: Int? { nil }
  init(_ string: String) { self.stringValue = string }
  init?(stringValue: String) { self.stringValue = stringValue }
  init?(intValue: Int) { nil }
}

/// A JSON type a field of an action can have.
private protocol FieldValue {
  init?(_ json: JSONValue)
}

extension String: FieldValue {
  init?(_ json: JSONValue) {
    guard let text = json.string else { return nil }
    self = text
  }
}

extension Bool: FieldValue {
  init?(_ json: JSONValue) {
    guard let value = json.bool else { return nil }
    self = value
  }
}

extension Int: FieldValue {
  init?(_ json: JSONValue) {
    guard let value = json.int else { return nil }
    self = value
  }
}

extension UUID: FieldValue {
  init?(_ json: JSONValue) {
    guard let text = json.string, let id = UUID(uuidString: text) else { return nil }
    self = id
  }
}

/// Reads the fields of one action object, with messages that name the field and the action, and
/// remembers which were read so that the rest can be refused.
private final class Fields {
  let members: [String: JSONValue]
  let type: String?
  private var read: Set<String>

  init(_ members: [String: JSONValue], type: String?) {
    self.members = members
    self.type = type
    self.read = type == nil ? [] : ["type"]
  }

  private var suffix: String { type.map { " for '\($0)'" } ?? "" }

  func required<Value: FieldValue>(
    _ name: String, _ expected: String
  ) throws(UserAction.DecodingFailure) -> Value {
    read.insert(name)
    guard let json = members[name] else {
      throw UserAction.DecodingFailure("missing field '\(name)' (\(expected))\(suffix)")
    }
    guard let value = Value(json) else {
      throw UserAction.DecodingFailure("field '\(name)' must be \(expected)\(suffix)")
    }
    return value
  }

  func choice<Value: RawRepresentable>(
    _ name: String, _: Value.Type, _ expected: String
  ) throws(UserAction.DecodingFailure) -> Value where Value.RawValue == String {
    let raw: String = try required(name, expected)
    guard let value = Value(rawValue: raw) else {
      throw UserAction.DecodingFailure(
        "field '\(name)' must be \(expected), not '\(raw.prefix(64))'\(suffix)")
    }
    return value
  }

  func counterID() throws(UserAction.DecodingFailure) -> UUID {
    try required("id", "a counter id, a UUID string")
  }

  func episodeID() throws(UserAction.DecodingFailure) -> UUID {
    try required("id", "an episode id, a UUID string")
  }

  /// Refuses a field the action does not have.
  func refuseUnread() throws(UserAction.DecodingFailure) {
    guard let extra = members.keys.filter({ !read.contains($0) }).min() else { return }
    throw UserAction.DecodingFailure("unknown field '\(extra.prefix(64))'\(suffix)")
  }
}
