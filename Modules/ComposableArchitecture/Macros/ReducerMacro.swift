import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Reducer`: conforms the type to `Reducer` and makes its nested `Action` (and enum `State`)
/// `@CasePathable`. On an enum of features it writes the whole reducer (see
/// `EnumReducerExpansion`) and conforms it to `CaseReducer` as well.
public enum ReducerMacro: MemberMacro, MemberAttributeMacro, ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard let enumDecl = declaration.as(EnumDeclSyntax.self) else {
      return missingRequirements(of: declaration)
    }
    return EnumReducerExpansion.members(
      of: enumDecl,
      stateConformances: synthesizedConformances(node, label: "state"),
      actionConformances: synthesizedConformances(node, label: "action"))
  }

  /// What a `@Reducer` struct leaves out, written as TCA's macro writes it: an empty `State`
  /// (observable, `Codable`, `Equatable`, `Hashable`, `Sendable`), an `Action` without cases, and
  /// a `body` that does nothing — so `@Reducer struct Feature {}` is a feature (a placeholder, a
  /// case of a destination enum). Nothing is written when `body` names another domain than the
  /// type's own `some ReducerOf<Self>` (`some ReducerOf<AppFeature>`, `some Reducer<Int, Void>`,
  /// or a value without a written type: `let body = EmptyReducer<State, Action>()`). The
  /// state's observability is written inline rather than with `@ObservableState`, whose
  /// conformance extension on a macro-written type can crash Swift 6.3.1.
  static func missingRequirements(of declaration: some DeclGroupSyntax) -> [DeclSyntax] {
    guard declaration.is(StructDeclSyntax.self) else { return [] }
    var names: Set<String> = []
    var bodyNamesDomain = false
    for member in declaration.memberBlock.members {
      let decl = member.decl
      if let type = decl.as(StructDeclSyntax.self) { names.insert(type.name.text) }
      if let type = decl.as(EnumDeclSyntax.self) { names.insert(type.name.text) }
      if let type = decl.as(ClassDeclSyntax.self) { names.insert(type.name.text) }
      if let alias = decl.as(TypeAliasDeclSyntax.self) { names.insert(alias.name.text) }
      if let function = decl.as(FunctionDeclSyntax.self), function.name.text == "reduce" {
        names.insert("reduce")
      }
      if let variable = decl.as(VariableDeclSyntax.self),
        let binding = variable.bindings.first,
        binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "body"
      {
        names.insert("body")
        // Only `some ReducerOf<Self>` asks for this type's own `State` and `Action`. Any other
        // type names a domain (`some ReducerOf<AppFeature>`, `some Reducer<State, Action>` whose
        // `State` may be an enclosing type's), and so does a value without a written type
        // (`let body = EmptyReducer<State, Action>()`).
        let arguments = binding.typeAnnotation?.type.as(SomeOrAnyTypeSyntax.self)?
          .constraint.as(IdentifierTypeSyntax.self)?.genericArgumentClause?.arguments
        bodyNamesDomain = arguments?.trimmedDescription != "Self"
      }
    }
    guard !bodyNamesDomain else { return [] }
    let access =
      declaration.modifiers.first { ["public", "package"].contains($0.name.text) }
      .map { "\($0.name.text) " } ?? ""
    var members: [DeclSyntax] = []
    if !names.contains("State") {
      members.append(
        """
        \(raw: access)struct State: Codable, Equatable, Hashable, Sendable, \
        ComposableArchitecture.ObservableState, Observation.Observable {
          \(raw: access)init() {}
          \(raw: access)var _$id: ComposableArchitecture.ObservableStateID { ._$inert }
          \(raw: access)mutating func _$willModify() {}
        }
        """)
    }
    if !names.contains("Action") {
      members.append("\(raw: access)enum Action: Equatable, Hashable, Sendable {}")
    }
    if !names.contains("body") && !names.contains("reduce") {
      members.append(
        "\(raw: access)let body = ComposableArchitecture.EmptyReducer<State, Action>()")
    }
    return members
  }

  /// The protocols `@Reducer(state: .equatable, action: .equatable, .sendable)` asks for on the
  /// `State` and `Action` a `@Reducer enum` writes: the arguments after `label`, up to the next
  /// labelled one.
  static func synthesizedConformances(_ node: AttributeSyntax, label: String) -> [String] {
    guard case .argumentList(let arguments) = node.arguments else { return [] }
    var names: [String] = []
    var inside = false
    for argument in arguments {
      if let argumentLabel = argument.label?.text { inside = argumentLabel == label }
      guard inside,
        let name = argument.expression.as(MemberAccessExprSyntax.self)?.declName.baseName.text
      else { continue }
      let protocols = [
        "codable": "Codable", "decodable": "Decodable", "encodable": "Encodable",
        "equatable": "Equatable", "hashable": "Hashable", "sendable": "Sendable",
      ]
      if let conformance = protocols[name] { names.append(conformance) }
    }
    return names
  }

  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingAttributesFor member: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AttributeSyntax] {
    // An enum of features gets the same as a struct: a `State` or `Action` it declares itself is
    // made case-pathable, and a `body` it writes gets its builder.
    if let variable = member.as(VariableDeclSyntax.self) {
      return bodyAttributes(for: variable)
    }
    if let structDecl = member.as(StructDeclSyntax.self), structDecl.name.text == "State" {
      let existing = Set(
        structDecl.attributes.compactMap {
          $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription
        })
      let observable = ["ObservableState", "ComposableArchitecture.ObservableState"]
      guard !existing.contains(where: observable.contains) else { return [] }
      return recordDecodableAttribute(existing: existing).map { [$0] } ?? []
    }
    guard let enumDecl = member.as(EnumDeclSyntax.self) else { return [] }
    let name = enumDecl.name.text
    guard name == "Action" || name == "State" else { return [] }
    let existing = Set(
      enumDecl.attributes.compactMap {
        $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription
      }
    )
    var attributes: [AttributeSyntax] = []
    if !existing.contains("CasePathable") && !existing.contains("CasePaths.CasePathable") {
      attributes.append("@CasePaths.CasePathable")
    }
    if !existing.contains("_CasePathResolving"),
      !existing.contains("ComposableArchitecture._CasePathResolving"),
      CasePathResolvingMacro.canResolve(enumDecl)
    {
      attributes.append("@ComposableArchitecture._CasePathResolving")
    }
    if name == "State" && !existing.contains("dynamicMemberLookup") {
      attributes.append("@dynamicMemberLookup")
    }
    if let recordDecodable = recordDecodableAttribute(existing: existing) {
      attributes.append(recordDecodable)
    }
    return attributes
  }

  /// `@RecordDecodable` for a `State` or `Action` the reducer declares, so that a replay can build
  /// them again without a project-only attribute in the feature: an `@ObservableState` struct
  /// gets it from that macro, and a type that names it already keeps its own.
  private static func recordDecodableAttribute(existing: Set<String>) -> AttributeSyntax? {
    let own = ["RecordDecodable", "ComposableArchitecture.RecordDecodable"]
    guard !existing.contains(where: own.contains) else { return nil }
    return "@ComposableArchitecture.RecordDecodable"
  }

  /// The conformance lives in a generated extension, so `body` would not inherit the requirement's
  /// result builder; the macro writes it on the property instead, with the domain the property's
  /// type names: `some ReducerOf<Self>` gives `ReducerBuilder<Self.State, Self.Action>`, and
  /// `some Reducer<Int, Void>` gives `ReducerBuilder<Int, Void>` — so a reducer whose domain is
  /// only in its `body` (no nested `State` or `Action`) builds too. A `body` whose type names no
  /// domain gets no builder.
  private static func bodyAttributes(for variable: VariableDeclSyntax) -> [AttributeSyntax] {
    guard variable.bindingSpecifier.text == "var",
      variable.bindings.count == 1,
      let binding = variable.bindings.first,
      binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "body",
      case .getter = binding.accessorBlock?.accessors,
      let arguments = binding.typeAnnotation?.type.as(SomeOrAnyTypeSyntax.self)?
        .constraint.as(IdentifierTypeSyntax.self)?.genericArgumentClause?.arguments,
      !variable.attributes.contains(where: {
        $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription.contains("ReducerBuilder")
          == true
      })
    else { return [] }
    let domain =
      arguments.count == 1
      ? "\(arguments.trimmedDescription).State, \(arguments.trimmedDescription).Action"
      : arguments.trimmedDescription
    return ["@ComposableArchitecture.ReducerBuilder<\(raw: domain)>"]
  }

  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard !protocols.isEmpty else { return [] }
    if declaration.is(EnumDeclSyntax.self) {
      let decl: DeclSyntax = """
        extension \(type.trimmed): ComposableArchitecture.CaseReducer, \
        ComposableArchitecture.Reducer {}
        """
      return [decl.cast(ExtensionDeclSyntax.self)]
    }
    if let inheritance = declaration.inheritanceClause,
      inheritance.inheritedTypes.contains(where: {
        ["Reducer", "ComposableArchitecture.Reducer"].contains($0.type.trimmedDescription)
      })
    {
      return []
    }
    let decl: DeclSyntax = "extension \(type.trimmed): ComposableArchitecture.Reducer {}"
    return [decl.cast(ExtensionDeclSyntax.self)]
  }
}

/// `@_CasePathResolving`, added by `@Reducer` to its `Action` and enum `State`: a table from the
/// enum's case key paths to typed embed and extract functions, so that the runtime resolves
/// `\.child` once into a closure that pattern-matches the case, instead of extracting through
/// `Case` and `Any` on every action.
///
/// ```swift
/// static func _$casePath(for keyPath: AnyKeyPath) -> Any? {
///   if keyPath == \Self.Cases.child as AnyKeyPath {
///     return ComposableArchitecture._CaseFunctions<Self, Child.Action>(
///       embed: Self.child,
///       extract: { guard case let .child(v0) = $0 else { return nil }; return v0 }
///     )
///   }
///   return nil
/// }
/// ```
public enum CasePathResolvingMacro: MemberMacro, ExtensionMacro {
  /// Private enums are out of reach of a file-scope extension; generic ones are left alone.
  static func canResolve(_ enumDecl: EnumDeclSyntax) -> Bool {
    enumDecl.genericParameterClause == nil
      && !enumDecl.modifiers.contains { $0.name.text == "private" }
      && !cases(of: enumDecl).isEmpty
  }

