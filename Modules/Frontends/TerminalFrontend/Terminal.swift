import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The process's terminal: raw mode for key-by-key input, and plain writes to standard output.
public enum Terminal {
  /// Whether both standard input and standard output are terminals.
  public static var isInteractive: Bool {
    isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1
  }

  /// Whether standard output is a terminal (escape codes are written only then).
  public static var outputIsTerminal: Bool {
    isatty(STDOUT_FILENO) == 1
  }

  /// Switches standard input to raw mode: no line buffering, no echo, and Ctrl-C arrives as a key
  /// instead of a signal. Returns the settings to restore.
  static func enableRawMode() -> termios? {
    var original = termios()
    guard tcgetattr(STDIN_FILENO, &original) == 0 else { return nil }
    var raw = original
    raw.c_lflag &= ~tcflag_t(ECHO | ICANON | ISIG | IEXTEN)
    raw.c_iflag &= ~tcflag_t(IXON | ICRNL | BRKINT | INPCK | ISTRIP)
    raw.c_cflag |= tcflag_t(CS8)
    withUnsafeMutableBytes(of: &raw.c_cc) { cc in
      cc[Int(VMIN)] = 1
      cc[Int(VTIME)] = 0
    }
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &raw)
    return original
  }

  /// The window's size in cells, or `nil` when standard output is not a terminal.
  static func size() -> (columns: Int, rows: Int)? {
    var size = winsize()
    guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0
    else { return nil }
    return (Int(size.ws_col), Int(size.ws_row))
  }

  static func restore(_ settings: termios) {
    var settings = settings
    tcsetattr(STDIN_FILENO, TCSAFLUSH, &settings)
  }

  static func write(_ text: String) {
    var text = text
    text.withUTF8 { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = Glibc.write(
          STDOUT_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
        if written <= 0 { return }
        offset += written
      }
    }
  }

  /// Reads standard input on a thread of its own, chunk by chunk, until end of file.
  static func inputChunks() -> AsyncStream<[UInt8]> {
    AsyncStream { continuation in
      let thread = Thread {
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
          let count = read(STDIN_FILENO, &buffer, buffer.count)
          if count <= 0 { break }
          continuation.yield(Array(buffer[0..<count]))
        }
        continuation.finish()
      }
      thread.start()
    }
  }
}
