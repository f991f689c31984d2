// Geometry of a table: the layout (made by the server from the game's rules: slots on a grid
// measured in card widths, rows with room for fanned piles) scaled to the space available.
// Cards are as large as the width allows (never wider: no horizontal scrolling), and no larger
// than the height allows, unless that would make them unreadably small.

const RATIO = 1.4;       // card height / width
const MAX_CW = 116;
const MIN_CW = 44;
const GAP = 0.09;        // gap between piles, in card widths

export function geometry(L, availW, availH, pad = 0) {
  const rows = L.rows;
  const units = rows.reduce((s, r) => s + 1 + r.fan, 0);
  const byWidth = availW / (L.cols + (L.cols - 1) * GAP);
  const byHeight = (availH - (rows.length - 1) * 8) / (RATIO * units);
  let cw = Math.min(byWidth, MAX_CW, Math.max(byHeight, MIN_CW));
  cw = Math.max(20, Math.floor(cw));
  const ch = Math.round(cw * RATIO);
  const gap = Math.max(3, Math.min(14, Math.round(cw * GAP)));
  const width = Math.round(L.cols * cw + (L.cols - 1) * gap);
  const heights = rows.map((r) => Math.round(ch * (1 + r.fan)));
  const fixed = heights.reduce((s, h) => s + h, 0) + (rows.length - 1) * gap;
  const fills = rows.filter((r) => r.fill).length;
  const extra = fills ? Math.max(0, Math.floor((availH - fixed) / fills)) : 0;
  const rowH = rows.map((r, i) => heights[i] + (r.fill ? extra : 0));
  const rowTop = [];
  let y = 0;
  for (const h of rowH) {
    rowTop.push(y);
    y += h + gap;
  }
  const left = pad + Math.max(0, Math.floor((availW - width) / 2));
  return {
    cw, ch, gap, width, left,
    height: y - gap,
    rowTop, rowH,
    x: (col) => left + Math.round(col * (cw + gap)),
    // fanned cards: the offset between two cards, and the least one that still shows a
    // card's rank and suit (below it, the lowest cards are hidden and the pile is counted)
    fanIdeal: Math.round(ch * 0.28),
    fanMin: Math.max(13, Math.ceil(ch * 0.255)),
  };
}

// The place of a pile's cards: which ones are drawn (from index `first`) and how far apart.
export function fan(geo, rowHeight, n, fanned) {
  if (!fanned || n <= 1) return { first: Math.max(0, n - 2), off: 0 };
  const room = Math.max(0, rowHeight - geo.ch - 2);
  let off = Math.min(geo.fanIdeal, room / (n - 1));
  let first = 0;
  if (off < geo.fanMin) {
    // on small cards the ideal fan can be below the minimum: never show more than n cards
    const shown = Math.min(n, Math.max(1, Math.floor(room / geo.fanMin) + 1));
    first = n - shown;
    off = shown > 1 ? Math.min(geo.fanIdeal, room / (shown - 1)) : 0;
  }
  return { first, off: Math.floor(off) };
}
