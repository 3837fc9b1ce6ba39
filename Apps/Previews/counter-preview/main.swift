// counter-preview: the counter list alone, full screen, as the app's Counters tab shows it, on
// offline clients (facts computed from the number, random numbers from the system). It links the
// feature, its terminal screen and those clients only: no server, no storage.
import ComposableArchitecture
import CounterFeature
import CounterTerminal
import FactClient
import FactClientOffline
import Foundation
import RandomNumberClient
import TerminalFrontend

exit(
  await TerminalPreview.main(
    "counter-preview", CounterList(),
    registration: .single(.screen(CounterListScreen.self), title: "Counters"),
    dependencies: {
      $0.factClient = .offline()
      $0.randomNumberClient = .previewValue
    },
    initialState: { CounterList.State() }))
