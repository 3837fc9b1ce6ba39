import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@ObservableState`: makes a state struct (or enum) observable with the Observation module.
///
/// On a struct it adds the registrar and identity members and marks every stored `var` with
/// `@ObservationStateTracked`, whose accessors report reads and writes; on an enum it derives the
/// identity from the case and its payload. Both get the `ObservableState` and `Observable`
/// conformances.
public enum ObservableStateMacro: MemberMacro, MemberAttributeMacro, ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingMembersOf declaration: some DeclGroupSyntax,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    if let enumDecl = declaration.as(EnumDeclSyntax.self) {
      return enumMembers(enumDecl)
    }
    guard declaration.is(StructDeclSyntax.self) else { return [] }
    return [
      fieldNames(declaration),
      RecordDecodableExpansion.bindings(declaration),
      "var _$observationRegistrar = ComposableArchitecture.ObservationStateRegistrar()",
      """
      public var _$id: ComposableArchitecture.ObservableStateID {
        _$observationRegistrar.id
      }
      """,
      """
      public mutating func _$willModify() {
        _$observationRegistrar._$willModify()
      }
      """,
    ]
  }

  /// `_$fieldName(of:)`: the name of each tracked field's key path, which a recorded binding
  /// action is written with (`.set(\.displayName, "Ann")`).
  private static func fieldNames(_ declaration: some DeclGroupSyntax) -> DeclSyntax {
    let names = declaration.memberBlock.members.compactMap { member -> String? in
      guard let variable = member.decl.as(VariableDeclSyntax.self), isTrackable(variable),
        let identifier = variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)
      else { return nil }
      return identifier.identifier.text
    }
    let checks = names.map { "if keyPath == \\Self.\($0) as AnyKeyPath { return \"\($0)\" }" }
    return """
      public static func _$fieldName(of keyPath: AnyKeyPath) -> String? {
        \(raw: (checks + ["return nil"]).joined(separator: "\n"))
      }
      """
  }

  /// `_$id` and `_$willModify()` of an enum state: the case's tag over its payload's identity.
  private static func enumMembers(_ enumDecl: EnumDeclSyntax) -> [DeclSyntax] {
    let elements = enumDecl.memberBlock.members.flatMap { member -> [EnumCaseElementSyntax] in
      member.decl.as(EnumCaseDeclSyntax.self).map { Array($0.elements) } ?? []
    }
    let cases = elements.enumerated().map { tag, element in
      EnumStateCase(
        name: element.name.trimmedDescription,
        parameters: element.parameterClause?.parameters.map { $0 } ?? [], tag: tag)
    }
    return enumStateMembers(
      cases.isEmpty ? nil : (idCases: cases.map(\.idCase), modifyCases: cases.map(\.modifyCase)))
  }

  /// A case of an enum state: the lines its `_$id` and `_$willModify()` switch over it.
  struct EnumStateCase {
    let name: String
    let parameters: [EnumCaseParameterSyntax]
    /// The case's position among the enum's cases.
    let tag: Int

    var idCase: String {
      parameters.count == 1
        ? "case let .\(name)(state): return ._$id(for: state)._$tag(\(tag))"
        : "case .\(name): return ._$inert._$tag(\(tag))"
    }

    var modifyCase: String {
      guard parameters.count == 1 else { return "case .\(name): break" }
      let label = parameters[0].firstName.map { "\($0.text): " } ?? ""
      return """
        case var .\(name)(state):
          ComposableArchitecture._$willModify(&state)
          self = .\(name)(\(label)state)
        """
    }
  }

  /// `_$id` and `_$willModify()` switching over the given lines (each a case, or an `#if` of
  /// cases); `nil`: an enum without cases.
  static func enumStateMembers(_ lines: (idCases: [String], modifyCases: [String])?)
    -> [DeclSyntax]
  {
    guard let lines else {
      return [
        "public var _$id: ComposableArchitecture.ObservableStateID { ._$inert }",
        "public mutating func _$willModify() {}",
      ]
    }
    return [
      """
      public var _$id: ComposableArchitecture.ObservableStateID {
        switch self {
        \(raw: lines.idCases.joined(separator: "\n"))
        }
      }
      """,
      """
      public mutating func _$willModify() {
        switch self {
        \(raw: lines.modifyCases.joined(separator: "\n"))
        }
      }
      """,
    ]
  }

  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingAttributesFor member: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AttributeSyntax] {
    guard declaration.is(StructDeclSyntax.self),
      let variable = member.as(VariableDeclSyntax.self),
      isTrackable(variable)
    else { return [] }
    return ["@ComposableArchitecture.ObservationStateTracked"]
  }

  /// The key path an accessor of field `name` reports with: a literal, which the compiler makes
  /// once, or where the state's type is generic (or nested in a type that is, or in an extension,
  /// whose type may be) ``_$observableKeyPath(_:_:)``, which makes it once per type: the Swift
  /// runtime builds a generic key path literal again at every evaluation.
  static func keyPath(_ name: String, in context: some MacroExpansionContext) -> String {
    let generic = context.lexicalContext.contains { syntax in
      if syntax.is(ExtensionDeclSyntax.self) { return true }
      if let decl = syntax.asProtocol(WithGenericParametersSyntax.self) {
        return decl.genericParameterClause != nil
      }
      return false
    }
    return generic
      ? "ComposableArchitecture._$observableKeyPath(\"\(name)\") { \\Self.\(name) }"
      : "\\.\(name)"
  }

  /// A stored, instance `var` without observers or property wrappers: the properties whose
  /// reads and writes can be reported.
  static func isTrackable(_ variable: VariableDeclSyntax) -> Bool {
    guard variable.bindingSpecifier.tokenKind == .keyword(.var),
      variable.bindings.count == 1,
      let binding = variable.bindings.first,
      let identifier = binding.pattern.as(IdentifierPatternSyntax.self),
      !identifier.identifier.text.hasPrefix("_"),
      binding.accessorBlock == nil,
      !variable.modifiers.contains(where: {
        ["static", "class", "lazy"].contains($0.name.text)
      })
    else { return false }
    // Any attribute (a property wrapper, `@Presents`, `@ObservationStateIgnored`) opts out.
    return variable.attributes.isEmpty
  }

  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard !protocols.isEmpty else { return [] }
    var extensions: [ExtensionDeclSyntax] = []
    if RecordDecodableExpansion.wants("ObservableState", in: protocols)
      || RecordDecodableExpansion.wants("Observable", in: protocols)
    {
      let decl: DeclSyntax = """
        extension \(type.trimmed): ComposableArchitecture.ObservableState, Observation.Observable {}
        """
      extensions.append(decl.cast(ExtensionDeclSyntax.self))
    }
    // A state struct is also what a replay builds again and patches field by field, as
    // `@RecordDecodable` writes it: so a feature's state needs nothing but TCA's own attribute.
    if declaration.is(StructDeclSyntax.self) {
      // It writes only the record conformances among `protocols`.
      extensions += try RecordDecodableMacro.expansion(
        of: node, attachedTo: declaration, providingExtensionsOf: type,
        conformingTo: protocols, in: context)
    }
    return extensions
  }
}

