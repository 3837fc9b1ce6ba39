import Foundation

/// A type's name as messages show it: without module names (`Counter.Action`), without the
/// anonymous contexts of private and local types, with Swift's sugar for optionals, arrays and
/// dictionaries, and — unless `genericsAbbreviated` is false — without generic arguments
/// (`PresentationAction`).
package func typeName(_ type: Any.Type, genericsAbbreviated: Bool = true) -> String {
  var name = _typeName(type, qualified: true)
    .replacingOccurrences(
      of: #"\(unknown context at \$[[:xdigit:]]+\)\."#, with: "", options: .regularExpression)
  let sugar = [
    (#"\bSwift\.Optional<([^><]+)>"#, "$1?"),
    (#"\bSwift\.Array<([^><]+)>"#, "[$1]"),
    (#"\bSwift\.Dictionary<([^,<]+), ([^><]+)>"#, "[$1: $2]"),
  ]
  // Innermost first: each pass rewrites the generics that hold no other generics.
  for _ in 0..<10 {
    let sweetened = sugar.reduce(name) {
      $0.replacingOccurrences(of: $1.0, with: $1.1, options: .regularExpression)
    }
    if sweetened == name { break }
    name = sweetened
  }
  name = name.replacingOccurrences(of: #"\w+\.([\w.]+)"#, with: "$1", options: .regularExpression)
  if genericsAbbreviated {
    name = name.replacingOccurrences(of: "<.+>", with: "", options: .regularExpression)
  }
  return name
}