  /// The cases declared directly in the enum (not those inside `#if`).
  static func cases(of enumDecl: EnumDeclSyntax) -> [EnumCaseElementSyntax] {
    enumDecl.memberBlock.members.flatMap { member -> [EnumCaseElementSyntax] in
      guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { return [] }
      return Array(caseDecl.elements)
    }
  }

  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard let enumDecl = declaration.as(EnumDeclSyntax.self), canResolve(enumDecl) else {
      return []
    }
    let access =
      enumDecl.modifiers.first {
        ["public", "package", "fileprivate"].contains($0.name.text)
      }.map { "\($0.name.text) " } ?? ""
    let entries = cases(of: enumDecl).map(entry(for:))
    return [
      """
      \(raw: access)static func _$casePath(for keyPath: AnyKeyPath) -> Any? {
      \(raw: entries.joined(separator: "\n"))
        return nil
      }
      """
    ]
  }

  /// The table entry of one case: its key path, and its embed and extract functions.
  static func entry(for element: EnumCaseElementSyntax) -> String {
    let name = element.name.trimmed.text
    let member = name.hasPrefix("`") ? name : "`\(name)`"
    let parameters = element.parameterClause?.parameters.map { $0 } ?? []
    let embed: String
    let pattern: String
    let result: String
    if parameters.isEmpty {
      embed = "{ _ in Self.\(member) }"
      pattern = ".\(member)"
      result = "()"
    } else {
      let bindings = parameters.indices.map { "v\($0)" }
      embed = "Self.\(member)"
      pattern = "let .\(member)(\(bindings.joined(separator: ", ")))"
      result = bindings.count == 1 ? bindings[0] : "(\(bindings.joined(separator: ", ")))"
    }
    return """
        if keyPath == \\Self.Cases.\(member) as AnyKeyPath {
          return ComposableArchitecture._CaseFunctions<Self, \(valueType(of: parameters))>(
            embed: \(embed),
            extract: {
              guard case \(pattern) = $0 else { return nil }
              return \(result)
            }
          )
        }
      """
  }

  /// The type a case key path to the case extracts: `Void`, the single payload's type, or a
  /// tuple of the payloads (labelled as the case labels them).
  static func valueType(of parameters: [EnumCaseParameterSyntax]) -> String {
    if parameters.isEmpty { return "Void" }
    if parameters.count == 1, let type = parameters.first?.type.trimmed {
      return type.is(SomeOrAnyTypeSyntax.self) ? "(\(type))" : type.description
    }
    let elements = parameters.map { parameter -> String in
      let type = parameter.type.trimmedDescription
      guard let label = parameter.firstName, label.tokenKind != .wildcard else { return type }
      return "\(label.text): \(type)"
    }
    return "(\(elements.joined(separator: ", ")))"
  }

  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard let enumDecl = declaration.as(EnumDeclSyntax.self), canResolve(enumDecl) else {
      return []
    }
    let decl: DeclSyntax =
      "extension \(type.trimmed): ComposableArchitecture._CasePathResolving {}"
    return [decl.cast(ExtensionDeclSyntax.self)]
  }
}
