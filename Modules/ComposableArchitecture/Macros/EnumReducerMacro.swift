import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// The members `@Reducer` writes into an enum of features:
///
/// ```swift
/// @Reducer
/// enum Destination {
///   case settings(Settings)
///   case detail(Detail = Detail(mode: .compact))
///   case confirm(ConfirmationDialogState<Confirm>)
///   @ReducerCaseIgnored case note(String)
///   enum Confirm { case reset }
/// }
/// ```
///
/// becomes, besides the cases above,
///
/// ```swift
/// @CasePathable @dynamicMemberLookup @ObservableState
/// enum State: CaseReducerState {
///   typealias StateReducer = Destination
///   case settings(Settings.State), detail(Detail.State)
///   case confirm(ConfirmationDialogState<Confirm>), note(String)
/// }
/// @CasePathable enum Action {
///   case settings(Settings.Action), detail(Detail.Action)
///   case confirm(ConfirmationDialogState<Confirm>.Action), note(Swift.Never)
/// }
/// @ReducerBuilder<Self.State, Self.Action> static var body: some Reducer<Self.State, Self.Action> {
///   Scope(_caseState: \Self.State.Cases.settings, action: \Self.Action.Cases.settings) { Settings() }
///   Scope(_caseState: \Self.State.Cases.detail, action: \Self.Action.Cases.detail) { Detail(mode: .compact) }
/// }
/// enum CaseScope { case settings(StoreOf<Settings>), detail(StoreOf<Detail>), … }
/// @MainActor static func scope(_ store: Store<Self.State, Self.Action>) -> CaseScope { … }
/// ```
///
/// A case is a *feature* when it has one unlabelled payload: a reducer type, built with its
/// default expression if it has one and `T()` otherwise. `AlertState` and
/// `ConfirmationDialogState` payloads (and `@ReducerCaseEphemeral` cases) are *ephemeral*: the
/// state is the value itself and the action its button actions. Cases without a payload, with
/// several or labelled payloads, or marked `@ReducerCaseIgnored` are *ignored*: the state keeps
/// the payload, the action case carries `Never`. Cases inside `#if` keep their condition in
/// every generated member.
enum EnumReducerExpansion {
  struct ReducerCase {
    enum Kind {
      case feature(type: String, reducer: String)
      case ephemeral(type: String)
      case ignored(parameters: [EnumCaseParameterSyntax])
    }

    let name: String
    let kind: Kind
  }

  /// A case of the enum, or an `#if` whose clauses hold cases.
  indirect enum Node {
    case reducerCase(ReducerCase)
    case ifConfig([(directive: String, nodes: [Node])])
  }

