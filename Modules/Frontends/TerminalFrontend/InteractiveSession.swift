import ComposableArchitecture
import ComposableRecording
import Dispatch
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Runs a root feature full screen in the terminal until the user quits: redraws from the store's
/// state after every change, and sends key presses to ``TerminalFeature``, which decides what they
/// mean.
@MainActor
public enum InteractiveSession {
  private enum Event {
    case keys([Key])
    case stateChanged
    case viewChanged
    case quit
  }

  /// Runs `store` until the user quits, the terminal goes away or the process is asked to stop.
  /// Returns at once when standard input is not a terminal.
  ///
  /// With a `recorder`, Ctrl-R starts and stops recording the session (and it starts at once
  /// when the recorder names a file); a recording still running when the session ends is saved.
  public static func run<Root>(
    store: StoreOf<TerminalFeature<Root>>, registration: TerminalRegistration<Root>,
    recorder: TerminalRecorder<Root>? = nil
  ) async where Root.State: Equatable & Sendable, Root.Action: Sendable {
    guard let original = Terminal.enableRawMode() else { return }
    Terminal.write(ScreenControl.enterAlternateScreen + ScreenControl.hideCursor)
    defer {
      Terminal.restore(original)
      Terminal.write(ScreenControl.showCursor + ScreenControl.leaveAlternateScreen)
    }

    let (events, continuation) = AsyncStream<Event>.makeStream()

    // Keys from standard input.
    let input = Task.detached {
      var decoder = KeyDecoder()
      for await chunk in Terminal.inputChunks() {
        var keys = decoder.decode(chunk)
        if chunk == [0x1B] { keys += decoder.flush() }  // a lone Escape press
        if !keys.isEmpty { continuation.yield(.keys(keys)) }
      }
      continuation.yield(.quit)
    }
    // State changes: the newest state is enough, the screen shows only that.
    let states = Task { @MainActor in
      for await _ in store.states(bufferingNewest: 1) {
        continuation.yield(.stateChanged)
      }
    }
    // SIGTERM and SIGHUP end the session cleanly; SIGWINCH redraws.
    signal(SIGTERM, SIG_IGN)
    signal(SIGHUP, SIG_IGN)
    signal(SIGWINCH, SIG_IGN)
    let signalSources = [SIGTERM, SIGHUP, SIGWINCH].map { number in
      let source = DispatchSource.makeSignalSource(signal: number, queue: .main)
      source.setEventHandler {
        continuation.yield(number == SIGWINCH ? .viewChanged : .quit)
      }
      source.resume()
      return source
    }
    defer {
      input.cancel()
      states.cancel()
      for source in signalSources { source.cancel() }
    }

    // A user's key or request: while recording, a step a test clock would order the same way.
    func userSends(_ action: TerminalFeature<Root>.Action) async {
      guard let recorder else {
        store.send(action)
        return
      }
      await recorder.userStep { store.send(action) }
    }

    if let recorder, recorder.file != nil { recorder.start(store) }
    defer { recorder?.stop(store) }
    if let start = registration.start { store.send(.app(start)) }  // e.g. loads what was kept
    draw(store, registration, recorder)
    loop: for await event in events {
      switch event {
      case .keys(let keys):
        for key in keys {
          if key == .controlR, let recorder {
            recorder.toggle(store)
            continue
          }
          await userSends(.keyPressed(key))
          if store.state.isQuitting { break loop }
        }
      case .stateChanged, .viewChanged:
        break
      case .quit:
        await userSends(.quitRequested)
        break loop
      }
      draw(store, registration, recorder)
    }
  }

  /// Colours unless `NO_COLOR` or `TERM=dumb` ask for none.
  private static let style = Style.forTerminal()

  private static func draw<Root>(
    _ store: StoreOf<TerminalFeature<Root>>, _ registration: TerminalRegistration<Root>,
    _ recorder: TerminalRecorder<Root>?
  ) where Root.State: Equatable & Sendable, Root.Action: Sendable {
    let screen = ScreenRenderer.render(
      store.state, registration: registration, style: style,
      sessionKeys: recorder?.keyHelp)
    let (columns, rows) = Terminal.size() ?? (80, 24)
    let lines = ScreenFit.fit(screen, columns: columns, rows: rows)
    Terminal.write(
      ScreenControl.home
        + lines.map { $0 + ScreenControl.clearToEndOfLine }.joined(separator: "\r\n")
        + ScreenControl.clearToEndOfScreen
    )
  }
}
