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
  var problem = form.getAttribute("data-problem");
  var area = document.getElementById("source");
  var select = document.getElementById("language");
  var codeKey = "judge:code:" + problem;
  var languageKey = "judge:language:" + problem;

  // The server's choice stands where it made one (an error page gives back what was sent).
  if (!area.value && kept(codeKey)) {
    area.value = kept(codeKey);
  }
  var remembered = kept(languageKey) || kept("judge:language");
  if (select.value === "auto" && remembered && select.querySelector('option[value="' + remembered + '"]')) {
    select.value = remembered;
  }

  function modeOf() {
    var option = select.options[select.selectedIndex];
    return "ace/mode/" + ((option && option.getAttribute("data-mode")) || "text");
  }
  function remember(code) {
    keep(codeKey, code);
    if (select.value !== "auto") {
      keep(languageKey, select.value);
      keep("judge:language", select.value);
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
  select.addEventListener("change", function () {
    if (editor) {
      editor.session.setMode(modeOf());
    }
    remember(area.value);
  });
  form.addEventListener("submit", function () {
    if (editor) {
      area.value = editor.getValue();
    }
    remember(area.value);
  });
})();