/// `@ObservationStateTracked`: turns a stored property of an observable state into accessors
/// over a private `_name` storage that report reads and writes to the state's registrar.
public enum ObservationStateTrackedMacro: AccessorMacro, PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingAccessorsOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AccessorDeclSyntax] {
    guard let variable = declaration.as(VariableDeclSyntax.self),
      let name = variable.bindings.first?.pattern.as(IdentifierPatternSyntax.self)?.identifier
        .text
    else { return [] }
    let keyPath = ObservableStateMacro.keyPath(name, in: context)
    return [
      """
      @storageRestrictions(initializes: _\(raw: name))
      init(initialValue) {
        _\(raw: name) = initialValue
      }
      """,
      """
      get {
        _$observationRegistrar.access(self, keyPath: \(raw: keyPath))
        return _\(raw: name)
      }
      """,
      """
      set {
        _$observationRegistrar.mutate(
          self, keyPath: \(raw: keyPath), &_\(raw: name), newValue, _$isIdentityEqual,
          _$shouldNotifyObservers)
      }
      """,
      """
      _modify {
        let oldValue = _$observationRegistrar.willModify(self, keyPath: \(raw: keyPath), &_\(raw: name))
        defer {
          _$observationRegistrar.didModify(
            self, keyPath: \(raw: keyPath), &_\(raw: name), oldValue, _$isIdentityEqual)
        }
        yield &_\(raw: name)
      }
      """,
    ]
  }

  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard let variable = declaration.as(VariableDeclSyntax.self),
      let binding = variable.bindings.first,
      let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text
    else { return [] }
    let type = binding.typeAnnotation.map { ": \($0.type.trimmedDescription)" } ?? ""
    let initializer = binding.initializer.map { " = \($0.value.trimmedDescription)" } ?? ""
    return [
      "@ComposableArchitecture.ObservationStateIgnored private var _\(raw: name)\(raw: type)\(raw: initializer)"
    ]
  }
}

