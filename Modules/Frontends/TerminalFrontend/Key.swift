/// A key press, decoded from the bytes a terminal in raw mode sends.
public enum Key: Equatable, Sendable {
  case character(Character)
  case up, down, left, right
  case enter, backspace, escape, tab, backTab
  case controlC, controlD
  /// Ctrl-R: starts or stops recording the session (when the app was given a recorder).
  case controlR
}

/// Decodes terminal input into keys. Feed it bytes as they arrive; an escape sequence split
/// across reads is completed by the next read, and a lone escape is reported by ``flush()``.
public struct KeyDecoder: Sendable {
  private var pending: [UInt8] = []

  public init() {}

  /// Decodes as many keys as the bytes so far allow.
  public mutating func decode(_ bytes: some Sequence<UInt8>) -> [Key] {
    pending.append(contentsOf: bytes)
    var keys: [Key] = []
    var index = 0
    while index < pending.count {
      let byte = pending[index]
      switch byte {
      case 0x1B:
        guard index + 1 < pending.count else {
          // Maybe the start of a sequence: wait for more bytes (or a flush).
          pending.removeFirst(index)
          return keys
        }
        let next = pending[index + 1]
        if next == UInt8(ascii: "[") || next == UInt8(ascii: "O") {
          guard index + 2 < pending.count else {
            pending.removeFirst(index)
            return keys
          }
          // CSI/SS3: parameters, then one final byte in 0x40...0x7E.
          var end = index + 2
          while end < pending.count, !(0x40...0x7E).contains(pending[end]) { end += 1 }
          guard end < pending.count else {
            pending.removeFirst(index)
            return keys
          }
          switch pending[end] {
          case UInt8(ascii: "A"): keys.append(.up)
          case UInt8(ascii: "B"): keys.append(.down)
          case UInt8(ascii: "C"): keys.append(.right)
          case UInt8(ascii: "D"): keys.append(.left)
          case UInt8(ascii: "Z"): keys.append(.backTab)
          default: break  // other function keys are ignored
          }
          index = end + 1
        } else {
          keys.append(.escape)
          index += 1
        }
      case 0x03:
        keys.append(.controlC)
        index += 1
      case 0x04:
        keys.append(.controlD)
        index += 1
      case 0x12:
        keys.append(.controlR)
        index += 1
      case 0x09:
        keys.append(.tab)
        index += 1
      case 0x0A, 0x0D:
        keys.append(.enter)
        index += 1
      case 0x08, 0x7F:
        keys.append(.backspace)
        index += 1
      case 0x00..<0x20: index += 1  // other control bytes
      default:
        // A UTF-8 scalar: 1 to 4 bytes.
        let length =
          byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
        guard index + length <= pending.count else {
          pending.removeFirst(index)
          return keys
        }
        if let string = String(validating: pending[index..<index + length], as: UTF8.self),
          let character = string.first
        {
          keys.append(.character(character))
        }
        index += length
      }
    }
    pending.removeAll()
    return keys
  }

  /// Reports what is left as keys: a lone escape press.
  public mutating func flush() -> [Key] {
    defer { pending.removeAll() }
    return pending.first == 0x1B ? [.escape] : []
  }
}
