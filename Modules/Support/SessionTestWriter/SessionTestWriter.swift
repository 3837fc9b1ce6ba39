import ComposableArchitecture
import ComposableRecording
import Foundation

/// Writes a recorded session (``SessionRecord``) as a Swift Testing test: an exhaustive
/// `TestStore` test that a developer could have written by hand.
///
/// The test starts from the recorded state (the feature's initial-state expression, then the
/// fields that differed), answers every dependency with what it answered in the session
/// (``RecordedReplies``, in the order given), runs on a `TestClock` advanced to the time each
/// step happened at, sends each action that came from outside with `send`, receives each action
/// an effect sent with `receive` (by its case path, with its value when that is a plain value),
/// and asserts exactly the fields each step changed. Changing the feature so that it behaves
/// otherwise makes the test fail at the first step that differs, with `TestStore`'s diff.
///
/// A value it cannot write as Swift source (a closure, an object) stops it with an error naming
/// where the value was, instead of a test that silently checks less.
public struct SessionTestWriter {
  /// The test's suite name (`RecordedSessionTests`).
  public var suiteName: String
  /// The test function's name.
  public var testName: String
  /// The modules the test imports besides `ComposableArchitecture`, `ComposableRecording` (its
  /// recorded answers), `Foundation` and `Testing`: the feature's and its clients' (`@testable`,
  /// for their memberwise initializers).
  public var testableImports: [String]
  /// A line or two saying where the record came from, put in the file's header comment.
  public var source: String
  public var maximumLineLength = 100

  public init(suiteName: String, testName: String, testableImports: [String], source: String) {
    self.suiteName = suiteName
    self.testName = testName
    self.testableImports = testableImports
    self.source = source
  }

  /// The header line naming the record a test was written from.
  public static func source(recordFile name: String, _ record: SessionRecord) -> String {
    "Record: \(name) (\(record.steps.count) steps, \(record.answers.count) dependency answers)."
  }

  /// Why a record cannot be written as a test.
  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  /// The test file's text.
  public func write(_ record: SessionRecord) throws(Failure) -> String {
    // Written twice: the first time counts which UUIDs the test spells out, the second names
    // those it spells more than once.
    let counting = Context(names: [:], maximumLineLength: maximumLineLength)
    _ = try write(record, in: counting)
    return try write(
      record, in: Context(naming: counting.uses, maximumLineLength: maximumLineLength))
  }

