// The grading page by keyboard: j or n the next ungraded, k the previous, 1-9 toggle the rubric
// item of that key, c to the comment box, d done and next. A click on a line number puts the
// line in the comment's "Lines" field (shift-click: the range from the last one). Everything
// here is also a plain form or link: without scripts the page works by mouse.
(function () {
  "use strict";
  var at = document.getElementById("comment-at");
  var text = document.getElementById("comment-text");
  var saved = document.getElementById("comment-saved");
  var last = null;

  function follow(id) {
    var link = document.getElementById(id);
    if (link) { window.location.href = link.href; }
  }

  document.querySelectorAll(".code .line .ln").forEach(function (number) {
    number.addEventListener("click", function (event) {
      var place = number.getAttribute("data-at");
      var file = place.slice(0, place.lastIndexOf(":"));
      var line = parseInt(place.slice(place.lastIndexOf(":") + 1), 10);
      if (event.shiftKey && last && last.file === file) {
        var low = Math.min(last.line, line), high = Math.max(last.line, line);
        at.value = file + ":" + low + "-" + high;
      } else {
        at.value = place;
        last = {file: file, line: line};
      }
      document.querySelectorAll(".code .line.picked").forEach(function (l) { l.classList.remove("picked"); });
      number.parentNode.classList.add("picked");
      text.focus();
    });
  });

  if (saved) {
    saved.addEventListener("change", function () {
      if (saved.value) { text.value = saved.value; text.focus(); }
    });
  }

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey) { return; }
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) {
      if (event.key === "Escape") { target.blur(); }
      return;
    }
    var key = event.key;
    if (key === "j" || key === "n") { follow("next"); }
    else if (key === "k") { follow("prev"); }
    else if (key === "c") { event.preventDefault(); text.focus(); }
    else if (key === "d") {
      // Already graded: on to the next, never undone by a key (the button itself undoes).
      var done = document.getElementById("done");
      if (done.getAttribute("data-done") === "1") { follow("next"); } else { done.click(); }
    }
    else if (/^[1-9]$/.test(key)) {
      var button = document.querySelector('#items button[data-key="' + key + '"]');
      if (button) { button.click(); }
    }
  });
}());
