// An exam's time left, counted down from the seconds the server gave when the page was made.
// A display only: every refusal is the server's, by its own clock; this browser's clock is never
// asked what time it is, only how long it has been since the page came (performance.now).
(function () {
  "use strict";
  var timers = Array.prototype.slice.call(document.querySelectorAll("[data-exam-left]"));
  if (!timers.length) {
    return;
  }
  var loaded = window.performance.now();

  function text(seconds) {
    var h = Math.floor(seconds / 3600);
    var m = Math.floor((seconds % 3600) / 60);
    var s = seconds % 60;
    var mm = (m < 10 && h ? "0" : "") + m;
    return (h ? h + ":" : "") + mm + ":" + (s < 10 ? "0" : "") + s;
  }

  function tick() {
    var gone = Math.floor((window.performance.now() - loaded) / 1000);
    timers.forEach(function (timer) {
      var left = Math.max(0, parseInt(timer.getAttribute("data-exam-left"), 10) - gone);
      timer.textContent = left > 0 ? text(left) + " left" : "time is up";
    });
  }

  tick();
  window.setInterval(tick, 1000);
})();