  private func write(_ record: SessionRecord, in context: Context) throws(Failure) -> String {
    var body: [String] = []

    // Dependencies.
    body.append("let clock = TestClock()")
    let endpoints = record.answers.reduce(into: [String]()) { names, answer in
      if !names.contains(answer.name) { names.append(answer.name) }
    }
    var overrides = ["$0.continuousClock = clock"]
    let releases = Self.releases(of: record)
    for endpoint in endpoints {
      // In the order the calls were made: a test's replies are handed out call by call.
      let answers = record.answers.filter { $0.name == endpoint }.sorted { $0.call < $1.call }
      let variable = Self.variableName(endpoint)
      let type = answers[0].type == "()" ? "Void" : answers[0].type
      var lines = ["let \(variable) = RecordedReplies<\(type)>(\(Self.stringLiteral(endpoint)), ["]
      for answer in answers {
        let reply: String
        switch answer.result {
        case .returned(let value):
          reply = ".success(\(try context.render(value, at: "\(endpoint)'s answer", indent: 2)))"
        case .threw(let error):
          reply = ".failure(\(try context.render(error, at: "\(endpoint)'s error", indent: 2)))"
        }
        let arguments = try answer.arguments.map { argument throws(Failure) in
          try context.flat(argument, at: "\(endpoint)'s arguments")
        }
        var comment = arguments.joined(separator: ", ")
        if comment.count > 60 { comment = comment.prefix(59) + "…" }
        comment = comment.isEmpty ? "" : "  // " + comment
        lines.append("  \(reply),\(comment)")
      }
      lines.append("])")
      body.append(contentsOf: lines)
      let parameters =
        answers[0].arguments.isEmpty
        ? "" : answers[0].arguments.map { _ in "_" }.joined(separator: ", ") + " in "
      switch endpoint {
      case "uuid":
        overrides.append("$0.uuid = UUIDGenerator { \(variable).next(or: UUID()) }")
      case "date":
        overrides.append("$0.date = DateGenerator { \(variable).next(or: Date()) }")
      default:
        let gated = !releases.before.isEmpty || !releases.atEnd.isEmpty
        let call = gated ? "try await \(variable).reply()" : "try \(variable).next()"
        overrides.append("$0.\(endpoint) = { \(parameters)\(call) }")
      }
    }

    // The initial state.
    if let expression = record.initialStateExpression, let baseline = record.baseline {
      let changes = RecordedValue.changes(from: baseline, to: record.initialState)
        .filter { !$0.isReadOnlyShare }
      body.append("\(changes.isEmpty ? "let" : "var") initialState = withDependencies {")
      body.append("  $0.uuid = .incrementing")
      body.append("  $0.date = .constant(Date(timeIntervalSince1970: 0))")
      body.append("} operation: {")
      body.append("  \(expression)")
      body.append("}")
      for change in changes {
        body.append(
          contentsOf: try context.assignment(
            change, to: "initialState", in: baseline, at: "the initial state"))
      }
    } else {
      body.append(
        "let initialState = "
          + (try context.render(record.initialState, at: "the initial state", indent: 0)))
    }
    body.append("let store = TestStore(initialState: initialState) {")
    body.append("  \(record.feature)()")
    body.append("} withDependencies: {")
    body.append(contentsOf: overrides.map { "  \($0)" })
    body.append("}")

    // The steps.
    var state = record.initialState
    var time = 0.0
    for (index, step) in record.steps.enumerated() {
      let place = "step \(index + 1)"
      body.append("")
      body.append("// Step \(index + 1): \(step.origin == .user ? "sent" : "received")")
      body.append(contentsOf: releases.before[index] ?? [])
      if step.time > time + 1e-9 {
        body.append("await clock.advance(by: \(Self.duration(step.time - time)))")
        time = step.time
      }
      let changes = RecordedValue.changes(from: state, to: step.state)
        .filter { !$0.isReadOnlyShare }
      var assertions: [String] = []
      for change in changes {
        assertions.append(
          contentsOf: try context.assignment(change, to: "$0", in: state, at: place)
            .map { "  " + $0 })
      }
      state = step.state
      let call: String
      switch step.origin {
      case .user:
        call = "await store.send(\(try context.render(step.action, at: place, indent: 0)))"
      case .effect:
        let (path, value) = try context.casePath(step.action, at: place)
        call = "await store.receive(\\.\(path)\(value.map { ", \($0)" } ?? ""))"
      }
      if assertions.isEmpty {
        body.append(call)
      } else {
        body.append(call + " {")
        body.append(contentsOf: assertions)
        body.append("}")
      }
    }
    if record.effectsInFlight == 0, !releases.atEnd.isEmpty {
      body.append("")
      body.append("// Answers no recorded action waited for (their effects sent nothing after).")
      body.append(contentsOf: releases.atEnd)
      body.append("await store.finish()")
    }
    if record.effectsInFlight > 0 {
      body.append("")
      body.append("// The session ended with effects still running; what they did after it was")
      body.append("// not recorded.")
      body.append("await store.skipReceivedActions(strict: false)")
      body.append("await store.skipInFlightEffects(strict: false)")
    }

    var file = [
      "// swift-format-ignore-file",
      "// Written by `record-to-test` from a recorded session; regenerate it rather than edit it.",
    ]
    file += source.split(separator: "\n").map { "// \($0)" }
    file += [
      "", "import ComposableArchitecture", "import ComposableRecording", "import Foundation",
      "import Testing", "",
    ]
    file += testableImports.sorted().map { "@testable import \($0)" }
    file += ["", "@MainActor", "struct \(suiteName) {", "  @Test", "  func \(testName)() async {"]
    file += context.constants.map { "    let \($0.name) = \($0.expression)" }
    if !context.constants.isEmpty { file.append("") }
    file += body.flatMap { $0.split(separator: "\n", omittingEmptySubsequences: false) }
      .map { $0.isEmpty ? "" : "    " + $0 }
    file += ["  }", "}"]
    return file.joined(separator: "\n") + "\n"
  }