  static func members(
    of enumDecl: EnumDeclSyntax, stateConformances: [String] = [], actionConformances: [String] = []
  ) -> [DeclSyntax] {
    let access =
      enumDecl.modifiers.first { ["public", "package"].contains($0.name.text) }
      .map { "\($0.name.text) " } ?? ""
    let nodes = self.nodes(in: enumDecl.memberBlock.members)
    let reducerName = enumDecl.name.trimmedDescription
    let declared = Declared(enumDecl.memberBlock.members)
    let hasFeatures = contains(nodes) {
      if case .feature = $0.kind { return true }
      return false
    }
    let hasCases = contains(nodes) { _ in true }

    let stateCases = render(nodes) { reducerCase in
      switch reducerCase.kind {
      case .feature(let type, _): return "case \(reducerCase.name)(\(type).State)"
      case .ephemeral(let type): return "case \(reducerCase.name)(\(type))"
      case .ignored(let parameters):
        return "case \(reducerCase.name)\(parameterClause(parameters))"
      }
    }
    let actionCases = render(nodes) { reducerCase in
      switch reducerCase.kind {
      case .feature(let type, _): return "case \(reducerCase.name)(\(type).Action)"
      case .ephemeral(let type): return "case \(reducerCase.name)(\(type).Action)"
      case .ignored: return "case \(reducerCase.name)(Swift.Never)"
      }
    }
    let scopes = render(nodes) { reducerCase in
      guard case .feature(_, let reducer) = reducerCase.kind else { return nil }
      return """
        ComposableArchitecture.Scope(\
        _caseState: \\Self.State.Cases.\(reducerCase.name), \
        action: \\Self.Action.Cases.\(reducerCase.name)) {
          \(reducer)
        }
        """
    }
    let caseScopeCases = render(nodes) { reducerCase in
      switch reducerCase.kind {
      case .feature(let type, _):
        return "case \(reducerCase.name)(ComposableArchitecture.StoreOf<\(type)>)"
      case .ephemeral(let type): return "case \(reducerCase.name)(\(type))"
      case .ignored(let parameters):
        if let actionType = declared.actionType(of: reducerCase, parameters) {
          let stateType = parameters[0].type.trimmedDescription
          return
            "case \(reducerCase.name)(ComposableArchitecture.Store<\(stateType), \(actionType)>)"
        }
        return "case \(reducerCase.name)\(parameterClause(parameters))"
      }
    }
    let scopeSwitchCases = render(nodes) { reducerCase in
      let name = reducerCase.name
      switch reducerCase.kind {
      case .ignored(let parameters) where declared.actionType(of: reducerCase, parameters) != nil:
        return """
          case .\(name):
            return .\(name)(store.scope(state: \\.\(name), action: \\.\(name))!)
          """
      case .feature:
        return """
          case .\(name):
            return .\(name)(store.scope(state: \\.\(name), action: \\.\(name))!)
          """
      case .ephemeral:
        return "case let .\(name)(v0):\n  return .\(name)(v0)"
      case .ignored(let parameters) where parameters.isEmpty:
        return "case .\(name):\n  return .\(name)"
      case .ignored(let parameters):
        let arguments = parameters.enumerated().map { index, parameter in
          guard let label = parameter.firstName, label.tokenKind != .wildcard else {
            return "v\(index)"
          }
          return "\(label.text): v\(index)"
        }
        .joined(separator: ", ")
        return "case let .\(name)(\(arguments)):\n  return .\(name)(\(arguments))"
      }
    }

    let body =
      hasFeatures
      ? scopes
      : "ComposableArchitecture.EmptyReducer<Self.State, Self.Action>()"
    let scopeBody =
      hasCases ? "switch store.state {\n\(scopeSwitchCases)\n}" : "switch store.state {}"
    // What `@ObservableState` gives an enum, written here instead of attaching it: its
    // conformance extension on this generated type makes Swift 6.3.1 crash (signal 11 in
    // TypeCheckPrimaryFileRequest) on a file that declares a few `@Reducer enum`s.
    var tags: [String: Int] = [:]
    _ = render(nodes) { reducerCase in
      tags[reducerCase.name] = tags.count
      return nil
    }
    func observableCase(_ reducerCase: ReducerCase) -> ObservableStateMacro.EnumStateCase {
      let parameters: [EnumCaseParameterSyntax] =
        switch reducerCase.kind {
        case .feature, .ephemeral: [EnumCaseParameterSyntax(type: TypeSyntax("Swift.Never"))]
        case .ignored(let parameters): parameters
        }
      return .init(
        name: reducerCase.name, parameters: parameters, tag: tags[reducerCase.name] ?? 0)
    }
    let observableMembers = ObservableStateMacro.enumStateMembers(
      hasCases
        ? (
          idCases: [render(nodes) { observableCase($0).idCase }],
          modifyCases: [render(nodes) { observableCase($0).modifyCase }]
        ) : nil
    )
    .map { $0.description }.joined(separator: "\n")
    // A replay builds both again from a record; the initializers are written here, with the
    // cases.
    let decodable = "ComposableArchitecture.RecordDecodable"
    let stateInit = RecordDecodableExpansion.enumInit(cases: stateCases, access: access)
    let actionInit = RecordDecodableExpansion.enumInit(cases: actionCases, access: access)
    // What `@CasePathable` gives each enum, written here too, for the same crash as above
    // (attached to these generated enums, it crashed Swift 6.3.1 on five `@Reducer enum`s in a
    // file). A payload that names `Self` or `Element` needs the macro's own rewriting: then
    // the macro is attached as before.
    let statePayloads: (ReducerCase) -> [CasePathMembers.Payload] = { reducerCase in
      switch reducerCase.kind {
      case .feature(let type, _): [.init(label: nil, type: "\(type).State")]
      case .ephemeral(let type): [.init(label: nil, type: type)]
      case .ignored(let parameters): parameters.map(CasePathMembers.Payload.init)
      }
    }
    let actionPayloads: (ReducerCase) -> [CasePathMembers.Payload] = { reducerCase in
      switch reducerCase.kind {
      case .feature(let type, _), .ephemeral(let type):
        [.init(label: nil, type: "\(type).Action")]
      case .ignored: [.init(label: nil, type: "Swift.Never")]
      }
    }
    let inlineCasePaths = !contains(nodes) { reducerCase in
      statePayloads(reducerCase).contains { CasePathMembers.needsRewriting($0.type) }
    }
    let casePathAttribute = inlineCasePaths ? "" : "@CasePaths.CasePathable\n"
    let casePathConformances =
      inlineCasePaths ? ["CasePaths.CasePathable", "CasePaths.CasePathIterable"] : []
    let stateCasePaths =
      inlineCasePaths
      ? CasePathMembers.members(enumName: "State", nodes: nodes, payloads: statePayloads) : ""
    let actionCasePaths =
      inlineCasePaths
      ? CasePathMembers.members(enumName: "Action", nodes: nodes, payloads: actionPayloads) : ""
    var members: [DeclSyntax] = []
    if !declared.types.contains("State") {
      members.append(
        """
        \(raw: casePathAttribute)@dynamicMemberLookup
        \(raw: access)enum State: ComposableArchitecture.CaseReducerState, \(raw: decodable), \
        ComposableArchitecture.ObservableState, Observation.Observable\
        \(raw: (casePathConformances + stateConformances).map { ", \($0)" }.joined()) {
          \(raw: access)typealias StateReducer = \(raw: reducerName)
        \(raw: stateCases)
        \(raw: observableMembers)
        \(raw: stateInit)
        \(raw: stateCasePaths)
        }
        """)
    }
    if !declared.types.contains("Action") {
      members.append(
        """
        \(raw: casePathAttribute)\
        \(raw: access)enum Action: \
        \(raw: ([decodable] + casePathConformances + actionConformances).joined(separator: ", ")) {
        \(raw: actionCases)
        \(raw: actionInit)
        \(raw: actionCasePaths)
        }
        """)
    }
    if !declared.hasBody {
      members.append(
        """
        @ComposableArchitecture.ReducerBuilder<Self.State, Self.Action>
        \(raw: access)static var body: some ComposableArchitecture.Reducer<Self.State, Self.Action> {
        \(raw: body)
        }
        """)
    }
    if !declared.types.contains("CaseScope") {
      members.append(
        """
        \(raw: access)enum CaseScope {
        \(raw: caseScopeCases)
        }
        """)
    }
    if !declared.functions.contains("scope") {
      members.append(
        """
        @MainActor
        \(raw: access)static func scope(
          _ store: ComposableArchitecture.Store<Self.State, Self.Action>
        ) -> CaseScope {
        \(raw: scopeBody)
        }
        """)
    }
    return members
  }

