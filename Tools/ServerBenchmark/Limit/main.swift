import HTTPTypes
import Hummingbird
import Logging

// The *limit* of the server benchmark (Tools/server-benchmark): a bare Hummingbird route that
// answers every action with a fixed body of the size of app-server's answer — no decoding, no
// state, no storage, no middleware. Nothing doing the same work can be faster on Hummingbird; the
// ratio to it says how much of the machine the work itself takes.
//
//   limit-server PORT

let port = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 8090

/// app-server's answer to the benchmark's first increment (`--offline`, a new session): 1,187
/// bytes; only the count differs between answers.
let answer = ByteBuffer(
  string: #"""
    {"revision":2,"state":{"header":"Composable App","selectedTab":"counters","counters":[{"id":"C1D130AF-6747-49B8-A7F4-A488BE552AA4","name":"Counter 1","count":1,"isFactRequestInFlight":false,"isRandomNumberRequestInFlight":false,"isTimerOn":false}],"search":{"query":"","isSearchInFlight":false,"results":[],"temperatureUnit":"celsius"},"settings":{"digest":"daily","displayName":"","enableNotifications":false,"canChooseNotificationChannels":false,"isHapticFeedbackEnabled":true,"protectMyPosts":false,"sendEmailNotifications":false,"sendMobileNotifications":false,"temperatureUnit":"celsius"},"episodes":[{"id":"00000000-0000-0000-0000-000000000000","title":"Functions","isFavorite":false},{"id":"00000000-0000-0000-0000-000000000001","title":"Side Effects","isFavorite":false},{"id":"00000000-0000-0000-0000-000000000002","title":"Algebraic Data Types","isFavorite":false},{"id":"00000000-0000-0000-0000-000000000003","title":"DSLs","isFavorite":false},{"id":"00000000-0000-0000-0000-000000000004","title":"Parsers","isFavorite":false},{"id":"00000000-0000-0000-0000-000000000005","title":"Composable Architecture","isFavorite":false}],"episodeScreens":[]},"generation":"a29d3c5ff0df"}
    """#)

func fixed(_ status: HTTPResponse.Status) -> Response {
  Response(
    status: status,
    headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
    body: ResponseBody(byteBuffer: answer))
}

let router = Router()
router.post("/api/session") { _, _ in
  var response = fixed(.created)
  response.setCookie(Cookie(name: "session", value: "limit", path: "/api/session"))
  return response
}
router.post("/api/session/actions") { _, _ in fixed(.ok) }

var logger = Logger(label: "limit-server")
logger.logLevel = .warning
let app = Application(
  router: router,
  configuration: .init(address: .hostname("127.0.0.1", port: port)),
  logger: logger)
print("limit-server: listening on http://127.0.0.1:\(port)/")
try await app.runService()
