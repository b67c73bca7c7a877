// Follows a live game without reloading the page: asks the server for the board
// every few seconds and swaps it in when a move was made. Without JavaScript the
// page works the same, with its reload link.
(function () {
  "use strict";
  var live = document.getElementById("live");
  if (!live || !window.fetch) { return; }
  var url = live.getAttribute("data-live");
  if (!url) { return; }
  var step = live.getAttribute("data-step");
  var every = parseInt(live.getAttribute("data-interval"), 10) || 2000;
  // The note under the badge says how the page follows the game: without
  // JavaScript "reload this page", with it "new moves appear here".
  var note = document.getElementById("live-note");
  if (note && note.getAttribute("data-js")) { note.textContent = note.getAttribute("data-js"); }
  function poll() {
    fetch(url, { cache: "no-store", credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        if (!data) { return; }
        if (data.status !== "active") { window.location.reload(); return; }
        if (String(data.step) !== step) {
          step = String(data.step);
          live.innerHTML = data.html;  // rendered and escaped by the server
          live.setAttribute("data-step", step);
        }
      })
      .catch(function () {})
      .then(function () { window.setTimeout(poll, every); });
  }
  window.setTimeout(poll, every);
}());
