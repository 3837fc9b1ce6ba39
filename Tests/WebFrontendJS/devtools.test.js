import { describe, describePath, steps } from "/devtools.js";
import { equal, test } from "./harness.js";

test("describe writes a recorded action as short Swift", () => {
  const action = { $case: "counterList", $0: { $case: "counters", $0: { $case: "element",
    id: { $uuid: "79BF1617-0000-4000-8000-000000000000" }, action: { $case: "incrementButtonTapped" } } } };
  equal(describe(action),
    ".counterList(.counters(.element(id: UUID(79BF1617…), action: .incrementButtonTapped)))");
  equal(describe({ $case: "binding", $0: { $binding: "displayName", value: "Ann" } }),
    '.binding(.set(\\.displayName, "Ann"))');
  equal(describe({ $case: "failure", $0: { $error: "URLError", description: "offline" } }),
    '.failure(URLError("offline"))');
  equal(describe(null), "nil");
});

test("describe shortens deep values and collections", () => {
  const counter = { $state: "Counter.State", id: 1, count: 2 };
  equal(describe(counter), "Counter.State(id: 1, count: 2)");
  equal(describe({ $case: "a", $0: { $case: "b", $0: counter } }), ".a(.b(Counter.State(…)))");
  equal(describe({ $identified: [counter, counter] }, 2), "[…2]");
  equal(describe({ $shared: "Ann" }), '"Ann"');
  equal(describe({ $stack: [[0, counter]] }), "StackState(1)");
});

test("describePath writes a change's path", () => {
  equal(describePath(["counterList", "counters", { id: { $uuid: "79BF1617-0000" } }, "count"]),
    ".counterList.counters[id: UUID(79BF1617…)].count");
  equal(describePath([]), "state");
});

test("steps reads the steps of a record and nothing else", () => {
  const record = [
    '{"record":"composable-session","version":1,"feature":"AppFeature"}',
    '{"start":{}}',
    '{"answer":"uuid","call":0,"type":"UUID","arguments":[],"returned":null}',
    '{"step":1,"by":"user","time":0.0,"action":{"$case":"task"},"changes":[]}',
    '{"end":{"steps":1,"answers":1,"full":false,"effectsInFlight":0}}',
  ].join("\n") + "\n";
  equal(steps(record).map((step) => [step.step, step.by]), [[1, "user"]]);
});
