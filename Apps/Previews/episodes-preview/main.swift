// episodes-preview: the episodes alone, full screen, as the app's Episodes tab shows them, with
// the seed's simulated favorites service (each save takes a second and one in four fails, so the
// rollback and its alert show). It links the feature, its terminal screen and the favorites
// client's interface only: no server, no storage.
import ComposableArchitecture
import EpisodesFeature
import EpisodesTerminal
import FavoriteClient
import Foundation
import TerminalFrontend

exit(
  await TerminalPreview.main(
    "episodes-preview", Episodes(),
    registration: .single(.screen(EpisodesScreen.self), title: "Episodes", start: .task),
    dependencies: { $0.favoriteClient = .simulated() },
    initialState: { Episodes.State() }))
