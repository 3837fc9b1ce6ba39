import Foundation
import OrderedCollections

extension Reducer {
  /// Runs an element reducer on the elements of an identified collection.
  ///
  /// For an `.element(id:action:)` action the element reducer runs first, in place, on the element
  /// with that id; then this (the parent) reducer runs. An action for an id that is not in the
  /// collection is reported as an issue and changes no element.
  ///
  /// Each element's effects are registered under the element's identity: when the parent removes
  /// an element, every effect that element started is cancelled, and cancellation identifiers of
  /// two elements never collide.
  ///
  /// ```swift
  /// var body: some ReducerOf<Self> {
  ///   Reduce { state, action in … }
  ///     .forEach(\.counters, action: \.counters) {
  ///       Counter()
  ///     }
  /// }
  /// ```
  @inlinable
  public func forEach<ElementState, ElementAction, ID: Hashable & Sendable, Element: Reducer>(
    _ toElementsState: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: CaseKeyPath<Action, IdentifiedAction<ID, ElementAction>>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _ForEachReducer<Self, ID, Element>
  where Element.State == ElementState, Element.Action == ElementAction {
    _ForEachReducer(
      parent: self,
      toElementsState: toElementsState,
      toElementAction: CaseEmbedding(toElementAction),
      element: element(),
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer built by ``Reducer/forEach(_:action:element:fileID:filePath:line:column:)``.
public struct _ForEachReducer<Parent: Reducer, ID: Hashable & Sendable, Element: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let toElementsState:
    WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>
  @usableFromInline let toElementAction:
    CaseEmbedding<Parent.Action, IdentifiedAction<ID, Element.Action>>
  @usableFromInline let element: Element
  @usableFromInline let location: SourceLocation

  @usableFromInline
  init(
    parent: Parent,
    toElementsState: WritableKeyPath<Parent.State, IdentifiedArray<ID, Element.State>>,
    toElementAction: CaseEmbedding<Parent.Action, IdentifiedAction<ID, Element.Action>>,
    element: Element,
    location: SourceLocation
  ) {
    self.parent = parent
    self.toElementsState = toElementsState
    self.toElementAction = toElementAction
    self.element = element
    self.location = location
  }

  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    _resolvedStandalone().run(&state, action)
  }

  /// The element reducer runs first, in place, on the element with the action's id; then the
  /// parent. The ids are compared before and after the parent (their storage first, so an
  /// unchanged collection costs no element comparisons), and the effects of removed elements are
  /// cancelled.
  @inlinable
  public func _resolve(
    _ resolution: inout _Resolution
  ) -> _ResolvedReducer<Parent.State, Parent.Action> {
    let parent = self.parent._resolve(&resolution)
    let element = resolution.resolvingAtOnce { self.element._resolve(&$0) }
    let toElements = _StateAccess(toElementsState)
    let toElementAction = self.toElementAction
    let keyPathID = IdentifierBox(toElementsState)
    let location = self.location
    return _ResolvedReducer { state, action in
      var elementEffects: Effect<Parent.Action> = .none
      if case .element(let id, let elementAction) = toElementAction.extract(from: action) {
        let effect = toElements.modify(&state) { elements -> Effect<Element.Action>? in
          guard let index = elements.index(id: id) else { return nil }
          return element.run(&elements[index], elementAction)
        }
        if let effect {
          if case .none = effect.operation {
          } else {
            let identity = ChildIdentity(keyPath: keyPathID, id: id)
            elementEffects =
              effect
              .transformed(
                { toElementAction.embed(.element(id: id, action: $0)) },
                pathComponent: identity.pathComponent
              )
              .cancellable(id: identity)
          }
        } else {
          reportMissingElement(action: action, location: location)
        }
      }

      // Holding the ids' element buffer makes a parent that changes the ids copy it (an ordered
      // set's hash table is derived from its elements, so no change of the ids leaves the
      // elements in place), so that an unchanged buffer means unchanged ids.
      let idsBefore = toElements.read(&state) { $0.ids.elements }
      let parentEffects = parent.run(&state, action)
      if toElements.read(&state, { areIdentical(idsBefore, $0.ids.elements) }) {
        return elementEffects.merge(with: parentEffects)
      }
      let idsAfter = toElements.read(&state) { $0.ids }
      let cancelEffects = Effect<Parent.Action>.merge(
        idsBefore.lazy.filter { !idsAfter.contains($0) }.map {
          .cancel(id: ChildIdentity(keyPath: keyPathID, id: $0))
        }
      )
      return elementEffects.merge(with: parentEffects).merge(with: cancelEffects)
    }
  }

  public typealias Body = Never
}

@usableFromInline
func reportMissingElement(
  action: Any, location: SourceLocation, swiftUIAdvice: String = "use \"ForEachStore\"."
) {
  reportIssue(
    """
    A "forEach" at "\(location.fileID):\(location.line)" received an action for a missing \
    element.

      Action:
        \(debugCaseOutput(action))

    This is generally considered an application logic error, and can happen for a few reasons:

    A parent reducer removed an element with this ID before this reducer ran. This reducer \
    must run before any other reducer removes an element, which ensures that element reducers \
    can handle their actions while their state is still available.

    An in-flight effect emitted this action when state contained no element at this ID. \
    While it may be perfectly reasonable to ignore this action, consider canceling the \
    associated effect before an element is removed, especially if it is a long-living effect.

    This action was sent to the store while its state contained no element at this ID. To \
    fix this make sure that actions for this reducer can only be sent from a store when \
    its state contains an element at this id. In SwiftUI applications, \(swiftUIAdvice)
    """,
    fileID: location.fileID,
    filePath: location.filePath,
    line: location.line,
    column: location.column
  )
}

/// Where an operator was applied, for the issues it reports.
@usableFromInline
struct SourceLocation: Sendable {
  let fileID: StaticString
  let filePath: StaticString
  let line: UInt
  let column: UInt

  @usableFromInline
  init(fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    self.fileID = fileID
    self.filePath = filePath
    self.line = line
    self.column = column
  }
}

/// A short description of an action's cases, without payload values, as TCA prints it in its
/// messages: `AppFeature.Action.counters(.element(id:, action: .incrementButtonTapped))`.
/// Unlabeled payloads show as `_:`; a value that describes itself for debugging
/// (`CustomDebugStringConvertible`) is shown by that description.
func debugCaseOutput(_ value: Any, abbreviated: Bool = false) -> String {
  func cases(_ value: Any) -> String {
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .enum:
      guard let child = mirror.children.first else {
        let name = "\(value)"
        return name == typeName(type(of: value)) ? "" : ".\(name)"
      }
      let payload = cases(child.value)
      return ".\(child.label ?? "")\(payload.isEmpty ? "" : "(\(payload))")"
    case .tuple:
      return mirror.children.map { label, value in
        let payload = cases(value)
        let name = label.map { isPositional($0) ? "_:" : "\($0):" } ?? ""
        return "\(name)\(payload.isEmpty ? "" : " \(payload)")"
      }
      .joined(separator: ", ")
    default:
      return ""
    }
  }
  if let described = value as? any CustomDebugStringConvertible {
    return described.debugDescription
  }
  return "\(abbreviated ? "" : typeName(type(of: value)))\(cases(value))"
}

/// Whether a tuple label is a position (`.0`, `.1`…), which is how a mirror names an unlabeled
/// element.
private func isPositional(_ label: String) -> Bool {
  label.allSatisfy { $0 == "." || $0.isNumber }
}
