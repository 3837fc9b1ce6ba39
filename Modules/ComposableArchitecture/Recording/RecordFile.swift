import ComposableArchitecture
import Foundation
import JSON

/// The record file: a ``SessionRecord`` as JSON Lines, one fact per line, readable with a pager
/// or `jq`.
///
/// ```
/// {"record":"composable-session","version":1,"feature":"AppFeature","initialState":"AppFeature.State()","effects":"numbered at start"}
/// {"baseline":{…}}                    the state the expression makes in a test (optional)
/// {"start":{…}}                       the state when recording started
/// {"answer":"uuid","call":0,"type":"UUID","arguments":[],"returned":{"$uuid":"…"}}
/// {"step":1,"by":"user","time":0.0,"action":{…},"changes":[{"path":["count"],"value":1}]}
/// {"end":{"steps":1,"answers":1,"full":false,"effectsInFlight":0}}
/// ```
///
/// Each answer comes before the first step after it came back — answers are in the order they
/// came back, their `call` numbers say the order the calls were made in, so a slow call that
/// came back late does not hold up the answers of later calls; `effect` names the effect that
/// made it, as `effect` on a step names the effect that sent it, numbered in the order the steps
/// started them (`"effects":"numbered at start"`; records without it numbered effects when first
/// seen, and a replay of one gives each endpoint's answers in call order) — and each step lists
/// what changed in the state (see ``RecordedChange``), so a state is the start with every change
/// before it made.
/// Values are written as ``RecordedValue`` says: JSON scalars, arrays and objects for structs
/// (`{"$state":"Counter.State","id":…,"count":0}` for an `@ObservableState`, `$struct` for another), enum cases as `{"$case":"name",…}` (an
/// unlabeled payload value under `$0`, `$1`), and `$uuid`, `$date`, `$seconds`, `$shared`,
/// `$sharedReader`, `$identified`, `$stack`, `$binding`, `$text`, `$alert`, `$error`,
/// `$dictionary`, `$tuple`, `$unsupported` objects for the rest.
///
/// Reading checks everything and refuses a record that is truncated (no end line, or counts
/// that disagree, or a call number missing), reordered (steps out of order, a call twice),
/// edited into something that is not a record, or of another version, naming the line and the
/// reason.
public enum RecordFile {
  public static let format = "composable-session"
  public static let version = 1
  /// The header's `"effects"` when the recording numbered effects as they started
  /// (``SessionRecord/effectsNumberedAtStart``); a record without it numbered them when first
  /// seen.
  static let effectsNumberedAtStart = "numbered at start"

  /// The deepest nesting a record's line may have: a state is a tree of values, deeper than a
  /// request body ever is, and still bounded so that no file can exhaust the stack.
  static let maximumDepth = 512

  /// The record as JSON Lines (each line ends with a newline).
  public static func write(_ record: SessionRecord) -> String {
    var lines: [JSONValue] = []
    var header: [(String, JSONValue)] = [
      ("record", .string(format)), ("version", .number(String(version))),
      ("feature", .string(record.feature)),
    ]
    if let expression = record.initialStateExpression {
      header.append(("initialState", .string(expression)))
    }
    if record.effectsNumberedAtStart {
      header.append(("effects", .string(effectsNumberedAtStart)))
    }
    lines.append(.object(header))
    if let baseline = record.baseline {
      lines.append(.object([("baseline", baseline.json)]))
    }
    lines.append(.object([("start", record.initialState.json)]))
    // In the order they came back: by the step they came after, ties as given (an answer's
    // step count never decreases along the order answers are recorded in).
    var answers = record.answers.enumerated()
      .sorted { ($0.element.afterStep, $0.offset) < ($1.element.afterStep, $1.offset) }
      .map(\.element)[...]
    var state = record.initialState
    for (index, step) in record.steps.enumerated() {
      while let answer = answers.first, answer.afterStep <= index {
        lines.append(answer.json)
        answers.removeFirst()
      }
      lines.append(stepLine(number: index + 1, step, after: state))
      state = step.state
    }
    lines.append(contentsOf: answers.map(\.json))
    lines.append(
      .object([
        (
          "end",
          .object([
            ("steps", .number(String(record.steps.count))),
            ("answers", .number(String(record.answers.count))),
            ("full", .bool(record.isFull)),
            ("effectsInFlight", .number(String(record.effectsInFlight))),
          ])
        )
      ]))
    return lines.map { $0.text + "\n" }.joined()
  }