  // MARK: Answers in causal order

  /// Where a test releases each recorded answer (`fooReplies.release(n)`, the `n`th call of an
  /// endpoint): just before the first step its effect sent after the answer came back — so the
  /// effects that raced in the session send in the recorded order — and, for an answer its
  /// effect sent nothing after, at the end. Empty for a record that does not say which effect
  /// made a call (written before it did): its answers are given at once.
  static func releases(of record: SessionRecord) -> (before: [Int: [String]], atEnd: [String]) {
    guard record.answers.contains(where: { $0.effect != nil }) else { return ([:], []) }
    var before: [Int: [String]] = [:]
    var atEnd: [String] = []
    // Each answer's place among its endpoint's calls (from 1), as the replies hand them out.
    var number: [Int: Int] = [:]
    var counts: [String: Int] = [:]
    for answer in record.answers.sorted(by: { $0.call < $1.call }) {
      counts[answer.name, default: 0] += 1
      number[answer.call] = counts[answer.name]
    }
    let ordered = record.answers.sorted { ($0.afterStep, $0.call) < ($1.afterStep, $1.call) }
    for answer in ordered where answer.name != "uuid" && answer.name != "date" {
      let line = "\(variableName(answer.name)).release(\(number[answer.call] ?? 0))"
      let slot: Int? =
        if let effect = answer.effect {
          record.steps.indices.first { $0 >= answer.afterStep && record.steps[$0].effect == effect }
        } else {
          answer.afterStep < record.steps.count ? answer.afterStep : nil
        }
      if let slot { before[slot, default: []].append(line) } else { atEnd.append(line) }
    }
    return (before, atEnd)
  }

  // MARK: Names and literals

  static func variableName(_ endpoint: String) -> String {
    let parts = endpoint.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
    guard let first = parts.first else { return "replies" }
    return first + parts.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
      + "Replies"
  }

  static func stringLiteral(_ string: String) -> String {
    var result = "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        result += "\\u{\(String(scalar.value, radix: 16))}"
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }

  static func duration(_ seconds: Double) -> String {
    let milliseconds = (seconds * 1000).rounded()
    if milliseconds.truncatingRemainder(dividingBy: 1000) == 0 {
      return ".seconds(\(Int(milliseconds / 1000)))"
    }
    return ".milliseconds(\(Int(milliseconds)))"
  }

  static func number(_ value: Double) -> String {
    if value.isNaN { return ".nan" }
    if value.isInfinite { return value < 0 ? "-.infinity" : ".infinity" }
    return "\(value)"
  }
}

/// How UUIDs are spelled out in one test, and which ones were.
private final class Context {
  /// The UUIDs spelled out more than once get a name (`id1`), declared at the top.
  let constants: [(name: String, expression: String)]
  let names: [UUID: String]
  let maximumLineLength: Int
  /// How often each UUID was spelled out, in order of first use.
  private(set) var uses: [(UUID, Int)] = []

  init(names: [UUID: String], maximumLineLength: Int) {
    self.names = names
    self.constants = []
    self.maximumLineLength = maximumLineLength
  }

  init(naming uses: [(UUID, Int)], maximumLineLength: Int) {
    var names: [UUID: String] = [:]
    var constants: [(name: String, expression: String)] = []
    for (uuid, count) in uses where count > 1 {
      let name = "id\(constants.count + 1)"
      names[uuid] = name
      constants.append((name, Self.uuidExpression(uuid)))
    }
    self.names = names
    self.constants = constants
    self.maximumLineLength = maximumLineLength
  }

  static func uuidExpression(_ uuid: UUID) -> String {
    let string = uuid.uuidString
    if string.hasPrefix("00000000-0000-0000-0000-"), let value = Int(string.suffix(12), radix: 16) {
      return "UUID(\(value))"
    }
    return "UUID(uuidString: \"\(string)\")!"
  }

