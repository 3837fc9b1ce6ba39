import Foundation

/// One feature's part of the page, kept in that feature's web adapter folder beside its routes:
/// the markup of its section and the ES module that renders the state into it and sends its
/// actions.
///
/// The adapter's resource folder `Public/` holds `<id>.html` (the section's inner markup) and
/// `<id>.js` (its module), and any other file the module imports. The page (``WebPage``) puts the
/// markup inside `<section id="<id>" data-module="/<id>.js">`; the frame's script imports that
/// module and calls its functions:
///
/// - `bind(send)` once, to wire the section's controls to actions;
/// - `render(state, send)` with every state;
/// - optionally `address(state)` — the path segments below `/<id>` of what the section shows —,
///   `parseAddress(segments)` (what an address below `/<id>` asks for, or null) and
///   `stepToward(state, target)` (the next action toward it, or null once shown), so that the
///   browser's Back, Forward, reload and a shared link reach the section's inner screens.
///
/// ```swift
/// extension CounterListPage {
///   public static let section: PageSection? = PageSection(
///     id: "counters", title: "Counters", bundle: .module)
/// }
/// ```
public struct PageSection: Sendable {
  /// The section's id: its element's id, its tab's key and its address (`/counters`); lower-case
  /// letters and digits.
  public let id: String
  /// What its tab says, and the page's title when it is shown alone.
  public let title: String
  /// Whether the page is also served below its address (`/episodes/<id>/<id>…`): the section's
  /// module has inner screens with addresses of their own.
  public let hasInnerAddresses: Bool
  /// The section's inner markup.
  package let markup: String
  /// Its files by name, `<id>.js` among them.
  package let files: [String: [UInt8]]

  /// The section in `bundle`'s resource folder `Public` (the adapter's `Bundle.module`).
  public init(id: String, title: String, hasInnerAddresses: Bool = false, bundle: Bundle) {
    var files = PageFile.files(inFolder: "Public", of: bundle, owner: "section '\(id)'")
    guard let markup = files.removeValue(forKey: id + ".html") else {
      fatalError("section '\(id)': Public/\(id).html, the section's markup, is missing")
    }
    self.init(
      id: id, title: title, hasInnerAddresses: hasInnerAddresses,
      markup: String(decoding: markup, as: UTF8.self), files: files)
  }

  /// A section from its markup and files: `files` must hold its module, `<id>.js`.
  public init(
    id: String, title: String, hasInnerAddresses: Bool = false, markup: String,
    files: [String: [UInt8]]
  ) {
    precondition(
      !id.isEmpty && id.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) },
      "a section's id is lower-case letters and digits, not '\(id)'")
    precondition(files[id + ".js"] != nil, "section '\(id)': its module \(id).js is missing")
    self.id = id
    self.title = title
    self.hasInnerAddresses = hasInnerAddresses
    self.markup = markup
    self.files = files
  }

  /// The section's address.
  public var address: String { "/" + id }
}
