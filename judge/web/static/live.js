// A page that follows a submission being judged (or explained). The server says by
// server-sent events when what this reader may see has changed; the page then fetches itself
// and puts the new <main> in place, so what is shown is always what the server renders for
// this reader, with no reload. Without scripts, the page's <noscript> refresh does the same.
(function () {
  "use strict";
  var main = document.querySelector("main[data-live]");
  if (!main || !window.EventSource || !window.fetch) {
    return;
  }
  var stream = new EventSource(main.getAttribute("data-live"));
  var busy = false;
  var again = false;

  function swap(text) {
    var page = new DOMParser().parseFromString(text, "text/html");
    var fresh = page.querySelector("main");
    if (!fresh) {
      return;
    }
    main.innerHTML = fresh.innerHTML;
    document.title = page.title;
    if (!fresh.hasAttribute("data-live")) {
      main.removeAttribute("data-live");
      stream.close();
    }
    document.dispatchEvent(new CustomEvent("judge:updated"));
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
      .catch(function () { /* the next event tries again */ })
      .then(function () {
        busy = false;
        if (again) {
          again = false;
          update();
        }
      });
  }

  stream.addEventListener("change", update);
  stream.addEventListener("end", function () {
    stream.close();
    update();
  });
})();
