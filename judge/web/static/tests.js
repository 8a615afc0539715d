// A tests problem's editor: the student's tests as rows (a name, an input, an optional
// expected answer), added and removed in the page, or taken from a folder's NAME.in and
// NAME.ans files. The form sends them in its one text field, each file after a line
// `== NAME.in`: the format a student without scripts writes in the textarea itself
// (judge/web/suitetext.py reads it), so both ways are one submission.
(function () {
  "use strict";
  var form = document.getElementById("tests-form");
  var rows = document.getElementById("tests-rows");
  var text = document.getElementById("source");
  if (!form || !rows || !text) { return; }  // a function's calls: the textarea is the editor
  var header = /^== *(\S*) *$/;
  var made = 0;

  function parse(value) {
    // The text's tests by name, in order: {name, input, answer}.
    var tests = [], byName = {}, current = null;
    value.replace(/\r\n/g, "\n").split("\n").forEach(function (line) {
      var found = header.exec(line);
      if (found) {
        var dot = found[1].lastIndexOf(".");
        var stem = dot > 0 ? found[1].slice(0, dot) : found[1];
        var part = found[1].slice(dot + 1) === "ans" ? "answer" : "input";
        if (!byName[stem]) { byName[stem] = {name: stem, input: [], answer: null}; tests.push(byName[stem]); }
        if (part === "answer") { byName[stem].answer = []; }
        current = byName[stem][part];
      } else if (current) {
        current.push(line);
      }
    });
    return tests.map(function (t) {
      return {name: t.name, input: trimmed(t.input), answer: t.answer === null ? "" : trimmed(t.answer)};
    });
  }
  function trimmed(lines) {
    var body = lines.join("\n").replace(/\n+$/, "");
    return body ? body + "\n" : "";
  }

  function field(row, label, kind, value) {
    made += 1;
    var id = "test-" + kind + "-" + made;
    var tag = document.createElement("label");
    tag.htmlFor = id;
    tag.textContent = label;
    var box = document.createElement(kind === "name" ? "input" : "textarea");
    box.id = id;
    box.className = "test-" + kind;
    box.value = value;
    box.spellcheck = false;
    if (kind !== "name") { box.rows = 4; }
    row.appendChild(tag);
    row.appendChild(box);
  }

  function add(test) {
    var row = document.createElement("fieldset");
    row.className = "test-row";
    var legend = document.createElement("legend");
    legend.textContent = "Test " + (rows.children.length + 1);
    row.appendChild(legend);
    field(row, "Name (NAME.in, NAME.ans)", "name", test.name);
    field(row, "Input", "input", test.input);
    field(row, "Expected answer (optional: else the reference's)", "answer", test.answer);
    var remove = document.createElement("button");
    remove.type = "button";
    remove.textContent = "Remove this test";
    remove.addEventListener("click", function () { row.remove(); renumber(); });
    row.appendChild(remove);
    rows.appendChild(row);
  }

  function renumber() {
    Array.prototype.forEach.call(rows.children, function (row, index) {
      row.querySelector("legend").textContent = "Test " + (index + 1);
    });
  }

  function nextName() {
    var taken = {};
    rows.querySelectorAll(".test-name").forEach(function (box) { taken[box.value] = true; });
    for (var n = 1; ; n += 1) {
      var name = (n < 10 ? "0" : "") + n;
      if (!taken[name]) { return name; }
    }
  }

  function serialize() {
    var out = [];
    rows.querySelectorAll(".test-row").forEach(function (row) {
      var name = row.querySelector(".test-name").value.trim();
      var input = row.querySelector(".test-input").value;
      var answer = row.querySelector(".test-answer").value;
      if (!name && !input.trim()) { return; }  // an empty row is no test
      out.push("== " + name + ".in\n" + input.replace(/\n*$/, "\n"));
      if (answer.trim()) { out.push("== " + name + ".ans\n" + answer.replace(/\n*$/, "\n")); }
    });
    return out.join("");
  }

  parse(text.value).forEach(add);
  if (!rows.children.length) { add({name: "01", input: "", answer: ""}); }
  rows.hidden = false;
  document.getElementById("tests-tools").classList.remove("hidden");
  // The stylesheet shows every label as a block, over the hidden attribute: hidden by style.
  text.style.display = "none";
  document.getElementById("source-label").style.display = "none";

  document.getElementById("tests-add").addEventListener("click", function () {
    add({name: nextName(), input: "", answer: ""});
    rows.lastElementChild.querySelector(".test-input").focus();
  });

  document.getElementById("tests-folder").addEventListener("change", function (event) {
    var files = Array.prototype.filter.call(event.target.files, function (f) { return /\.(in|ans)$/.test(f.name); });
    files.sort(function (a, b) { return a.name < b.name ? -1 : 1; });
    Promise.all(files.map(function (f) { return f.text(); })).then(function (bodies) {
      var lines = files.map(function (f, i) { return "== " + f.name + "\n" + bodies[i]; });
      rows.textContent = "";
      parse(lines.join("\n")).forEach(add);
      if (!rows.children.length) { add({name: "01", input: "", answer: ""}); }
    });
  });

  form.addEventListener("submit", function () {
    if (!document.getElementById("file").value) { text.value = serialize(); }
  });
}());
