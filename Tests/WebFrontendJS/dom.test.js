import { alertText, escapeHTML, keyed, setText } from "/dom.js";
import { equal, fixture, test, assert } from "./harness.js";

function renderList(container, items, created) {
  keyed(container, items, (item) => {
    created.push(item.id);
    return document.createElement("li");
  }, (element, item) => setText(element, item.text));
}

test("keyed creates one element per id, in order", () => {
  const list = fixture(), created = [];
  renderList(list, [{ id: 1, text: "a" }, { id: 2, text: "b" }], created);
  equal(Array.from(list.children).map((e) => e.textContent), ["a", "b"]);
  equal(Array.from(list.children).map((e) => e.dataset.id), ["1", "2"]);
  equal(created, [1, 2]);
});

test("keyed keeps an element per id across updates, moves and removals", () => {
  const list = fixture(), created = [];
  renderList(list, [{ id: 1, text: "a" }, { id: 2, text: "b" }, { id: 3, text: "c" }], created);
  const second = list.children[1];
  renderList(list, [{ id: 3, text: "C" }, { id: 2, text: "B" }], created);
  equal(Array.from(list.children).map((e) => e.textContent), ["C", "B"]);
  assert(list.children[1] === second, "the element of id 2 was replaced");
  equal(created, [1, 2, 3], "no element was created again");
  renderList(list, [], created);
  equal(list.children.length, 0);
});

test("setText leaves an unchanged element alone", () => {
  const element = fixture();
  element.textContent = "same";
  const node = element.firstChild;
  setText(element, "same");
  assert(element.firstChild === node, "the text node was replaced");
  setText(element, null);
  equal(element.textContent, "");
});

test("escapeHTML escapes markup", () => {
  equal(escapeHTML(`<b a="1">'&'</b>`), "&lt;b a=&quot;1&quot;&gt;&#39;&amp;&#39;&lt;/b&gt;");
});

test("alertText joins the title and the message", () => {
  equal(alertText({ title: "Favoriting failed.", message: null }), "Favoriting failed.");
  equal(alertText({ title: "A", message: "B" }), "A B");
  equal(alertText(null), "");
});
