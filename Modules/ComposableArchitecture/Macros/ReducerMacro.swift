import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@Reducer`: conforms the type to `Reducer` and makes its nested `Action` (and enum `State`)
/// `@CasePathable`.
public enum ReducerMacro: MemberAttributeMacro, ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingAttributesFor member: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [AttributeSyntax] {
    if let variable = member.as(VariableDeclSyntax.self) {
      return bodyAttributes(for: variable)
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
    if name == "State" && !existing.contains("dynamicMemberLookup") {
      attributes.append("@dynamicMemberLookup")
    }
    return attributes
  }

  /// The conformance lives in a generated extension, so `body` would not inherit the requirement's
  /// result builder; the macro writes it on the property instead.
  private static func bodyAttributes(for variable: VariableDeclSyntax) -> [AttributeSyntax] {
    guard variable.bindings.count == 1,
      let binding = variable.bindings.first,
      binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == "body",
      binding.accessorBlock != nil,
      !variable.attributes.contains(where: {
        $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription.contains("ReducerBuilder")
          == true
      })
    else { return [] }
    return ["@ComposableArchitecture.ReducerBuilder<Self.State, Self.Action>"]
  }

  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard !protocols.isEmpty else { return [] }
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

/// `@ObservableState`: conforms the type to `ObservableState`.
public enum ObservableStateMacro: ExtensionMacro {
  public static func expansion(
    of node: AttributeSyntax,
    attachedTo declaration: some DeclGroupSyntax,
    providingExtensionsOf type: some TypeSyntaxProtocol,
    conformingTo protocols: [TypeSyntax],
    in context: some MacroExpansionContext
  ) throws -> [ExtensionDeclSyntax] {
    guard !protocols.isEmpty else { return [] }
    let decl: DeclSyntax = "extension \(type.trimmed): ComposableArchitecture.ObservableState {}"
    return [decl.cast(ExtensionDeclSyntax.self)]
  }
}

/// A marker attribute that expands to nothing.
public enum PassthroughMacro: PeerMacro {
  public static func expansion(
    of node: AttributeSyntax,
    providingPeersOf declaration: some DeclSyntaxProtocol,
    in context: some MacroExpansionContext
  ) throws -> [DeclSyntax] {
    []
  }
}
