// The problem page: copy buttons on the samples, and the submit form's code editor (Ace,
// served by the judge, when `make` could fetch it). The student's code and language are kept
// in this browser per problem, so a reload or a new visit starts where they left off.
// Without scripts the page is the same form with a plain textarea.
(function () {
  "use strict";

  function keep(key, value) {
    try { window.localStorage.setItem(key, value); } catch (e) { /* storage off: nothing kept */ }
  }
  function kept(key) {
    try { return window.localStorage.getItem(key); } catch (e) { return null; }
  }

  document.querySelectorAll("pre[data-copy]").forEach(function (pre) {
    var button = document.createElement("button");
    button.type = "button";
    button.className = "copy";
    button.textContent = "Copy";
    button.setAttribute("aria-label", "Copy " + pre.getAttribute("data-copy"));
    button.addEventListener("click", function () {
      var done = function (text) {
        button.textContent = text;
        window.setTimeout(function () { button.textContent = "Copy"; }, 1500);
      };
      if (navigator.clipboard) {
        navigator.clipboard.writeText(pre.textContent).then(function () { done("Copied"); }, function () {
          done("Select and copy");
        });
      } else {
        done("Select and copy");
      }
    });
    var heading = pre.previousElementSibling;
    (heading && /^H[1-6]$/.test(heading.tagName) ? heading : pre.parentNode).appendChild(button);
  });

  var form = document.getElementById("submit-form");
  if (!form) {
    return;
  }
  // A refused submission comes back as this page: show why beside the form, not its top.
  var message = document.getElementById("message") || document.getElementById("own-error");
  if (message) {
    message.scrollIntoView({ block: "center" });
  }
  var problem = form.getAttribute("data-problem");
  var area = document.getElementById("source");
  var select = document.getElementById("language");
  var codeKey = "judge:code:" + problem;
  var languageKey = "judge:language:" + problem;

  var starters = {};
  var given = document.getElementById("starters");
  if (given) {
    try { starters = JSON.parse(given.textContent); } catch (e) { starters = {}; }
  }
  var note = document.getElementById("starter-note");
  // Code nobody has written: empty, or a starter exactly as the judge gave it.
  function untouched(code) {
    return !code.trim() || Object.keys(starters).some(function (id) { return starters[id] === code; });
  }

  // The server's choice stands where it made one (an error page gives back what was sent);
  // else the language last chosen on this problem in this browser, and the code last written.
  if (!form.hasAttribute("data-kept")) {
    var remembered = kept(languageKey);
    if (remembered && select.querySelector('option[value="' + remembered + '"]')) {
      select.value = remembered;
    }
    var written = kept(codeKey);
    if (written && !untouched(written)) {
      area.value = written;
    } else if (untouched(area.value) && starters[select.value]) {
      area.value = starters[select.value];
    }
  }

  // A function's sample calls in the language picked, from the spellings the server gave
  // each one (data-spelled: language id -> text; "" is "from the file name").
  function spellSamples() {
    var spelled = document.querySelectorAll("[data-spelled]");
    for (var i = 0; i < spelled.length; i++) {
      var texts = {};
      try { texts = JSON.parse(spelled[i].getAttribute("data-spelled")); } catch (e) { continue; }
      var text = Object.prototype.hasOwnProperty.call(texts, select.value) ? texts[select.value] : texts[""];
      if (typeof text === "string") {
        spelled[i].textContent = text;
      }
    }
  }
  spellSamples();

  function modeOf() {
    var option = select.options[select.selectedIndex];
    return "ace/mode/" + ((option && option.getAttribute("data-mode")) || "text");
  }
  function remember(code) {
    keep(codeKey, code);
    if (select.value !== "auto") {
      keep(languageKey, select.value);
    }
  }

  var editor = null;
  var script = document.querySelector('script[src$="/ace/ace.js"]');
  if (window.ace && script) {
    var holder = document.createElement("div");
    holder.id = "editor";
    area.parentNode.insertBefore(holder, area);
    area.classList.add("hidden");
    window.ace.config.set("basePath", script.src.replace(/ace\.js$/, ""));
    editor = window.ace.edit(holder, {
      value: area.value,
      mode: modeOf(),
      useWorker: false,
      tabSize: 4,
      useSoftTabs: true,
      showPrintMargin: false,
      enableKeyboardAccessibility: true,
      fontSize: "13px"
    });
    editor.textInput.getElement().setAttribute("aria-label", "source code");
    editor.session.on("change", function () {
      area.value = editor.getValue();
      remember(area.value);
    });
    var label = document.querySelector('label[for="source"]');
    if (label) {
      label.addEventListener("click", function (event) {
        event.preventDefault();
        editor.focus();
      });
    }
    form.setAttribute("data-editor", "ace");
  } else {
    area.addEventListener("input", function () { remember(area.value); });
  }
  function code() { return editor ? editor.getValue() : area.value; }
  function setCode(text) {
    if (editor) {
      editor.setValue(text, -1);
    } else {
      area.value = text;
    }
  }
  // A new language: an empty editor takes its starter; an untouched starter of another
  // language is offered to be swapped (the student may have meant to keep it).
  function offerStarter() {
    note.textContent = "";
    var starter = starters[select.value];
    if (!starter || code() === starter) {
      return;
    }
    if (!code().trim()) {
      setCode(starter);
      return;
    }
    if (!untouched(code())) {
      return;
    }
    var name = select.options[select.selectedIndex].textContent;
    note.appendChild(document.createTextNode("The editor holds another language's starter. "));
    var swap = document.createElement("button");
    swap.type = "button";
    swap.id = "starter-swap";
    swap.textContent = "Use the " + name + " starter";
    swap.addEventListener("click", function () {
      setCode(starter);
      note.textContent = "";
    });
    note.appendChild(swap);
  }
  select.addEventListener("change", function () {
    if (editor && select.value !== "auto") {
      editor.session.setMode(modeOf());
    }
    if (note) {
      offerStarter();
    }
    spellSamples();
    remember(code());
  });
  // An uploaded file names its language by its extension, whatever the editor is in.
  var file = document.getElementById("file");
  if (file) {
    file.addEventListener("change", function () {
      if (file.files && file.files.length) {
        select.value = "auto";
        spellSamples();
      }
    });
  }
  form.addEventListener("submit", function () {
    if (editor) {
      area.value = editor.getValue();
    }
    remember(area.value);
  });
})();
