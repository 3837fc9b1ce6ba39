import Foundation

/// The page a server serves: the frame (`Public/` of this module — the document, the script that
/// runs the session and the address bar, the shared DOM helpers, the style sheet, the icon) with
/// the sections of the features it is made of, one per ``PageSection``.
///
/// The document is put together once, from the frame's `index.html`: its `{{title}}` becomes the
/// page's title, `{{tabs}}` a tab bar with a tab per section (none when the page has a single
/// section, as a feature's preview does) and `{{sections}}` the sections' markup, each in its
/// `<section>`. Every file is served at `/<name>`: the modules import each other by those paths,
/// so two sections may not bring files of the same name.
///
/// The page answers at `/`, at each section's address (`/counters`) and, for a section with inner
/// addresses, below it; the script turns the address into the actions that lead there.
public struct WebPage: Sendable {
  /// What the page is called: its document title until the state says otherwise.
  public let title: String
  /// The sections, in the order of their tabs.
  public let sections: [PageSection]
  /// Every file the page is made of, by the path it is served at; `/` is the document.
  public let files: [String: PageFile]

  /// The page's policy: everything from this origin only, nothing inline, no framing.
  public static let contentSecurityPolicy =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

  /// The frame's files, read once.
  private static let frame = PageFile.files(inFolder: "Public", of: .module, owner: "WebFrontend")

  /// The page called `title` made of `sections`.
  public init(title: String, sections: [PageSection]) {
    self.title = title
    self.sections = sections
    for (index, section) in sections.enumerated() {
      precondition(
        !sections[..<index].contains { $0.id == section.id },
        "two sections are called \(section.id)")
    }
    var frame = Self.frame
    guard let template = frame.removeValue(forKey: "index.html") else {
      fatalError("WebFrontend: Public/index.html, the page's frame, is missing")
    }
    var files: [String: PageFile] = [:]
    var owners: [String: String] = [:]
    func add(_ name: String, _ bytes: [UInt8], owner: String) {
      if let first = owners[name] {
        preconditionFailure("the page has two files named \(name), from \(first) and \(owner)")
      }
      guard let file = PageFile(name: name, bytes: bytes) else {
        preconditionFailure("\(owner): \(name) is not a page file (html, js, css, svg)")
      }
      owners[name] = owner
      files["/" + name] = file
    }
    for (name, bytes) in frame { add(name, bytes, owner: "the frame") }
    for section in sections {
      for (name, bytes) in section.files { add(name, bytes, owner: "section '\(section.id)'") }
    }
    let document = Self.document(
      String(decoding: template, as: UTF8.self), title: title, sections: sections)
    files["/"] = PageFile(path: "/", contentType: PageFile.html, bytes: Array(document.utf8))
    self.files = files
  }

  /// The document: the frame's template with the title, the tab bar and the sections put in.
  package static func document(_ template: String, title: String, sections: [PageSection]) -> String
  {
    let tabbed = sections.count > 1
    let buttons = sections.map { section in
      #"    <button role="tab" data-tab="\#(section.id)" id="tab-\#(section.id)" "#
        + #"aria-controls="\#(section.id)">\#(escaped(section.title))</button>"#
    }
    let tabs =
      tabbed
      ? ([#"<nav role="tablist" aria-label="Screens">"#] + buttons + ["  </nav>"])
        .joined(separator: "\n") : ""
    let markup = sections.enumerated().map { index, section in
      let role =
        tabbed
        ? #"role="tabpanel" aria-labelledby="tab-\#(section.id)""#
        : #"aria-label="\#(escaped(section.title))""#
      return """
        <section id="\(section.id)" data-section="\(section.id)" data-module="/\(section.id).js" \
        \(role)\(index == 0 ? "" : " hidden")>
        \(section.markup.trimmingCharacters(in: .newlines))
        </section>
        """
    }.joined(separator: "\n\n")
    for marker in ["{{title}}", "{{tabs}}", "{{sections}}"] {
      precondition(template.contains(marker), "WebFrontend: Public/index.html lacks \(marker)")
    }
    // Without tabs, the marker's line goes altogether.
    let frame =
      tabbed
      ? template
      : template.split(separator: "\n", omittingEmptySubsequences: false)
        .filter { $0.trimmingCharacters(in: .whitespaces) != "{{tabs}}" }
        .joined(separator: "\n")
    return
      frame
      .replacingOccurrences(of: "{{title}}", with: escaped(title))
      .replacingOccurrences(of: "{{tabs}}", with: tabs)
      .replacingOccurrences(of: "{{sections}}", with: markup)
  }

  /// The addresses the page answers at besides `/`: one per section.
  public var addresses: [String] { sections.map(\.address) }

  /// The patterns of the addresses below a section with inner addresses (`/episodes/**`).
  public var innerAddressPatterns: [String] {
    sections.filter(\.hasInnerAddresses).map { $0.address + "/**" }
  }

  /// `text` as HTML text or an attribute value.
  package static func escaped(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      default: result.append(character)
      }
    }
    return result
  }
}