  func uuid(_ uuid: UUID) -> String {
    if let index = uses.firstIndex(where: { $0.0 == uuid }) {
      uses[index].1 += 1
    } else {
      uses.append((uuid, 1))
    }
    return names[uuid] ?? Self.uuidExpression(uuid)
  }

  // MARK: Values

  /// The value on one line.
  func flat(_ value: RecordedValue, at place: String) throws(SessionTestWriter.Failure) -> String {
    switch value {
    case .null: return "nil"
    case .bool(let value): return value ? "true" : "false"
    case .integer(let digits): return digits
    case .double(let value): return SessionTestWriter.number(value)
    case .string(let string): return SessionTestWriter.stringLiteral(string)
    case .uuid(let value): return uuid(value)
    case .date(let seconds):
      return "Date(timeIntervalSince1970: \(SessionTestWriter.number(seconds)))"
    case .duration(let seconds): return SessionTestWriter.duration(seconds)
    case .array(let values), .identified(let values):
      return "["
        + (try values.map { v throws(SessionTestWriter.Failure) in try flat(v, at: place) }
          .joined(separator: ", ")) + "]"
    case .dictionary(let pairs):
      if pairs.isEmpty { return "[:]" }
      return "["
        + (try pairs.map { pair throws(SessionTestWriter.Failure) in
          "\(try flat(pair.key, at: place)): \(try flat(pair.value, at: place))"
        }.joined(separator: ", ")) + "]"
    case .tuple(let fields):
      return "(\(try arguments(fields, at: place)))"
    case .structure(let type, let fields, _):
      return "\(Self.plainType(type))(\(try arguments(fields, at: place)))"
    case .enumeration(let name, let payload):
      return payload.isEmpty ? ".\(name)" : ".\(name)(\(try arguments(payload, at: place)))"
    case .shared(let value, let readOnly):
      return "\(readOnly ? "SharedReader" : "Shared")(value: \(try flat(value, at: place)))"
    case .stack(let entries):
      return "StackState(["
        + (try entries.map { e throws(SessionTestWriter.Failure) in try flat(e.element, at: place) }
          .joined(separator: ", ")) + "])"
    case .binding(let field, let value):
      return ".set(\\.\(field), \(try flat(value, at: place)))"
    case .text(let string):
      return "TextState(\(SessionTestWriter.stringLiteral(string)))"
    case .alert(let alert):
      return try alertLines(alert, at: place).joined(separator: " ")
    case .error("CancellationError", _):
      return "CancellationError()"
    case .error(_, let description):
      return "RecordedError(\(SessionTestWriter.stringLiteral(description)))"
    case .unsupported(let type):
      throw SessionTestWriter.Failure(
        description: "\(place): a value of type \(type) cannot be written as Swift source"
          + " (a closure or an object); the record cannot become a test")
    }
  }

  private func arguments(_ fields: [RecordedValue.Field], at place: String)
    throws(SessionTestWriter.Failure) -> String
  {
    try fields.map { field throws(SessionTestWriter.Failure) in
      (field.label.isEmpty ? "" : "\(field.label): ") + (try flat(field.value, at: place))
    }.joined(separator: ", ")
  }

  /// A type as an initializer names it: without the optional mark.
  static func plainType(_ type: String) -> String {
    type.hasSuffix("?") ? String(type.dropLast()) : type
  }

