(function () {
  "use strict";
  var box = document.getElementById("q");
  var count = document.getElementById("count");
  var items = Array.prototype.slice.call(document.querySelectorAll("#entries > li"));
  function normal(text) { return text.normalize("NFC").toLowerCase(); }
  var texts = items.map(function (item) { return normal(item.getAttribute("data-text") || item.textContent); });
  function apply() {
    var words = normal(box.value).split(/\s+/).filter(Boolean);
    var shown = 0;
    items.forEach(function (item, n) {
      var hit = words.every(function (word) { return texts[n].indexOf(word) >= 0; });
      item.hidden = !hit;
      if (hit) { shown += 1; }
    });
    count.textContent = words.length ? shown + " of " + items.length + " entries match" : items.length + " entries";
  }
  var asked = new URLSearchParams(window.location.search).get("q");
  if (asked) { box.value = asked; }
  box.addEventListener("input", apply);
  box.removeAttribute("disabled");
  apply();
})();