  /// What the enum declares itself, which the macro leaves as written (as TCA's does): a
  /// `State`, an `Action`, a `body` (or `reduce`), a `CaseScope`, a `scope` function.
  struct Declared {
    var types: Set<String> = []
    var functions: Set<String> = []
    var hasBody = false
    /// The cases of a declared `Action` enum with one payload: their payload's type.
    var actionPayloads: [String: String] = [:]

    init(_ members: MemberBlockItemListSyntax) {
      for member in members {
        if let type = member.decl.as(EnumDeclSyntax.self) {
          types.insert(type.name.text)
          guard type.name.text == "Action" else { continue }
          for item in type.memberBlock.members {
            for element in item.decl.as(EnumCaseDeclSyntax.self)?.elements ?? [] {
              guard let parameters = element.parameterClause?.parameters, parameters.count == 1
              else { continue }
              actionPayloads[element.name.text] = parameters.first!.type.trimmedDescription
            }
          }
        } else if let type = member.decl.as(StructDeclSyntax.self) {
          types.insert(type.name.text)
        } else if let alias = member.decl.as(TypeAliasDeclSyntax.self) {
          types.insert(alias.name.text)
        } else if let function = member.decl.as(FunctionDeclSyntax.self) {
          functions.insert(function.name.text)
          if function.name.text == "reduce" { hasBody = true }
        } else if let variable = member.decl.as(VariableDeclSyntax.self),
          variable.bindings.contains(where: {
            $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "body"
          })
        {
          hasBody = true
        }
      }
    }