  /// The value, broken over lines (indented by `indent` spaces from the second on) when one
  /// line would be too long.
  func render(_ value: RecordedValue, at place: String, indent: Int)
    throws(SessionTestWriter.Failure) -> String
  {
    let line = try flat(value, at: place)
    if case .alert(let alert) = value {
      return try alertLines(alert, at: place).joined(
        separator: "\n" + String(repeating: " ", count: indent))
    }
    guard indent + line.count > maximumLineLength - 20 else { return line }
    let pad = String(repeating: " ", count: indent + 2)
    let close = String(repeating: " ", count: indent)
    func fieldLines(_ fields: [RecordedValue.Field]) throws(SessionTestWriter.Failure) -> String {
      try fields.map { field throws(SessionTestWriter.Failure) in
        pad + (field.label.isEmpty ? "" : "\(field.label): ")
          + (try render(field.value, at: place, indent: indent + 2))
      }.joined(separator: ",\n")
    }
    switch value {
    case .structure(let type, let fields, _) where !fields.isEmpty:
      return "\(Self.plainType(type))(\n\(try fieldLines(fields))\n\(close))"
    case .enumeration(let name, let payload) where !payload.isEmpty:
      return ".\(name)(\n\(try fieldLines(payload))\n\(close))"
    case .array(let values), .identified(let values):
      guard !values.isEmpty else { return line }
      return "[\n"
        + (try values.map { v throws(SessionTestWriter.Failure) in
          pad + (try render(v, at: place, indent: indent + 2)) + ","
        }.joined(separator: "\n")) + "\n\(close)]"
    case .shared(let wrapped, let readOnly):
      return "\(readOnly ? "SharedReader" : "Shared")(value: "
        + (try render(wrapped, at: place, indent: indent)) + ")"
    case .stack(let entries):
      return "StackState([\n"
        + (try entries.map { e throws(SessionTestWriter.Failure) in
          pad + (try render(e.element, at: place, indent: indent + 2)) + ","
        }.joined(separator: "\n")) + "\n\(close)])"
    default:
      return line
    }
  }

  /// `AlertState { … } actions: { … } message: { … }`, as lines (indented from the first).
  func alertLines(_ alert: RecordedValue.Alert, at place: String)
    throws(SessionTestWriter.Failure) -> [String]
  {
    let open =
      alert.titleVisibility.map { "\(alert.kind)(titleVisibility: .\($0)) {" } ?? "\(alert.kind) {"
    var lines = [open, "  TextState(\(SessionTestWriter.stringLiteral(alert.title)))"]
    if !alert.buttons.isEmpty { lines.append("} actions: {") }
    for button in alert.buttons {
      var arguments: [String] = []
      if let role = button.role { arguments.append("role: .\(role)") }
      if let action = button.action { arguments.append("action: \(try flat(action, at: place))") }
      let call =
        arguments.isEmpty ? "ButtonState" : "ButtonState(\(arguments.joined(separator: ", ")))"
      lines += [
        "  \(call) {", "    TextState(\(SessionTestWriter.stringLiteral(button.label)))", "  }",
      ]
    }
    if let message = alert.message {
      lines += ["} message: {", "  TextState(\(SessionTestWriter.stringLiteral(message)))"]
    }
    lines.append("}")
    return lines
  }

  // MARK: Steps

  /// The lines that make `change` on `base` (`$0` or a variable), whose value before is `state`.
  func assignment(
    _ change: RecordedChange, to base: String, in state: RecordedValue, at place: String
  ) throws(SessionTestWriter.Failure) -> [String] {
    var expression = base
    var current: RecordedValue? = state
    var optionalChain = false
    for (index, component) in change.path.enumerated() {
      let isLast = index == change.path.count - 1
      switch component {
      case .field(let name):
        if isLast, case .shared(let value, false) = change.value {
          let reference = "\(expression)\(optionalChain ? "?" : "").$\(name)"
          return try sharedAssignment(
            value, was: sharedValue(named: name, in: current), to: reference, at: place)
        }
        expression += (optionalChain ? "?." : ".") + name
        if case .structure(_, let fields, _) = current {
          current = fields.first { $0.label == name }?.value
        } else {
          current = nil
        }
        if case .structure(let type, _, _) = current, type.hasSuffix("?"), !isLast {
          optionalChain = true
        } else {
          optionalChain = false
        }
      case .element(let id):
        expression += (optionalChain ? "?" : "") + "[id: \(try flat(id, at: place))]"
        if case .identified(let elements) = current {
          current = elements.first { $0.identity == id }
        } else {
          current = nil
        }
        optionalChain = !isLast
      }
    }
    if case .stack(let newEntries) = change.value, case .stack(let oldEntries)? = current {
      return try stackAssignments(from: oldEntries, to: newEntries, at: expression, place: place)
    }
    return try assign(change.value, to: expression, at: place)
  }

  /// The value shared by the field `name` of `state`, when `state` records one.
  private func sharedValue(named name: String, in state: RecordedValue?) -> RecordedValue? {
    guard case .structure(_, let fields, _)? = state,
      case .shared(let wrapped, _)? = fields.first(where: { $0.label == name })?.value
    else { return nil }
    return wrapped
  }