/// `@ObservationStateIgnored`: leaves a property of an observable state untracked.
public enum ObservationStateIgnoredMacro: AccessorMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingAccessorsOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AccessorDeclSyntax] {
    []
  }
}

/// `@Presents`: an optional presented state, stored in a ``PresentationState`` and observed.
///
/// `destination` reads and writes the presented value; `$destination` is the presentation state
/// itself, which `ifLet(\.$destination, action: \.destination)` integrates.
public enum PresentsMacro: AccessorMacro, PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingAccessorsOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AccessorDeclSyntax] {
    guard let name = propertyName(declaration) else { return [] }
    let keyPath = ObservableStateMacro.keyPath(name, in: context)
    return [
      """
      @storageRestrictions(initializes: _\(raw: name))
      init(initialValue) {
        _\(raw: name) = ComposableArchitecture.PresentationState(wrappedValue: initialValue)
      }
      """,
      """
      get {
        _$observationRegistrar.access(self, keyPath: \(raw: keyPath))
        return _\(raw: name).wrappedValue
      }
      """,
      """
      set {
        _$observationRegistrar.mutate(
          self, keyPath: \(raw: keyPath), &_\(raw: name).wrappedValue, newValue, _$isIdentityEqual)
      }
      """,
    ]
  }

  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    guard let variable = declaration.as(VariableDeclSyntax.self),
      let name = propertyName(declaration),
      let type = variable.bindings.first?.typeAnnotation?.type
    else { return [] }
    let keyPath = ObservableStateMacro.keyPath(name, in: context)
    let wrapped: String
    if let optional = type.as(OptionalTypeSyntax.self) {
      wrapped = optional.wrappedType.trimmedDescription
    } else if let identifier = type.as(IdentifierTypeSyntax.self),
      identifier.name.text == "Optional",
      let argument = identifier.genericArgumentClause?.arguments.first
    {
      wrapped = argument.argument.trimmedDescription
    } else {
      wrapped = type.trimmedDescription
    }
    let access =
      variable.modifiers.first { ["public", "package", "internal"].contains($0.name.text) }
      .map { "\($0.name.text) " } ?? ""
    return [
      """
      \(raw: access)var $\(raw: name): ComposableArchitecture.PresentationState<\(raw: wrapped)> {
        get {
          _$observationRegistrar.access(self, keyPath: \(raw: keyPath))
          return _\(raw: name).projectedValue
        }
        set {
          _$observationRegistrar.mutate(
            self, keyPath: \(raw: keyPath), &_\(raw: name).projectedValue, newValue,
            _$isIdentityEqual)
        }
      }
      """,
      """
      @ComposableArchitecture.ObservationStateIgnored private var _\(raw: name) = ComposableArchitecture.PresentationState<\(raw: wrapped)>(wrappedValue: nil)
      """,
    ]
  }

  private static func propertyName(_ declaration: some DeclSyntaxProtocol) -> String? {
    declaration.as(VariableDeclSyntax.self)?.bindings.first?.pattern
      .as(IdentifierPatternSyntax.self)?.identifier.text
  }
}
