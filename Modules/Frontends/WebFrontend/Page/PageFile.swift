import Foundation

/// One file of the page — an HTML document, an ES module, a style sheet or an icon — as it is
/// served: at its path, with its content type and an `ETag`.
///
/// No build step, no CDN, no external request: the page works offline. Nothing inline either: no
/// `<style>`, no `style=`, no `<script>` body and no `on…=` handler, so the page's
/// Content-Security-Policy is ``WebPage/contentSecurityPolicy``, without `'unsafe-inline'`.
public struct PageFile: Sendable {
  /// The path it is served at, e.g. `/app.js`.
  public let path: String
  /// Its `Content-Type`.
  public let contentType: String
  /// Its bytes.
  public let bytes: [UInt8]
  /// A strong validator of `bytes`: a hash of the content, quoted.
  public let etag: String

  /// The content type of an HTML document: the page itself.
  package static let html = "text/html; charset=utf-8"

  /// The content type of each kind of file a page is made of.
  package static let contentTypes = [
    "html": html, "js": "text/javascript; charset=utf-8",
    "css": "text/css; charset=utf-8", "svg": "image/svg+xml",
  ]

  /// The content type of the file `name`, by its extension; nil for a kind of file a page is not
  /// made of (the content type would be a guess).
  package static func contentType(of name: String) -> String? {
    name.split(separator: ".").last.flatMap { contentTypes[String($0)] }
  }

  /// The file `name` (`counters.js`) with `bytes`, served at `/name`; nil for a kind of file a
  /// page is not made of.
  public init?(name: String, bytes: [UInt8]) {
    guard let contentType = Self.contentType(of: name) else { return nil }
    self.init(path: "/" + name, contentType: contentType, bytes: bytes)
  }

  package init(path: String, contentType: String, bytes: [UInt8]) {
    self.path = path
    self.contentType = contentType
    self.bytes = bytes
    self.etag = "\"\(Self.fnv1a(bytes))\""
  }

  /// Every file of the resource folder `folder` of `bundle`, by name. The files are part of the
  /// build: a missing folder, or a file of a kind a page is not made of, stops the process when
  /// the page is first made (at the server's start, and in every test that builds one).
  package static func files(inFolder folder: String, of bundle: Bundle, owner: String) -> [String:
    [UInt8]]
  {
    guard
      let url = bundle.url(forResource: folder, withExtension: nil),
      let names = try? FileManager.default.contentsOfDirectory(atPath: url.path)
    else { fatalError("\(owner)'s resource folder \(folder) is missing from the build") }
    var files: [String: [UInt8]] = [:]
    for name in names.sorted() where !name.hasPrefix(".") {
      guard let data = FileManager.default.contents(atPath: url.appendingPathComponent(name).path),
        contentType(of: name) != nil
      else {
        fatalError(
          "\(owner): \(folder)/\(name) cannot be served: not a page file (html, js, css, svg)")
      }
      files[name] = [UInt8](data)
    }
    return files
  }

  /// 64-bit FNV-1a, as 16 hexadecimal digits: enough to tell versions of a file apart.
  private static func fnv1a(_ bytes: [UInt8]) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    let digits = String(hash, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