  /// A shared value's change, written through its lock: a struct field by field (`$0.isFavorite
  /// = true`) as a developer writes it, anything else whole.
  private func sharedAssignment(
    _ value: RecordedValue, was old: RecordedValue?, to reference: String, at place: String
  ) throws(SessionTestWriter.Failure) -> [String] {
    if let old, case .structure = old, case .structure = value {
      var lines: [String] = []
      for change in RecordedValue.changes(from: old, to: value) {
        lines += try assignment(change, to: "$0", in: old, at: place)
      }
      if lines.count == 1 { return ["\(reference).withLock { \(lines[0]) }"] }
      return ["\(reference).withLock {"] + lines.map { "  " + $0 } + ["}"]
    }
    let literal = (try render(value, at: place, indent: 0)).split(separator: "\n")
    guard literal.count > 1 else { return ["\(reference).withLock { $0 = \(literal[0]) }"] }
    return ["\(reference).withLock {", "  $0 = \(literal[0])"]
      + literal.dropFirst().map { "  " + $0 }
      + ["}"]
  }

  private func assign(_ value: RecordedValue, to expression: String, at place: String)
    throws(SessionTestWriter.Failure) -> [String]
  {
    let literal = try render(value, at: place, indent: 0)
    return (expression + " = " + literal).split(separator: "\n").map(String.init)
  }

  /// A navigation stack's change, element by element as a test asserts it: `$0.path[id: 1] = …`
  /// for a push (a test store appends it), `= nil` for a pop, the changes inside an element
  /// through `$0.path[id: 0]?`. A `StackState` written whole would give its elements new ids
  /// from the test's generator, not the ids the reducer's pushes took.
  private func stackAssignments(
    from old: [RecordedValue.StackEntry], to new: [RecordedValue.StackEntry],
    at expression: String, place: String
  ) throws(SessionTestWriter.Failure) -> [String] {
    let newIDs = Set(new.map(\.id))
    let oldIDs = Set(old.map(\.id))
    let keptInOrder =
      old.map(\.id).filter(newIDs.contains) == new.map(\.id).filter(oldIDs.contains)
    // Kept elements in another order cannot be asserted in place: the stack is rebuilt.
    let before = keptInOrder ? old : []
    var lines = old.reversed().filter { !keptInOrder || !newIDs.contains($0.id) }
      .map { "\(expression)[id: \($0.id)] = nil" }
    for entry in new {
      let element = "\(expression)[id: \(entry.id)]"
      guard let previous = before.first(where: { $0.id == entry.id })?.element else {
        lines += try assign(entry.element, to: element, at: place)
        continue
      }
      for change in RecordedValue.changes(from: previous, to: entry.element)
      where !change.isReadOnlyShare {
        lines +=
          change.path.isEmpty
          ? try assign(change.value, to: element, at: place)
          : try assignment(change, to: element + "?", in: previous, at: place)
      }
    }
    return lines
  }

  /// The case key path of an action an effect sent, and the value to compare when the last case
  /// carries a plain value.
  func casePath(_ action: RecordedValue, at place: String)
    throws(SessionTestWriter.Failure) -> (String, String?)
  {
    var components: [String] = []
    var current = action
    while true {
      guard case .enumeration(let name, let payload) = current else {
        throw SessionTestWriter.Failure(
          description: "\(place): an action that is not an enum case cannot be received")
      }
      if name == "element", payload.map(\.label) == ["id", "action"] {
        components.append("[id: \(try flat(payload[0].value, at: place))]")
        current = payload[1].value
        continue
      }
      components.append((components.isEmpty ? "" : ".") + name)
      guard payload.count == 1 else { return (components.joined(), nil) }
      switch payload[0].value {
      case .enumeration where payload[0].label.isEmpty:
        current = payload[0].value
        continue
      case .bool, .integer, .double, .string, .uuid:
        return (components.joined(), try flat(payload[0].value, at: place))
      default:
        return (components.joined(), nil)
      }
    }
  }
}
