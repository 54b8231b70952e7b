'use strict';
// The report page's script. Its pure part (`RcptReportCore`: text made visible, base64 characters ↔ decoded bytes,
// the virtual scroll's arithmetic) touches no page, so Node unit-tests it (Tests/Report/report-core.test.js); the
// rest reads the `rcpt-data` element and draws.
const RcptReportCore = (function () {
  // Rows are ROW pixels tall; a view is never made taller than MAXPX pixels (browsers cap an element's height), so
  // more rows than fit scroll at a scale.
  const ROW = 18, MAXPX = 8000000;
  // Control characters, bidirectional overrides and invisible marks are shown as their code point, ⟨U+202E⟩ (no
  // backslash: literal text "\\u{202e}" stays distinguishable from the character).
  const INVISIBLE = /[\u0000-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0]/g;
  function visible(s) {
    return String(s).replace(INVISIBLE, (c) => '⟨U+' + c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0') + '⟩');
  }
  function clip(s, n) { s = String(s); return s.length > n ? s.slice(0, n) + '…' : s; }
  function hex2(b) { return (b < 16 ? '0' : '') + b.toString(16); }
  function hexOf(bytes, from, to) { let s = ''; for (let i = from; i < to; i++) s += hex2(bytes[i]); return s; }
  function utc(seconds) { return new Date(seconds * 1000).toISOString().replace('.000Z', 'Z'); }
  function utcMs(ms) { return new Date(ms).toISOString().replace('.000Z', 'Z'); }
  // Base64 characters and decoded bytes, both ways: byte i starts at character 4⌊i/3⌋ + i mod 3.
  function charOfByte(i) { return Math.floor(i / 3) * 4 + (i % 3); }
  function byteOfChar(j) { return Math.floor(j / 4) * 3 + Math.max(0, (j % 4) - 1); }

  // ---- virtual scrolling over more rows than a page can be tall ----
  // The spacer's height for `count` rows.
  function spacerHeight(count) { return Math.min(count * ROW, MAXPX); }
  // Rows per pixel scrolled, over ROW: 1 until the rows are taller than MAXPX, then what maps the scrollable
  // height onto every row.
  function scrollScale(count, room) {
    const total = count * ROW;
    return total > MAXPX ? (total - room) / Math.max(1, MAXPX - room) : 1;
  }
  // The rows to draw for a view `room` pixels tall scrolled to `top`: first, and one past the last.
  function rowsShown(count, room, top) {
    const first = Math.max(0, Math.floor(top * scrollScale(count, room) / ROW));
    return { first, end: Math.min(count, first + Math.ceil(room / ROW) + 1) };
  }
  // The scroll position that shows `row` two rows below the top, or null when it is in view at `top` already.
  function topShowing(row, count, room, top) {
    const scale = scrollScale(count, room), first = Math.floor(top * scale / ROW), shown = Math.floor(room / ROW);
    if (row >= first && row < first + shown - 1) return null;
    const most = Math.max(0, spacerHeight(count) - room);
    return Math.max(0, Math.min((row - 2) * ROW / scale, most));
  }

  return { ROW, MAXPX, visible, clip, hex2, hexOf, utc, utcMs, charOfByte, byteOfChar, spacerHeight, scrollScale,
           rowsShown, topShowing };
})();

if (typeof module === 'object' && module.exports) module.exports = RcptReportCore;

if (typeof document === 'object') (function () {
  const { ROW, visible, clip, hex2, hexOf, utc, utcMs, charOfByte, byteOfChar, spacerHeight, rowsShown,
          topShowing } = RcptReportCore;
  const data = JSON.parse(document.getElementById('rcpt-data').textContent);
  const BYTES_PER_ROW = 16;
  const labels = data.labels;

  // ---- helpers: elements and text, never markup ----
  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  const SVGNS = 'http://www.w3.org/2000/svg';
  function svgEl(tag, attrs, text) {
    const e = document.createElementNS(SVGNS, tag);
    for (const k of Object.keys(attrs || {})) e.setAttribute(k, String(attrs[k]));
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function decodeBase64(text) {
    const bin = atob(text);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  const utf8 = new TextDecoder('utf-8', { fatal: false });

  // Decoded bytes the data does not repeat: their base64 or base64url text, in a space read before them.
  const decodedSpaces = [];
  function decodeSource(source) {
    const from = decodedSpaces[source.space];
    if (!from) return new Uint8Array(0);
    const chars = from.bytes.subarray(source.start, source.start + source.length);
    let text = '';
    for (let k = 0; k < chars.length; k += 8192) text += String.fromCharCode.apply(null, chars.subarray(k, k + 8192));
    if (source.alphabet === 'base64url') {
      text = text.replace(/-/g, '+').replace(/_/g, '/');
      while (text.length % 4) text += '=';
    }
    try { return decodeBase64(text); } catch (e) { return new Uint8Array(0); }
  }

  // ---- spaces: bytes and nodes ----
  const spaces = data.spaces.map((s, index) => {
    const packed = decodeBase64(s.nodes), n = s.nodeCount;
    let at = 0;
    // Unsigned LEB128, as many as 5 groups of 7 bits (offsets stay below 2^31).
    function varint() {
      let value = 0, shift = 0, byte = 0;
      do { byte = packed[at++] || 0; value += (byte & 0x7f) * Math.pow(2, shift); shift += 7; } while (byte & 0x80 && shift < 49);
      return value;
    }
    const sp = {
      index, label: s.label, kind: s.kind, source: s.source, bytes: s.bytes === null ? decodeSource(s.source) : decodeBase64(s.bytes), n,
      start: new Int32Array(n), end: new Int32Array(n), header: new Int32Array(n), lab: new Int32Array(n),
      parent: new Int32Array(n), next: new Int32Array(n), depth: new Uint16Array(n), kids: new Int32Array(n),
      expanded: new Uint8Array(n), links: new Map(), marks: new Map(), nodeMarks: new Map(), linkedFrom: null,
    };
    const stNode = [-1], stLeft = [Infinity], stCursor = [0];
    for (let i = 0; i < n; i++) {
      const k = varint(), zig = varint(), h = varint(), len = varint(), lab = varint();
      const gap = zig % 2 === 0 ? zig / 2 : -(zig + 1) / 2;
      while (stLeft[stLeft.length - 1] === 0) {
        const done = stNode.pop(); stLeft.pop(); stCursor.pop();
        if (done >= 0) sp.next[done] = i;
      }
      const top = stNode.length - 1;
      const st = stCursor[top] + gap;
      sp.start[i] = st; sp.end[i] = st + len; sp.header[i] = h; sp.lab[i] = lab;
      sp.parent[i] = stNode[top]; sp.kids[i] = k; sp.depth[i] = Math.min(top, 65535);
      stLeft[top]--; stCursor[top] = st + len;
      if (k > 0) { stNode.push(i); stLeft.push(k); stCursor.push(st + h); } else { sp.next[i] = i + 1; }
    }
    while (stNode.length > 1) { const done = stNode.pop(); stLeft.pop(); stCursor.pop(); sp.next[done] = n; }
    decodedSpaces[index] = sp;
    return sp;
  });

  // The innermost node of a space that holds byte `o` (-1 when none does). A node's children are found by binary
  // search over their starts (siblings are in byte order), so a payload of 100 000 records costs 17 steps a level.
  const childLists = new Map();
  function childrenOf(sp, p) {
    const key = sp.index + ':' + p;
    let list = childLists.get(key);
    if (list) return list;
    const kids = [];
    for (let i = p < 0 ? 0 : p + 1, end = p < 0 ? sp.n : sp.next[p]; i < end; i = sp.next[i]) kids.push(i);
    list = Int32Array.from(kids);
    childLists.set(key, list);
    return list;
  }
  function innermost(sp, o) {
    let found = -1;
    for (let guard = 0; guard < 4096; guard++) {
      const kids = childrenOf(sp, found);
      let lo = 0, hi = kids.length - 1, hit = -1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1, k = kids[mid];
        if (sp.start[k] > o) hi = mid - 1;
        else { if (o < sp.end[k]) hit = k; lo = mid + 1; }
      }
      // Zero-length and overlapping siblings: the last one starting at or before o that still holds it.
      if (hit < 0) {
        for (let m = Math.min(lo, kids.length) - 1; m >= 0 && m >= lo - 8; m--) {
          const k = kids[m];
          if (sp.start[k] <= o && o < sp.end[k]) { hit = k; break; }
        }
      }
      if (hit < 0) return found;
      found = hit;
    }
    return found;
  }
  // The outermost node spanning exactly [from, to), or the innermost holding it.
  function spanning(sp, from, to) {
    let i = 0, end = sp.n, best = -1;
    while (i < end) {
      if (sp.start[i] <= from && to <= sp.end[i] && sp.end[i] > sp.start[i]) {
        if (sp.start[i] === from && sp.end[i] === to) return i;
        best = i; end = sp.next[i]; i++;
      } else { i = sp.next[i]; }
    }
    return best;
  }

  // A decoded space hangs under the node of its source text (a part, an x5c string).
  for (const sp of spaces) {
    if (!sp.source || sp.source.space < 0 || sp.source.space >= spaces.length || sp.source.space === sp.index) continue;
    const holder = spaces[sp.source.space];
    const node = spanning(holder, sp.source.start, sp.source.start + sp.source.length);
    if (node >= 0 && !holder.links.has(node)) { holder.links.set(node, sp.index); sp.linkedFrom = { space: holder.index, node }; }
  }

  // The innermost node holding byte `o` of space `si`, going on through base64 text into the bytes it decodes to.
  function resolve(si, o) {
    let sp = spaces[si], node = innermost(sp, o);
    for (let guard = 0; guard < 16 && node >= 0 && sp.links.has(node); guard++) {
      const target = spaces[sp.links.get(node)];
      const j = o - target.source.start;
      if (j < 0 || j >= target.source.length) break;
      const inner = byteOfChar(j);
      if (inner >= target.bytes.length) break;
      const deeper = innermost(target, inner);
      if (deeper < 0) return { space: target.index, node: -1, offset: inner };
      sp = target; o = inner; node = deeper;
    }
    return { space: sp.index, node, offset: o };
  }

  // ---- findings ----
  const severityRank = { error: 3, warning: 2, info: 1 };
  data.findings.forEach((f, i) => {
    f.index = i;
    if (f.space === null || f.space === undefined || f.offset === null || f.offset === undefined) return;
    const sp = spaces[f.space];
    if (!sp) return;
    const prev = sp.marks.get(f.offset);
    if (!prev || severityRank[f.severity] > severityRank[prev]) sp.marks.set(f.offset, f.severity);
    f.node = innermost(sp, f.offset);
    // A finding in base64url text goes on to the node of the byte it carries (a nested token's claim).
    const deepest = resolve(f.space, f.offset);
    f.target = deepest;
    for (const [ts, tn] of [[f.space, f.node], [deepest.space, deepest.node]]) {
      if (tn < 0) continue;
      const p = spaces[ts].nodeMarks.get(tn);
      if (!p || severityRank[f.severity] > severityRank[p]) spaces[ts].nodeMarks.set(tn, f.severity);
    }
  });

  // ---- values, read from the bytes ----
  const TEXT_TAGS = new Set([0x0c, 0x12, 0x13, 0x14, 0x16, 0x17, 0x18, 0x1a, 0x1b, 0x1c, 0x1e]);
  function derValue(sp, i, full) {
    const b = sp.bytes, s = sp.start[i], c = s + sp.header[i], e = sp.end[i];
    if (sp.kids[i] > 0 || c > e) return null;
    if (sp.header[i] === 0) {
      // Value octets that are not one element (an opaque value, a hash): their hex.
      const n = Math.min(e - s, full ? e - s : 24);
      return n <= 0 ? null : hexOf(b, s, s + n) + (e - s > n ? '… (' + (e - s) + ' bytes)' : '');
    }
    const tag = b[s];
    const max = full ? 1 << 20 : 96;
    if (tag === 0x02 && e - c <= 16 && e > c) {
      let v = 0n;
      for (let k = c; k < e; k++) v = (v << 8n) | BigInt(b[k]);
      if (b[c] & 0x80) v -= 1n << BigInt(8 * (e - c));
      return v.toString();
    }
    if (tag === 0x01 && e - c === 1) return b[c] ? 'TRUE' : 'FALSE';
    if (tag === 0x05) return 'NULL';
    if (tag === 0x06) return null;  // the label carries the dotted form and name
    if (TEXT_TAGS.has(tag)) return JSON.stringify(visible(clip(utf8.decode(b.subarray(c, Math.min(e, c + max * 4))), max)));
    const n = Math.min(e - c, full ? e - c : 24);
    return hexOf(b, c, c + n) + (e - c > n ? '… (' + (e - c) + ' bytes)' : '');
  }
  function jsonValue(sp, i, full) {
    if (sp.kids[i] > 0) return null;
    const text = utf8.decode(sp.bytes.subarray(sp.start[i], Math.min(sp.end[i], sp.start[i] + (full ? 1 << 20 : 400))));
    let shown = text;
    if (text.startsWith('"')) { try { shown = JSON.stringify(JSON.parse(text)); } catch (e) { shown = text; } }
    // Apple's dates are milliseconds since the epoch: the UTC time beside them.
    if (/^\d{12,13}$/.test(text) && /date · number$/i.test(labels[sp.lab[i]] || '')) shown += '  (' + utcMs(Number(text)) + ')';
    return visible(full ? shown : clip(shown, 120));
  }
  // An in-app record shows what identifies it: its product, transaction and purchase date.
  const RECORD_FIELDS = ['product_id', 'transaction_id', 'purchase_date'];
  function recordSummary(sp, i) {
    const parts = [];
    for (let k = i + 1, seen = 0; k < sp.next[i] && seen < 64; k = sp.next[k], seen++) {
      const name = labels[sp.lab[k]] || '';
      if (RECORD_FIELDS.some((f) => name.startsWith(f + ' ')) && sp.kids[k] === 1) {
        const v = derValue(sp, k + 1, false);
        if (v !== null) parts.push(v);
      }
    }
    return parts.length ? parts.join(' · ') : null;
  }
  function nodeValue(sp, i, full) {
    if (sp.kind === 'der' && labels[sp.lab[i]] === 'in-app record') return recordSummary(sp, i);
    if (sp.kind === 'der') {
      // An attribute shows its value: its one child, a primitive.
      if (sp.kids[i] === 1 && sp.header[i] > 0 && sp.kids[i + 1] === 0) {
        const v = derValue(sp, i + 1, full);
        if (v !== null) return v;
      }
      return derValue(sp, i, full);
    }
    if (sp.kind === 'json') return jsonValue(sp, i, full);
    if (sp.kind === 'raw') { const n = Math.min(sp.end[i] - sp.start[i], full ? 1 << 20 : 24); return hexOf(sp.bytes, sp.start[i], sp.start[i] + n); }
    return null;
  }
  function nodeLabel(sp, i) { return visible(labels[sp.lab[i]] || ''); }

  // ---- the page ----
  const body = document.body;
  const header = el('header');
  const title = el('h1', null, 'rcpt report · ' + visible(data.name));
  header.appendChild(title);
  const verdictLine = el('div');
  const v = data.verdict;
  const verdictWord = v.word;
  const badge = el('span', 'verdict ' + verdictWord, verdictWord);
  badge.id = 'verdict';
  verdictLine.appendChild(badge);
  verdictLine.appendChild(el('span', null, visible(data.headline)));
  header.appendChild(verdictLine);
  const codes = el('div', 'codes');
  codes.id = 'codes';
  for (const c of v.errors) codes.appendChild(el('span', 'error', c + ' '));
  for (const c of v.warnings) codes.appendChild(el('span', 'warning', c + ' '));
  if (v.readError) codes.appendChild(el('span', 'error', 'read error ' + v.readError.code + (v.readError.offset !== null ? ' at offset ' + v.readError.offset : '') + ': ' + visible(v.readError.message)));
  header.appendChild(codes);
  const t = data.trust;
  if (t.evaluatedAt !== null) {
    const root = t.anchor ? 'chain to ' + visible(t.anchor) : 'no trusted chain';
    const whose = t.anchor ? (t.customRoots ? ' (a root given with --root, not Apple\'s)' : ' (Apple\'s root)') : '';
    const trustLine = el('div', 'meta', root + whose + ' · evaluated at ' + utc(t.evaluatedAt) + (t.evaluatedAtSource ? ' (' + t.evaluatedAtSource + ')' : ''));
    trustLine.id = 'trust';
    header.appendChild(trustLine);
  }
  header.appendChild(el('div', 'meta', data.kind + ' · ' + data.input.format + ' · ' + data.input.size + ' bytes · sha256 ' + data.input.sha256));
  if (data.wrapped) header.appendChild(el('div', 'meta', 'the document was found inside the input (see the input-repaired findings): the bytes below are the document as read; the size and SHA-256 above are the input\'s'));
  body.appendChild(header);

  const main = el('main');
  body.appendChild(main);

  // Tree
  const treeSection = el('section');
  const treeTitle = el('h2', null, 'Structure');
  const treeTools = el('span', 'bar-tools');
  const expandAll = el('button', null, 'expand level');
  const collapseAll = el('button', null, 'collapse');
  const find = el('input');
  find.id = 'find'; find.placeholder = 'find text'; find.size = 18;
  treeTools.appendChild(expandAll); treeTools.appendChild(collapseAll); treeTools.appendChild(find);
  treeTitle.appendChild(treeTools);
  treeSection.appendChild(treeTitle);
  const treeView = el('div', 'scroller tree');
  treeView.id = 'tree';
  treeView.tabIndex = 0;
  const treeSpacer = el('div', 'spacer'), treeRows = el('div', 'rows');
  treeView.appendChild(treeSpacer); treeView.appendChild(treeRows);
  treeSection.appendChild(treeView);
  main.appendChild(treeSection);

  // Hex
  const hexSection = el('section');
  const hexTitle = el('h2', null, 'Bytes');
  const hexTools = el('span', 'bar-tools');
  const spaceSelect = el('select');
  spaceSelect.id = 'space';
  spaces.forEach((sp) => { const o = el('option', null, sp.index + ': ' + clip(visible(sp.label), 90) + ' (' + sp.bytes.length + ' bytes)'); o.value = String(sp.index); spaceSelect.appendChild(o); });
  const goto = el('input');
  goto.id = 'goto'; goto.placeholder = 'go to offset'; goto.size = 12;
  hexTools.appendChild(spaceSelect); hexTools.appendChild(goto);
  hexTitle.appendChild(hexTools);
  hexSection.appendChild(hexTitle);
  const sourceLine = el('div', 'source');
  sourceLine.id = 'source';
  hexSection.appendChild(sourceLine);
  const hexView = el('div', 'scroller hex');
  hexView.id = 'hex';
  const hexSpacer = el('div', 'spacer'), hexRows = el('div', 'rows');
  hexView.appendChild(hexSpacer); hexView.appendChild(hexRows);
  hexSection.appendChild(hexView);
  main.appendChild(hexSection);

  // A section of the page with its title, and its content element (with `id`).
  function panel(title, sectionClass, contentClass, id) {
    const section = el('section', sectionClass);
    section.appendChild(el('h2', null, title));
    const content = el('div', contentClass);
    content.id = id;
    section.appendChild(content);
    main.appendChild(section);
    return [section, content];
  }

  // Details
  const [detailSection, details] = panel('Selected', null, 'details', 'details');
  const copyBar = el('div', 'details');
  const copyHex = el('button', null, 'copy hex'), copyB64 = el('button', null, 'copy base64'), copyJSON = el('button', null, 'copy JSON');
  copyHex.id = 'copy-hex'; copyB64.id = 'copy-base64'; copyJSON.id = 'copy-json';
  copyBar.appendChild(copyHex); copyBar.appendChild(copyB64); copyBar.appendChild(copyJSON);
  const copyOut = el('textarea');
  copyOut.id = 'copied'; copyOut.readOnly = true; copyOut.placeholder = 'what was copied';
  copyBar.appendChild(copyOut);
  detailSection.appendChild(copyBar);

  const findingList = panel('Findings (' + data.findings.length + ')', null, 'findings', 'findings')[1];
  const chainPicture = panel('Certificates against the evaluation time', 'wide', 'picture', 'chains')[1];
  const timePicture = panel('Timeline', 'wide', 'picture', 'timeline')[1];

  // ---- state ----
  const state = { space: 0, node: -1, from: 0, to: 0, headerTo: 0, mapped: null };
  let rowsSpace = new Int32Array(0), rowsNode = new Int32Array(0), rowsDepth = new Int32Array(0);

  // ---- virtual scrolling over more rows than a page can be tall ----
  // Each view keeps its own scroll position and height, so selecting writes the page and never waits for a layout
  // to read one back; a row is drawn only when it is in view.
  function makeScroller(view, spacer, rowsBox, count, draw) {
    const s = { top: 0, height: -1, room: 0 };
    s.measure = () => { s.room = Math.max(ROW, view.clientHeight); };
    s.render = () => {
      const height = spacerHeight(count());
      if (height !== s.height) { spacer.style.height = height + 'px'; s.height = height; }
      const shown = rowsShown(count(), s.room, s.top);
      rowsBox.style.transform = 'translateY(' + s.top + 'px)';
      const rows = [];
      for (let r = shown.first; r < shown.end; r++) rows.push(draw(r));
      rowsBox.replaceChildren(...rows);
    };
    // Brings `row` into view when it is not; the view is drawn by the caller.
    s.show = (row) => {
      const top = topShowing(row, count(), s.room, s.top);
      if (top === null) return;
      s.top = top;
      const height = spacerHeight(count());
      if (height !== s.height) { spacer.style.height = height + 'px'; s.height = height; }
      view.scrollTop = s.top;
    };
    view.addEventListener('scroll', () => {
      if (Math.abs(view.scrollTop - s.top) < 1) return;
      s.top = view.scrollTop;
      s.render();
    });
    return s;
  }

  // ---- tree ----
  function computeRows() {
    const rs = [], rn = [], rd = [];
    const visited = new Set();
    function walk(si, base) {
      if (visited.has(si)) return;
      visited.add(si);
      const sp = spaces[si];
      let i = 0;
      while (i < sp.n) {
        rs.push(si); rn.push(i); rd.push(base + sp.depth[i]);
        if (sp.expanded[i]) {
          const link = sp.links.get(i);
          if (link !== undefined && sp.kids[i] === 0) walk(link, base + sp.depth[i] + 1);
          i++;
        } else { i = sp.next[i]; }
      }
    }
    walk(0, 0);
    for (const sp of spaces) if (!visited.has(sp.index) && !sp.linkedFrom) walk(sp.index, 0);
    rowsSpace = Int32Array.from(rs); rowsNode = Int32Array.from(rn); rowsDepth = Int32Array.from(rd);
  }
  function hasChildren(sp, i) { return sp.kids[i] > 0 || sp.links.has(i); }
  function drawTreeRow(r) {
    const sp = spaces[rowsSpace[r]], i = rowsNode[r];
    const row = el('div', 'row');
    row.dataset.row = String(r);
    row.dataset.space = String(sp.index);
    row.dataset.node = String(i);
    row.style.paddingLeft = (4 + rowsDepth[r] * 14) + 'px';
    if (sp.index === state.space && i === state.node) row.classList.add('selected');
    const t = el('span', 'toggle', hasChildren(sp, i) ? (sp.expanded[i] ? '▾' : '▸') : ' ');
    t.dataset.toggle = '1';
    row.appendChild(t);
    const mark = sp.nodeMarks.get(i);
    if (mark) row.appendChild(el('span', 'flag ' + mark));
    row.appendChild(el('span', 'label', nodeLabel(sp, i)));
    const value = nodeValue(sp, i, false);
    if (value !== null) row.appendChild(el('span', 'value', ' ' + value));
    if (sp.kids[i] > 0 && sp.kind !== 'json') row.appendChild(el('span', 'value', ' [' + sp.kids[i] + ']'));
    row.appendChild(el('span', 'at', '  @' + sp.start[i] + '+' + (sp.end[i] - sp.start[i])));
    return row;
  }
  const treeScroll = makeScroller(treeView, treeSpacer, treeRows, () => rowsNode.length, (r) => drawTreeRow(r));
  function drawTree() { treeScroll.render(); }
  treeRows.addEventListener('click', (event) => {
    const row = event.target.closest('.row');
    if (!row) return;
    const si = Number(row.dataset.space), i = Number(row.dataset.node);
    const sp = spaces[si];
    if (event.target.dataset.toggle && hasChildren(sp, i)) { sp.expanded[i] = sp.expanded[i] ? 0 : 1; computeRows(); drawTree(); return; }
    select(si, i, true);
  });
  treeRows.addEventListener('dblclick', (event) => {
    const row = event.target.closest('.row');
    if (!row) return;
    const sp = spaces[Number(row.dataset.space)], i = Number(row.dataset.node);
    if (hasChildren(sp, i)) { sp.expanded[i] = sp.expanded[i] ? 0 : 1; computeRows(); drawTree(); }
  });
  expandAll.addEventListener('click', () => {
    // Opens one more level below the deepest open one, at most 50 000 nodes at a time.
    let budget = 50000;
    for (const sp of spaces) {
      const open = [];
      for (let i = 0; i < sp.n && budget > 0; i++) {
        if (!sp.expanded[i] && hasChildren(sp, i) && (sp.parent[i] < 0 || sp.expanded[sp.parent[i]])) { open.push(i); budget -= sp.kids[i] + 1; }
      }
      for (const i of open) sp.expanded[i] = 1;
    }
    computeRows(); drawTree();
  });
  collapseAll.addEventListener('click', () => { for (const sp of spaces) sp.expanded.fill(0); computeRows(); drawTree(); });

  // Opens every ancestor of a node, across the spaces that lead to it.
  // Returns whether it opened any.
  function reveal(si, i) {
    let sp = spaces[si], node = i, opened = false;
    for (let guard = 0; guard < 64 && sp; guard++) {
      for (let p = sp.parent[node]; p >= 0; p = sp.parent[p]) { if (!sp.expanded[p]) { sp.expanded[p] = 1; opened = true; } }
      if (!sp.linkedFrom) break;
      const from = sp.linkedFrom;
      sp = spaces[from.space]; node = from.node;
      if (!sp.expanded[node]) { sp.expanded[node] = 1; opened = true; }
    }
    return opened;
  }
  function rowOf(si, i) {
    for (let r = 0; r < rowsNode.length; r++) if (rowsNode[r] === i && rowsSpace[r] === si) return r;
    return -1;
  }

  // Keys in the tree: up and down move the selection a row, right opens (or goes to the first child), left closes
  // (or goes to the parent), Enter opens or closes.
  treeView.addEventListener('keydown', (event) => {
    const r = rowOf(state.space, state.node);
    if (r < 0) return;
    const sp = spaces[state.space], i = state.node;
    const parentless = () => sp.linkedFrom ? [sp.linkedFrom.space, sp.linkedFrom.node] : null;
    const toggle = () => { sp.expanded[i] = sp.expanded[i] ? 0 : 1; computeRows(); drawTree(); };
    const open = hasChildren(sp, i) && sp.expanded[i] === 1;
    let target = null;
    switch (event.key) {
      case 'ArrowDown': if (r + 1 < rowsNode.length) target = [rowsSpace[r + 1], rowsNode[r + 1]]; break;
      case 'ArrowUp': if (r > 0) target = [rowsSpace[r - 1], rowsNode[r - 1]]; break;
      case 'ArrowRight':
        if (hasChildren(sp, i) && !open) { toggle(); break; }
        if (open && r + 1 < rowsNode.length) target = [rowsSpace[r + 1], rowsNode[r + 1]];
        break;
      case 'ArrowLeft':
        if (open) { toggle(); break; }
        target = sp.parent[i] >= 0 ? [state.space, sp.parent[i]] : parentless();
        break;
      case 'Enter': if (hasChildren(sp, i)) toggle(); break;
      default: return;
    }
    event.preventDefault();
    if (target) select(target[0], target[1], true);
  });

  // Find: the next node, after the selected one and across every space, whose name or value holds the text (any
  // case); Enter again finds the one after.
  find.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    const wanted = find.value.trim().toLowerCase();
    if (!wanted) return;
    const order = spaces.map((sp) => sp.index);
    const first = order.indexOf(Math.max(0, state.space));
    for (let step = 0; step <= order.length; step++) {
      const sp = spaces[order[(first + step) % order.length]];
      const from = step === 0 ? state.node + 1 : 0, to = step === order.length ? Math.max(0, state.node + 1) : sp.n;
      for (let i = from; i < to; i++) {
        // A value its attribute already shows is found at the attribute.
        const p = sp.parent[i];
        if (sp.kind === 'der' && p >= 0 && sp.kids[p] === 1 && sp.kids[i] === 0 && sp.header[p] > 0) continue;
        const name = (labels[sp.lab[i]] || '').toLowerCase();
        const value = sp.kids[i] > 1 ? null : nodeValue(sp, i, false);
        if (name.includes(wanted) || (value !== null && value.toLowerCase().includes(wanted))) {
          select(sp.index, i, true);
          return;
        }
      }
    }
    sourceLine.replaceChildren(el('span', null, 'find: no node names or holds "' + clip(visible(find.value), 40) + '"'));
  });

  // ---- hex ----
  function hexRowCount() { return Math.ceil(spaces[state.space].bytes.length / BYTES_PER_ROW); }
  function drawHexRow(r) {
    const sp = spaces[state.space], b = sp.bytes;
    const row = el('div', 'row');
    const base = r * BYTES_PER_ROW;
    row.appendChild(el('span', 'offset', base.toString(16).padStart(8, '0') + '  '));
    const chars = [];
    for (let k = 0; k < BYTES_PER_ROW; k++) {
      const o = base + k;
      if (k === 8) row.appendChild(el('span', 'gap', ' '));
      if (o >= b.length) { row.appendChild(el('span', 'b', '  ')); continue; }
      const cell = el('span', 'b', hex2(b[o]));
      cell.dataset.o = String(o);
      row.appendChild(cell);
      const c = el('span', 'c', b[o] >= 0x20 && b[o] < 0x7f ? String.fromCharCode(b[o]) : '.');
      c.dataset.o = String(o);
      for (const x of [cell, c]) {
        if (o >= state.from && o < state.to) x.classList.add(o < state.headerTo ? 'hdr' : 'sel');
        if (state.mapped && o >= state.mapped.from && o < state.mapped.to) x.classList.add('src');
        const m = sp.marks.get(o);
        if (m) { x.classList.add('mark-' + m); }
      }
      chars.push(c);
    }
    row.appendChild(el('span', 'gap', '  '));
    for (const c of chars) row.appendChild(c);
    return row;
  }
  const hexScroll = makeScroller(hexView, hexSpacer, hexRows, () => hexRowCount(), (r) => drawHexRow(r));
  function drawHex() {
    hexScroll.render();
    hexView.dataset.space = String(state.space);
    hexView.dataset.start = String(state.from);
    hexView.dataset.end = String(state.to);
  }
  hexRows.addEventListener('click', (event) => {
    const o = event.target.dataset ? event.target.dataset.o : undefined;
    if (o === undefined) return;
    selectByte(state.space, Number(o));
  });
  spaceSelect.addEventListener('change', () => {
    const si = Number(spaceSelect.value);
    const sp = spaces[si];
    if (sp.n > 0) select(si, 0, true); else { state.space = si; state.node = -1; state.from = state.to = state.headerTo = 0; state.mapped = null; hexScroll.show(0); drawHex(); showDetails(); }
  });
  goto.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    const text = goto.value.trim();
    const o = /^0x[0-9a-f]+$/i.test(text) ? parseInt(text, 16) : (/^\d+$/.test(text) ? parseInt(text, 10) : NaN);
    const size = spaces[state.space].bytes.length;
    if (!Number.isFinite(o) || !selectByte(state.space, o)) {
      sourceLine.replaceChildren(el('span', null, 'go to: "' + clip(visible(text), 40) + '" is not an offset in space ' + state.space + ' (0 to ' + Math.max(0, size - 1) + ', decimal or 0x hex)'));
    }
  });

  // Selecting a byte selects the innermost node that holds it; a byte of base64 text that decodes to a space goes
  // on to the innermost node there.
  function selectByte(si, o) {
    const sp = spaces[si];
    if (!sp || o < 0 || o >= sp.bytes.length) return false;
    const found = resolve(si, o);
    select(found.space, found.node, true, found.offset);
    return true;
  }

  function select(si, i, scroll, byte) {
    const sp = spaces[si];
    const spaceChanged = state.space !== si;
    state.space = si; state.node = i;
    if (i >= 0) {
      state.from = sp.start[i]; state.to = sp.end[i]; state.headerTo = sp.start[i] + sp.header[i];
    } else {
      state.from = byte || 0; state.to = (byte || 0) + 1; state.headerTo = state.from;
    }
    state.mapped = null;
    if (spaceSelect.value !== String(si)) spaceSelect.value = String(si);
    if (i >= 0 && reveal(si, i)) computeRows();
    if (scroll) {
      if (i >= 0) { const r = rowOf(si, i); if (r >= 0) treeScroll.show(r); }
      if (spaceChanged) { hexScroll.top = 0; hexView.scrollTop = 0; }
      hexScroll.show(Math.floor(state.from / BYTES_PER_ROW));
    }
    drawTree(); drawHex(); showDetails();
  }

  function showSource(sp) {
    sourceLine.replaceChildren();
    if (!sp.source || !spaces[sp.source.space]) return;
    const src = spaces[sp.source.space];
    let text = 'decoded from ' + sp.source.alphabet + ' characters ' + sp.source.start + '–' + (sp.source.start + sp.source.length) + ' of space ' + src.index;
    if (state.node >= 0 || state.to > state.from) {
      const a = sp.source.start + charOfByte(state.from), z = sp.source.start + Math.min(sp.source.length, charOfByte(state.to - 1) + 2);
      text += '; the selection is characters ' + a + '–' + z;
      const button = el('button', null, 'show there');
      button.addEventListener('click', () => {
        const holder = sp.linkedFrom ? sp.linkedFrom.node : spanning(src, a, z);
        select(src.index, holder, true);
        state.mapped = { from: a, to: z }; drawHex();
      });
      sourceLine.appendChild(el('span', null, text + ' '));
      sourceLine.appendChild(button);
      return;
    }
    sourceLine.appendChild(el('span', null, text));
  }

  function showDetails() {
    const sp = spaces[state.space], i = state.node;
    details.replaceChildren();
    showSource(sp);
    const dl = el('dl');
    function row(k, val) { dl.appendChild(el('dt', null, k)); dl.appendChild(el('dd', null, val)); }
    row('space', state.space + ': ' + visible(sp.label));
    if (i >= 0) {
      row('node', nodeLabel(sp, i));
      row('offset', String(sp.start[i]) + ' (0x' + sp.start[i].toString(16) + ')');
      row('length', String(sp.end[i] - sp.start[i]) + (sp.header[i] ? ' (header ' + sp.header[i] + ')' : ''));
      const value = nodeValue(sp, i, true);
      if (value !== null) row('value', clip(value, 4000));
      const flagged = data.findings.filter((f) => (f.space === state.space && f.node === i) || (f.target && f.target.space === state.space && f.target.node === i));
      for (const f of flagged) row(f.severity, f.code + ': ' + visible(f.message));
    } else {
      row('offset', String(state.from));
      row('node', 'no node holds this byte');
    }
    details.appendChild(dl);
    details.dataset.space = String(state.space);
    details.dataset.node = String(i);
    details.dataset.label = i >= 0 ? labels[sp.lab[i]] || '' : '';
  }

  // ---- copies ----
  function selectedBytes() { return spaces[state.space].bytes.subarray(state.from, state.to); }
  function nodeJSON(sp, i) {
    if (sp.kind === 'json') {
      const text = utf8.decode(sp.bytes.subarray(sp.start[i], sp.end[i]));
      try { return JSON.stringify(JSON.parse(text), null, 2); } catch (e) { /* a part of a document: as text */ }
    }
    // The subtree, to 2 000 nodes.
    const root = { label: labels[sp.lab[i]], offset: sp.start[i], length: sp.end[i] - sp.start[i] };
    const holders = new Map([[i, root]]);
    let count = 0;
    for (let k = i + 1; k < sp.next[i] && count < 2000; k++, count++) {
      const o = { label: labels[sp.lab[k]], offset: sp.start[k], length: sp.end[k] - sp.start[k] };
      const val = nodeValue(sp, k, false);
      if (sp.kids[k] === 0) o.hex = hexOf(sp.bytes, sp.start[k], Math.min(sp.end[k], sp.start[k] + 4096));
      if (val !== null && sp.kids[k] === 0) o.value = val;
      const holder = holders.get(sp.parent[k]);
      if (holder) { (holder.children = holder.children || []).push(o); }
      holders.set(k, o);
    }
    if (sp.kids[i] === 0) { root.hex = hexOf(sp.bytes, sp.start[i], sp.end[i]); const val = nodeValue(sp, i, true); if (val !== null) root.value = val; }
    return JSON.stringify(root, null, 2);
  }
  function copy(text) {
    copyOut.value = text;
    copyOut.select();
    if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).catch(() => {});
  }
  copyHex.addEventListener('click', () => { const b = selectedBytes(); copy(hexOf(b, 0, b.length)); });
  copyB64.addEventListener('click', () => {
    const b = selectedBytes(); let bin = '';
    for (let k = 0; k < b.length; k += 8192) bin += String.fromCharCode.apply(null, b.subarray(k, k + 8192));
    copy(btoa(bin));
  });
  copyJSON.addEventListener('click', () => {
    const sp = spaces[state.space];
    if (state.node >= 0) copy(nodeJSON(sp, state.node));
  });

  // ---- findings list ----
  function spaceName(si) { return si + ' (' + clip(visible(spaces[si].label), 60) + ')'; }
  for (const f of data.findings) {
    const item = el('div', 'finding ' + f.severity);
    item.dataset.finding = String(f.index);
    item.appendChild(el('span', 'sev', f.severity));
    item.appendChild(el('span', 'code', f.code));
    item.appendChild(el('span', null, visible(f.message) + ' '));
    const located = f.space !== null && f.space !== undefined && f.offset !== null && f.offset !== undefined && spaces[f.space];
    if (located) {
      const sp = spaces[f.space];
      // The bytes the finding names, in its own space; then the node they decode to, when that is elsewhere.
      const where = el('span', 'where', 'at ' + f.offset + ' in space ' + spaceName(f.space) + (f.node >= 0 ? ' · ' + nodeLabel(sp, f.node) : ''));
      where.dataset.where = '1';
      item.appendChild(where);
      if (f.target && f.target.space !== f.space && f.target.node >= 0) {
        item.appendChild(el('span', 'where', ' → ' + nodeLabel(spaces[f.target.space], f.target.node) + ' in space ' + spaceName(f.target.space)));
      }
    }
    item.addEventListener('click', (event) => {
      if (!located) return;
      if (event.target.dataset && event.target.dataset.where) {
        // The finding's own bytes, without going on through base64.
        select(f.space, f.node, true, f.offset);
        hexScroll.show(Math.floor(f.offset / BYTES_PER_ROW));
        drawHex();
        return;
      }
      const target = f.target || { space: f.space, node: f.node, offset: f.offset };
      select(target.space, target.node, true, target.offset);
      if (target.space === f.space) { hexScroll.show(Math.floor(f.offset / BYTES_PER_ROW)); drawHex(); }
    });
    findingList.appendChild(item);
  }
  if (data.findings.length === 0) findingList.appendChild(el('div', 'note', 'no findings'));

  // ---- certificate chains ----
  function drawChains() {
    if (data.chains.length === 0) { chainPicture.appendChild(el('div', 'note', 'no certificate could be read')); return; }
    for (const chain of data.chains) {
      chainPicture.appendChild(el('div', 'note', visible(chain.title) + ' · ' + chain.verdict + (chain.evaluatedAt !== null ? ' · evaluated at ' + utc(chain.evaluatedAt) : '')));
      const certs = chain.certificates;
      let lo = Math.min(...certs.map((c) => c.notBefore)), hi = Math.max(...certs.map((c) => c.notAfter));
      if (chain.evaluatedAt !== null) { lo = Math.min(lo, chain.evaluatedAt); hi = Math.max(hi, chain.evaluatedAt); }
      if (hi <= lo) hi = lo + 1;
      const W = 960, left = 10, right = 10, top = 10, laneH = 34;
      const H = top + certs.length * laneH + 30;
      const x = (t) => left + (t - lo) / (hi - lo) * (W - left - right);
      const svg = svgEl('svg', { width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, role: 'img' });
      svg.appendChild(svgEl('title', {}, 'certificate validity periods against the evaluation time'));
      certs.forEach((c, k) => {
        const y = top + k * laneH;
        const outside = chain.evaluatedAt !== null && (chain.evaluatedAt < c.notBefore || chain.evaluatedAt > c.notAfter);
        const bar = svgEl('rect', { x: x(c.notBefore), y: y + 14, width: Math.max(2, x(c.notAfter) - x(c.notBefore)), height: 10, class: 'bar' + (outside ? ' outside' : '') });
        bar.appendChild(svgEl('title', {}, visible(c.subject) + '\n' + utc(c.notBefore) + ' – ' + utc(c.notAfter)));
        bar.addEventListener('click', () => { const sp = spaces[c.space]; if (!sp) return; const n = spanning(sp, c.start, c.end); if (n >= 0) select(c.space, n, true); });
        svg.appendChild(bar);
        svg.appendChild(svgEl('text', { x: left, y: y + 10 }, clip(visible(c.subject), 110) + '  ' + utc(c.notBefore).slice(0, 10) + ' – ' + utc(c.notAfter).slice(0, 10) + (outside ? '  (not valid then)' : '')));
      });
      const axisY = top + certs.length * laneH + 4;
      svg.appendChild(svgEl('line', { x1: left, y1: axisY, x2: W - right, y2: axisY, class: 'axis' }));
      svg.appendChild(svgEl('text', { x: left, y: axisY + 14 }, utc(lo).slice(0, 10)));
      svg.appendChild(svgEl('text', { x: W - right - 70, y: axisY + 14 }, utc(hi).slice(0, 10)));
      if (chain.evaluatedAt !== null) {
        const nx = x(chain.evaluatedAt);
        svg.appendChild(svgEl('line', { x1: nx, y1: top, x2: nx, y2: axisY, class: 'now' }));
        svg.appendChild(svgEl('text', { x: Math.min(nx + 4, W - 200), y: axisY + 24 }, 'evaluated ' + utc(chain.evaluatedAt)));
      }
      chainPicture.appendChild(svg);
    }
  }

  // ---- timeline ----
  function drawTimeline() {
    const events = data.events;
    if (events.length === 0) { timePicture.appendChild(el('div', 'note', 'the document states no purchase')); return; }
    if (data.eventCount > events.length) timePicture.appendChild(el('div', 'note', 'showing ' + events.length + ' of ' + data.eventCount + ' events, spread evenly over the whole history'));
    const products = [];
    for (const e of events) if (!products.includes(e.product)) products.push(e.product);
    const lanes = products.slice(0, 24);
    const lane = (p) => { const k = lanes.indexOf(p); return k >= 0 ? k : lanes.length; };
    const laneCount = lanes.length + (products.length > lanes.length ? 1 : 0);
    let lo = events[0].time, hi = events[events.length - 1].time;
    if (hi <= lo) hi = lo + 1;
    const W = 960, left = 10, right = 10, top = 8, laneH = 30, H = top + laneCount * laneH + 34;
    const x = (t) => left + (t - lo) / (hi - lo) * (W - left - right);
    const svg = svgEl('svg', { width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, role: 'img' });
    svg.appendChild(svgEl('title', {}, 'purchases, renewals, expiries and revocations'));
    for (let k = 0; k < laneCount; k++) {
      const name = k < lanes.length ? lanes[k] : (products.length - lanes.length) + ' more products';
      svg.appendChild(svgEl('text', { x: left, y: top + k * laneH + 9 }, clip(visible(name), 120)));
    }
    // A transaction's purchase to its expiry, as a line.
    const starts = new Map();
    for (const e of events) if (e.kind === 'purchase' || e.kind === 'renewal') starts.set(e.transaction + '\u0000' + e.product, e);
    for (const e of events) {
      if (e.kind !== 'expiry') continue;
      const s = starts.get(e.transaction + '\u0000' + e.product);
      if (!s) continue;
      const y = top + lane(e.product) * laneH + 20;
      svg.appendChild(svgEl('line', { x1: x(s.time), y1: y, x2: x(e.time), y2: y, class: 'span' }));
    }
    for (const e of events) {
      const y = top + lane(e.product) * laneH + 20;
      const kind = e.kind.startsWith('revocation') ? 'revocation' : (['purchase', 'renewal', 'expiry'].includes(e.kind) ? e.kind : 'other');
      const mark = svgEl('circle', { cx: x(e.time), cy: y, r: kind === 'expiry' ? 3 : 5, class: 'ev ' + kind });
      mark.appendChild(svgEl('title', {}, visible(e.kind + ' · ' + e.product + ' · transaction ' + e.transaction + ' · ' + utcMs(e.time))));
      mark.addEventListener('click', () => { if (e.space !== null && e.offset !== null && spaces[e.space]) selectByte(e.space, e.offset); });
      svg.appendChild(mark);
    }
    const axisY = top + laneCount * laneH + 4;
    svg.appendChild(svgEl('line', { x1: left, y1: axisY, x2: W - right, y2: axisY, class: 'axis' }));
    svg.appendChild(svgEl('text', { x: left, y: axisY + 14 }, utcMs(lo)));
    svg.appendChild(svgEl('text', { x: W - right - 140, y: axisY + 14 }, utcMs(hi)));
    const legend = 'green: purchase · blue: renewal · grey: expiry · red: revocation · orange: renewal info';
    svg.appendChild(svgEl('text', { x: left, y: axisY + 28 }, legend));
    timePicture.appendChild(svg);
  }

  // ---- start ----
  // Open the first levels, and the way to the first payload's attributes or claims.
  for (const sp of spaces) for (let i = 0; i < sp.n; i++) if (sp.depth[i] < 1) sp.expanded[i] = 1;
  for (const sp of spaces) {
    for (let i = 0; i < sp.n; i++) {
      const name = labels[sp.lab[i]] || '';
      if (name.startsWith('payload SET') || (sp.kind === 'json' && sp.depth[i] === 0)) { sp.expanded[i] = 1; reveal(sp.index, i); break; }
    }
    if (sp.kind === 'text' || (sp.linkedFrom && spaces[sp.linkedFrom.space].kind === 'text')) {
      for (let i = 0; i < sp.n; i++) if (labels[sp.lab[i]].startsWith('payload')) { sp.expanded[i] = 1; }
    }
  }
  computeRows();
  treeScroll.measure(); hexScroll.measure();
  drawChains();
  drawTimeline();
  if (spaces.length > 0) {
    const firstError = data.findings.find((f) => f.severity === 'error' && f.space !== null && f.node >= 0);
    if (firstError) select(firstError.space, firstError.node, true);
    else if (spaces[0].n > 0) select(0, 0, false);
    else { drawTree(); drawHex(); showDetails(); }
  }
  window.addEventListener('resize', () => { treeScroll.measure(); hexScroll.measure(); drawTree(); drawHex(); });
  document.documentElement.dataset.ready = '1';
})();