  /// The line of step `number`: who sent its action, when, the action, and what it changed in
  /// `previous` (the state before it).
  static func stepLine(
    number: Int, _ step: SessionRecord.Step, after previous: RecordedValue
  ) -> JSONValue {
    let changes = RecordedValue.changes(from: previous, to: step.state)
    var pairs: [(String, JSONValue)] = [
      ("step", .number(String(number))), ("by", .string(step.origin.rawValue)),
    ]
    if let effect = step.effect { pairs.append(("effect", .number(String(effect)))) }
    pairs += [
      ("time", JSONValue.number(step.time)), ("action", step.action.json),
      ("changes", .array(changes.map(\.json))),
    ]
    return .object(pairs)
  }

  /// Reads the record file at `path`, checking it whole: a folder, a file that cannot be read or
  /// is not UTF-8 is refused as the record would be, with the reason.
  public static func read(contentsOf path: String) throws(RecordFileError) -> SessionRecord {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
      throw RecordFileError(line: 0, reason: "\(path) is a folder, not a record file")
    }
    guard let data = FileManager.default.contents(atPath: path) else {
      let reason =
        FileManager.default.fileExists(atPath: path)
        ? "\(path) cannot be read (permission denied)" : "\(path) does not exist"
      throw RecordFileError(line: 0, reason: reason)
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw RecordFileError(line: 0, reason: "\(path) is not text (UTF-8)")
    }
    return try read(text)
  }

  /// Reads a record file, checking it whole. Lines may end with `\n` or `\r\n` (a file
  /// passed through an editor or a system that writes those).
  public static func read(_ text: String) throws(RecordFileError) -> SessionRecord {
    // "\r\n" is one Character in Swift: split on it as on "\n".
    var lines = text.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" }
      .map(String.init)
    if lines.last == "" { lines.removeLast() }
    var number = 0
    func fail(_ reason: String) -> RecordFileError {
      RecordFileError(line: number, reason: reason)
    }
    /// The optional number of the effect a step or an answer belongs to.
    func effectNumber(_ line: JSONValue) throws(RecordFileError) -> Int? {
      guard let value = line["effect"] else { return nil }
      guard case .number(let text) = value, let effect = Int(text), effect > 0 else {
        throw fail("\"effect\" must be a whole number from 1")
      }
      return effect
    }
    func next() throws(RecordFileError) -> JSONValue? {
      guard number < lines.count else { return nil }
      number += 1
      let line = lines[number - 1]
      do {
        return try JSONValue.parse(Array(line.utf8), maximumDepth: maximumDepth)
      } catch {
        throw fail("not JSON: \(error.reason) at column \(error.offset + 1)")
      }
    }

    guard lines.contains(where: { !$0.isEmpty }), let header = try next() else {
      throw RecordFileError(line: 0, reason: "the file is empty: there is no record in it")
    }
    guard header["record"] == .string(format) else {
      throw fail("not a session record (its first line has no \"record\":\"\(format)\")")
    }
    guard case .number(let versionText) = header["version"], let fileVersion = Int(versionText)
    else { throw fail("the record has no version") }
    guard fileVersion == version else {
      throw fail(
        "the record is of version \(fileVersion); this program reads version \(version)"
          + (fileVersion > version ? " (it was written by a newer one)" : ""))
    }
    guard case .string(let feature) = header["feature"] else {
      throw fail("the header names no feature")
    }
    var expression: String?
    if let value = header["initialState"] {
      guard case .string(let text) = value else { throw fail("\"initialState\" is not a string") }
      expression = text
    }
    var numberedAtStart = false
    if let value = header["effects"] {
      guard value == .string(effectsNumberedAtStart) else {
        throw fail("\"effects\" is not \"\(effectsNumberedAtStart)\"")
      }
      numberedAtStart = true
    }

    var line = try next()
    var baseline: RecordedValue?
    if let value = line?["baseline"] {
      baseline = try value.recordedValue(at: number)
      line = try next()
    }
    guard let startJSON = line?["start"] else {
      throw fail("expected the start state (a \"start\" line)")
    }
    let start = try startJSON.recordedValue(at: number)
    var state = start
    var steps: [SessionRecord.Step] = []
    var answers: [SessionRecord.Answer] = []
    var calls = Set<Int>()
    while let line = try next() {
      if let end = line["end"] {
        guard end["steps"] == .number(String(steps.count)),
          end["answers"] == .number(String(answers.count))
        else {
          throw fail(
            "the end line counts \(end["steps"]?.text ?? "?") steps and "
              + "\(end["answers"]?.text ?? "?") answers, but the record has \(steps.count) and "
              + "\(answers.count): lines are missing")
        }
        guard number == lines.count else {
          throw RecordFileError(line: number + 1, reason: "text after the end line")
        }
        if let missing = (0..<answers.count).first(where: { !calls.contains($0) }) {
          throw fail("the answer to call \(missing) is missing: lines are missing")
        }
        guard case .bool(let full) = end["full"],
          case .number(let inFlight) = end["effectsInFlight"], let effectsInFlight = Int(inFlight)
        else { throw fail("the end line is incomplete") }
        return SessionRecord(
          feature: feature, initialStateExpression: expression, baseline: baseline,
          initialState: start, steps: steps, answers: answers, isFull: full,
          effectsInFlight: effectsInFlight, effectsNumberedAtStart: numberedAtStart)
      } else if case .string(let name) = line["answer"] {
        guard case .number(let callText) = line["call"], let call = Int(callText) else {
          throw fail("an answer without its call number")
        }
        guard call >= 0, calls.insert(call).inserted else {
          throw fail("a second answer to call \(call): the record is out of order")
        }
        guard case .string(let type) = line["type"] else {
          throw fail("an answer without its \"type\"")
        }
        guard case .array(let arguments) = line["arguments"] ?? .array([]) else {
          throw fail("\"arguments\" is not an array")
        }
        let outcome: SessionRecord.Outcome
        if let returned = line["returned"] {
          outcome = .returned(try returned.recordedValue(at: number))
        } else if let threw = line["threw"] {
          outcome = .threw(try threw.recordedValue(at: number))
        } else {
          throw fail("an answer with neither \"returned\" nor \"threw\"")
        }
        answers.append(
          SessionRecord.Answer(
            call: call, name: name, type: type,
            arguments: try arguments.map { argument throws(RecordFileError) in
              try argument.recordedValue(at: number)
            },
            result: outcome, afterStep: steps.count, effect: try effectNumber(line)))
      } else if case .number(let stepText) = line["step"] {
        guard Int(stepText) == steps.count + 1 else {
          throw fail(
            "step \(stepText) where step \(steps.count + 1) was expected: the record is out of"
              + " order or has lines missing")
        }
        guard case .string(let by) = line["by"], let origin = SessionRecord.Origin(rawValue: by)
        else { throw fail("\"by\" must be \"user\" or \"effect\"") }
        guard case .number(let timeText) = line["time"], let time = Double(timeText),
          time >= (steps.last?.time ?? 0)
        else { throw fail("\"time\" is missing or earlier than the step before") }
        guard let action = line["action"] else { throw fail("a step without its action") }
        guard case .array(let changes) = line["changes"] else {
          throw fail("a step without its changes")
        }
        for change in changes {
          let change = try change.recordedChange(at: number)
          guard let changed = state.applying(change) else {
            throw fail(
              "a change at \(change.pathDescription) does not fit the state before it")
          }
          state = changed
        }
        steps.append(
          SessionRecord.Step(
            origin: origin, action: try action.recordedValue(at: number), state: state,
            time: time, effect: try effectNumber(line)))
      } else {
        throw fail("a line that is neither a step, an answer nor the end")
      }
    }
    throw RecordFileError(
      line: number, reason: "the record ends without its end line: it is truncated")
  }
}

