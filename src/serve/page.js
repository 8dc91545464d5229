(function () {
  "use strict";
  var csrf = document.querySelector('meta[name="csrf-token"]').content;
  var profile = document.body.dataset.profile;
  var toast = document.getElementById("toast");
  function say(msg) {
    toast.textContent = msg;
    toast.hidden = false;
    clearTimeout(say.timer);
    say.timer = setTimeout(function () { toast.hidden = true; }, 4000);
  }
  function post(url, body) {
    return fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrf },
      body: JSON.stringify(body)
    }).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (j) {
        if (!r.ok) { say(j.error || ("error " + r.status)); throw new Error(j.error || r.status); }
        return j;
      });
    });
  }
  function show(card, rating) {
    card.dataset.rating = String(rating);
    card.querySelector(".up").setAttribute("aria-pressed", String(rating > 0));
    card.querySelector(".down").setAttribute("aria-pressed", String(rating < 0));
    card.querySelector(".state").textContent = rating > 0 ? "liked" : rating < 0 ? "not interested" : "";
    card.querySelector(".undo").hidden = rating === 0;
  }
  function rate(card, value) {
    // Pressing the rating a paper already has takes it back.
    var v = Number(card.dataset.rating) === value ? 0 : value;
    return post("/api/ratings", { id: card.dataset.id, rating: v, profile: profile })
      .then(function (j) { show(card, j.rating); }).catch(function () {});
  }
  function seen(card) {
    post("/api/seen", { id: card.dataset.id, profile: profile }).catch(function () {});
  }
  function reload() { location.reload(); }
  document.addEventListener("click", function (e) {
    var el = e.target.closest("[data-act]");
    if (!el) return;
    var card = el.closest(".paper"), row = el.closest("tr");
    switch (el.dataset.act) {
      case "up": rate(card, 1); break;
      case "down": rate(card, -1); break;
      case "undo": rate(card, Number(card.dataset.rating)); break;
      case "open": seen(card); break;
      case "rm-seed":
        post("/api/seeds/remove", { key: row.dataset.key, profile: profile }).then(reload).catch(function () {});
        break;
      case "weight":
        post("/api/seeds/weight", { key: row.dataset.key, profile: profile,
          weight: Number(row.querySelector('input[type="number"]').value) }).then(function () { say("weight set"); }).catch(function () {});
        break;
      case "move":
        post("/api/seeds/move", { key: row.dataset.key, profile: profile,
          to: row.querySelector('input[type="text"]').value.trim() }).then(reload).catch(function () {});
        break;
      case "rm-filter":
        post("/api/filters", { rule: row.dataset.rule, value: row.dataset.value, action: "rm", profile: profile })
          .then(reload).catch(function () {});
        break;
      case "add-filter":
        var f = document.getElementById("add-filter");
        post("/api/filters", { rule: f.elements.rule.value, value: f.elements.value.value, action: "add", profile: profile })
          .then(reload).catch(function () {});
        break;
    }
  });
  Array.prototype.forEach.call(document.querySelectorAll("select[data-autosubmit]"), function (s) {
    s.addEventListener("change", function () { s.form.submit(); });
  });
  if (document.body.dataset.opened) seen(document.querySelector(".paper"));
  var current = -1;
  function cards() { return document.querySelectorAll("article.paper"); }
  function move(to) {
    var cs = cards();
    if (!cs.length) return;
    if (current >= 0 && cs[current]) cs[current].classList.remove("current");
    current = Math.max(0, Math.min(cs.length - 1, to));
    cs[current].classList.add("current");
    cs[current].scrollIntoView({ block: "nearest" });
  }
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || e.target.closest("input, textarea, select")) return;
    var card = cards()[current];
    switch (e.key) {
      case "j": move(current + 1); break;
      case "k": move(current - 1); break;
      case "y": if (card) rate(card, 1); break;
      case "n": if (card) rate(card, -1); break;
      case "u": if (card && Number(card.dataset.rating) !== 0) rate(card, Number(card.dataset.rating)); break;
      case "a": if (card) { var d = card.querySelector("details"); if (d) d.open = !d.open; } break;
      case "o":
        if (card) { var a = card.querySelector("a.title"); if (a) { seen(card); window.open(a.href, "_blank", "noopener,noreferrer"); } }
        break;
      case "m": if (card) location.href = card.querySelector('a[title^="More like"]').href; break;
      case "/": e.preventDefault(); document.querySelector('input[name="q"]').focus(); break;
      default: return;
    }
  });
})();
