@_spi(Reflection) import CasePaths
import OrderedCollections

/// The state of a navigation stack: its elements in order, each with a ``StackElementID``.
///
/// Hold the stack of a feature in its state and integrate the elements' reducer with
/// `forEach(\.path, action: \.path)`:
///
/// ```swift
/// @ObservableState
/// struct State {
///   var path = StackState<Path.State>()
/// }
/// enum Action {
///   case path(StackActionOf<Path>)
/// }
/// ```
///
/// Appending an element gives it the next id of the `stackElementID` dependency (0, 1, 2…,
/// never reused); `pop(from:)` removes an element and everything above it.
public struct StackState<Element> {
  @usableFromInline var _dictionary: OrderedDictionary<StackElementID, Element>
  /// The ids whose presentation the stack reducer has started (its bookkeeping, not equality).
  @usableFromInline var _mounted: OrderedSet<StackElementID> = []

  /// An empty stack.
  public init() {
    self._dictionary = [:]
  }

  /// The ids of the elements, bottom first.
  public var ids: OrderedSet<StackElementID> {
    _dictionary.keys
  }

  /// The element with an id, or `nil`.
  ///
  /// Setting `nil` removes the element. Setting an id that is not in the stack appends it —
  /// only in tests, where an assertion may write `$0.path[id: 1] = .detail(…)` for a push;
  /// elsewhere it is reported and changes nothing.
  public subscript(
    id id: StackElementID,
    fileID fileID: _HashableStaticString = #fileID,
    filePath filePath: _HashableStaticString = #filePath,
    line line: UInt = #line,
    column column: UInt = #column
  ) -> Element? {
    _read { yield _dictionary[id] }
    _modify { yield &_dictionary[id] }
    set {
      switch (ids.contains(id), newValue, isTesting) {
      case (true, _, _), (false, .some, true):
        _dictionary[id] = newValue
      case (false, .some, false):
        reportIssue(
          "Can't assign element at missing ID.", fileID: fileID.rawValue,
          filePath: filePath.rawValue, line: line, column: column)
      case (false, .none, _):
        break
      }
    }
  }

  /// The payload of an element's case, or `nil` when the element is missing or in another case.
  ///
  /// ```swift
  /// state.path[id: 0, case: \.edit]?.alert = AlertState { TextState("Delete?") }
  /// ```
  ///
  /// Modifying an element of another case, or a missing element, is reported and changes
  /// nothing; setting the case to `nil` removes the element.
  public subscript<Case>(id id: StackElementID, case path: CaseKeyPath<Element, Case>) -> Case?
  where Element: CasePathable {
    _read { yield _dictionary[id].flatMap { $0[case: path] } }
    _modify { yield &self[id: id, _extract: { $0[case: path] }, embed: { path($0) }] }
  }

  /// An element's case payload for modification: written back when the element was in the case
  /// (`nil` removes it), otherwise reported as TCA reports it. Serves the case key path and the
  /// deprecated case path spellings.
  subscript<Case>(
    id id: StackElementID, _extract extract: (Element) -> Case?, embed embed: (Case) -> Element
  ) -> Case? {
    get { _dictionary[id].flatMap(extract) }
    _modify {
      let element = _dictionary[id]
      var value = element.flatMap(extract)
      let matched = value != nil
      yield &value
      guard matched else {
        reportUnrelatedCase(element, location: nil)
        return
      }
      _dictionary[id] = value.map(embed)
    }
  }

  /// Removes the element with an id and every element above it. Does nothing for a missing id.
  public mutating func pop(from id: StackElementID) {
    guard let index = _dictionary.keys.firstIndex(of: id) else { return }
    _dictionary.removeSubrange(index...)
  }

  /// Removes every element above the one with an id. Does nothing for a missing id.
  public mutating func pop(to id: StackElementID) {
    guard let index = _dictionary.keys.firstIndex(of: id) else { return }
    _dictionary.removeSubrange((index + 1)...)
  }
}

/// The name of an enum value's case, for messages.
func caseName(of value: Any) -> String? {
  guard let metadata = EnumMetadata(type(of: value)) else { return nil }
  return metadata.caseName(forTag: metadata.tag(of: value))
}

extension StackState: RandomAccessCollection, RangeReplaceableCollection {
  public var startIndex: Int { _dictionary.elements.startIndex }
  public var endIndex: Int { _dictionary.elements.endIndex }
  public func index(after i: Int) -> Int { i + 1 }
  public func index(before i: Int) -> Int { i - 1 }

  public subscript(position: Int) -> Element {
    _dictionary.values[position]
  }

  /// Replaces elements; every new element gets a new id from the `stackElementID` dependency.
  public mutating func replaceSubrange<C: Collection>(
    _ subrange: Range<Int>, with newElements: C
  ) where C.Element == Element {
    @Dependency(\.stackElementID) var stackElementID
    _dictionary.removeSubrange(subrange)
    for (offset, element) in zip(subrange.lowerBound..., newElements) {
      _dictionary.updateValue(element, forKey: stackElementID.next(), insertingAt: offset)
    }
  }

  public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
    _dictionary.removeAll(keepingCapacity: keepCapacity)
  }
}

extension StackState: Equatable where Element: Equatable {
  /// Equal when the ids and the elements are.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs._dictionary == rhs._dictionary
  }
}

extension StackState: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(_dictionary)
  }
}

extension StackState: Sendable where Element: Sendable {}

extension StackState: Decodable where Element: Decodable {
  /// The elements, each with a new id.
  public init(from decoder: any Decoder) throws {
    self.init(try [Element](from: decoder))
  }
}

extension StackState: Encodable where Element: Encodable {
  /// The elements; ids are not encoded.
  public func encode(to encoder: any Encoder) throws {
    try Array(self).encode(to: encoder)
  }
}

extension StackState: CustomStringConvertible {
  public var description: String { _dictionary.values.elements.description }
}

extension StackState: CustomDumpReflectable {
  public var customDumpMirror: Mirror {
    Mirror(self, unlabeledChildren: Array(zip(ids, self)), displayStyle: .dictionary)
  }
}

/// A `StaticString` that is `Hashable`, so that a subscript taking the caller's location can be
/// used in a key path.
public struct _HashableStaticString: ExpressibleByStringLiteral, Hashable, Sendable {
  public let rawValue: StaticString

  public init(stringLiteral value: StaticString) {
    self.rawValue = value
  }

  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.rawValue.description == rhs.rawValue.description
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(rawValue.description)
  }
}