/// Why a record file was refused: the line (from 1; 0 when it is about the file as a whole)
/// and the reason.
public struct RecordFileError: Error, Equatable, CustomStringConvertible {
  public var line: Int
  public var reason: String
  public var description: String { line == 0 ? reason : "line \(line): \(reason)" }
}

extension RecordedChange {
  var json: JSONValue {
    .object([
      (
        "path",
        .array(
          path.map {
            switch $0 {
            case .field(let name): .string(name)
            case .element(let id): .object([("id", id.json)])
            }
          })
      ),
      ("value", value.json),
    ])
  }

  /// The path as a person reads it: `counters[id: …].count`.
  public var pathDescription: String {
    path.isEmpty
      ? "the whole state"
      : path.map {
        switch $0 {
        case .field(let name): ".\(name)"
        case .element(let id): "[id: \(id.json.text)]"
        }
      }.joined()
  }
}

extension SessionRecord.Answer {
  var json: JSONValue {
    var pairs: [(String, JSONValue)] = [
      ("answer", .string(name)), ("call", .number(String(call))),
    ]
    if let effect { pairs.append(("effect", .number(String(effect)))) }
    pairs += [("type", .string(type)), ("arguments", .array(arguments.map(\.json)))]
    switch result {
    case .returned(let value): pairs.append(("returned", value.json))
    case .threw(let value): pairs.append(("threw", value.json))
    }
    return .object(pairs)
  }
}