    /// For a case kept as data (`@ReducerCaseIgnored case alert(AlertState<Alert>)`) whose
    /// declared `Action` has a case of the same name with one payload (`case alert(Alert)`):
    /// that payload, the action of the store a view scopes to the case.
    func actionType(
      of reducerCase: ReducerCase, _ parameters: [EnumCaseParameterSyntax]
    ) -> String? {
      guard parameters.count == 1 else { return nil }
      return actionPayloads[reducerCase.name]
    }
  }

  // MARK: Reading the cases

  static func nodes(in members: MemberBlockItemListSyntax) -> [Node] {
    members.flatMap { member -> [Node] in
      if let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) {
        return caseDecl.elements.map {
          .reducerCase(reducerCase($0, attributes: caseDecl.attributes))
        }
      }
      if let ifConfig = member.decl.as(IfConfigDeclSyntax.self) {
        let clauses = ifConfig.clauses.map { clause -> (directive: String, nodes: [Node]) in
          let condition = clause.condition.map { " \($0.trimmedDescription)" } ?? ""
          let directive = "\(clause.poundKeyword.text)\(condition)"
          guard case .decls(let decls) = clause.elements else { return (directive, []) }
          return (directive, nodes(in: decls))
        }
        guard clauses.contains(where: { !$0.nodes.isEmpty }) else { return [] }
        return [.ifConfig(clauses)]
      }
      return []
    }
  }

  static func reducerCase(
    _ element: EnumCaseElementSyntax, attributes: AttributeListSyntax
  ) -> ReducerCase {
    let name = element.name.trimmedDescription
    let marks = Set(
      attributes.compactMap {
        $0.as(AttributeSyntax.self).map { unqualified($0.attributeName.trimmedDescription) }
      })
    let parameters = element.parameterClause.map { Array($0.parameters) } ?? []
    if marks.contains("ReducerCaseIgnored") {
      return ReducerCase(name: name, kind: .ignored(parameters: parameters))
    }
    guard parameters.count == 1, let parameter = parameters.first,
      parameter.firstName == nil || parameter.firstName?.tokenKind == .wildcard
    else {
      return ReducerCase(name: name, kind: .ignored(parameters: parameters))
    }
    let type = parameter.type.trimmedDescription
    if marks.contains("ReducerCaseEphemeral") || isEphemeral(type) {
      return ReducerCase(name: name, kind: .ephemeral(type: type))
    }
    let reducer = parameter.defaultValue?.value.trimmedDescription ?? "\(type)()"
    return ReducerCase(name: name, kind: .feature(type: type, reducer: reducer))
  }

  /// State that has no reducer of its own and goes away after one action.
  static func isEphemeral(_ type: String) -> Bool {
    let type = unqualified(type)
    return type.hasPrefix("AlertState<") || type.hasPrefix("ConfirmationDialogState<")
  }

  /// A name without the runtime's module prefix.
  static func unqualified(_ name: String) -> String {
    let prefix = "ComposableArchitecture."
    return name.hasPrefix(prefix) ? String(name.dropFirst(prefix.count)) : name
  }

  /// An ignored case's payload as declared, without default values.
  static func parameterClause(_ parameters: [EnumCaseParameterSyntax]) -> String {
    guard !parameters.isEmpty else { return "" }
    let list = parameters.map { parameter -> String in
      let type = parameter.type.trimmedDescription
      guard let label = parameter.firstName else { return type }
      let second = parameter.secondName.map { " \($0.text)" } ?? ""
      return "\(label.text)\(second): \(type)"
    }
    return "(\(list.joined(separator: ", ")))"
  }

  // MARK: Writing members

  static func contains(_ nodes: [Node], where predicate: (ReducerCase) -> Bool) -> Bool {
    nodes.contains { node in
      switch node {
      case .reducerCase(let reducerCase): return predicate(reducerCase)
      case .ifConfig(let clauses):
        return clauses.contains { contains($0.nodes, where: predicate) }
      }
    }
  }

  /// One line (or block) per case, with the enum's `#if` clauses around them.
  static func render(_ nodes: [Node], _ line: (ReducerCase) -> String?) -> String {
    nodes.compactMap { node -> String? in
      switch node {
      case .reducerCase(let reducerCase):
        return line(reducerCase)
      case .ifConfig(let clauses):
        let rendered = clauses.map { ($0.directive, render($0.nodes, line)) }
        guard rendered.contains(where: { !$0.1.isEmpty }) else { return nil }
        return (rendered.map { "\($0.0)\n\($0.1)" } + ["#endif"]).joined(separator: "\n")
      }
    }
    .joined(separator: "\n")
  }
}

