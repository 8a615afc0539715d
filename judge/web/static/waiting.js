// While a submission's hidden tests are judged, a clock of how long this browser has waited
// since it first said so. Kept by the browser alone (its own clock, from the moment the message
// appeared on this page): it shows nothing the server knows of the hidden cases.
(function () {
  "use strict";
  var since = null;

  function tick() {
    var shown = document.getElementById("waited");
    if (!shown) {
      since = null;
      return;
    }
    if (since === null) {
      since = Date.now();
    }
    var seconds = Math.floor((Date.now() - since) / 1000);
    var minutes = Math.floor(seconds / 60);
    var rest = seconds % 60;
    shown.textContent = "(waiting " + minutes + ":" + (rest < 10 ? "0" : "") + rest + ")";
  }

  tick();
  window.setInterval(tick, 1000);
  document.addEventListener("judge:updated", tick);
})();
