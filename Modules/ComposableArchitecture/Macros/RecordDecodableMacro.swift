import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@RecordDecodable`: lets a replay build the enum or struct again from a record (the
/// `RecordDecodable` conformance, in an extension so a struct keeps its memberwise initializer).
/// `@Reducer` adds it to `Action`; `@ObservableState` writes the same for a state.
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
    return [RecordDecodableExpansion.enumInit(enumDecl)]
  }

  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    // One extension with both conformances.
    var conformances: [String] = []
    var members: [String] = []
    for (name, part) in [
      ("RecordDecodable", RecordDecodableExpansion.decodableExtension(of: declaration, type: type)),
      (
        "_RecordPatchable", RecordDecodableExpansion.patchableExtension(of: declaration, type: type)
      ),
    ] {
      guard RecordDecodableExpansion.wants(name, in: protocols), let part else { continue }
      conformances += part.inheritanceClause?.inheritedTypes.map(\.type.trimmedDescription) ?? []
      members += part.memberBlock.members.map(\.trimmedDescription)
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
/// `@ObservableState` and `@Reducer`.
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

  /// `init(_$recorded:)` of an enum, which (having no memberwise initializer to keep) has it as
  /// a member; its conformance comes in an empty extension.
  static func enumInit(_ enumDecl: EnumDeclSyntax) -> DeclSyntax {
    """
    \(raw: access(enumDecl))init(_$recorded value: \(raw: module).RecordedValue) throws {
      \(raw: enumInitBody(enumDecl, typeName: enumDecl.name.text))
    }
    """
  }

  /// `init(_$recorded:)` of an enum whose cases are `cases` (source text).
  static func enumInit(cases: String, typeName: String, access: String) -> String {
    let decl: DeclSyntax = "enum E {\n\(raw: cases)\n}"
    guard let enumDecl = decl.as(EnumDeclSyntax.self) else { return "" }
    return """
      \(access)init(_$recorded value: \(module).RecordedValue) throws {
        \(enumInitBody(enumDecl, typeName: typeName))
      }
      """
  }

  /// Whether an enum was written by `@Reducer` (it has `StateReducer`), which gives it its
  /// record initializer itself.
  static func isReducerWritten(_ declaration: some DeclGroupSyntax) -> Bool {
    declaration.memberBlock.members.contains {
      $0.decl.as(TypeAliasDeclSyntax.self)?.name.text == "StateReducer"
    }
  }

  /// `extension T: RecordDecodable { init(_$recorded:) }`, or nil for what it cannot write.
  static func decodableExtension(
    of declaration: some DeclGroupSyntax, type: some TypeSyntaxProtocol
  ) -> ExtensionDeclSyntax? {
    guard isReachable(declaration), !isReducerWritten(declaration) else { return nil }
    let body: String
    if declaration.is(EnumDeclSyntax.self) {
      let decl: DeclSyntax = "extension \(type.trimmed): \(raw: module).RecordDecodable {}"
      return decl.cast(ExtensionDeclSyntax.self)
    } else if declaration.is(StructDeclSyntax.self) {
      body = structInitBody(declaration, typeName: type.trimmedDescription)
    } else {
      return nil
    }
    let decl: DeclSyntax = """
      extension \(type.trimmed): \(raw: module).RecordDecodable {
        \(raw: access(declaration))init(_$recorded value: \(raw: module).RecordedValue) throws {
          \(raw: body)
        }
      }
      """
    return decl.cast(ExtensionDeclSyntax.self)
  }

  // MARK: Enums

  static func enumInitBody(_ enumDecl: EnumDeclSyntax, typeName: String) -> String {
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
        isTracked: ObservableStateMacro.isTrackable(variable))
    }
  }

  static func structInitBody(_ declaration: some DeclGroupSyntax, typeName: String) -> String {
    let assignments = storedProperties(declaration).filter { !$0.isFixed }.map {
      "self.\($0.storage) = try \(module).RecordDecoding.field(\"\($0.name)\", in: fields)"
    }
    return """
      let fields = try \(module).RecordDecoding.fields(of: value, type: "\(quoted(typeName))")
      _ = fields
      \(assignments.joined(separator: "\n"))
      """
  }

  /// `extension T: _RecordPatchable`: a change at a path of fields, field by field.
  static func patchableExtension(
    of declaration: some DeclGroupSyntax, type: some TypeSyntaxProtocol
  ) -> ExtensionDeclSyntax? {
    guard isReachable(declaration), declaration.is(StructDeclSyntax.self) else { return nil }
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
    let decl: DeclSyntax = """
      extension \(type.trimmed): \(raw: module)._RecordPatchable {
        \(raw: access(declaration))mutating func _$patch(
          _ path: ArraySlice<\(raw: module).RecordedChange.Component>,
          _ value: \(raw: module).RecordedValue
        ) throws {
          guard let first = path.first else {
            self = try Self(_$recorded: value)
            return
          }
          guard case .field(let field) = first else {
            throw \(raw: module).RecordDecodingError("\(raw: typeName) has fields, not elements")
          }
          try \(raw: module).RecordDecoding.at(field) {
            switch field {
            \(raw: cases.joined(separator: "\n"))
            default: throw \(raw: module).RecordDecodingError("\(raw: typeName) has no field \\(field)")
            }
          }
        }
      }
      """
    return decl.cast(ExtensionDeclSyntax.self)
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