/// What `@CasePathable` (swift-case-paths 1.x) writes into an enum: `AllCasePaths` with a case
/// path per case, and `allCasePaths`. `@Reducer` writes it into the `State` and `Action` it
/// generates for an enum of features rather than attaching the macro to them.
enum CasePathMembers {
  /// One value of a case's payload.
  struct Payload {
    let label: String?
    let type: String

    init(label: String?, type: String) {
      self.label = label
      self.type = type
    }

    init(_ parameter: EnumCaseParameterSyntax) {
      let label = parameter.firstName.flatMap { $0.tokenKind == .wildcard ? nil : $0.text }
      self.init(label: label, type: parameter.type.trimmedDescription)
    }
  }

  /// Whether a payload type names `Self` (the enum, for `@CasePathable`) or `Element` (which
  /// `AllCasePaths`, a `Sequence`, would shadow): `@CasePathable` rewrites those.
  static func needsRewriting(_ type: String) -> Bool {
    type.split { !($0.isLetter || $0.isNumber || $0 == "_") }
      .contains { $0 == "Self" || $0 == "Element" }
  }

  static func members(
    enumName: String, nodes: [EnumReducerExpansion.Node],
    payloads: (EnumReducerExpansion.ReducerCase) -> [Payload]
  ) -> String {
    let render = EnumReducerExpansion.render
    let hasCases = EnumReducerExpansion.contains(nodes) { _ in true }
    let rootCases = render(nodes) { "if root.is(\\.\($0.name)) { return \\.\($0.name) }" }
    let appends = render(nodes) { "allCasePaths.append(\\.\($0.name))" }
    let properties = render(nodes) { reducerCase in
      let name = reducerCase.name
      let payload = payloads(reducerCase)
      let bindings = payload.indices.map { "v\($0)" }.joined(separator: ", ")
      let pattern = payload.isEmpty ? ".\(name)" : "let .\(name)(\(bindings))"
      let value = payload.count == 1 ? bindings : "(\(bindings))"
      let embed = payload.isEmpty ? "{ \(enumName).\(name) }" : "\(enumName).\(name)"
      return """
        public var \(name): CasePaths.AnyCasePath<\(enumName), \(valueType(payload))> {
          ._$embed(\(embed)) {
            guard case \(pattern) = $0 else { return nil }
            return \(value)
          }
        }
        """
    }
    let keyPath = "CasePaths.PartialCaseKeyPath<\(enumName)>"
    return """
      public struct AllCasePaths: CasePaths.CasePathReflectable, Swift.Sendable, Swift.Sequence {
        public subscript(root: \(enumName)) -> \(keyPath) {
          \(rootCases)
          return \\.never
        }
        \(properties)
        public func makeIterator() -> Swift.IndexingIterator<[\(keyPath)]> {
          \(hasCases ? "var" : "let") allCasePaths: [\(keyPath)] = []
          \(appends)
          return allCasePaths.makeIterator()
        }
      }
      public static var allCasePaths: AllCasePaths { AllCasePaths() }
      """
  }

  /// The value a case path extracts: `Void`, the one payload, or a tuple of them.
  static func valueType(_ payload: [Payload]) -> String {
    switch payload.count {
    case 0: return "Void"
    case 1:
      let type = payload[0].type
      return type.hasPrefix("some ") || type.hasPrefix("any ") ? "(\(type))" : type
    default:
      let elements = payload.map { value in value.label.map { "\($0): \(value.type)" } ?? value.type
      }
      return "(\(elements.joined(separator: ", ")))"
    }
  }
}

/// `@ReducerCaseEphemeral`: marks a case of an enum reducer whose state is ephemeral (an alert,
/// a confirmation dialog). `@Reducer` treats `AlertState` and `ConfirmationDialogState` cases so
/// without it. The marker itself writes nothing.
public enum ReducerCaseEphemeralMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    []
  }
}

/// `@ReducerCaseIgnored`: marks a case of an enum reducer that holds plain data, not a feature.
/// The marker itself writes nothing.
public enum ReducerCaseIgnoredMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    []
  }
}