extension RecordedValue {
  var json: JSONValue {
    switch self {
    case .null: .null
    case .bool(let value): .bool(value)
    case .integer(let digits): .number(digits)
    case .double(let value): JSONValue.number(value)
    case .string(let value): .string(value)
    case .uuid(let value): .object([("$uuid", .string(value.uuidString))])
    case .date(let value): .object([("$date", JSONValue.number(value))])
    case .duration(let value): .object([("$seconds", JSONValue.number(value))])
    case .array(let values): .array(values.map(\.json))
    case .dictionary(let pairs):
      .object([("$dictionary", .array(pairs.map { .array([$0.key.json, $0.value.json]) }))])
    case .tuple(let fields):
      .object([("$tuple", .array(fields.map { .array([.string($0.label), $0.value.json]) }))])
    case .structure(let type, let fields, let isState):
      .object(
        [(isState ? "$state" : "$struct", .string(type))] + fields.map { ($0.label, $0.value.json) }
      )
    case .enumeration(let name, let payload):
      .object(
        [("$case", .string(name))]
          + payload.enumerated().map { index, field in
            (field.label.isEmpty ? "$\(index)" : field.label, field.value.json)
          })
    case .shared(let value, let readOnly):
      .object([(readOnly ? "$sharedReader" : "$shared", value.json)])
    case .identified(let values): .object([("$identified", .array(values.map(\.json)))])
    case .stack(let entries):
      .object([
        ("$stack", .array(entries.map { .array([.number(String($0.id)), $0.element.json]) }))
      ])
    case .binding(let field, let value):
      .object([("$binding", .string(field)), ("value", value.json)])
    case .text(let string): .object([("$text", .string(string))])
    case .alert(let alert): alert.json
    case .error(let type, let description):
      .object([("$error", .string(type)), ("description", .string(description))])
    case .unsupported(let type): .object([("$unsupported", .string(type))])
    }
  }
}

extension RecordedValue.Alert {
  var json: JSONValue {
    var pairs: [(String, JSONValue)] = [("$alert", .string(kind))]
    if let titleVisibility { pairs.append(("titleVisibility", .string(titleVisibility))) }
    pairs.append(("title", .string(title)))
    if let message { pairs.append(("message", .string(message))) }
    let buttons = self.buttons.map { button -> JSONValue in
      var pairs: [(String, JSONValue)] = []
      if let role = button.role { pairs.append(("role", .string(role))) }
      if let action = button.action { pairs.append(("action", action.json)) }
      pairs.append(("label", .string(button.label)))
      return .object(pairs)
    }
    pairs.append(("buttons", .array(buttons)))
    return .object(pairs)
  }
}

extension JSONValue {
  func recordedChange(at line: Int) throws(RecordFileError) -> RecordedChange {
    guard case .array(let components) = self["path"], let value = self["value"] else {
      throw RecordFileError(line: line, reason: "a change needs a \"path\" and a \"value\"")
    }
    var path: [RecordedChange.Component] = []
    for component in components {
      switch component {
      case .string(let name): path.append(.field(name))
      case .object(let pairs) where pairs.count == 1 && pairs[0].0 == "id":
        path.append(.element(id: try pairs[0].1.recordedValue(at: line)))
      default:
        throw RecordFileError(line: line, reason: "a change's path has \(component.text)")
      }
    }
    return RecordedChange(path: path, value: try value.recordedValue(at: line))
  }

