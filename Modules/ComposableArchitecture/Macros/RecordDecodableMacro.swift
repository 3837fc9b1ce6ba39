import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@RecordDecodable`: lets a replay build the enum or struct again from a record (the
/// `RecordDecodable` conformance). An enum gets `init(_$recorded:)` as a member; a struct gets it
/// in an extension, so that it keeps its memberwise initializer, with `_$patch` (a recorded
/// change made field by field). A `@Reducer enum` writes the same into its `State` and `Action`.
public enum RecordDecodableMacro: ExtensionMacro, MemberMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard let enumDecl = declaration.as(EnumDeclSyntax.self),
      RecordDecodableExpansion.isReachable(enumDecl)
    else { return [] }
    return [
      "\(raw: RecordDecodableExpansion.enumInit(enumDecl, access: RecordDecodableExpansion.access(enumDecl)))"
    ]
  }

  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    typealias Expansion = RecordDecodableExpansion
    let isStruct = declaration.is(StructDeclSyntax.self)
    guard Expansion.isReachable(declaration), isStruct || declaration.is(EnumDeclSyntax.self)
    else { return [] }
    var conformances: [String] = []
    var members: [String] = []
    if Expansion.wants("RecordDecodable", in: protocols) {
      conformances.append("\(Expansion.module).RecordDecodable")
      if isStruct { members.append(Expansion.structInit(declaration, type: type)) }
    }
    if isStruct, Expansion.wants("_RecordPatchable", in: protocols) {
      conformances.append("\(Expansion.module)._RecordPatchable")
      members.append(Expansion.structPatch(declaration, type: type))
    }
    guard !conformances.isEmpty else { return [] }
    let decl: DeclSyntax = """
      extension \(type.trimmed): \(raw: conformances.joined(separator: ", ")) {
        \(raw: members.joined(separator: "\n\n"))
      }
      """
    return [decl.cast(ExtensionDeclSyntax.self)]
  }
}

/// The code that builds a feature's types again from a record, shared by `@RecordDecodable`,
/// `@ObservableState` (bindings) and `@Reducer` (the enums it writes).
enum RecordDecodableExpansion {
  static let module = "ComposableArchitecture"

  static func wants(_ name: String, in protocols: [TypeSyntax]) -> Bool {
    protocols.contains { $0.trimmedDescription.hasSuffix(name) }
  }

  /// `public ` for a public type, `package ` for a package one, nothing otherwise.
  static func access(_ declaration: some DeclGroupSyntax) -> String {
    declaration.modifiers.first { ["public", "open", "package"].contains($0.name.text) }
      .map { $0.name.text == "open" ? "public " : "\($0.name.text) " } ?? ""
  }

  /// A file-scope extension cannot reach a private type.
  static func isReachable(_ declaration: some DeclGroupSyntax) -> Bool {
    !declaration.modifiers.contains { $0.name.text == "private" }
  }

  /// `init(_$recorded:)` of an enum: a member, as an enum has no memberwise initializer to keep.
  static func enumInit(_ enumDecl: EnumDeclSyntax, access: String) -> String {
    """
    \(access)init(_$recorded value: \(module).RecordedValue) throws {
      \(enumInitBody(enumDecl))
    }
    """
  }

  /// `init(_$recorded:)` of an enum whose cases are `cases` (source text).
  static func enumInit(cases: String, access: String) -> String {
    let decl: DeclSyntax = "enum E {\n\(raw: cases)\n}"
    guard let enumDecl = decl.as(EnumDeclSyntax.self) else { return "" }
    return enumInit(enumDecl, access: access)
  }

  // MARK: Enums

  static func enumInitBody(_ enumDecl: EnumDeclSyntax) -> String {
    let elements = enumDecl.memberBlock.members.flatMap { member -> [EnumCaseElementSyntax] in
      member.decl.as(EnumCaseDeclSyntax.self).map { Array($0.elements) } ?? []
    }
    // The type's name as a record writes it, found at run time (a member does not know its
    // parents).
    let quotedType = "\\(\(module).RecordedValue.typeName(of: Self.self))"
    guard !elements.isEmpty else {
      return """
        throw \(module).RecordDecodingError("\(quotedType) has no cases to build")
        """
    }
    let cases = elements.map { element -> String in
      let name = element.name.trimmedDescription
      let bare = name.filter { $0 != "`" }
      let parameters = element.parameterClause?.parameters.map { $0 } ?? []
      guard !parameters.isEmpty else {
        return "case \"\(bare)\": self = .\(name)"
      }
      // A case that can never be made (an enum reducer's action for a case kept as data):
      // building its payload would never return, and the assignment after it would warn.
      let never = ["Never", "Swift.Never"]
      if parameters.contains(where: { never.contains($0.type.trimmedDescription) }) {
        return """
          case "\(bare)": throw \(module).RecordDecodingError("\(quotedType).\(bare) has no value")
          """
      }
      let arguments = parameters.enumerated().map { index, parameter -> String in
        let label = parameter.firstName.flatMap { $0.tokenKind == .wildcard ? nil : $0.text }
        let read =
          "try \(module).RecordDecoding.payload(payload, \(index), label: \"\(label ?? "")\", of: \"\(bare)\")"
        return label.map { "\($0): \(read)" } ?? read
      }
      return "case \"\(bare)\": self = .\(name)(\(arguments.joined(separator: ", ")))"
    }
    return """
      let (name, payload) = try \(module).RecordDecoding.enumCase(of: value, type: "\(quotedType)")
      _ = payload
      switch name {
      \(cases.joined(separator: "\n"))
      default: throw \(module).RecordDecoding.unknownCase(name, of: "\(quotedType)")
      }
      """
  }

  // MARK: Structs

  /// A stored property as a record names it and an initializer sets it.
  struct Property {
    /// The name in the source, which the record uses.
    var name: String
    /// What an initializer assigns: the name, or a property wrapper's `_name`.
    var storage: String
    /// A `let`, which a change cannot set.
    var isConstant: Bool
    /// A `let` with an initial value: no initializer may set it.
    var isFixed: Bool
    /// Tracked by `@ObservableState` (a binding can set it).
    var isTracked: Bool
    /// The value its declaration gives it (`= 0`), when the initializer assigns the property
    /// itself (not a wrapper): what a record made before the field existed builds it with.
    var initialValue: String? = nil
  }

  static func storedProperties(_ declaration: some DeclGroupSyntax) -> [Property] {
    declaration.memberBlock.members.compactMap { member -> Property? in
      guard let variable = member.decl.as(VariableDeclSyntax.self),
        variable.bindings.count == 1,
        let binding = variable.bindings.first,
        let identifier = binding.pattern.as(IdentifierPatternSyntax.self),
        !variable.modifiers.contains(where: { ["static", "class", "lazy"].contains($0.name.text) })
      else { return nil }
      if let accessors = binding.accessorBlock?.accessors {
        // Computed, unless its accessors are only observers.
        guard case .accessors(let list) = accessors,
          list.allSatisfy({ ["willSet", "didSet"].contains($0.accessorSpecifier.text) })
        else { return nil }
      }
      let name = identifier.identifier.text
      let attributes = variable.attributes.compactMap {
        $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription
      }
      if attributes.contains(where: { $0.hasSuffix("Dependency") }) { return nil }
      let ownAccessors = ["Presents", "ObservationStateIgnored", "ObservationStateTracked"]
      let wrapped = attributes.contains { attribute in
        !ownAccessors.contains { attribute.hasSuffix($0) }
      }
      let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)
      return Property(
        name: name, storage: wrapped ? "_\(name)" : name, isConstant: isLet,
        isFixed: isLet && binding.initializer != nil,
        isTracked: ObservableStateMacro.isTrackable(variable),
        initialValue: wrapped || isLet
          ? nil
          : binding.initializer.flatMap {
            isSelfContained($0.value) ? $0.value.trimmedDescription : nil
          })
    }
  }

  /// Whether an initial value means the same wherever it is written — a literal, `.member` or
  /// `.init()` of the property's own type — so that `init(_$recorded:)`, in an extension, can
  /// use it. (A name the declaration reaches through its scope may not be reachable there.)
  static func isSelfContained(_ expression: ExprSyntax) -> Bool {
    if expression.is(IntegerLiteralExprSyntax.self) || expression.is(FloatLiteralExprSyntax.self)
      || expression.is(BooleanLiteralExprSyntax.self) || expression.is(NilLiteralExprSyntax.self)
    {
      return true
    }
    if let string = expression.as(StringLiteralExprSyntax.self) {
      return string.segments.allSatisfy { $0.is(StringSegmentSyntax.self) }
    }
    if let prefix = expression.as(PrefixOperatorExprSyntax.self) {
      return prefix.operator.text == "-" && isSelfContained(prefix.expression)
    }
    if let array = expression.as(ArrayExprSyntax.self) {
      return array.elements.allSatisfy { isSelfContained($0.expression) }
    }
    if let dictionary = expression.as(DictionaryExprSyntax.self) {
      guard case .elements(let elements) = dictionary.content else { return true }
      return elements.allSatisfy { isSelfContained($0.key) && isSelfContained($0.value) }
    }
    if let member = expression.as(MemberAccessExprSyntax.self) {
      return member.base == nil
    }
    if let call = expression.as(FunctionCallExprSyntax.self),
      let member = call.calledExpression.as(MemberAccessExprSyntax.self)
    {
      return member.base == nil && call.arguments.allSatisfy { isSelfContained($0.expression) }
        && call.trailingClosure == nil
    }
    return false
  }

  /// `init(_$recorded:)` of a struct: every stored property that an initializer may set, from
  /// the recorded field of the same name.
  static func structInit(_ declaration: some DeclGroupSyntax, type: some TypeSyntaxProtocol)
    -> String
  {
    let assignments = storedProperties(declaration).filter { !$0.isFixed }.map { property in
      let initial = property.initialValue.map { ", default: \($0)" } ?? ""
      return "self.\(property.storage) = try \(module).RecordDecoding.field("
        + "\"\(property.name)\", in: fields\(initial))"
    }
    return """
      \(access(declaration))init(_$recorded value: \(module).RecordedValue) throws {
        let fields = try \(module).RecordDecoding.fields(of: value, type: "\(quoted(type.trimmedDescription))")
        _ = fields
        \(assignments.joined(separator: "\n"))
      }
      """
  }

  /// `_$patch(_:_:)` of a struct: a change at a path of fields, field by field.
  static func structPatch(_ declaration: some DeclGroupSyntax, type: some TypeSyntaxProtocol)
    -> String
  {
    let typeName = quoted(type.trimmedDescription)
    let cases = storedProperties(declaration).map { property -> String in
      guard !property.isConstant else {
        return """
          case "\(property.name)": throw \(module).RecordDecodingError("\(property.name) is a constant")
          """
      }
      return """
        case "\(property.name)": try \(module).RecordDecoding.patch(&self.\(property.storage), path.dropFirst(), value)
        """
    }
    return """
      \(access(declaration))mutating func _$patch(
        _ path: ArraySlice<\(module).RecordedChange.Component>,
        _ value: \(module).RecordedValue
      ) throws {
        guard let first = path.first else {
          self = try Self(_$recorded: value)
          return
        }
        guard case .field(let field) = first else {
          throw \(module).RecordDecodingError("\(typeName) has fields, not elements")
        }
        try \(module).RecordDecoding.at(field) {
          switch field {
          \(cases.joined(separator: "\n"))
          default: throw \(module).RecordDecodingError("\(typeName) has no field \\(field)")
          }
        }
      }
      """
  }

  /// `_$recordedBinding(_:_:)`: the binding action of each tracked field, by name.
  static func bindings(_ declaration: some DeclGroupSyntax) -> DeclSyntax {
    let cases = storedProperties(declaration).filter(\.isTracked).map {
      "case \"\($0.name)\": return try \(module).RecordDecoding.binding(\\Self.\($0.name), value)"
    }
    return """
      public static func _$recordedBinding(
        _ field: String, _ value: \(raw: module).RecordedValue
      ) throws -> Any {
        switch field {
        \(raw: cases.joined(separator: "\n"))
        default: throw \(raw: module).RecordDecodingError("\\(\(raw: module).RecordedValue.typeName(of: Self.self)) has no field \\(field) that a binding can set")
        }
      }
      """
  }

  static func quoted(_ text: String) -> String {
    text.reduce(into: "") { result, character in
      if character == "\\" || character == "\"" { result.append("\\") }
      result.append(character)
    }
  }
}
