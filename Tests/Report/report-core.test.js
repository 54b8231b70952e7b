// Unit tests of the report page's pure functions (RcptReportCore in Sources/Tools/ReceiptRendering/Assets/report.js),
// run by Node's own test runner: `node --test Tests/Report/` (scripts/test.sh runs it).
'use strict';
const test = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const core = require(path.join(__dirname, '../../Sources/Tools/ReceiptRendering/Assets/report.js'));

// Bytes that make every base64 character position and padding case appear.
function sampleBytes(n) {
  const bytes = new Uint8Array(n);
  let x = 0x2545f491;
  for (let i = 0; i < n; i++) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; bytes[i] = x & 0xff; }
  return bytes;
}
function base64url(bytes) {
  return Buffer.from(bytes).toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}
// The six bits character j of base64url text carries.
function sextet(text, j) {
  return 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.indexOf(text[j]);
}

test('byte i starts in character charOfByte(i), whose first bit lies in byte byteOfChar(j)', () => {
  for (const n of [1, 2, 3, 4, 5, 31, 32, 33, 300]) {
    const bytes = sampleBytes(n), text = base64url(bytes);
    for (let i = 0; i < n; i++) {
      const j = core.charOfByte(i);
      assert.ok(j < text.length, `byte ${i} of ${n} maps inside the text`);
      // The byte's top bits are the low bits of character j: byte i starts at bit 6j + (2, 4 or 0 within it).
      const shift = [2, 4, 6][i % 3];
      const top = bytes[i] >> shift;
      assert.equal(sextet(text, j) & ((1 << (8 - shift)) - 1), top, `byte ${i} of ${n} starts in character ${j}`);
      assert.equal(j, Math.floor(8 * i / 6), `byte ${i}: the character holding its first bit`);
      assert.ok(i - core.byteOfChar(j) <= 1 && core.byteOfChar(j) <= i, `character ${j} maps back to byte ${i} or the one before`);
    }
  }
});

test('every character maps to a byte whose bits it carries', () => {
  const bytes = sampleBytes(100), text = base64url(bytes);
  for (let j = 0; j < text.length; j++) {
    const i = core.byteOfChar(j);
    assert.ok(i >= 0 && i < bytes.length, `character ${j} maps to a byte`);
    assert.equal(i, Math.floor(6 * j / 8), `character ${j} (bits ${6 * j}…${6 * j + 5}) maps to the byte of its first bit`);
  }
});

test('control, bidirectional and invisible characters are made visible, nothing else', () => {
  assert.equal(core.visible('plain text, ümlauts, 日本'), 'plain text, ümlauts, 日本');
  assert.equal(core.visible('a\u202eb'), 'a⟨U+202E⟩b');
  assert.equal(core.visible('\u0000\u001b[31m'), '⟨U+0000⟩⟨U+001B⟩[31m');
  assert.equal(core.visible('\ufeffBOM\u200b'), '⟨U+FEFF⟩BOM⟨U+200B⟩');
  assert.equal(core.visible('line\nbreak\u2028'), 'line⟨U+000A⟩break⟨U+2028⟩');
  // The literal text of an escape stays distinguishable from the character it names.
  assert.equal(core.visible('\\u{202e}'), '\\u{202e}');
  assert.equal(core.visible(42), '42');
});

test('clip and hex', () => {
  assert.equal(core.clip('abcdef', 3), 'abc…');
  assert.equal(core.clip('abc', 3), 'abc');
  assert.equal(core.hexOf(new Uint8Array([0, 9, 16, 255]), 0, 4), '000910ff');
  assert.equal(core.hexOf(new Uint8Array([0, 9, 16, 255]), 1, 3), '0910');
  assert.equal(core.utc(0), '1970-01-01T00:00:00Z');
  assert.equal(core.utcMs(1706702400123), '2024-01-31T12:00:00.123Z');
});

test('virtual scrolling: a short list scrolls one row per ROW pixels', () => {
  const { ROW } = core, count = 1000, room = 20 * ROW;
  assert.equal(core.scrollScale(count, room), 1);
  assert.equal(core.spacerHeight(count), count * ROW);
  assert.deepEqual(core.rowsShown(count, room, 0), { first: 0, end: 21 });
  assert.deepEqual(core.rowsShown(count, room, 100 * ROW + 5), { first: 100, end: 121 });
  assert.equal(core.rowsShown(count, room, (count * ROW) - room).end, count, 'the last row shows at the bottom');
  assert.equal(core.rowsShown(5, room, 0).end, 5, 'never more rows than there are');
});

test('virtual scrolling: more rows than a page can be tall still reach the last row', () => {
  const { ROW, MAXPX } = core, room = 40 * ROW;
  for (const count of [MAXPX / ROW + 1, 10_000_000, 123_456_789]) {
    assert.equal(core.spacerHeight(count), MAXPX);
    assert.ok(core.scrollScale(count, room) > 1);
    const bottom = core.rowsShown(count, room, MAXPX - room);
    assert.ok(bottom.end >= count, `${count} rows: the last row shows at the bottom (${bottom.first}…${bottom.end})`);
    assert.equal(core.rowsShown(count, room, 0).first, 0);
  }
});

test('virtual scrolling: showing a row scrolls only when it is out of view, and then shows it', () => {
  const { ROW } = core, room = 30 * ROW;
  for (const count of [500, 2_000_000, 50_000_000]) {
    assert.equal(core.topShowing(5, count, room, 0), null, 'a row in view needs no scroll');
    for (const row of [0, 40, Math.floor(count / 2), count - 1]) {
      const top = core.topShowing(row, count, room, 0);
      const shown = core.rowsShown(count, room, top === null ? 0 : top);
      assert.ok(row >= shown.first && row < shown.end, `${count} rows: row ${row} is drawn after showing it`);
      assert.ok(top === null || (top >= 0 && top <= core.spacerHeight(count) - room));
      // Showing it again does not move the view.
      if (top !== null) assert.ok([null, top].includes(core.topShowing(row, count, room, top)), 'showing again stays');
    }
  }
});