  func recordedValue(at line: Int) throws(RecordFileError) -> RecordedValue {
    func fail(_ reason: String) -> RecordFileError {
      RecordFileError(line: line, reason: reason)
    }
    switch self {
    case .null: return .null
    case .bool(let value): return .bool(value)
    case .number(let text):
      if text.contains(where: { ".eE".contains($0) }) {
        guard let value = Double(text) else { throw fail("'\(text)' is not a number") }
        return .double(value)
      }
      return .integer(text)
    case .string(let value): return .string(value)
    case .array(let values):
      return .array(
        try values.map { value throws(RecordFileError) in try value.recordedValue(at: line) })
    case .object(let pairs):
      guard let (tag, tagged) = pairs.first, tag.hasPrefix("$") else {
        throw fail("an object without a \"$\" tag saying what it is: \(text.prefix(80))")
      }
      func string(_ json: JSONValue) throws(RecordFileError) -> String {
        guard case .string(let value) = json else { throw fail("\(tag) needs a string") }
        return value
      }
      func double(_ json: JSONValue) throws(RecordFileError) -> Double {
        guard case .number(let text) = json, let value = Double(text) else {
          throw fail("\(tag) needs a number")
        }
        return value
      }
      func array(_ json: JSONValue) throws(RecordFileError) -> [JSONValue] {
        guard case .array(let values) = json else { throw fail("\(tag) needs an array") }
        return values
      }
      func pair(_ json: JSONValue) throws(RecordFileError) -> (JSONValue, JSONValue) {
        guard case .array(let values) = json, values.count == 2 else {
          throw fail("\(tag) needs pairs")
        }
        return (values[0], values[1])
      }
      switch tag {
      case "$uuid":
        guard let uuid = UUID(uuidString: try string(tagged)) else {
          throw fail("'\(tagged.text)' is not a UUID")
        }
        return .uuid(uuid)
      case "$date": return .date(try double(tagged))
      case "$seconds": return .duration(try double(tagged))
      case "$dictionary":
        return .dictionary(
          try array(tagged).map { entry throws(RecordFileError) in
            let (key, value) = try pair(entry)
            return RecordedValue.Pair(
              try key.recordedValue(at: line), try value.recordedValue(at: line))
          })
      case "$tuple":
        return .tuple(
          try array(tagged).map { entry throws(RecordFileError) in
            let (label, value) = try pair(entry)
            return RecordedValue.Field(try string(label), try value.recordedValue(at: line))
          })
      case "$struct", "$state":
        return .structure(
          type: try string(tagged),
          fields: try pairs.dropFirst().map { label, value throws(RecordFileError) in
            RecordedValue.Field(label, try value.recordedValue(at: line))
          },
          isState: tag == "$state")
      case "$case":
        return .enumeration(
          name: try string(tagged),
          payload: try pairs.dropFirst().map { label, value throws(RecordFileError) in
            RecordedValue.Field(
              label.hasPrefix("$") ? "" : label, try value.recordedValue(at: line))
          })
      case "$shared", "$sharedReader":
        return .shared(try tagged.recordedValue(at: line), readOnly: tag == "$sharedReader")
      case "$identified":
        return .identified(
          try array(tagged).map { value throws(RecordFileError) in
            try value.recordedValue(at: line)
          })
      case "$stack":
        return .stack(
          try array(tagged).map { entry throws(RecordFileError) in
            let (id, element) = try pair(entry)
            guard case .number(let text) = id, let id = Int(text) else {
              throw fail("a stack element's id must be a number")
            }
            return RecordedValue.StackEntry(id: id, element: try element.recordedValue(at: line))
          })
      case "$binding":
        guard let value = self["value"] else { throw fail("$binding needs a value") }
        return .binding(field: try string(tagged), value: try value.recordedValue(at: line))
      case "$text": return .text(try string(tagged))
      case "$alert":
        guard case .string(let title) = self["title"], case .array(let buttons) = self["buttons"]
        else { throw fail("$alert needs a title and buttons") }
        var message: String?
        if let value = self["message"] { message = try string(value) }
        var visibility: String?
        if let value = self["titleVisibility"] { visibility = try string(value) }
        return .alert(
          RecordedValue.Alert(
            kind: try string(tagged), titleVisibility: visibility, title: title, message: message,
            buttons: try buttons.map { button throws(RecordFileError) in
              guard case .string(let label) = button["label"] else {
                throw fail("a button needs a label")
              }
              var role: String?
              if let value = button["role"] { role = try string(value) }
              return RecordedValue.Button(
                role: role, action: try button["action"]?.recordedValue(at: line), label: label)
            }))
      case "$error":
        guard case .string(let description) = self["description"] else {
          throw fail("$error needs a description")
        }
        return .error(type: try string(tagged), description: description)
      case "$unsupported": return .unsupported(try string(tagged))
      default:
        throw fail("unknown tag \(tag)")
      }
    }
  }
}
