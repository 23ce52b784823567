() => {
  // The grounding harvester, one for every page: the interactive elements of the page found by tag and ARIA role
  // (links, buttons, fields, selects, checkboxes, tabs, menu items, icons, images), with `data-g` marks taken as
  // hints (role, icon, function, field, sample value), so that an element marked data-g, and anything inside or
  // around it, is the marked element alone. Each comes with its box, its accessible name (`name`), the text drawn
  // inside it (`text`: only text that is rendered there, not clipped, not covered, so an instruction that quotes
  // it quotes what the screenshot shows), and whether it is the element hit at its centre and near its corners
  // (visible, not covered or clipped). Also: the count of each visible text on the page, the icons drawn by
  // elements that are not targets, the boxes of icons and pictures outside every element, every icon painted
  // (`icons`: key, box, holder), every icon key drawn (`data-icon`, `data-g-icon`), and the document's language;
  // all as one JSON string.
  const vw = window.innerWidth, vh = window.innerHeight;
  const clean = s => (s || '').replace(/\s+/g, ' ').trim();
  const hits = (el, x, y) => { const h = document.elementFromPoint(x, y); return !!h && (h === el || el.contains(h)); };
  const texts = {}, shownNodes = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const t = clean(n.textContent);
    const p = n.parentElement;
    if (t && p && p.getClientRects().length && getComputedStyle(p).visibility !== 'hidden') {
      texts[t] = (texts[t] || 0) + 1;
      shownNodes.push([t, n, p]);
    }
  }
  // an element's place in the document: the ids of its ancestors and itself, from the root down
  const ids = new Map();
  const pathOf = el => { const path = []; for (let e = el; e; e = e.parentElement) {
    if (!ids.has(e)) ids.set(e, ids.size); path.push(ids.get(e)); } return path.reverse(); };
  const KIND = 'a[href], button, input:not([type=hidden]), select, textarea, summary, img[alt]:not([alt=""]), ' +
    '[role=button], [role=link], [role=tab], [role=menuitem], [role=menuitemcheckbox], [role=menuitemradio], ' +
    '[role=checkbox], [role=switch], [role=radio]';
  const drawn = el => {
    if (!el.getClientRects().length) return false;
    const r = el.getBoundingClientRect(), s = getComputedStyle(el);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && parseFloat(s.opacity) > 0;
  };
  // the text rendered inside `el`: every text node inside its box and shown at its centre; '' if any is not
  const shownText = el => {
    const r = el.getBoundingClientRect(), parts = [];
    const w = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    for (let n = w.nextNode(); n; n = w.nextNode()) {
      const t = clean(n.textContent), p = n.parentElement;
      if (!t || !p.getClientRects().length || getComputedStyle(p).visibility === 'hidden') continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      const b = range.getBoundingClientRect();
      if (b.width < 1 || b.left < r.left - 1 || b.right > r.right + 1 || b.top < r.top - 1 || b.bottom > r.bottom + 1
          || !hits(p, (b.left + b.right) / 2, (b.top + b.bottom) / 2)) return '';
      parts.push(t);
    }
    return clean(parts.join(' '));
  };
  const byIds = ids => clean(ids.split(/\s+/).map(id => { const e = document.getElementById(id); return e ? e.textContent : ''; }).join(' '));
  const labelOf = el => {
    if (el.id) { const l = document.querySelector(`label[for="${CSS.escape(el.id)}"]`); if (l) return clean(l.textContent); }
    const l = el.closest('label');
    return l ? clean(l.textContent) : '';
  };
  const nameOf = (el, shown) => clean(
    (el.getAttribute('aria-labelledby') && byIds(el.getAttribute('aria-labelledby'))) || el.getAttribute('aria-label') ||
    (/^(INPUT|SELECT|TEXTAREA)$/.test(el.tagName) && labelOf(el)) || (el.tagName === 'IMG' && el.getAttribute('alt')) ||
    shown || clean(el.textContent) || el.getAttribute('title') || el.getAttribute('placeholder') ||
    (el.querySelector('img[alt]') || {getAttribute: () => ''}).getAttribute('alt') || '');
  const TEXTUAL = /^(text|search|email|url|tel|password|number|)$/;
  const roleOf = (el, shown) => {
    const role = el.getAttribute('role') || '', tag = el.tagName, type = (el.getAttribute('type') || '').toLowerCase();
    if (tag === 'INPUT' && (type === 'checkbox' || type === 'radio') || /^(checkbox|switch|radio)$/.test(role)) return 'checkbox';
    if (role === 'tab') return 'tab';
    if (role.startsWith('menuitem')) return 'menuitem';
    if (tag === 'SELECT') return 'select';
    if (tag === 'TEXTAREA' || tag === 'INPUT' && TEXTUAL.test(type)) return 'input';
    if (tag === 'IMG') return 'image';
    if (!shown && el.querySelector('svg, img, i')) return 'icon';
    return tag === 'A' || role === 'link' ? 'link' : 'button';
  };
  const FIELD = {email: 'email', password: 'password', search: 'search', tel: 'phone'};
  // the text `el` draws in `box`: a field's value or placeholder, a select's chosen option, a button's value,
  // else the text rendered inside (an icon button's aria-label is its name, not its text)
  const drawnText = (el, box) => {
    const type = (el.getAttribute('type') || '').toLowerCase();
    if (el.tagName === 'SELECT') return clean(el.selectedOptions.length ? el.selectedOptions[0].textContent : '');
    if (el.tagName === 'INPUT' && /^(button|submit|reset)$/.test(type)) return clean(el.value);
    if (el.tagName === 'INPUT' && TEXTUAL.test(type) && type !== 'password' || el.tagName === 'TEXTAREA')
      return clean(el.value || el.getAttribute('placeholder'));
    return box === el && /^(INPUT|IMG)$/.test(el.tagName) ? '' : shownText(box);
  };
  const marked = Array.from(document.querySelectorAll('[data-g]'));
  const found = marked.map(el => [el, el.dataset.g, drawnText(el, el)]);
  for (const el of document.querySelectorAll(KIND)) {
    if (el.closest('[data-g]') || el.querySelector('[data-g]') || (el.parentElement && el.parentElement.closest(KIND))) continue;
    const type = (el.getAttribute('type') || '').toLowerCase();
    // a checkbox or radio inside its <label> is the label: its text is drawn there, and a click on it checks the box
    const box = el.tagName === 'INPUT' && (type === 'checkbox' || type === 'radio') && el.closest('label') || el;
    if (!drawn(box)) continue;
    const shown = drawnText(el, box);
    found.push([box, roleOf(el, shown), shown, el]);
  }
  const els = found.map(([el, role, text, source], i) => {
    source = source || el;
    const r = el.getBoundingClientRect();
    const cx = (r.left + r.right) / 2, cy = (r.top + r.bottom) / 2;
    const ix = Math.min(r.width, r.height) * 0.3, iy = ix;   // inside the rounded corners of pills and circles
    const type = (source.getAttribute('type') || '').toLowerCase();
    return {index: i, role, box: [r.left, r.top, r.right, r.bottom], text, name: nameOf(source, text), path: pathOf(el),
            icon: el.dataset.gIcon || '', fn: el.dataset.gFn || '',
            field: el.dataset.gField || (el.dataset.g ? '' : FIELD[type] || ''),
            sample: el.dataset.gSample || '', placeholder: source.getAttribute('placeholder') || '',
            centre_hit: hits(el, cx, cy),
            corners_hit: [[r.left + ix, r.top + iy], [r.right - ix, r.top + iy], [r.left + ix, r.bottom - iy],
                          [r.right - ix, r.bottom - iy]].every(([x, y]) => x >= 0 && y >= 0 && x < vw && y < vh && hits(el, x, y)),
            nine_hit: [r.left + ix, cx, r.right - ix].every(x => [r.top + iy, cy, r.bottom - iy].every(
              y => x >= 0 && y >= 0 && x < vw && y < vh && hits(el, x, y))),
            in_viewport: r.left >= 0 && r.top >= 0 && r.right <= vw && r.bottom <= vh};
  });
  // --- panels and painted icons (self-contained: needs `found`, `els`, `ids`, `drawn`, `clean`, vw, vh) ---
  // An element's panel: its nearest ancestor that sets a part of the screen apart (a nav, list, table, form,
  // toolbar, dialog..., or a box that draws its own edge: a border, a shadow, a background unlike the one
  // behind it) and holds more than the element itself; a relation's anchor and target share their panel.
  const PANEL_TAGS = /^(NAV|HEADER|FOOTER|ASIDE|MAIN|FORM|UL|OL|TABLE|SECTION|DIALOG|FIELDSET|MENU)$/;
  const PANEL_ROLES = /^(toolbar|list|listbox|menu|menubar|tablist|navigation|dialog|region|group|grid|table|tabpanel|tree|banner|contentinfo|complementary|main|search)$/;
  const holdsCount = new Map();   // per ancestor: harvested elements and loose drawn texts inside it
  const countUp = e => { for (let a = e.parentElement; a; a = a.parentElement) holdsCount.set(a, (holdsCount.get(a) || 0) + 1); };
  found.forEach(f => countUp(f[0]));
  for (const [, , p] of shownNodes) if (!found.some(f => f[0].contains(p))) countUp(p);
  const opaque = c => { const m = c.match(/[\d.]+/g); return !!m && (m.length < 4 || parseFloat(m[3]) > 0.05); };
  const backdrop = e => { for (let a = e; a; a = a.parentElement) { const c = getComputedStyle(a).backgroundColor;
    if (opaque(c)) return c; } return 'rgb(255, 255, 255)'; };
  const edges = new Map();
  const edged = e => { if (!edges.has(e)) edges.set(e, edgedNow(e)); return edges.get(e); };
  const edgedNow = e => {
    const s = getComputedStyle(e);
    if (['Top', 'Right', 'Bottom', 'Left'].some(k => parseFloat(s['border' + k + 'Width']) > 0 &&
        !/none|hidden/.test(s['border' + k + 'Style']) && opaque(s['border' + k + 'Color']))) return true;
    if (s.boxShadow !== 'none' || s.backgroundImage !== 'none') return true;
    return opaque(s.backgroundColor) && e.parentElement && s.backgroundColor !== backdrop(e.parentElement);
  };
  const panelOf = el => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement)
      if ((holdsCount.get(a) || 0) >= 2 && (PANEL_TAGS.test(a.tagName) || PANEL_ROLES.test(a.getAttribute('role') || '') || edged(a)))
        return ids.has(a) ? ids.get(a) : (ids.set(a, ids.size), ids.get(a));
    return -1;
  };
  els.forEach((e, i) => { e.panel = panelOf(found[i][0]); });
  // Every icon painted on screen, once per drawing: outermost <svg>s, small pictures, and empty elements that
  // paint a glyph by CSS (an icon font, a mask, a background picture); with the key of what it shows (its
  // data-icon, else its holder's data-g-icon; '' when the page does not say), its box, and the harvested
  // element that holds it (-1: none). An icon description must fit one of them only.
  const ICON_FONT = /icon|awesome|material|symbol/i;
  const glyph = e => {
    if (e.childElementCount) return false;
    for (const pseudo of ['::before', '::after']) {
      const s = getComputedStyle(e, pseudo);
      if (s.content && !/^(none|normal|""|'')$/.test(s.content) && ICON_FONT.test(s.fontFamily)) return true;
    }
    const s = getComputedStyle(e);
    return ICON_FONT.test(s.fontFamily) && !!clean(e.textContent) || /url\(/.test(s.maskImage || s.webkitMaskImage || '')
      || /url\(/.test(s.backgroundImage);
  };
  const holderIndex = e => { let best = -1;
    found.forEach((f, i) => { if (f[0].contains(e) && (best < 0 || found[best][0].contains(f[0]))) best = i; }); return best; };
  const icons = [];
  for (const e of document.body.querySelectorAll('*')) {
    const tag = e.tagName.toLowerCase();
    if (e.ownerSVGElement) continue;
    const r = e.getBoundingClientRect();
    const small = r.width <= 64 && r.height <= 64 && r.width >= 4 && r.height >= 4;
    // pictures (<img>: avatars, thumbnails) and big drawings (charts, maps) are no icons unless marked as one
    const isIcon = small && (tag === 'svg' || e.dataset.icon || e.dataset.gIcon || tag !== 'img' && glyph(e));
    if (!isIcon || !drawn(e) || r.right <= 0 || r.bottom <= 0 || r.left >= vw || r.top >= vh) continue;
    const owner = e.closest('[data-g-icon]');
    icons.push({key: e.dataset.icon || e.dataset.gIcon || (owner ? owner.dataset.gIcon : ''),
                box: [r.left, r.top, r.right, r.bottom], holder: holderIndex(e)});
  }
  for (const e of document.querySelectorAll('[data-g-icon]')) {   // keyed drawings of no <svg> or glyph found above
    const r = e.getBoundingClientRect();
    if (drawn(e) && r.right > 0 && r.bottom > 0 && r.left < vw && r.top < vh
        && !icons.some(i => i.box[0] >= r.left - 1 && i.box[1] >= r.top - 1 && i.box[2] <= r.right + 1 && i.box[3] <= r.bottom + 1))
      icons.push({key: e.dataset.gIcon, box: [r.left, r.top, r.right, r.bottom], holder: holderIndex(e)});
  }
  // what else is drawn on screen that a person could take for a control: icons and pictures outside every element
  const holders = found.map(f => f[0]), marks = [];
  for (const el of document.querySelectorAll('svg, img, i, [role=img], [data-g-icon]')) {
    if (el.ownerSVGElement || !drawn(el) || holders.some(h => h.contains(el))) continue;
    const r = el.getBoundingClientRect();
    if (r.right > 0 && r.bottom > 0 && r.left < vw && r.top < vh) marks.push([r.left, r.top, r.right, r.bottom]);
  }
  // texts drawn once on the page and seen where they are drawn, with their boxes and places (row anchors)
  const labels = [];
  for (const [t, n, p] of shownNodes) {
    if (texts[t] !== 1) continue;
    const range = document.createRange();
    range.selectNodeContents(n);
    const b = range.getBoundingClientRect();
    if (b.width >= 1 && b.left >= 0 && b.top >= 0 && b.right <= vw && b.bottom <= vh && hits(p, (b.left + b.right) / 2, (b.top + b.bottom) / 2))
      labels.push({text: t, box: [b.left, b.top, b.right, b.bottom], path: pathOf(p), panel: panelOf(n)});
  }
  const drawnIcons = {};   // every icon key drawn on the page (synth.screens.icons marks its drawings)
  for (const el of document.querySelectorAll('svg[data-icon], [data-g-icon]'))
    if (el.getClientRects().length) { const k = el.dataset.icon || el.dataset.gIcon; drawnIcons[k] = (drawnIcons[k] || 0) + 1; }
  const decor = {};   // icons drawn on the page that are not targets themselves
  for (const el of document.querySelectorAll('[data-g-icon]:not([data-g])'))
    if (el.getClientRects().length) decor[el.dataset.gIcon] = (decor[el.dataset.gIcon] || 0) + 1;
  // as one JSON string: Playwright checks a returned object value by value, ~20 ms for a page's harvest
  return JSON.stringify({elements: els, texts, labels, decor, marks, icons, shown: drawnIcons, lang: document.documentElement.lang || ''});
}
