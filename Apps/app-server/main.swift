// app-server: the Composable App as a web page, one store per visitor. Everything but this call
// lives in libraries: the composition root links the live clients and storage, WebFrontend
// parses the command line and serves.
import AppComposition
import Foundation

exit(await AppComposition.runServer())
