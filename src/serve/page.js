(function () {
  "use strict";
  var root = document.documentElement;
  // The write token lives in the page's meta tag, where a refresh puts a new one.
  var meta = document.querySelector('meta[name="csrf-token"]');
  var profile = document.body.dataset.profile;
  var toast = document.getElementById("toast");
  var here = location.pathname + location.search;
  function store(kind) { try { return window[kind]; } catch (e) { return null; } }
  var local = store("localStorage"), session = store("sessionStorage");
  function get(s, k) { try { return s ? s.getItem(k) : null; } catch (e) { return null; } }
  function put(s, k, v) { try { if (s) { if (v === null) s.removeItem(k); else s.setItem(k, v); } } catch (e) {} }

  function say(msg) {
    toast.textContent = msg;
    toast.hidden = false;
    clearTimeout(say.timer);
    say.timer = setTimeout(function () { toast.hidden = true; }, 5000);
  }
  // A message that outlives the reload it comes before.
  function sayAfterReload(msg) { put(session, "ps.say", msg); location.reload(); }
  var held = get(session, "ps.say");
  if (held) { put(session, "ps.say", null); say(held); }

  // A server without accounts answers only its launch key, which this
  // page's links carry and its requests send in a header; never a cookie,
  // which a browser would send to every port of this host. The key is kept
  // in this origin's storage, which no other port can read, so that a page
  // asked for without it (a bookmark, a digest's link) comes back with it
  // (templates/key.html).
  var keyMeta = document.querySelector('meta[name="paperscout-key"]');
  var key = keyMeta ? keyMeta.content : "";
  if (key) put(local, "ps.key", key);

  function send(url, init) {
    init.credentials = "same-origin";
    init.headers = init.headers || {};
    init.headers["X-CSRF-Token"] = meta ? meta.content : "";
    if (key) init.headers.Authorization = "Bearer " + key;
    return fetch(url, init);
  }
  // A server restarted since the page loaded has a new token: fetch it and
  // send once more, so that a rating is never lost to a stale page.
  function request(url, init, retried) {
    return send(url, init).then(function (r) {
      return r.json().catch(function () { return {}; }).then(function (j) {
        if (r.status === 403 && !retried && /CSRF/i.test(j.error || "")) {
          return fetch("/api/token", { credentials: "same-origin", headers: key ? { Authorization: "Bearer " + key } : {} }).then(function (t) {
            if (!t.ok) throw new Error("your session has ended: reload the page (and sign in)");
            return t.json();
          }).then(function (t) {
            if (meta) meta.content = t.csrf;
            return request(url, init, true);
          });
        }
        if (!r.ok) throw new Error(j.error || ("error " + r.status));
        return j;
      });
    });
  }
  function post(url, body) {
    return request(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  }

  // ---- colour scheme and view, both remembered by this browser ----
  var themeButton = document.getElementById("theme");
  function dark() {
    return root.dataset.theme ? root.dataset.theme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
  }
  function showTheme() {
    if (!themeButton) return;
    var which = root.dataset.theme ? root.dataset.theme : "follows the system (" + (dark() ? "dark" : "light") + ")";
    themeButton.setAttribute("aria-label", "Colour scheme: " + which + "; switch");
    themeButton.textContent = dark() ? "☀" : "☾";
  }
  function toggleTheme() {
    root.dataset.theme = dark() ? "light" : "dark";
    put(local, "ps.theme", root.dataset.theme);
    showTheme();
  }
  showTheme();
  var viewButtons = document.querySelectorAll("button[data-act=view]");
  function showView() {
    var compact = root.classList.contains("compact");
    Array.prototype.forEach.call(viewButtons, function (b) {
      b.setAttribute("aria-pressed", String(compact));
      b.textContent = compact ? "Cards" : "Compact list";
    });
  }
  function toggleView() {
    root.classList.toggle("compact");
    put(local, "ps.view", root.classList.contains("compact") ? "compact" : "cards");
    showView();
    if (current >= 0) cards()[current].scrollIntoView({ block: "nearest" });
  }
  showView();

  // ---- ratings, and what they have not yet changed ----
  var pending = document.getElementById("pending");
  var loaded = {};
  function cards() { return document.querySelectorAll("article.paper"); }
  // A paper can be on a page twice (its own card and a neighbour's).
  function cardsOf(id, within) {
    return document.querySelectorAll((within || "") + ' article.paper[data-id="' + CSS.escape(id) + '"]');
  }
  Array.prototype.forEach.call(cards(), function (c) { loaded[c.dataset.id] = c.dataset.rating; });
  var changed = {};
  function showPending() {
    if (!pending) return;
    var n = Object.keys(changed).length;
    pending.hidden = n === 0;
    document.getElementById("pending-text").textContent =
      n === 1 ? "1 rating is not in this order yet." : n + " ratings are not in this order yet.";
  }
  function show(id, rating) {
    Array.prototype.forEach.call(cardsOf(id), function (card) {
      card.dataset.rating = String(rating);
      card.querySelector(".up").setAttribute("aria-pressed", String(rating > 0));
      card.querySelector(".down").setAttribute("aria-pressed", String(rating < 0));
      card.querySelector(".state").textContent = rating > 0 ? "liked" : rating < 0 ? "not interested" : "";
      card.querySelector(".undo").hidden = rating === 0;
    });
    if (String(rating) === loaded[id]) delete changed[id]; else changed[id] = rating;
    showPending();
  }
  // The last rating, kept across the re-rank's reload so that u still undoes it.
  var lastRated = null;
  function remember(card) { lastRated = card; put(session, "ps.last:" + here, card ? card.dataset.id : null); }
  (function () {
    var id = get(session, "ps.last:" + here), c = id ? cardsOf(id)[0] : null;
    if (c && c.dataset.rating !== "0") lastRated = c;
  })();
  // Where a card stood among the picks when it was rated (the paper before
  // it), kept across the re-rank's reload: a re-ranked page lists a 👎
  // apart, and undoing it puts it back there, not at the end of the page.
  function placeKey(id) { return "ps.place:" + here + ":" + id; }
  function notePlace(card) {
    if (!card.closest("#picks") || get(session, placeKey(card.dataset.id)) !== null) return;
    var before = card.previousElementSibling;
    put(session, placeKey(card.dataset.id), before && before.matches("article.paper") ? before.dataset.id : "");
  }
  function restorePlace(card) {
    var was = get(session, placeKey(card.dataset.id)), picks = document.getElementById("picks");
    put(session, placeKey(card.dataset.id), null);
    if (was === null || !picks || card.closest("#picks")) return;
    var before = was ? picks.querySelector('article.paper[data-id="' + CSS.escape(was) + '"]') : null;
    var from = card.parentNode;
    if (before) before.after(card); else picks.prepend(card);
    var title = document.getElementById("not-interested-title");
    if (from && from.id === "not-interested" && title) {
      var left = from.querySelectorAll("article.paper").length;
      title.textContent = "Marked not interested (" + left + ")";
      if (!left) { title.hidden = true; from.hidden = true; if (title.nextElementSibling) title.nextElementSibling.hidden = true; }
    }
  }
  // `exact` sets the rating; otherwise pressing the one a paper has takes it back.
  function rate(card, value, exact) {
    var v = !exact && Number(card.dataset.rating) === value ? 0 : value;
    if (v !== 0) notePlace(card);
    return post("/api/ratings", { id: card.dataset.id, rating: v, profile: profile })
      .then(function (j) {
        if (j.rating === 0) restorePlace(card);
        show(card.dataset.id, j.rating);
        remember(j.rating === 0 ? null : card);
        if (j.rating < 0 && !card.classList.contains("solo")) say("Not interested: folded away. Press u or undo to bring it back.");
        return j;
      }).catch(function (e) { say(e.message); throw e; });
  }
  function seen(card) {
    if (card) post("/api/seen", { id: card.dataset.id, profile: profile }).catch(function () {});
  }

  // Re-ranking reloads; the order before is kept so that the reloaded page
  // can say what the ratings moved.
  function order() {
    return Array.prototype.map.call(document.querySelectorAll("#picks article.paper"), function (c) { return c.dataset.id; });
  }
  // The card the reader is reading: the selected one while it is on
  // screen (keys move it), else the first card on screen (a mouse user
  // scrolled on); and how far down the screen it stands.
  function reading() {
    var top = headerHeight(), cs = cards(), sel = current >= 0 ? cs[current] : null;
    function visible(c) { var r = c.getBoundingClientRect(); return r.bottom > top && r.top < innerHeight; }
    var c = sel && visible(sel) ? sel : null;
    for (var i = 0; !c && i < cs.length; i++) if (visible(cs[i]) && cs[i].getBoundingClientRect().top >= top - 1) c = cs[i];
    for (i = 0; !c && i < cs.length; i++) if (visible(cs[i])) c = cs[i];
    return c ? { id: c.dataset.id, top: c.getBoundingClientRect().top } : null;
  }
  function headerHeight() { var h = document.querySelector("header.top"); return h ? h.getBoundingClientRect().bottom : 0; }
  function rerank() {
    var rated = Object.keys(changed).map(function (id) {
      var c = cardsOf(id)[0];
      return { id: id, rating: changed[id], title: c ? c.dataset.title : id };
    });
    var at = reading();
    if (at) { put(session, "ps.pos:" + here, at.id); put(session, "ps.top:" + here, String(at.top)); }
    put(session, "ps.before:" + here, JSON.stringify({ order: order(), rated: rated }));
    location.reload();
  }
  function quote(t) { return "\u201c" + (t.length > 40 ? t.slice(0, 39) + "\u2026" : t) + "\u201d"; }
  function places(n) { return n === 1 ? "1 place" : n + " places"; }
  // One line, where the reader is (the dock): what came into the top of
  // the list, and where the rated papers went.
  function whatMoved() {
    var box = document.getElementById("moved"), raw = get(session, "ps.before:" + here);
    put(session, "ps.before:" + here, null);
    if (!box || !raw) return;
    var before;
    try { before = JSON.parse(raw); } catch (e) { return; }
    if (!before || !Array.isArray(before.order) || !Array.isArray(before.rated)) return;
    var now = order(), ratedIds = {};
    before.rated.forEach(function (r) { ratedIds[r.id] = true; });
    var k = Math.min(20, now.length), topBefore = {};
    before.order.slice(0, k).forEach(function (id) { topBefore[id] = true; });
    var entered = now.slice(0, k).filter(function (id) { return !topBefore[id] && !ratedIds[id]; }).length;
    // Each rated paper's own move, by its place in the list: "#19 → #4";
    // past three papers, the median move of the rest.
    var moves = before.rated.filter(function (r) { return before.order.indexOf(r.id) >= 0 || now.indexOf(r.id) >= 0; });
    var said = moves.slice(0, 3).map(function (r) {
      var was = before.order.indexOf(r.id), is = now.indexOf(r.id);
      var mark = r.rating > 0 ? "👍 " : r.rating < 0 ? "👎 " : "undone ";
      var to = is >= 0 ? "#" + (is + 1) : r.rating < 0 ? "listed apart" : "below the list";
      return mark + quote(String(r.title)) + " " + (was >= 0 ? "#" + (was + 1) : "from below the list") + " → " + to;
    });
    if (moves.length > 3) {
      var rest = moves.slice(3).map(function (r) {
        var was = before.order.indexOf(r.id), is = now.indexOf(r.id);
        return was < 0 || is < 0 ? null : Math.abs(is - was);
      }).filter(function (n) { return n !== null; }).sort(function (a, b) { return a - b; });
      var median = rest.length ? rest[Math.floor((rest.length - 1) / 2)] : null;
      said.push("and " + (moves.length - 3) + " more" + (median === null ? "" : " (median move " + places(median) + ")"));
    }
    document.getElementById("moved-text").textContent =
      "Re-ranked: " + entered + " new in your top " + k + (said.length ? "; " + said.join("; ") : "") + ".";
    box.hidden = false;
  }
  whatMoved();

  // ---- the selected paper, kept across reloads ----
  // The page scrolls to it itself: a re-ranked page has it elsewhere than
  // the browser's remembered scroll offset.
  if ("scrollRestoration" in history && cards().length) history.scrollRestoration = "manual";
  var current = -1;
  function move(to, quiet) {
    var cs = cards();
    if (!cs.length) return;
    if (current >= 0 && cs[current]) cs[current].classList.remove("current");
    current = Math.max(0, Math.min(cs.length - 1, to));
    cs[current].classList.add("current");
    if (!quiet) cs[current].scrollIntoView({ block: "nearest" });
    put(session, "ps.pos:" + here, cs[current].dataset.id);
  }
  (function select() {
    var cs = cards(), want = get(session, "ps.pos:" + here), first = -1;
    var top = Number(get(session, "ps.top:" + here));
    put(session, "ps.top:" + here, null);
    for (var i = 0; i < cs.length; i++) {
      if (want && cs[i].dataset.id === want) {
        move(i, true);
        // Where it stood on screen before a re-rank; else in the middle.
        if (top > 0) window.scrollBy(0, cs[i].getBoundingClientRect().top - top);
        else if (i > 0) cs[i].scrollIntoView({ block: "center" });
        return;
      }
      if (first < 0 && cs[i].dataset.rating === "0") first = i;
    }
    if (cs.length) move(first < 0 ? 0 : first, first <= 0);
  })();
  function next() {
    var cs = cards();
    for (var i = current + 1; i < cs.length; i++) if (cs[i].dataset.rating === "0") return move(i);
    move(current + 1);
  }

  // ---- forms that add seeds and filters ----
  function message(form, text, good) {
    var m = form.querySelector(".msg");
    if (!m) return say(text);
    m.textContent = text;
    m.className = "msg " + (good ? "good" : "bad");
  }
  function added(j) {
    var seeds = function (n) { return n === 1 ? "1 seed" : n + " seeds"; };
    var what = j.new === 0 ? (j.updated > 1 ? "All " + j.updated + " were seeds already." : "Already a seed: nothing new.") :
      "Added " + seeds(j.new) + (j.updated ? " (" + j.updated + " already there)" : "") +
      (j.embedded ? ", " + j.embedded + " embedded" : "") + ".";
    var r = j.recognised;
    if (r && r.title_only) what += " " + r.by_id + " recognised by arXiv id, " + r.title_only +
      " by title only: no arXiv id in " + (r.title_only === 1 ? "that entry" : "those entries") + ", so each is matched by its own words.";
    if (j.looked_up && j.looked_up.length) what += " Looked up on arXiv: " + j.looked_up.join(", ") + ".";
    if (j.to_embed) what += " " + j.to_embed + " still to embed: upload the file again to finish (nothing is added twice).";
    if (j.removed) what += " " + j.removed + " gone from Zotero stopped being seeds.";
    if (j.untitled) what += " " + j.untitled + " without a title were left out.";
    return what;
  }
  Array.prototype.forEach.call(document.querySelectorAll("form[data-seed]"), function (form) {
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var button = form.querySelector("button[type=submit]"), kind = form.dataset.seed, done;
      message(form, kind === "id" ? "Adding (a paper the library lacks is looked up on arXiv)…" : "Adding…", true);
      var field = kind === "zotero" ? "db" : kind;
      button.disabled = true;
      if (kind === "zotero") {
        done = post("/api/seeds/zotero", { profile: profile, db: form.elements.db.value.trim() });
      } else if (kind === "file") {
        var data = new FormData();
        data.append("profile", profile);
        data.append("file", form.elements.file.files[0]);
        done = request("/api/seeds/upload", { method: "POST", body: data });
      } else {
        var body = { profile: profile };
        body[kind] = form.elements[kind].value.trim();
        done = post("/api/seeds/add", body);
      }
      done.then(function (j) { sayAfterReload(added(j)); })
        .catch(function (err) { message(form, err.message, false); form.elements[field].focus(); })
        .then(function () { button.disabled = false; });
    });
  });
  var settings = document.querySelector("form[data-settings]");
  if (settings) settings.addEventListener("submit", function (e) {
    e.preventDefault();
    var f = settings.elements, body = { email: f.email.value.trim(), chat_format: f.chat_format.value, profile: profile };
    // An empty address keeps the saved one; choosing no chat removes it.
    if (f.chat_url.value.trim() || !f.chat_format.value) body.chat_url = f.chat_url.value.trim();
    // Likewise the token: empty keeps it, unless asked to remove it.
    if (f.chat_token.value.trim()) body.chat_token = f.chat_token.value.trim();
    else if (f.forget_token && f.forget_token.checked) body.chat_token = "";
    post("/api/settings", body).then(function (j) { sayAfterReload(j.notice ? "Saved: " + j.notice + "." : "Saved."); })
      .catch(function (err) { message(settings, err.message, false); });
  });
  var confirmForm = document.querySelector("form[data-confirm]");
  if (confirmForm) confirmForm.addEventListener("submit", function (e) {
    e.preventDefault();
    post("/api/settings/confirm", { code: confirmForm.elements.code.value.trim(), profile: profile })
      .then(function () { sayAfterReload("The address is confirmed."); })
      .catch(function (err) { message(confirmForm, err.message, false); });
  });
  var testForm = document.querySelector("form[data-test]");
  if (testForm) Array.prototype.forEach.call(testForm.querySelectorAll("button[data-channel]"), function (b) {
    b.addEventListener("click", function () {
      b.disabled = true;
      message(testForm, "Sending…", true);
      post("/api/settings/test", { channel: b.dataset.channel, profile: profile })
        .then(function (j) { message(testForm, j.delivered ? "Delivered." : j.message.charAt(0).toUpperCase() + j.message.slice(1) + ".", j.delivered); })
        .catch(function (err) { message(testForm, err.message, false); })
        .then(function () { b.disabled = false; });
    });
  });
  var filterForm = document.getElementById("add-filter");
  if (filterForm) filterForm.addEventListener("submit", function (e) {
    e.preventDefault();
    var msg = document.getElementById("filter-msg");
    post("/api/filters", { rule: filterForm.elements.rule.value, value: filterForm.elements.value.value.trim(), action: "add", profile: profile })
      .then(function (j) { sayAfterReload(j.changed ? "Filter added." : "That filter was already there."); })
      .catch(function (err) { msg.textContent = err.message; msg.className = "msg bad"; filterForm.elements.value.focus(); });
  });

  function act(el, card, row) {
    switch (el.dataset.act) {
      case "up": case "down":
        var offer = el.dataset.set === "1" ? document.getElementById("rate-offer") : null;
        rate(card, el.dataset.act === "up" ? 1 : -1, !!offer).then(function (j) {
          if (offer) offer.textContent = j.rating > 0 ? "Marked as liked." : "Marked as not interested.";
        }, function () {});
        break;
      case "undo": rate(card, 0, true).catch(function () {}); break;
      case "abs": var d = card.querySelector("details"); if (d) d.open = !d.open; break;
      case "open": seen(card); break;
      case "view": toggleView(); break;
      case "theme": toggleTheme(); break;
      case "rerank": rerank(); break;
      case "dismiss": el.closest("[role=status]").hidden = true; break;
      case "rm-seed":
        post("/api/seeds/remove", { key: row.dataset.key, profile: profile }).then(function () { sayAfterReload("Seed removed."); }).catch(function (e) { say(e.message); });
        break;
      case "weight":
        post("/api/seeds/weight", { key: row.dataset.key, profile: profile,
          weight: Number(row.querySelector('input[type="number"]').value) }).then(function () { say("Weight set."); }).catch(function (e) { say(e.message); });
        break;
      case "move":
        post("/api/seeds/move", { key: row.dataset.key, profile: profile,
          to: row.querySelector('input[type="text"]').value.trim() }).then(function () { sayAfterReload("Seed moved."); }).catch(function (e) { say(e.message); });
        break;
      case "bar":
        post("/api/bar", { to: el.dataset.to, profile: profile })
          .then(function (j) { sayAfterReload("Your bar is now " + j.bar + "."); }).catch(function (e) { say(e.message); });
        break;
      case "rm-filter":
        post("/api/filters", { rule: row.dataset.rule, value: row.dataset.value, action: "rm", profile: profile })
          .then(function () { sayAfterReload("Filter removed."); }).catch(function (e) { say(e.message); });
        break;
    }
  }
  document.addEventListener("click", function (e) {
    var card = e.target.closest("article.paper");
    if (card) {
      var i = Array.prototype.indexOf.call(cards(), card);
      if (i >= 0 && i !== current) move(i, true);
    }
    var el = e.target.closest("[data-act]");
    if (!el) return;
    var target = el.dataset.target ? document.getElementById(el.dataset.target) : null;
    act(el, target || card, el.closest("tr"));
  });
  Array.prototype.forEach.call(document.querySelectorAll("select[data-autosubmit]"), function (s) {
    // requestSubmit, unlike submit, runs the form's submit handlers.
    s.addEventListener("change", function () { if (s.form.requestSubmit) s.form.requestSubmit(); else s.form.submit(); });
  });
  // Top and Method are remembered by this browser, so that Today and the
  // day links keep them: the server reads them where a link says none.
  Array.prototype.forEach.call(document.querySelectorAll("form.controls"), function (f) {
    f.addEventListener("submit", function () {
      Array.prototype.forEach.call(f.querySelectorAll("select[data-remember]"), function (s) {
        document.cookie = s.dataset.remember + "=" + encodeURIComponent(s.value) + "; path=/; max-age=31536000; SameSite=Strict";
      });
    });
  });
  // A clamped reason (on a phone) opens in full on a tap.
  document.addEventListener("click", function (e) {
    var r = e.target.closest(".reason");
    if (r) r.classList.toggle("open");
  });
  // With nothing liked yet, the forms that add a seed are open where there is room.
  var cold = document.querySelector(".cold details.add");
  if (cold && matchMedia("(min-width: 40rem)").matches) cold.open = true;
  if (document.body.dataset.opened) seen(document.querySelector("article.paper"));

  var help = document.getElementById("help");
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || e.target.closest("input, textarea, select, dialog")) return;
    var card = cards()[current];
    switch (e.key) {
      case "j": move(current + 1); break;
      case "k": move(current - 1); break;
      case "y": if (card) rate(card, 1, true).then(next, function () {}); break;
      case "n": if (card) rate(card, -1, true).then(next, function () {}); break;
      case "u":
        var target = card && card.dataset.rating !== "0" ? card : lastRated;
        if (target) rate(target, 0, true).then(function () {
          var i = Array.prototype.indexOf.call(cards(), target);
          if (i >= 0) move(i);
        }, function () {});
        break;
      case "a": if (card) { var d = card.querySelector("details"); if (d) d.open = !d.open; } break;
      case "o":
        if (card) { var a = card.querySelector("a.title"); if (a) { seen(card); window.open(a.href, "_blank", "noopener,noreferrer"); } }
        break;
      case "m": if (card) location.href = card.querySelector("a.more").href; break;
      case "r": if (pending) rerank(); else location.reload(); break;
      case "c": toggleView(); break;
      case "t": toggleTheme(); break;
      case "?": if (help && !help.open) help.showModal(); break;
      case "/": e.preventDefault(); document.querySelector('input[name="q"]').focus(); break;
      default: return;
    }
  });
})();
