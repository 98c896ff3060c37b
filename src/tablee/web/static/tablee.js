// Tablée: keep the live log's reconnect URL at the last event received, and drop repeats.
// No inline script anywhere (the Content-Security-Policy forbids it).
(function () {
  "use strict";
  var last = 0;
  // Times are sent in UTC; show them in the reader's own time zone.
  function localTimes(root) {
    var times = root.querySelectorAll("time[datetime]");
    for (var i = 0; i < times.length; i++) {
      var when = new Date(times[i].getAttribute("datetime"));
      if (!isNaN(when.getTime())) { times[i].textContent = when.toLocaleTimeString(); }
    }
  }
  document.addEventListener("htmx:afterSwap", function () { localTimes(document); });
  document.addEventListener("htmx:oobAfterSwap", function () { localTimes(document); });
  document.addEventListener("DOMContentLoaded", function () {
    localTimes(document);
    var logBox = document.querySelector(".log-box");
    if (logBox) { logBox.scrollTop = logBox.scrollHeight; }
    var box = document.querySelector("[data-stream]");
    if (!box) { return; }
    var url = box.getAttribute("sse-connect") || "";
    var m = /[?&]after=(\d+)/.exec(url);
    last = m ? parseInt(m[1], 10) : 0;
  });
  // Copy buttons of the links page: the Clipboard API where the page is secure (https,
  // localhost), else the field's selection and the older copy command.
  document.addEventListener("click", function (evt) {
    var button = evt.target && evt.target.closest ? evt.target.closest("button[data-copy]") : null;
    if (!button) { return; }
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) { return; }
    function done() { button.textContent = button.getAttribute("data-copied"); }
    function fallback() {
      field.focus();
      field.select();
      try { if (document.execCommand("copy")) { done(); } } catch (e) { /* the text stays selected */ }
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(done, fallback);
    } else {
      fallback();
    }
  });
  var atBottom = true;  // was the log box showing its newest entry before this message?
  document.addEventListener("htmx:sseBeforeMessage", function (evt) {
    // Only log messages carry an id; others (presence) repeat the last one they follow.
    if (evt.detail && evt.detail.type && evt.detail.type !== "log") { return; }
    var seq = parseInt((evt.detail && evt.detail.lastEventId) || "0", 10);
    if (seq && seq <= last) { evt.preventDefault(); return; }
    var logBox = document.querySelector(".log-box");
    atBottom = !logBox || logBox.scrollHeight - logBox.scrollTop - logBox.clientHeight < 40;
  });
  document.addEventListener("htmx:sseMessage", function (evt) {
    if (evt.detail && evt.detail.type && evt.detail.type !== "log") { return; }
    var seq = parseInt((evt.detail && evt.detail.lastEventId) || "0", 10);
    if (seq > last) {
      last = seq;
      var box = document.querySelector("[data-stream]");
      if (box) { box.setAttribute("sse-connect", box.getAttribute("data-stream") + "?after=" + seq); }
      // "undo the last event" means the last one this page has shown (see docs/web.md)
      var seen = document.querySelectorAll("input[data-last-seen]");
      for (var i = 0; i < seen.length; i++) { seen[i].value = String(seq); }
    }
    // Keep the log box at its newest entry, unless its reader has scrolled up to read.
    var logBox = document.querySelector(".log-box");
    if (logBox && atBottom) { logBox.scrollTop = logBox.scrollHeight; }
  });
})();
