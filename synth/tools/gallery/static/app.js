/* synth QA gallery: a static viewer over window.SYNTH_DATA (written by synth.tools.gallery.build_gallery).
   Vanilla JS, no network: every file is loaded relative to index.html, so it works from file://. */
(function () {
  "use strict";

  const DATA = window.SYNTH_DATA;
  if (!DATA || !Array.isArray(DATA.samples)) {
    document.body.textContent = "data.js is missing or could not be read: rebuild the gallery.";
    return;
  }
  const SAMPLES = DATA.samples;
  const META = DATA.meta || {};
  const PAGE = 200;                       // cards rendered per step
  const FIELDS = [["family", "Family"], ["difficulty", "Difficulty"], ["lang", "Language"],
                  ["platform", "Platform"], ["kind", "Kind"], ["task", "Task"]];
  const REASONS = (META.reasons && META.reasons.length) ? META.reasons
    : ["wrong label", "ambiguous", "unreadable", "ugly page", "other"];
  const LAYERS = [
    { id: "widget", label: "Widget", color: "#ff3df5" },
    { id: "targets", label: "Targets", color: "#22d34b" },
    { id: "distractors", label: "Distractors", color: "#ff4040" },
    { id: "others", label: "Other objects", color: "#2f8cff" },
    { id: "actions", label: "Ref. actions", color: "#00e5ff" },
    { id: "accept", label: "Accept regions", color: "#ffd500", extra: "#ff8c00", extraLabel: "drag end" },
    { id: "neutral", label: "Neutral regions", color: "#b8bec6" },
    { id: "queries", label: "Other queries", color: "#c04dff" },
  ];
  const SVGNS = "http://www.w3.org/2000/svg";
  const BASE = location.pathname.replace(/[^/]*$/, "");
  const FLAG_STORE = "synth-gallery-flags:" + BASE;
  const PREF_STORE = "synth-gallery-prefs";

  // ------------------------------------------------------------------ helpers
  const $ = (sel) => document.querySelector(sel);
  function el(tag, props, children) {
    const e = document.createElement(tag);
    if (props) {
      for (const [k, v] of Object.entries(props)) {
        if (v === undefined || v === null || v === false) continue;
        if (k === "text") e.textContent = v;
        else if (k === "class") e.className = v;
        else if (k === "dataset") Object.assign(e.dataset, v);
        else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
        else e.setAttribute(k, v === true ? "" : v);
      }
    }
    for (const c of [].concat(children || [])) {
      if (c === null || c === undefined || c === false) continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }
  function svg(tag, attrs, parent) {
    const e = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "title") { const t = document.createElementNS(SVGNS, "title"); t.textContent = v; e.append(t); }
      else if (k === "text") e.textContent = v;
      else e.setAttribute(k, v);
    }
    if (parent) parent.append(e);
    return e;
  }
  const fmtInt = (n) => n.toLocaleString("en-US");
  function fmtNum(v) {
    if (typeof v !== "number") return String(v);
    if (Number.isInteger(v)) return String(v);
    return String(Math.round(v * 10000) / 10000);
  }
  const fmtPt = (p) => "(" + p.map((v) => fmtNum(Math.round(v * 10) / 10)).join(", ") + ")";
  const fmtBox = (b) => "[" + b.map((v) => fmtNum(Math.round(v * 10) / 10)).join(", ") + "]";
  const boxSize = (b) => Math.round(b[2] - b[0]) + "×" + Math.round(b[3] - b[1]);
  let toastTimer = 0;
  function toast(msg) {
    const t = $("#toast");
    t.textContent = msg;
    t.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { t.hidden = true; }, 2600);
  }
  function loadJSON(key, fallback) {
    try {
      const v = JSON.parse(localStorage.getItem(key) || "null");
      return v && typeof v === "object" && !Array.isArray(v) ? v : fallback;
    } catch (e) { return fallback; }
  }
  function storeJSON(key, value) {
    try { localStorage.setItem(key, JSON.stringify(value)); return true; } catch (e) { return false; }
  }

  // ------------------------------------------------------------------ flags
  const flags = {};
  for (const [k, v] of Object.entries(loadJSON(FLAG_STORE, {}))) if (typeof v === "string") flags[k] = v;
  function saveFlags() {
    if (!storeJSON(FLAG_STORE, flags)) toast("Flags could not be saved in this browser: export them before closing.");
    updateFlagCount();
  }
  function updateFlagCount() {
    const n = Object.keys(flags).length;
    $("#flag-count").textContent = n ? (n === 1 ? "1 flag" : n + " flags") : "no flags";
  }
  function setFlag(key, reason) {
    if (reason === null) delete flags[key]; else flags[key] = reason;
    saveFlags();
    const card = document.querySelector('.card[data-key="' + CSS.escape(key) + '"]');
    if (card) paintBadge(card, key);
    if (current !== null && currentRec().key === key) paintDetailFlag();
    if (flagFilter.value) {
      if (current === null) applyFilters(true); else refilterOnClose = true;   // keep next/prev stable
    }
  }
  let refilterOnClose = false;
  function exportFlags() {
    const sorted = {};
    for (const k of Object.keys(flags).sort()) sorted[k] = flags[k];
    const blob = new Blob([JSON.stringify({ flags: sorted }, null, 2) + "\n"], { type: "application/json" });
    const a = el("a", { href: URL.createObjectURL(blob), download: "flags.json", hidden: true });
    document.body.append(a);
    a.click();
    setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 2000);
    const n = Object.keys(sorted).length;
    toast("Exported " + n + (n === 1 ? " flag" : " flags") + " to flags.json");
  }

  // ------------------------------------------------------------------ filters and grid
  const grid = $("#grid");
  const selects = {};
  const flagFilter = $("#flag-filter");
  const search = $("#search");
  let filtered = [];        // indices into SAMPLES
  let shown = 0;            // cards rendered

  function buildFilters() {
    for (const [field] of FIELDS) {
      const sel = document.querySelector('#filters select[data-field="' + field + '"]');
      selects[field] = sel;
      const counts = new Map();
      for (const s of SAMPLES) {
        const v = s[field];
        if (v === undefined || v === null || v === "") continue;
        counts.set(v, (counts.get(v) || 0) + 1);
      }
      if (!counts.size) { sel.closest("label").hidden = true; continue; }
      const values = [...counts.keys()].sort((a, b) =>
        typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b)));
      sel.append(el("option", { value: "", text: "all" }));
      for (const v of values) sel.append(el("option", { value: String(v), text: v + "  (" + fmtInt(counts.get(v)) + ")" }));
      sel.addEventListener("change", () => applyFilters());
    }
    flagFilter.addEventListener("change", () => applyFilters());
    let timer = 0;
    search.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => applyFilters(), 150); });
    $("#reset-filters").addEventListener("click", () => {
      for (const sel of Object.values(selects)) sel.value = "";
      flagFilter.value = "";
      search.value = "";
      applyFilters();
    });
  }

  function matches(s, want, q, fl) {
    for (const [field, v] of want) if (String(s[field]) !== v) return false;
    if (fl === "flagged" && !(s.key in flags)) return false;
    if (fl === "unflagged" && (s.key in flags)) return false;
    if (q) {
      if (s._hay === undefined) s._hay = (s.key + "\n" + (s.instruction || "") + "\n" + (s.template || "")).toLowerCase();
      if (!s._hay.includes(q)) return false;
    }
    return true;
  }

  function applyFilters(keepScroll) {
    const want = Object.entries(selects).filter(([, sel]) => sel.value !== "").map(([f, sel]) => [f, sel.value]);
    const q = search.value.trim().toLowerCase();
    const fl = flagFilter.value;
    const keepKey = current !== null ? currentRec().key : null;
    filtered = [];
    for (let i = 0; i < SAMPLES.length; i++) if (matches(SAMPLES[i], want, q, fl)) filtered.push(i);
    const before = keepScroll ? Math.max(shown, PAGE) : PAGE;
    grid.textContent = "";
    shown = 0;
    renderMore(before);
    if (current !== null) {
      const pos = filtered.findIndex((i) => SAMPLES[i].key === keepKey);
      if (pos >= 0) current = pos;
    }
    if (!keepScroll) window.scrollTo(0, 0);
  }

  function updateCount() {
    const total = SAMPLES.length;
    let text = filtered.length === total ? fmtInt(total) + " samples"
      : fmtInt(filtered.length) + " of " + fmtInt(total) + " samples";
    if (shown < filtered.length) text += " · showing " + fmtInt(shown);
    if (META.total && META.total > total) text += " · evenly spread subsample of " + fmtInt(META.total);
    $("#count").textContent = text;
    $("#more-row").hidden = shown >= filtered.length;
    $("#more").textContent = "Show " + fmtInt(Math.min(PAGE, filtered.length - shown)) + " more";
  }

  function paintBadge(card, key) {
    let badge = card.querySelector(".flag-badge");
    if (key in flags) {
      if (!badge) { badge = el("span", { class: "flag-badge" }); card.append(badge); }
      badge.textContent = "⚑ " + flags[key];
      badge.title = "flagged: " + flags[key];
      card.classList.add("flagged");
    } else {
      if (badge) badge.remove();
      card.classList.remove("flagged");
    }
  }

  function makeCard(pos) {
    const s = SAMPLES[filtered[pos]];
    const [w, h] = s.size || [320, 200];
    const chips = [
      el("span", { class: "chip fam", "data-family": s.family, text: s.family }),
      el("span", { class: "chip", text: "d" + s.difficulty }),
      el("span", { class: "chip", text: s.lang }),
      el("span", { class: "chip", text: s.platform }),
    ];
    if (s.checks && s.checks.passed === false) chips.push(el("span", { class: "chip bad", text: "checks failed" }));
    if (s.answer && s.answer.feasible === false) chips.push(el("span", { class: "chip warn", text: "infeasible" }));
    const card = el("div", { class: "card", tabindex: "0", dataset: { key: s.key, pos: String(pos) } }, [
      el("div", { class: "thumb" }, el("img", {
        src: s.thumb, loading: "lazy", decoding: "async", alt: s.key,
        width: "320", height: String(Math.max(1, Math.round(320 * h / w))),
      })),
      el("div", { class: "card-body" }, [
        el("div", { class: "chips" }, chips),
        el("div", { class: "card-instr", text: s.instruction, title: s.instruction }),
        el("div", { class: "card-key", text: s.key }),
      ]),
    ]);
    paintBadge(card, s.key);
    return card;
  }

  function renderMore(count) {
    const end = Math.min(filtered.length, shown + (count || PAGE));
    const frag = document.createDocumentFragment();
    for (let pos = shown; pos < end; pos++) frag.append(makeCard(pos));
    grid.append(frag);
    shown = end;
    if (!filtered.length) grid.append(el("div", { class: "empty", text: "No sample matches these filters." }));
    updateCount();
  }

  grid.addEventListener("click", (ev) => {
    const card = ev.target.closest(".card");
    if (card) openDetail(Number(card.dataset.pos));
  });
  grid.addEventListener("keydown", (ev) => {
    const card = ev.target.closest(".card");
    if (card && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); openDetail(Number(card.dataset.pos)); }
  });
  $("#more").addEventListener("click", () => renderMore());
  if ("IntersectionObserver" in window) {
    new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting) && shown < filtered.length && !$("#grid-view").hidden) renderMore();
    }, { rootMargin: "600px" }).observe($("#sentinel"));
  }

  // ------------------------------------------------------------------ detail view
  const detail = $("#detail");
  const img = $("#full-image");
  const overlay = $("#overlay");
  let current = null;       // position in `filtered`
  let zoom = false;
  let scale = 1;
  const prefs = loadJSON(PREF_STORE, {});
  const layerOn = {};
  for (const L of LAYERS) layerOn[L.id] = !(prefs.hidden || []).includes(L.id);
  let overlaysOn = prefs.overlays !== false;

  const currentRec = () => SAMPLES[filtered[current]];

  function buildLayerControls() {
    const box = $("#layers");
    box.append(el("label", { class: "layer-toggle master" }, [
      el("input", { type: "checkbox", id: "layer-all", checked: overlaysOn, onchange: (e) => setOverlays(e.target.checked) }),
      el("span", { text: "Overlays" }), el("kbd", { text: "o" }),
    ]));
    LAYERS.forEach((L, i) => {
      const swatches = [el("span", { class: "swatch", style: undefined })];
      swatches[0].style.borderColor = L.color;
      if (L.extra) { const s2 = el("span", { class: "swatch", title: L.extraLabel }); s2.style.borderColor = L.extra; swatches.push(s2); }
      box.append(el("label", { class: "layer-toggle", title: L.extra ? L.label + " (orange: " + L.extraLabel + ")" : L.label }, [
        el("input", { type: "checkbox", "data-layer": L.id, checked: layerOn[L.id], onchange: (e) => setLayer(L.id, e.target.checked) }),
        ...swatches, el("span", { text: L.label }), el("kbd", { text: String(i + 1) }),
      ]));
    });
  }
  function savePrefs() {
    storeJSON(PREF_STORE, { overlays: overlaysOn, hidden: LAYERS.filter((L) => !layerOn[L.id]).map((L) => L.id) });
  }
  function paintLayers() {
    overlay.classList.toggle("all-off", !overlaysOn);
    for (const L of LAYERS) {
      overlay.classList.toggle("hide-" + L.id, !layerOn[L.id]);
      const cb = document.querySelector('#layers input[data-layer="' + L.id + '"]');
      if (cb) { cb.checked = layerOn[L.id]; cb.disabled = !overlaysOn; }
    }
    $("#layer-all").checked = overlaysOn;
  }
  function setLayer(id, on) { layerOn[id] = on; if (on) overlaysOn = true; paintLayers(); savePrefs(); }
  function setOverlays(on) { overlaysOn = on; paintLayers(); savePrefs(); }

  function openDetail(pos) {
    if (pos < 0 || pos >= filtered.length) return;
    current = pos;
    const s = currentRec();
    detail.hidden = false;
    document.body.classList.add("detail-open");
    $("#detail-key").textContent = s.key;
    $("#position").textContent = fmtInt(pos + 1) + " / " + fmtInt(filtered.length);
    $("#prev").disabled = pos === 0;
    $("#next").disabled = pos === filtered.length - 1;
    if (!zoomBox(s)) zoom = false;
    $("#zoom-button").disabled = !zoomBox(s);
    $("#zoom-button").textContent = zoom ? "Whole screen" : s.widget ? "Zoom widget" : "Zoom target";
    img.alt = s.key;
    if (img.getAttribute("src") !== s.img) {
      img.classList.add("loading");
      img.src = s.img;
    }
    layout();
    fillPanel(s);
    paintDetailFlag();
    if (location.hash !== "#" + s.key) history.replaceState(null, "", "#" + s.key);
    for (const p of [pos + 1, pos - 1]) {           // preload the neighbours
      if (p >= 0 && p < filtered.length) { const pre = new Image(); pre.src = SAMPLES[filtered[p]].img; }
    }
  }
  img.addEventListener("load", () => img.classList.remove("loading"));
  img.addEventListener("error", () => { img.classList.remove("loading"); toast("Cannot load " + img.getAttribute("src")); });

  function closeDetail() {
    if (current === null) return;
    const key = currentRec().key;
    current = null;
    detail.hidden = true;
    document.body.classList.remove("detail-open");
    history.replaceState(null, "", location.pathname + location.search);
    if (refilterOnClose) { refilterOnClose = false; applyFilters(true); }
    const pos = filtered.findIndex((i) => SAMPLES[i].key === key);
    if (pos >= shown) renderMore(pos - shown + PAGE);
    const card = pos >= 0 ? grid.querySelector('.card[data-pos="' + pos + '"]') : null;
    if (card) {
      card.scrollIntoView({ block: "nearest" });
      card.classList.add("last-seen");
      setTimeout(() => card.classList.remove("last-seen"), 1500);
      card.focus({ preventScroll: true });
    }
  }
  function step(delta) {
    if (current === null) return;
    const pos = current + delta;
    if (pos >= 0 && pos < filtered.length) openDetail(pos);
    else toast(delta > 0 ? "Last sample of this filter" : "First sample of this filter");
  }

  // The region "zoom" shows: the widget, else the targets, else the accept regions.
  function zoomBox(s) {
    if (s.widget) return s.widget;
    const boxes = (s.objects || []).filter((o) => o[1] === "target").map((o) => o[3]);
    if (!boxes.length) for (const st of (s.accept || {}).steps || []) boxes.push(st.region, st.end_region || st.region);
    const real = boxes.filter((b) => b && b[2] > b[0] && b[3] > b[1]);
    if (!real.length) return null;
    return [Math.min(...real.map((b) => b[0])), Math.min(...real.map((b) => b[1])),
            Math.max(...real.map((b) => b[2])), Math.max(...real.map((b) => b[3]))];
  }

  // Scale the image (and the overlay drawn in image pixels) into the stage; zoom shows the widget only.
  function layout() {
    if (current === null) return;
    const s = currentRec();
    const [W, H] = s.size;
    const stage = $("#stage");
    const aw = Math.max(100, stage.clientWidth - 24), ah = Math.max(100, stage.clientHeight - 24);
    let view = [0, 0, W, H];
    const zb = zoom ? zoomBox(s) : null;
    if (zb) {
      const [x0, y0, x1, y1] = zb;
      const pad = Math.max(24, 0.08 * Math.max(x1 - x0, y1 - y0));
      view = [Math.max(0, x0 - pad), Math.max(0, y0 - pad), Math.min(W, x1 + pad), Math.min(H, y1 + pad)];
    }
    const vw = view[2] - view[0], vh = view[3] - view[1];
    scale = Math.min(aw / vw, ah / vh, zoom ? 4 : 1);
    const frame = $("#frame"), canvas = $("#canvas");
    frame.style.width = Math.round(vw * scale) + "px";
    frame.style.height = Math.round(vh * scale) + "px";
    canvas.style.width = W * scale + "px";
    canvas.style.height = H * scale + "px";
    canvas.style.left = -view[0] * scale + "px";
    canvas.style.top = -view[1] * scale + "px";
    overlay.setAttribute("viewBox", "0 0 " + W + " " + H);
    drawOverlay(s);
  }
  window.addEventListener("resize", () => layout());

  function drawOverlay(s) {
    overlay.textContent = "";
    const px = 1 / scale;           // one screen pixel in image pixels
    const g = {};
    // bottom to top
    for (const id of ["accept", "neutral", "widget", "others", "distractors", "targets", "queries", "actions"]) {
      g[id] = svg("g", { class: "layer layer-" + id, "data-layer": id }, overlay);
    }
    const rect = (parent, b, cls, title, grow) => {
      const o = (grow || 0) * px;
      return svg("rect", { x: b[0] - o, y: b[1] - o, width: Math.max(0, b[2] - b[0] + 2 * o),
                           height: Math.max(0, b[3] - b[1] + 2 * o), class: cls, title }, parent);
    };
    const label = (parent, x, y, text, cls) => svg("text", {
      x, y, class: "label " + (cls || ""), "font-size": 13 * px, text }, parent);

    const acc = s.accept || {};
    (acc.steps || []).forEach((st, i) => {
      const n = i + 1;
      if (st.type === "drag") {
        rect(g.accept, st.region, "accept", "step " + n + ": drag start region " + fmtBox(st.region), 3);
        const end = st.end_region || st.region;
        rect(g.accept, end, "accept drag-end", "step " + n + ": drag end region " + fmtBox(end) +
             (st.tolerance ? " (tolerance " + fmtNum(st.tolerance) + ")" : ""), 3);
      } else {
        rect(g.accept, st.region, "accept", "step " + n + ": " + st.type + " region " + fmtBox(st.region) +
             (st.text ? ' text "' + st.text + '"' : ""), 3);
      }
    });
    for (const b of (acc.neutral_regions || []).filter((b) => b[2] > b[0] && b[3] > b[1])) rect(g.neutral, b, "neutral", "neutral region (clicks ignored) " + fmtBox(b), 5);
    if (s.widget) rect(g.widget, s.widget, "widget", "widget " + fmtBox(s.widget), 2);
    for (const o of s.objects || []) {
      const [id, role, lab, bbox, vis] = o;
      const layer = role === "target" ? "targets" : role === "distractor" ? "distractors" : "others";
      const cls = role === "target" ? "target" : role === "distractor" ? "distractor" : "other";
      const r = rect(g[layer], bbox, "obj " + cls, role + " #" + id + (lab ? " · " + lab : "") +
                     (typeof vis === "number" ? " · visible " + Math.round(vis * 100) + "%" : ""));
      r.dataset.id = id;
    }
    // a grounding sample's other queries: their targets, numbered as in the panel
    (s.queries || []).forEach(([kind, style, text, region], i) => {
      if (i === 0 || !region) return;
      rect(g.queries, region, "query", "query " + (i + 1) + " (" + kind + ", " + style + "): " + text).dataset.query = i;
      label(g.queries, region[0], region[1] - 3 * px, "q" + (i + 1), "num");
    });
    // reference actions: numbered rings for clicks, arrows for drags, a tag for typing
    const typeAnchor = () => {
      const st = (acc.steps || []).find((x) => x.type === "type");
      if (st) return st.region;
      const field = (s.objects || []).find((o) => o[1] === "input");
      return field ? field[3] : s.widget;
    };
    (s.actions || []).forEach((a, i) => {
      const n = String(i + 1);
      if (a.type === "click" || a.type === "long_press") {
        const [x, y] = a.point;
        const t = n + ". " + (a.type === "click" ? "click " : "long press " + fmtNum(a.duration) + " s ") + fmtPt(a.point);
        svg("circle", { cx: x, cy: y, r: 9 * px, class: "action-mark click", title: t }, g.actions);
        if (a.type === "long_press") svg("circle", { cx: x, cy: y, r: 14 * px, class: "action-mark ring2" }, g.actions);
        svg("circle", { cx: x, cy: y, r: 1.8 * px, class: "action-dot" }, g.actions);
        label(g.actions, x + 11 * px, y - 9 * px, n, "num");
      } else if (a.type === "drag") {
        const [x0, y0] = a.start, [x1, y1] = a.end;
        const t = n + ". drag " + fmtPt(a.start) + " → " + fmtPt(a.end);
        svg("line", { x1: x0, y1: y0, x2: x1, y2: y1, class: "action-mark drag", title: t }, g.actions);
        svg("circle", { cx: x0, cy: y0, r: 6 * px, class: "action-mark drag-start", title: t }, g.actions);
        const ang = Math.atan2(y1 - y0, x1 - x0), L = 13 * px, Wd = 6 * px;
        const bx = x1 - L * Math.cos(ang), by = y1 - L * Math.sin(ang);
        svg("polygon", { points: [x1, y1, bx + Wd * Math.sin(ang), by - Wd * Math.cos(ang),
                                  bx - Wd * Math.sin(ang), by + Wd * Math.cos(ang)].join(","),
                         class: "action-mark arrow-head", title: t }, g.actions);
        label(g.actions, x0 - 4 * px, y0 - 11 * px, n, "num");
      } else if (a.type === "type") {
        const b = typeAnchor();
        if (b) label(g.actions, b[0] + 4 * px, b[1] - 6 * px, n + ". type “" + a.text + "”", "typed action-mark");
      }
    });
  }

  function section(title, body, extra) {
    return el("section", { class: "sec" }, [el("h3", {}, [title, extra || null]), body]);
  }
  function kv(rows) {
    return el("table", { class: "kv" }, rows.map(([k, v]) => el("tr", {}, [el("th", { text: k }), el("td", {}, v)])));
  }

  function fillPanel(s) {
    const info = $("#info");
    info.textContent = "";
    info.append(el("div", { class: "instruction", text: s.instruction || "(no instruction)" }));

    // answer
    const ans = s.answer || {};
    const ansRows = Object.entries(ans).map(([k, v]) => {
      let shown = Array.isArray(v) ? v.join(", ") : typeof v === "string" ? "“" + v + "”" : fmtNum(v);
      if (k === "angle" && typeof v === "number") shown += "° clockwise";
      return [k, el("span", { class: k === "feasible" && v === false ? "bad" : "answer-value", text: shown })];
    });
    info.append(section("Answer", ansRows.length ? kv(ansRows) : el("div", { class: "muted", text: "—" })));

    // accept rule
    const acc = s.accept || {};
    const steps = acc.steps || [];
    const summary = [steps.length + (steps.length === 1 ? " step" : " steps"),
      acc.order_matters ? "in order" : "any order",
      acc.partial_credit ? "partial credit (F1)" : "all or nothing",
      (acc.neutral_regions || []).length + " neutral"].join(" · ");
    const stepItems = steps.map((st) => {
      let t;
      if (st.type === "drag") t = "drag from " + fmtBox(st.region) + " to " + fmtBox(st.end_region || st.region);
      else if (st.type === "type") t = "type “" + (st.text || "") + "” in " + fmtBox(st.region);
      else t = st.type.replace("_", " ") + " inside " + fmtBox(st.region) + " " + boxSize(st.region);
      if (st.tolerance) t += " ± " + fmtNum(st.tolerance);
      if (st.min_duration) t += ", ≥ " + fmtNum(st.min_duration) + " s";
      return el("li", { text: t });
    });
    info.append(section("Accept", el("div", {}, [el("div", { class: "summary", text: summary }), el("ol", { class: "steps" }, stepItems)])));

    // reference actions
    const acts = (s.actions || []).map((a) => el("li", { text: actionText(a) }));
    info.append(section("Reference actions", el("ol", { class: "steps" }, acts)));

    // an episode's step: what was taken, what it earned, and controls to play the episode
    if (s.episode) {
      const e = s.episode;
      const controls = el("span", { class: "episode-controls" }, [
        el("button", { text: "‹ step", title: "previous step of this episode", onclick: () => episodeStep(-1) }),
        el("button", { text: playing ? "stop" : "play", title: "play the episode from its first step, a step a second", onclick: togglePlay }),
        el("button", { text: "step ›", title: "next step of this episode", onclick: () => episodeStep(1) }),
      ]);
      info.append(section("Episode", kv([
        ["episode", e.id], ["step", (e.step + 1) + " of " + e.steps + (e.time ? " · " + fmtNum(e.time) + " s" : "")],
        ["taken", el("span", { class: e.mistake ? "bad" : "", text: actionText(e.taken) + (e.mistake ? " (mistake)" : "") })],
        ["reward", fmtNum(e.reward) + " (return " + fmtNum(e["return"]) + ")"],
      ]), controls));
    }

    // a grounding sample's queries (hover a row to highlight its target)
    if ((s.queries || []).length > 1) {
      const items = s.queries.map(([kind, style, text, region], i) => el("li", {
        class: region ? "" : "refusal", title: region ? fmtBox(region) : "refusal: the target is absent",
        onmouseenter: () => highlightQuery(i, true), onmouseleave: () => highlightQuery(i, false),
      }, [el("span", { class: "muted", text: kind + " · " + style + (region ? "" : " · absent") + " — " }), text]));
      info.append(section("Queries (" + items.length + ")", el("ol", { class: "steps queries" }, items)));
    }

    // checks
    const ch = s.checks || {};
    const status = el("span", { class: ch.passed ? "ok" : "bad", text: ch.passed ? " ✓ passed" : " ✗ failed" });
    info.append(section("Checks", kv((ch.items || []).map(([n, v]) => [n, fmtNum(v)])), status));

    // sample
    info.append(section("Sample", kv([
      ["family", s.family], ["difficulty", String(s.difficulty)], ["language", s.lang], ["platform", s.platform],
      ["kind", s.kind], ["template", s.template], ["task", s.task || "—"], ["image", s.size.join(" × ")],
    ].map(([k, v]) => [k, String(v)]))));

    // objects (hover a row to highlight its box)
    const rows = (s.objects || []).map(([id, role, lab, bbox, vis]) => el("tr", {
      dataset: { id: String(id) },
      onmouseenter: () => highlight(id, true), onmouseleave: () => highlight(id, false),
    }, [
      el("td", { text: String(id) }),
      el("td", {}, [el("span", { class: "dot " + role }), role]),
      el("td", { text: lab }),
      el("td", { class: "num", text: typeof vis === "number" ? Math.round(vis * 100) + "%" : "" }),
    ]));
    const det = el("details", { class: "sec objects" }, [
      el("summary", { text: "Objects (" + rows.length + ")" }),
      el("table", { class: "objtable" }, [el("tr", {}, ["id", "role", "label", "visible"].map((h) => el("th", { text: h }))), ...rows]),
    ]);
    det.open = !!prefs.objectsOpen;
    det.addEventListener("toggle", () => { prefs.objectsOpen = det.open; storeJSON(PREF_STORE, Object.assign(loadJSON(PREF_STORE, {}), { objectsOpen: det.open })); });
    info.append(det);
  }
  function actionText(a) {
    if (a.type === "click") return "click " + fmtPt(a.point);
    if (a.type === "long_press") return "long press " + fmtPt(a.point) + " " + fmtNum(a.duration) + " s";
    if (a.type === "drag") return "drag " + fmtPt(a.start) + " → " + fmtPt(a.end);
    if (a.type === "type") return "type “" + a.text + "”";
    return a.type;
  }

  // Episode steps are samples of their own; these move between the steps of the open sample's episode.
  let playing = null;
  function episodeStep(delta) {
    const e = currentRec() && currentRec().episode;
    const pos = current + delta;
    const next = pos >= 0 && pos < filtered.length ? SAMPLES[filtered[pos]] : null;
    if (!e || !next || !next.episode || next.episode.id !== e.id) {
      stopPlay();
      return false;
    }
    openDetail(pos);
    return true;
  }
  function stopPlay() {
    if (playing) { clearTimeout(playing); playing = null; if (current !== null) fillPanel(currentRec()); }
  }
  // Play from the episode's first step: an animated step shows its frames at their own pace (the time
  // between them), a still step stays a second.
  function togglePlay() {
    if (playing) { stopPlay(); return; }
    while (episodeStep(-1)) { /* back to the episode's first step */ }
    playing = true;
    fillPanel(currentRec());
    playFrames(0);
  }
  function playFrames(k) {
    if (!playing || current === null) return;
    const frames = currentRec().frames || [];
    if (k < frames.length) {
      img.src = frames[k][0];
      const next = k + 1 < frames.length ? frames[k + 1][1] - frames[k][1] : 0;
      playing = setTimeout(() => playFrames(k + 1), Math.max(next, frames.length > 1 ? 0.1 : 1) * 1000);
      return;
    }
    playing = setTimeout(() => { if (episodeStep(1)) playFrames(0); else stopPlay(); }, frames.length ? 0 : 1000);
  }

  function highlightQuery(i, on) {
    const r = i === 0 ? overlay.querySelector("rect.accept") : overlay.querySelector('rect.query[data-query="' + i + '"]');
    if (r) r.classList.toggle("hl", on);
  }
  function highlight(id, on) {
    const r = overlay.querySelector('rect.obj[data-id="' + id + '"]');
    if (r) r.classList.toggle("hl", on);
  }
  function paintDetailFlag() {
    const s = currentRec();
    const b = $("#detail-flag");
    b.hidden = !(s.key in flags);
    b.textContent = s.key in flags ? "⚑ " + flags[s.key] : "";
    $("#flag-button").textContent = s.key in flags ? "Edit flag…" : "Flag…";
  }

  // ------------------------------------------------------------------ flag dialog
  const dialog = $("#flag-dialog");
  let chosen = null;
  function buildReasons() {
    const box = $("#reasons");
    REASONS.forEach((r, i) => {
      box.append(el("button", { type: "button", class: "reason", "data-reason": r, onclick: () => choose(r) },
        [el("kbd", { text: String(i + 1) }), " " + r]));
    });
  }
  function choose(r) {
    chosen = r;
    for (const b of document.querySelectorAll("#reasons .reason")) b.classList.toggle("chosen", b.dataset.reason === r);
    $("#flag-save").disabled = false;
  }
  function openFlagDialog() {
    if (current === null) return;
    const key = currentRec().key;
    $("#flag-key").textContent = key;
    const old = flags[key];
    let reason = null, note = "";
    if (old !== undefined) {
      reason = REASONS.find((r) => old === r || old.startsWith(r + ": ")) || "other";
      note = old === reason ? "" : old.startsWith(reason + ": ") ? old.slice(reason.length + 2) : old;
    }
    chosen = null;
    for (const b of document.querySelectorAll("#reasons .reason")) b.classList.remove("chosen");
    $("#flag-save").disabled = true;
    if (reason) choose(reason);
    $("#flag-note").value = note;
    $("#unflag").hidden = old === undefined;
    dialog.hidden = false;
    $("#flag-form").focus();
  }
  function closeFlagDialog() {
    if (dialog.contains(document.activeElement)) document.activeElement.blur();
    dialog.hidden = true;
  }
  $("#flag-form").setAttribute("tabindex", "-1");
  $("#flag-form").addEventListener("submit", (ev) => {
    ev.preventDefault();
    if (!chosen || current === null) return;
    const note = $("#flag-note").value.trim();
    const key = currentRec().key;
    setFlag(key, note ? chosen + ": " + note : chosen);
    closeFlagDialog();
    toast("Flagged " + key + " (" + flags[key] + ")");
  });
  $("#flag-cancel").addEventListener("click", closeFlagDialog);
  $("#unflag").addEventListener("click", () => {
    if (current !== null) { const key = currentRec().key; setFlag(key, null); toast("Removed the flag of " + key); }
    closeFlagDialog();
  });
  dialog.addEventListener("mousedown", (ev) => { if (ev.target === dialog) closeFlagDialog(); });

  // ------------------------------------------------------------------ stats view
  function crosstab(rowField, colField) {
    const rows = new Map(), cols = new Set();
    for (const s of SAMPLES) {
      const r = s[rowField], c = s[colField];
      cols.add(c);
      if (!rows.has(r)) rows.set(r, new Map());
      const m = rows.get(r);
      m.set(c, (m.get(c) || 0) + 1);
    }
    const sortv = (a, b) => (typeof a === "number" && typeof b === "number" ? a - b : String(a).localeCompare(String(b)));
    const colList = [...cols].sort(sortv);
    const head = el("tr", {}, [el("th", { text: rowField + " \\ " + colField }), ...colList.map((c) => el("th", { text: String(c) })), el("th", { text: "total" })]);
    const body = [...rows.keys()].sort(sortv).map((r) => {
      const m = rows.get(r);
      let t = 0;
      const cells = colList.map((c) => { const v = m.get(c) || 0; t += v; return el("td", { class: "num", text: v ? fmtInt(v) : "·" }); });
      return el("tr", {}, [el("th", { text: String(r) }), ...cells, el("td", { class: "num total", text: fmtInt(t) })]);
    });
    return el("table", { class: "crosstab" }, [head, ...body]);
  }
  function renderStats() {
    const charts = $("#charts");
    charts.textContent = "";
    const list = META.charts || [];
    if (list.length) {
      charts.append(el("h2", { text: "Charts" }));
      for (const c of list) {
        charts.append(el("figure", { class: "chart" }, [
          el("a", { href: c, target: "_blank", title: "open full size" }, el("img", { src: c, alt: c, loading: "lazy" })),
          el("figcaption", { text: c.replace(/^stats\//, "") }),
        ]));
      }
    } else {
      charts.append(el("p", { class: "muted", text: "No charts in this gallery (pass chart PNGs to build_gallery(charts=...))." }));
    }
    const tables = $("#tables");
    tables.textContent = "";
    tables.append(el("h2", { text: "Counts in this gallery (" + fmtInt(SAMPLES.length) + " samples)" }));
    const wrap = el("div", { class: "tables" });
    wrap.append(crosstab("family", "difficulty"), crosstab("family", "platform"), crosstab("family", "lang"));
    if (SAMPLES.some((s) => s.task)) wrap.append(crosstab("task", "family"));
    const reasons = {};
    for (const [k, r] of Object.entries(flags)) {
      const base = REASONS.find((x) => r === x || r.startsWith(x + ": ")) || "other";
      reasons[base] = (reasons[base] || 0) + 1;
    }
    const fr = Object.entries(reasons);
    wrap.append(el("table", { class: "crosstab" }, [
      el("tr", {}, [el("th", { text: "flag reason" }), el("th", { text: "flags" })]),
      ...(fr.length ? fr.map(([r, n]) => el("tr", {}, [el("th", { text: r }), el("td", { class: "num", text: String(n) })]))
        : [el("tr", {}, [el("td", { colspan: "2", class: "muted", text: "no flags yet" })])]),
    ]));
    tables.append(wrap);
  }
  function showView(name) {
    for (const b of document.querySelectorAll("#views .tab")) b.classList.toggle("active", b.dataset.view === name);
    $("#grid-view").hidden = name !== "grid";
    $("#stats-view").hidden = name !== "stats";
    if (name === "stats") renderStats();
  }
  for (const b of document.querySelectorAll("#views .tab")) b.addEventListener("click", () => showView(b.dataset.view));

  // ------------------------------------------------------------------ keyboard
  const help = $("#help");
  function toggleHelp(on) { help.hidden = !on; }
  $("#help-button").addEventListener("click", () => toggleHelp(help.hidden));
  $("#help-close").addEventListener("click", () => toggleHelp(false));
  help.addEventListener("mousedown", (ev) => { if (ev.target === help) toggleHelp(false); });

  document.addEventListener("keydown", (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const k = ev.key;
    const typing = ev.target.matches && ev.target.matches("input[type=text], input[type=search], textarea");
    if (!dialog.hidden) {
      if (k === "Escape") { ev.preventDefault(); closeFlagDialog(); }
      else if (k === "Enter" && !typing && !ev.target.matches("button")) { ev.preventDefault(); $("#flag-form").requestSubmit(); }
      else if (!typing && /^[1-9]$/.test(k) && Number(k) <= REASONS.length) { ev.preventDefault(); choose(REASONS[Number(k) - 1]); }
      return;
    }
    if (!help.hidden) {
      if (k === "Escape" || k === "?") { ev.preventDefault(); toggleHelp(false); }
      return;
    }
    if (typing || (ev.target.matches && ev.target.matches("select"))) {
      if (k === "Escape") ev.target.blur();
      return;
    }
    if (k === "?") { ev.preventDefault(); toggleHelp(true); return; }
    if (current === null) {
      if (k === "/") { ev.preventDefault(); showView("grid"); search.focus(); }
      return;
    }
    const layerKey = /^[1-9]$/.test(k) ? Number(k) - 1 : -1;
    if (k === "ArrowRight" || k === "j") { ev.preventDefault(); step(1); }
    else if (k === "ArrowLeft" || k === "k") { ev.preventDefault(); step(-1); }
    else if (k === "Escape") { ev.preventDefault(); closeDetail(); }
    else if (k === "o") setOverlays(!overlaysOn);
    else if (k === "f") { ev.preventDefault(); openFlagDialog(); }
    else if (k === "z") toggleZoom();
    else if (layerKey >= 0 && layerKey < LAYERS.length) setLayer(LAYERS[layerKey].id, !layerOn[LAYERS[layerKey].id]);
  });

  function toggleZoom() {
    if (current === null || !zoomBox(currentRec())) return;
    zoom = !zoom;
    $("#zoom-button").textContent = zoom ? "Whole screen" : currentRec().widget ? "Zoom widget" : "Zoom target";
    layout();
  }
  $("#prev").addEventListener("click", () => step(-1));
  $("#next").addEventListener("click", () => step(1));
  $("#close").addEventListener("click", closeDetail);
  $("#flag-button").addEventListener("click", openFlagDialog);
  $("#zoom-button").addEventListener("click", toggleZoom);
  $("#stage").addEventListener("click", (ev) => { if (ev.target.id === "stage") closeDetail(); });
  $("#export-flags").addEventListener("click", exportFlags);

  function openFromHash() {
    const key = decodeURIComponent(location.hash.slice(1));
    if (!key) return;
    let pos = filtered.findIndex((i) => SAMPLES[i].key === key);
    if (pos < 0) {
      for (const sel of Object.values(selects)) sel.value = "";
      flagFilter.value = ""; search.value = "";
      applyFilters();
      pos = filtered.findIndex((i) => SAMPLES[i].key === key);
    }
    if (pos >= 0) openDetail(pos);
  }
  window.addEventListener("hashchange", () => {
    const key = decodeURIComponent(location.hash.slice(1));
    if (key && (current === null || currentRec().key !== key)) openFromHash();
  });

  // ------------------------------------------------------------------ start
  document.title = META.title || document.title;
  $("#dataset-name").textContent = (META.dataset || "").split(/[\\/]/).filter(Boolean).pop() || "";
  $("#dataset-name").title = META.dataset || "";
  buildFilters();
  buildLayerControls();
  buildReasons();
  paintLayers();
  updateFlagCount();
  applyFilters();
  openFromHash();
  window.synthGallery = { flags, samples: SAMPLES, open: (key) => { location.hash = key; } };
})();
