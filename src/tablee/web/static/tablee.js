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
  // Sheets folded or unfolded by their reader stay so when the stream redraws the
  // resources, and when the page is reloaded (kept for this tab: sessionStorage).
  var foldsKey = "tablee-folds:" + location.pathname;
  var folds = {};
  try { folds = JSON.parse(sessionStorage.getItem(foldsKey) || "{}") || {}; } catch (e) { folds = {}; }
  document.addEventListener("toggle", function (evt) {
    var sheet = evt.target;
    if (!sheet || !sheet.matches || !sheet.matches("details[data-sheet]")) { return; }
    folds[sheet.getAttribute("data-sheet")] = sheet.open;
    try { sessionStorage.setItem(foldsKey, JSON.stringify(folds)); } catch (e) { /* private mode */ }
  }, true);
  function applyFolds(root) {
    var sheets = root.querySelectorAll("details[data-sheet]");
    for (var i = 0; i < sheets.length; i++) {
      var name = sheets[i].getAttribute("data-sheet");
      if (Object.prototype.hasOwnProperty.call(folds, name) && sheets[i].open !== folds[name]) {
        sheets[i].open = folds[name];
      }
    }
  }
  document.addEventListener("htmx:afterSwap", function () { localTimes(document); });
  // Earlier entries arrive above the ones shown (the "Earlier entries" control is replaced
  // by them): keep the entry the reader was looking at where it was on the screen.
  var anchor = null;
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var elt = evt.detail && evt.detail.elt;
    var control = elt && elt.closest ? elt.closest("li.earlier") : null;
    var next = control ? control.nextElementSibling : null;
    anchor = next ? { el: next, top: next.getBoundingClientRect().top } : null;
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!anchor) { return; }
    var moved = anchor.el.getBoundingClientRect().top - anchor.top;
    var box = anchor.el.closest(".log-box");
    anchor = null;
    if (!moved) { return; }
    if (box && box.scrollHeight > box.clientHeight) { box.scrollTop += moved; } else { window.scrollBy(0, moved); }
  });
  document.addEventListener("htmx:oobAfterSwap", function () { localTimes(document); applyFolds(document); });
  document.addEventListener("DOMContentLoaded", function () {
    localTimes(document);
    applyFolds(document);
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
  // The forms' choice lists follow the table: each stream message carries them in
  // #live-choices, one <template> per list naming the <select> elements it fills. Only the
  // options change; the chosen one stays when it is still offered.
  function sameOptions(select, options) {
    if (select.options.length !== options.length) { return false; }
    for (var i = 0; i < options.length; i++) {
      if (select.options[i].value !== options[i].value ||
          select.options[i].textContent !== options[i].textContent) { return false; }
    }
    return true;
  }
  function applyChoices() {
    var box = document.getElementById("live-choices");
    if (!box) { return; }
    var lists = box.querySelectorAll("template[data-for]");
    for (var i = 0; i < lists.length; i++) {
      var options = lists[i].content.querySelectorAll("option");
      var ids = (lists[i].getAttribute("data-for") || "").split(" ");
      for (var j = 0; j < ids.length; j++) {
        var select = document.getElementById(ids[j]);
        if (!select || select.tagName !== "SELECT" || sameOptions(select, options)) { continue; }
        var chosen = select.value;
        var kept = false;
        while (select.firstChild) { select.removeChild(select.firstChild); }
        for (var k = 0; k < options.length; k++) {
          var option = options[k].cloneNode(true);
          if (option.value === chosen) { option.selected = true; kept = true; }
          select.appendChild(option);
        }
        if (!kept) {  // the chosen one is gone: the form changed (its odds are asked again)
          select.dispatchEvent(new Event("change", { bubbles: true }));
        }
      }
    }
  }
  // A form is cleared after its action succeeded (its check boxes, typed faces...), keeping
  // who acts and the roll mode (a table rolling secretly goes on doing so); a refused form
  // keeps everything, to be corrected.
  document.addEventListener("htmx:afterRequest", function (evt) {
    var form = evt.detail && evt.detail.elt;
    var xhr = evt.detail && evt.detail.xhr;
    if (!form || form.tagName !== "FORM" || !form.hasAttribute("data-reset")) { return; }
    if (!xhr || xhr.status < 200 || xhr.status > 299) { return; }
    var keep = form.querySelectorAll("select[data-live]");
    var values = [];
    for (var i = 0; i < keep.length; i++) { values.push(keep[i].value); }
    var modes = form.querySelectorAll("[data-keep] input[type=radio]:checked");
    form.reset();
    for (var j = 0; j < keep.length; j++) {
      for (var k = 0; k < keep[j].options.length; k++) {
        if (keep[j].options[k].value === values[j]) { keep[j].selectedIndex = k; break; }
      }
    }
    for (var m = 0; m < modes.length; m++) { modes[m].checked = true; }
    form.dispatchEvent(new Event("change", { bubbles: true }));  // its odds, asked again
  });
  document.addEventListener("htmx:sseMessage", function (evt) {
    if (evt.detail && evt.detail.type && evt.detail.type !== "log") { return; }
    applyChoices();
    applyFolds(document);
    var seq = parseInt((evt.detail && evt.detail.lastEventId) || "0", 10);
    if (seq > last) {
      last = seq;
      var box = document.querySelector("[data-stream]");
      if (box) {
        // the table's key lets a proxy send all of a table's streams to one process
        var route = box.getAttribute("data-route");
        box.setAttribute("sse-connect", box.getAttribute("data-stream") + "?after=" + seq +
          (route ? "&table=" + route : ""));
      }
      // "undo the last event" means the last one this page has shown (see docs/web.md)
      var seen = document.querySelectorAll("input[data-last-seen]");
      for (var i = 0; i < seen.length; i++) { seen[i].value = String(seq); }
    }
    // Keep the log box at its newest entry, unless its reader has scrolled up to read.
    var logBox = document.querySelector(".log-box");
    if (logBox && atBottom) { logBox.scrollTop = logBox.scrollHeight; }
  });
})();
