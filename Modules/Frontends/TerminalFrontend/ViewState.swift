/// What the terminal front end remembers besides the app's state: which row of each screen is
/// selected, and whether a text field is being edited. It is presentation only; everything the
/// user does goes to the store as an action.
///
/// Each screen names its selection and its fields in its own file (`selectedCounter`,
/// `Field.searchQuery`, …).
public struct ViewState: Equatable, Sendable {
  /// The selected row by screen; a screen without an entry has its first row selected.
  private var selections: [String: Int] = [:]
  /// The text field being edited, if any.
  public var editing: Field?
  /// Whether the app runs on the offline clients (`--offline`): the search screen then credits
  /// the embedded gazetteer instead of Open-Meteo.
  public var isOffline = false
  /// A line the session shows above the help: whether the session is being recorded, where a
  /// recording was saved.
  public var status: String?

  /// A text field being edited, named by the screen that has it.
  public struct Field: Hashable, Sendable {
    public let name: String

    public init(_ name: String) {
      self.name = name
    }
  }

  public init() {}

  /// The selected row of the screen called `screen` (0, the first row, until one is chosen).
  public subscript(selection screen: String) -> Int {
    get { selections[screen] ?? 0 }
    // The first row is kept as no entry, so that equal selections are equal states.
    set { selections[screen] = newValue == 0 ? nil : newValue }
  }

  /// A key while a text field holding `text` is edited: the text after it, or `nil` when the key
  /// does not change it. Enter, Esc and Tab end editing.
  public mutating func edit(_ text: String, with key: Key) -> String? {
    var text = text
    switch key {
    case .enter, .escape, .tab:
      editing = nil
      return nil
    case .backspace:
      guard !text.isEmpty else { return nil }
      text.removeLast()
    case .character(let character):
      text.append(character)
    default:
      return nil
    }
    return text
  }
}
