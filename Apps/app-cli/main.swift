// app-cli: the Composable App in a terminal. Everything but this call lives in libraries: the
// composition root links the live clients and storage, TerminalFrontend parses the command line
// and draws the screens.
import AppComposition
import Foundation

exit(await AppComposition.runTerminalApp())
