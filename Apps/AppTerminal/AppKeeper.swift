import AppFeature
import ComposableArchitecture
import Foundation
import TerminalFrontend

/// Keeps the interactive app's counters (counts, facts, timers on or off) between runs: puts
/// back what the last run kept before the first screen, saves each change while the app runs
/// (one save at a time; changes made during a save are saved together after it), and saves what
/// is left when the app quits. The app always opens on its first tab: a tab is where the user
/// was, not what they made.
///
/// What cannot be read is said on the status line and the run starts with new counters; a
/// storage that cannot be read is not written either, so nothing kept is overwritten.
@MainActor
final class AppKeeper {
  private let kept: KeptAppClient
  private var saving: Task<Void, Never>?
  /// What was saved last (or put back): unchanged counters are not saved again.
  private var saved: AppFeature.KeptState
  /// Counters whose save failed: not tried again (nor said again) until they change, so that the
  /// status line's change does not start another try.
  private var failed: AppFeature.KeptState?
  /// A run started later holds the counters: this one saves no more.
  private var isSuperseded = false

  private init(kept: KeptAppClient, saved: AppFeature.KeptState) {
    self.kept = kept
    self.saved = saved
  }

  /// Puts back what the last run kept and starts keeping changes; `nil` when the kept data
  /// cannot be read (the status line says why).
  static func start(_ store: StoreOf<AppTerminalFeature>, kept: KeptAppClient) async
    -> AppKeeper?
  {
    let data: Data?
    do {
      data = try await kept.load()
    } catch {
      store.send(.statusChanged("Counters are not kept this time: \(error.localizedDescription)"))
      return nil
    }
    if let data {
      do {
        var keptState = try JSONDecoder().decode(AppFeature.KeptState.self, from: data)
        keptState.selectedTab = store.state.app.selectedTab
        store.send(.app(.restore(keptState)))
      } catch {
        store.send(.statusChanged("The counters kept last time could not be read; new ones."))
      }
    }
    let keeper = AppKeeper(kept: kept, saved: store.state.app.kept)
    keeper.saving = Task { @MainActor [weak keeper] in
      for await state in store.states(bufferingNewest: 1) {
        guard let keeper else { return }
        await keeper.save(state.app.kept, store)
      }
    }
    return keeper
  }

  /// Stops following changes and saves the last state, if it changed.
  func finish(_ store: StoreOf<AppTerminalFeature>) async {
    saving?.cancel()
    await saving?.value
    await save(store.state.app.kept, store)
  }

  private func save(_ keptState: AppFeature.KeptState, _ store: StoreOf<AppTerminalFeature>) async {
    guard !isSuperseded, keptState.counters != saved.counters,
      keptState.counters != failed?.counters
    else { return }
    do {
      try await kept.save(try JSONEncoder().encode(keptState))
      saved = keptState
      failed = nil
    } catch is CancellationError {
      // Quitting: ``finish(_:)`` saves what is left.
    } catch is KeptAppClient.Superseded {
      isSuperseded = true
      store.send(
        .statusChanged(
          "Counters not saved: an app-cli started later keeps its counters instead."))
    } catch {
      failed = keptState
      store.send(.statusChanged("Counters not saved: \(error.localizedDescription)"))
    }
  }
}
