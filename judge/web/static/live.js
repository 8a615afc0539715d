// Keeps a page up to date without reloading it. A submission's page (main[data-live]) is told
// by server-sent events when what this reader may see has changed; a list (main[data-refresh])
// looks again every few seconds. Either way the page fetches itself and puts the new <main> in
// place, so what is shown is always what the server renders for this reader. Without scripts,
// the page's <noscript> refresh does the same by reloading.
(function () {
  "use strict";
  var main = document.querySelector("main[data-live], main[data-refresh]");
  if (!main || !window.fetch) {
    return;
  }
  var stream = null;
  var timer = null;
  var busy = false;
  var again = false;

  function stop() {
    if (stream) { stream.close(); }
    if (timer) { window.clearInterval(timer); }
  }

  function swap(text) {
    var page = new DOMParser().parseFromString(text, "text/html");
    var fresh = page.querySelector("main");
    if (!fresh) {
      return;
    }
    if (fresh.innerHTML !== main.innerHTML) {
      main.innerHTML = fresh.innerHTML;
      document.title = page.title;
      document.dispatchEvent(new CustomEvent("judge:updated"));
    }
    if (!fresh.hasAttribute("data-live") && !fresh.hasAttribute("data-refresh")) {
      main.removeAttribute("data-live");
      stop();
    }
  }

  function update() {
    if (busy) {
      again = true;
      return;
    }
    busy = true;
    fetch(window.location.pathname + window.location.search, { cache: "no-store", credentials: "same-origin" })
      .then(function (reply) { return reply.ok ? reply.text() : null; })
      .then(function (text) { if (text !== null) { swap(text); } })
      .catch(function () { /* the next event or tick tries again */ })
      .then(function () {
        busy = false;
        if (again) {
          again = false;
          update();
        }
      });
  }

  if (main.hasAttribute("data-live") && window.EventSource) {
    stream = new EventSource(main.getAttribute("data-live"));
    stream.addEventListener("change", update);
    stream.addEventListener("end", function () {
      stream.close();
      update();
    });
  } else {
    var seconds = parseFloat(main.getAttribute("data-refresh") || "3");
    timer = window.setInterval(update, Math.max(1, seconds) * 1000);
  }
})();
