// The table: shows the state the server sends and plays what the player does, by drag and
// drop, tap and tap, double tap, or keyboard. It never decides a rule: what may move where
// comes from the state's legal moves, and a move the player insists on is sent anyway so
// that the server can say why it is illegal.

import { Api, ApiError } from './api.js';
import {
  backEl, cardName, cardShort, faceEl, moveText, parseMove, prettyCards, RANK_WORDS,
} from './cards.js';
import { fan, geometry } from './layout.js';
import { initDrag } from './drag.js';
import { initKeys } from './keyboard.js';

const cfg = JSON.parse(document.getElementById('config').textContent);
const L = cfg.layout;
const $ = (id) => document.getElementById(id);
const table = $('table');
const body = document.body;
const motion = matchMedia('(prefers-reduced-motion: reduce)');
const slotOf = Object.fromEntries(L.slots.map((s) => [s.id, s]));
const fanned = (id) => (id[0] === 't' || id[0] === 'r') && L.rows[slotOf[id].row].fan >= 0.5;

const S = {
  g: null,            // the game's state, as the API sends it
  legal: [],          // its legal moves, parsed
  sel: null,          // the picked-up cards: {pile, n}
  lift: null,         // the cards being dragged (drawn hidden in their pile): {pile, n}
  hint: null,         // a hint being shown: a parsed move
  verdict: null,      // the solver's word on the position: 'won' | 'lost' | 'unknown'
  verdictAt: -1,      // ... for this version
  dismissed: -1,      // the "can no longer be won" banner closed at this version
  geo: null,
  focus: null,        // the pile that has the keyboard focus (roving tabindex)
  piles: {},          // pile id -> element
  anims: new Set(),
  clock: { base: 0, at: 0 },
  lastTap: null,
};

// ------------------------------------------------------------------ messages
let sayTimer = 0;
function say(text, kind = 'info') {
  const msg = $('msg');
  clearTimeout(sayTimer);
  msg.textContent = '';
  msg.className = kind;
  // a fresh text node every time, so that screen readers repeat even an identical message
  sayTimer = setTimeout(() => { msg.textContent = text; }, 30);
}

const pileWords = (id) => (L.names[id] || id).split(',')[0];
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
const fmtTime = (secs) => {
  const s = Math.max(0, Math.floor(secs));
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor((s % 3600) / 60)).padStart(h ? 2 : 1, '0');
  return (h ? `${h}:` : '') + `${mm}:${String(s % 60).padStart(2, '0')}`;
};
const reason = (detail) => prettyCards(detail.replace(/^illegal move \S+: /, ''));

// --------------------------------------------------------------- the queue
// Every change is made from the version shown; changes are sent one at a time.
let chain = Promise.resolve();
let busy = 0;
function run(task) {
  const job = chain.then(async () => {
    busy += 1;
    body.dataset.busy = '1';
    try {
      return await task();
    } catch (e) {
      await failed(e);
      return false;
    } finally {
      busy -= 1;
      if (!busy) body.dataset.busy = '0';
    }
  });
  chain = job.catch(() => {});
  return job;
}

async function failed(e) {
  if (!(e instanceof ApiError)) {
    console.error(e);
    say('Something went wrong on this page: reload it to go on.', 'error');
    return;
  }
  if (e.status === 409 && S.g) {
    try {
      show(await Api.game(S.g.id), { animate: false });
      say('This game was changed elsewhere (another tab?): here is where it stands now.',
        'error');
      return;
    } catch { /* fall through */ }
  }
  say(prettyCards(e.detail), 'error');
}

// the solver answers one request of a player at a time: ask it one thing at a time
let solverChain = Promise.resolve();
function solver(task) {
  const job = solverChain.then(task);
  solverChain = job.catch(() => {});
  return job;
}

// ------------------------------------------------------------------ drawing
function buildPiles() {
  for (const s of L.slots) {
    const el = document.createElement('div');
    el.className = `pile k-${s.id[0]}` + (fanned(s.id) ? ' fanned' : '');
    el.id = 'pile-' + s.id;
    el.dataset.pile = s.id;
    el.tabIndex = -1;
    el.setAttribute('role', 'button');
    table.appendChild(el);
    S.piles[s.id] = el;
  }
  if (L.note) {
    const note = document.createElement('div');
    note.className = 'note';
    note.id = 'note';
    note.setAttribute('aria-hidden', 'true');  // the stock's own label says the same
    table.appendChild(note);
  }
  if (L.frame) {
    const f = document.createElement('div');
    f.className = 'frame ' + L.frame;
    f.setAttribute('aria-hidden', 'true');
    table.prepend(f);
  }
  S.focus = L.slots.find((s) => s.id[0] === 't' || s.id[0] === 'c' || s.id[0] === 'r')?.id ||
    L.slots[0].id;
  S.piles[S.focus].tabIndex = 0;
}

function measure() {
  const top = table.getBoundingClientRect().top + window.scrollY;
  const availW = table.clientWidth - 12;  // room for the focus ring and the counts
  const availH = Math.max(240, window.innerHeight - top - 10);
  S.geo = geometry(L, availW, availH, 6);
  const g = S.geo;
  table.style.setProperty('--cw', g.cw + 'px');
  table.style.setProperty('--ch', g.ch + 'px');
  table.style.height = g.height + 'px';
  const note = $('note');
  if (note) {
    note.style.left = g.x(L.note.col) + 'px';
    note.style.top = g.rowTop[L.note.row] + 'px';
    note.style.width = g.x(L.cols) - g.x(L.note.col) - g.gap + 'px';
    note.style.height = g.ch + 'px';
  }
  const frame = table.querySelector('.frame');
  if (frame) {
    const pad = Math.round(g.gap * 0.9);
    frame.style.left = g.x(0) - pad + 'px';
    frame.style.top = -pad + 'px';
    frame.style.width = g.x(3) - g.x(0) - g.gap + 2 * pad + 'px';
    frame.style.height = g.rowTop[2] + g.rowH[2] + 2 * pad + 'px';
  }
}

function legalFrom(pile) {
  return S.legal.filter((m) => m.src === pile);
}

function targets(sel) {
  if (!sel) return new Set();
  return new Set(S.legal.filter((m) => m.src === sel.pile && m.n === sel.n && m.dst)
    .map((m) => m.dst));
}

function pileLabel(id, cards) {
  const where = L.names[id] || id;
  if (id === 'stock') {
    const n = S.g.stock_count;
    let text = `Stock: ${plural(n, 'card')}`;
    if (cfg.passes > 1) text += `, ${plural(S.g.passes_left, 'redeal')} left`;
    return text + (S.legal.some((m) => m.deal) ? '; press Enter to deal' : '');
  }
  if (!cards.length) {
    let text = `${where}: empty`;
    if (id[0] === 'f' && cfg.showBase) text += `, takes a ${RANK_WORDS[S.g.base_rank]}`;
    return text;
  }
  const top = cardName(cards[cards.length - 1]);
  if (cards.length === 1) return `${where}: ${top}`;
  if (fanned(id)) {
    const shown = cards.slice(-4).reverse().map(cardName).join(', ');
    return `${where}: ${plural(cards.length, 'card')}, from the top ${shown}` +
      (cards.length > 4 ? ', …' : '');
  }
  return `${where}: ${plural(cards.length, 'card')}, top ${top}`;
}

function drawPile(id, marks) {
  const el = S.piles[id];
  const g = S.geo;
  const slot = slotOf[id];
  const cards = id === 'stock' ? [] : (S.g.piles[id] || []);
  const frag = document.createDocumentFragment();
  let height = g.ch;
  el.classList.toggle('empty', id === 'stock' ? S.g.stock_count === 0 : !cards.length);
  if (id === 'stock') {
    const n = S.g.stock_count;
    if (n > 0) {
      if (n > 1) frag.appendChild(Object.assign(backEl(), { className: 'card back under' }));
      const top = backEl();
      if (marks.hintSrc === 'stock') top.classList.add('hint');
      if (S.sel && S.sel.pile === 'stock') top.classList.add('sel');
      if (S.lift && S.lift.pile === 'stock') top.classList.add('lifted');
      frag.appendChild(top);
    } else {
      const redeal = S.g.passes_left > 0 && S.legal.some((m) => m.deal);
      frag.appendChild(label(redeal ? '\u21bb' : '', redeal ? 'redeal' : 'none'));
    }
    if (n > 0) frag.appendChild(count(n));
  } else if (!cards.length) {
    if (id[0] === 'f' && cfg.showBase) {
      frag.appendChild(label(['', 'A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q',
        'K'][S.g.base_rank], 'base'));
    } else if (L.ways[id]) {
      frag.appendChild(label(ARROWS[L.ways[id]], 'arrow'));
    }
  } else {
    const lay = fan(g, g.rowH[slot.row], cards.length, fanned(id));
    const selFrom = S.sel && S.sel.pile === id ? cards.length - S.sel.n : Infinity;
    const hintFrom = marks.hintSrc === id ? cards.length - marks.hintN : Infinity;
    const liftFrom = S.lift && S.lift.pile === id ? cards.length - S.lift.n : Infinity;
    for (let i = lay.first; i < cards.length; i++) {
      const c = faceEl(cards[i]);
      c.dataset.i = i;
      c.style.top = (i - lay.first) * lay.off + 'px';
      if (i >= selFrom) c.classList.add('sel');
      if (i >= hintFrom) c.classList.add('hint');
      if (i >= liftFrom) c.classList.add('lifted');
      frag.appendChild(c);
    }
    height = g.ch + (cards.length - 1 - lay.first) * lay.off;
    if (fanned(id) ? lay.first > 0 || cards.length >= 6 : id === 'waste' && cards.length > 1) {
      frag.appendChild(count(cards.length));
    }
    if (L.ways[id]) frag.appendChild(badge(ARROWS[L.ways[id]]));
  }
  el.replaceChildren(frag);
  el.style.left = g.x(slot.col) + 'px';
  el.style.top = g.rowTop[slot.row] + 'px';
  el.style.height = height + 'px';
  el.classList.toggle('target', marks.targets.has(id));
  el.classList.toggle('hint-dst', marks.hintDst === id);
  el.classList.toggle('source', !!(S.sel && S.sel.pile === id));
  let text = pileLabel(id, cards);
  if (S.sel && S.sel.pile === id) text += '; picked up';
  else if (marks.targets.has(id)) text += '; can take the picked-up cards';
  el.setAttribute('aria-label', text);
}

function label(text, kind) {
  const s = document.createElement('span');
  s.className = 'slot-label ' + kind;
  s.textContent = text;
  s.setAttribute('aria-hidden', 'true');
  return s;
}

// which way a pile builds, where the game's piles do not all build the usual way (Penta)
const ARROWS = { up: '\u2191', down: '\u2193' };
function badge(arrow) {
  const s = document.createElement('span');
  s.className = 'way';
  s.textContent = arrow;
  s.setAttribute('aria-hidden', 'true');  // the pile's label says "builds up" or "builds down"
  return s;
}

function count(n) {
  const s = document.createElement('span');
  s.className = 'count';
  s.textContent = n;
  s.setAttribute('aria-hidden', 'true');
  return s;
}

function render() {
  if (!S.g) return;
  const hint = S.hint;
  const marks = {
    targets: targets(S.sel),
    hintSrc: hint ? hint.src : null,
    hintN: hint ? (hint.n || 1) : 0,
    hintDst: hint ? hint.dst : null,
  };
  for (const s of L.slots) drawPile(s.id, marks);
  drawBar();
  drawBanner();
}

function drawNote() {
  const note = $('note');
  if (!note) return;
  const g = S.g;
  const pass = cfg.passes - g.passes_left;
  let how;
  if (g.stock_count) {
    how = cfg.reserveRow ? 'Tap the stock to deal a card onto each reserve pile.'
      : 'Tap the stock to deal a card.';
  } else if (g.passes_left && S.legal.some((m) => m.deal)) {
    how = 'Tap the stock to redeal: the reserve piles are gathered, in order, and dealt again.';
  } else {
    how = 'The stock is used up.';
  }
  const dots = Array.from({ length: cfg.passes }, (_, i) => (i < pass ? '\u25cf' : '\u25cb'))
    .join(' ');
  note.replaceChildren();
  const a = document.createElement('p');
  a.textContent = how;
  const b = document.createElement('p');
  b.className = 'passes';
  b.textContent = cfg.passes > 1
    ? `Pass ${pass} of ${cfg.passes} ${dots} · ${plural(g.passes_left, 'redeal')} left`
    : 'One pass: no redeal';
  note.append(a, b);
}

function drawBar() {
  const g = S.g;
  drawNote();
  const link = $('deal-link');
  link.textContent = '#' + g.deal;
  link.href = `/play/${cfg.game}/${g.deal}`;
  if (cfg.showBase) $('base').textContent = RANK_WORDS[g.base_rank];
  if (cfg.passes > 1) $('passes').textContent = g.passes_left;
  $('moves').textContent = g.moves;
  $('stock-n').textContent = g.stock_count;
  tick();
  const playing = !g.finished;
  $('b-undo').disabled = !g.can_undo;
  $('b-redo').disabled = !g.can_redo;
  $('b-restart').disabled = !playing || !(g.moves || g.can_redo);
  $('b-restart2').disabled = $('b-restart').disabled;
  $('b-hint').disabled = !playing || g.status !== 'playing';
  const canFinish = playing && g.status === 'playing' && S.verdict === 'won' &&
    S.verdictAt === g.version;
  $('b-finish').disabled = !canFinish;
  $('b-finish').title = canFinish ? 'The solver has a winning line from here: play it out'
    : 'Offered once the solver has found a winning line from this position';
  $('b-resign').disabled = !playing;
  body.dataset.version = g.version;
  body.dataset.status = g.status;
  body.dataset.game = g.id;
}

function tick() {
  if (!S.g) return;
  const g = S.g;
  const running = !g.finished && g.status === 'playing';
  const secs = running ? S.clock.base + (performance.now() - S.clock.at) / 1000
    : g.elapsed_seconds;
  $('time').textContent = fmtTime(secs);
}

// ---------------------------------------------------------------- the end
function drawBanner() {
  const g = S.g;
  const box = $('banner');
  let kind = null;
  if (g.status === 'won') kind = 'won';
  else if (g.finished) kind = 'over';
  else if (g.status === 'lost') kind = 'stuck';
  else if (S.verdict === 'lost' && S.verdictAt === g.version && S.dismissed !== g.version) {
    kind = 'doomed';
  }
  if (box.dataset.kind === kind + g.version) return;
  box.dataset.kind = kind + g.version;
  if (!kind) {
    box.hidden = true;
    table.classList.remove('ended');
    return;
  }
  const title = {
    won: 'You won!',
    over: g.status === 'resigned' ? 'Game given up' : 'Game over',
    stuck: 'No moves left',
    doomed: 'This deal can no longer be won',
  }[kind];
  const text = {
    won: `Deal #${g.deal} won in ${plural(g.moves, 'move')} and ${fmtTime(g.elapsed_seconds)}.`,
    over: `Deal #${g.deal} is over.`,
    stuck: 'No legal move is left. Undo, restart the deal, or start a new one.',
    doomed: 'The solver has checked every line of play from here: none wins. ' +
      'Undo, restart, or start a new deal.',
  }[kind];
  const actions = [];
  if (kind === 'stuck' || kind === 'doomed') {
    if (g.can_undo) actions.push(['Undo', undo]);
    actions.push(['Restart', restart]);
  }
  actions.push(['New deal', () => newDeal(null, true)]);
  if (kind === 'won' || kind === 'over') {
    actions.push([`Play #${g.deal} again`, () => newDeal(g.deal, true)]);
  }
  if (kind === 'doomed') actions.push(['Keep playing', () => { S.dismissed = g.version; render(); }]);
  box.replaceChildren();
  const h = document.createElement('h2');
  h.textContent = title;
  const p = document.createElement('p');
  p.textContent = text;
  box.append(h, p);
  if (kind === 'won') {
    const st = document.createElement('p');
    st.className = 'stats';
    st.id = 'won-stats';
    st.textContent = 'Your statistics…';
    box.append(st);
    Api.stats().then((s) => {
      const e = s.games.find((x) => x.game === cfg.game);
      if (!e) return;
      st.textContent = `${cfg.name}: won ${e.won} of ${e.played}` +
        (e.win_rate === null ? '' : ` (${Math.round(e.win_rate * 100)}%)`) +
        ` · current streak ${e.current_streak}, best ${e.best_streak}` +
        (e.best_time_seconds === null ? '' : ` · best time ${fmtTime(e.best_time_seconds)}`) +
        (e.fewest_moves === null ? '' : ` · fewest moves ${e.fewest_moves}`) + '.';
    }).catch(() => { st.textContent = ''; });
  }
  const row = document.createElement('div');
  row.className = 'actions';
  for (const [name, fn] of actions) {
    const b = document.createElement('button');
    b.type = 'button';
    if (!row.children.length) b.className = 'button primary';
    b.textContent = name;
    b.addEventListener('click', fn);
    row.appendChild(b);
  }
  const stats = document.createElement('a');
  stats.href = '/stats';
  stats.textContent = 'Statistics';
  row.appendChild(stats);
  box.appendChild(row);
  box.className = 'banner ' + kind;
  box.hidden = false;
  table.classList.toggle('ended', kind !== 'doomed');
  if (kind === 'won' && table.contains(document.activeElement)) row.firstElementChild.focus();
}

// --------------------------------------------------------------- animation
function interrupt() {
  for (const a of S.anims) a.finish();
  S.anims.clear();
}

function snapshot() {
  const snap = { piles: {}, stock: S.piles.stock.getBoundingClientRect() };
  for (const s of L.slots) {
    const el = S.piles[s.id];
    const rects = {};
    let first = null;
    for (const c of el.querySelectorAll('.card[data-i]')) {
      rects[c.dataset.i] = c.getBoundingClientRect();
      if (!first) first = rects[c.dataset.i];
    }
    snap.piles[s.id] = { rects, first: first || el.getBoundingClientRect() };
  }
  return snap;
}

function animate(prev, next, snap, ghost) {
  const removed = [];
  const added = [];
  for (const s of L.slots) {
    if (s.id === 'stock') continue;
    const a = prev.piles[s.id] || [];
    const b = next.piles[s.id] || [];
    let p = 0;
    while (p < a.length && p < b.length && a[p] === b[p]) p++;
    const sp = snap.piles[s.id];
    for (let k = p; k < a.length; k++) {
      removed.push({ pile: s.id, text: a[k], rect: sp.rects[k] || sp.first, used: false });
    }
    for (let k = p; k < b.length; k++) added.push({ pile: s.id, k, from: k - p, text: b[k] });
  }
  let delay = 0;
  const step = added.length > 12 ? 12 : 25;
  for (const a of added) {
    let from = null;
    if (ghost && ghost.dst === a.pile && ghost.rects[a.from]) from = ghost.rects[a.from];
    if (!from) {
      const r = removed.find((x) => !x.used && x.text === a.text && x.pile !== a.pile) ||
        removed.find((x) => !x.used && x.text === a.text);
      if (r) {
        r.used = true;
        from = r.rect;
      }
    }
    if (!from) from = snap.stock;
    const el = S.piles[a.pile].querySelector(`.card[data-i="${a.k}"]`);
    if (el) {
      fly(el, from, delay);
      delay += a.pile[0] === 'r' || added.length > 3 ? step : 0;
    }
  }
}

function fly(el, from, delay) {
  const to = el.getBoundingClientRect();
  const dx = from.left - to.left;
  const dy = from.top - to.top;
  if (Math.abs(dx) + Math.abs(dy) < 2) return;
  const dist = Math.hypot(dx, dy);
  el.classList.add('flying');
  const anim = el.animate(
    [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'translate(0, 0)' }],
    { duration: Math.min(260, 110 + dist / 6), delay, easing: 'cubic-bezier(.2,.75,.3,1)',
      fill: 'backwards' });
  S.anims.add(anim);
  const done = () => {
    el.classList.remove('flying');
    S.anims.delete(anim);
  };
  anim.onfinish = done;
  anim.oncancel = done;
}

// ----------------------------------------------------------------- state
function show(state, opts = {}) {
  const prev = S.g;
  const snap = prev && prev.id === state.id && opts.animate !== false && !motion.matches
    ? snapshot() : null;
  interrupt();
  S.g = state;
  S.legal = state.legal_moves.map(parseMove);
  S.sel = null;
  S.lift = null;
  if (!opts.keepHint) S.hint = null;
  S.clock = { base: state.elapsed_seconds, at: performance.now() };
  if (prev && prev.id !== state.id) {
    S.verdict = null;
    S.verdictAt = -1;
  }
  if (opts.verdict) {  // a deal the solver has won already
    S.verdict = opts.verdict;
    S.verdictAt = state.version;
  }
  if (S.verdict === 'lost' && opts.forward && S.verdictAt === state.version - 1) {
    S.verdictAt = state.version; // a move from a lost position leads to a lost position
  }
  render();
  if (snap) animate(prev, state, snap, opts.ghost);
  if (opts.ghost) opts.ghost.remove();
  watchSoon();
  if (state.status !== (prev && prev.id === state.id ? prev.status : 'playing')) ended();
}

function ended() {
  const g = S.g;
  if (g.status === 'won') {
    say(`You won deal #${g.deal} in ${plural(g.moves, 'move')} and ` +
      `${fmtTime(g.elapsed_seconds)}!`, 'good');
  } else if (g.status === 'lost' && !g.finished) {
    say('No moves left: undo, restart or start a new deal.', 'error');
  } else if (g.status === 'resigned') {
    say(`Deal #${g.deal} given up.`);
  }
}

function describe(prev, next, m) {
  if (m.deal) {
    if (prev.stock_count === 0) {
      return (cfg.reserveRow ? 'Redeal: the reserve piles were gathered and dealt again; '
        : 'Redeal: the waste was turned over as the new stock; ') +
        `${plural(next.passes_left, 'redeal')} left.`;
    }
    if (cfg.reserveRow) {
      return `Dealt a card onto the reserve piles; ${next.stock_count} left in the stock.`;
    }
    const w = next.piles.waste || [];
    return `Dealt ${w.length ? cardName(w[w.length - 1]) : 'a card'} to the waste; ` +
      `${next.stock_count} left in the stock.`;
  }
  const cards = (next.piles[m.dst] || []).slice(-m.n);
  const what = cards.length === 1 ? cardName(cards[0])
    : `${cards.length} cards, ${cards.map(cardShort).join(' ')},`;
  let text = `${what} from ${pileWords(m.src)} to ${pileWords(m.dst)}.`;
  for (const s of L.slots) {   // refills the move forced (Czarina, Corners)
    if (s.id === m.dst || s.id === 'waste' || s.id === 'stock') continue;
    const a = prev.piles[s.id] || [];
    const b = next.piles[s.id] || [];
    let p = 0;
    while (p < a.length && p < b.length && a[p] === b[p]) p++;
    if (b.length > p) {
      text += ` ${cap(pileWords(s.id))} refilled from the stock with ${cardName(b[b.length - 1])}.`;
    }
  }
  return text;
}
const cap = (s) => s[0].toUpperCase() + s.slice(1);

// -------------------------------------------------------------- playing
function play(text, opts = {}) {
  return run(async () => {
    const g = S.g;
    if (!g) return false;
    const m = parseMove(text);
    let next;
    try {
      next = await Api.move(g.id, text, g.version);
    } catch (e) {
      if (e instanceof ApiError && e.status === 400) {
        say(`That move is not allowed: ${reason(e.detail)}`, 'error');
        S.sel = null;
        if (opts.onFail) opts.onFail();
        else render();
        return false;
      }
      if (opts.onFail) opts.onFail();
      throw e;
    }
    show(next, { ghost: opts.ghost, forward: true });
    if (next.status === 'playing') say(describe(g, next, m));
    return true;
  });
}

function act(name, words) {
  return run(async () => {
    if (!S.g) return false;
    const next = await Api.act(S.g.id, name, S.g.version);
    show(next);
    say(words(next));
    return true;
  });
}

const undo = () => (S.g && S.g.can_undo ? act('undo', (g) => `Move taken back (${plural(g.moves, 'move')} now).`) : say('There is no move to undo.'));
const redo = () => (S.g && S.g.can_redo ? act('redo', () => 'Move played again.') : say('There is no move to redo.'));

function restart() {
  if (!S.g || S.g.finished) return;
  if (S.g.moves && !confirm('Restart this deal from its first position?')) return;
  act('restart', () => `Deal #${S.g.deal} restarted.`);
}

function resign() {
  if (!S.g || S.g.finished) return;
  if (!confirm('Give this deal up? It counts as a game played and lost.')) return;
  act('resign', () => `Deal #${S.g.deal} given up.`);
}

function winnableOnly() {
  return !cfg.noWinnable && $('opt-winnable').checked;
}

function newDeal(deal = null, asked = false) {
  const g = S.g;
  if (!asked && g && !g.finished && g.moves > 0 &&
      !confirm('Start a new deal? This one is not finished: it will count as lost.')) {
    return Promise.resolve(false);
  }
  return run(async () => {
    const winnable = deal === null && winnableOnly();
    say(winnable ? 'Looking for a deal the solver can win…' : 'Dealing…');
    const next = winnable ? await solver(() => Api.newGame(cfg.game, null, true))
      : await Api.newGame(cfg.game, deal);
    started(next, winnable);
    say(`Deal #${next.deal}` + (next.winnable_only ? ': the solver has won it.' : '.'));
    return true;
  });
}

function started(state, winnable) {
  S.dismissed = -1;
  show(state, { animate: false, verdict: winnable ? 'won' : null });
  history.replaceState(null, '', `/play/${cfg.game}/${state.deal}`);
}

function deal() {
  if (!S.g || S.g.finished) return;
  S.sel = null;
  play('deal');
}

function toFoundation(pile, quiet = false) {
  const m = legalFrom(pile).find((x) => x.n === 1 && x.dst && x.dst[0] === 'f');
  if (!m) {
    if (!quiet) {
      const cards = S.g.piles[pile] || [];
      say(cards.length ? `No foundation takes the ${cardName(cards[cards.length - 1])} now.`
        : 'There is no card there.', 'error');
    }
    return false;
  }
  S.sel = null;
  play(m.text);
  return true;
}

// ---------------------------------------------------------- the solver
// Once the player pauses, the solver is asked whether the position can still be won: that
// offers auto-finish, or says that the deal is lost. When it cannot tell in time (or is
// busy), it is left alone for the next few positions, to spare the server.
let watchTimer = 0;
let watchRest = 0;
function watchSoon() {
  clearTimeout(watchTimer);
  const g = S.g;
  if (!g || g.finished || g.status !== 'playing') return;
  if (S.verdictAt === g.version && S.verdict !== 'unknown') return;
  if (watchRest > 0) {
    watchRest -= 1;
    return;
  }
  watchTimer = setTimeout(watch, 900);
}

async function watch() {
  const g = S.g;
  if (!g || g.finished || g.status !== 'playing') return;
  const { id, version } = g;
  let r;
  try {
    r = await solver(() => (S.g && S.g.version === version ? Api.winnable(id) : null));
  } catch {
    watchRest = 3;
    return;
  }
  if (r && r.status === 'unknown') watchRest = 2;
  if (r && S.g && S.g.id === id && S.g.version === version && r.version === version) {
    verdict(r.status, version);
  }
}

function verdict(status, version) {
  S.verdict = status;
  S.verdictAt = version;
  render();
  if (status === 'lost') {
    say('This deal can no longer be won: the solver has checked every line from here.',
      'error');
  }
}

function hint() {
  const g = S.g;
  if (!g || g.finished || g.status !== 'playing') return;
  say('Asking the solver… Hints know the order of the stock.');
  const { id, version } = g;
  solver(() => Api.hint(id)).then((r) => {
    if (!S.g || S.g.id !== id || S.g.version !== version || r.version !== version) return;
    if (r.status === 'won') verdict('won', version);
    if (r.status === 'lost') {
      verdict('lost', version);
      return;
    }
    if (!r.move) {
      say('The solver has no move to suggest. Hints know the order of the stock.');
      return;
    }
    S.hint = parseMove(r.move);
    S.sel = null;
    render();
    const m = S.hint;
    let what;
    if (m.deal) what = S.g.stock_count ? 'deal from the stock' : 'redeal';
    else {
      const cards = m.src === 'stock' ? [] : (S.g.piles[m.src] || []).slice(-m.n);
      const name = cards.length === 1 ? `the ${cardName(cards[0])}`
        : cards.length ? `${cards.length} cards` : 'the next stock card';
      what = `move ${name} from ${pileWords(m.src)} to ${pileWords(m.dst)}`;
    }
    const why = r.status === 'won' ? 'it is on a winning line'
      : 'a best guess: the solver could not decide in time';
    say(`Hint: ${what} (${r.move}), ${why}. Hints know the order of the stock.`, 'hint');
  }).catch((e) => say(e instanceof ApiError ? prettyCards(e.detail) : 'The hint failed.',
    'error'));
}

function autofinish() {
  const g = S.g;
  if (!g || g.finished) return;
  if ($('b-finish').disabled) {
    say('Auto-finish is offered once the solver has found a winning line from here: ' +
      'ask for a hint, or wait a moment after your move.');
    return;
  }
  run(async () => {
    say('Playing out the winning line…');
    const r = await solver(() => Api.autofinish(S.g.id, S.g.version));
    show(r.state);
    if (r.status !== 'won') {
      verdict(r.status, r.state.version);
      say(r.message, 'error');
    }
  });
}

// ------------------------------------------------------ pointer and keys
function sourceOf(pile, index) {
  // the cards a pointer on `index` of `pile` picks up (null: nothing to pick up there)
  if (!S.g || S.g.finished) return null;
  if (pile === 'stock') {
    return S.legal.some((m) => m.src === 'stock' && !m.deal) ? { pile, n: 1 } : null;
  }
  const cards = S.g.piles[pile] || [];
  if (!cards.length) return null;
  let n = index < 0 ? 1 : cards.length - index;
  if (n > 1) {
    const legal = S.legal.some((m) => m.src === pile && m.n === n);
    if (!legal && !(cfg.runs && pile[0] === 't')) n = 1;
  }
  return { pile, n };
}

function select(src, words = true) {
  S.sel = src;
  S.hint = null;
  render();
  if (!words) return;
  const cards = src.pile === 'stock' ? [] : (S.g.piles[src.pile] || []).slice(-src.n);
  const what = src.pile === 'stock' ? 'the next stock card'
    : cards.length === 1 ? cardName(cards[0]) : `${cards.length} cards (${cards.map(cardShort).join(' ')})`;
  const t = [...targets(src)];
  say(`Picked up ${what} from ${pileWords(src.pile)}. ` + (t.length
    ? `It can go to ${t.map(pileWords).join(', ')}.`
    : 'No pile takes it now; choose one anyway to hear why.'));
}

function cancel() {
  if (S.sel) {
    S.sel = null;
    render();
    say('Put back.');
  }
  S.hint = null;
}

function tap(pile, index) {
  if (!S.g) return;
  const now = performance.now();
  const double = S.lastTap && S.lastTap.pile === pile && now - S.lastTap.t < 420;
  S.lastTap = double ? null : { pile, t: now };
  if (S.g.finished) return;
  if (double && pile !== 'stock') {
    if (toFoundation(pile, true)) return;
    if ((S.g.piles[pile] || []).length) {
      const cards = S.g.piles[pile];
      say(`No foundation takes the ${cardName(cards[cards.length - 1])} now.`);
      return;
    }
  }
  if (pile === 'stock') {
    if (S.sel && S.sel.pile === 'stock') return cancel();
    S.sel = null;
    return deal();
  }
  if (S.sel) {
    if (S.sel.pile === pile) {
      const again = sourceOf(pile, index);
      if (again && again.n !== S.sel.n && index >= 0) return select(again);
      return cancel();
    }
    const n = S.sel.n;
    const from = S.sel.pile;
    if (!targets(S.sel).has(pile)) {
      const other = sourceOf(pile, index);
      if (other && legalFrom(pile).length && (S.g.piles[pile] || []).length) {
        return select(other);
      }
    }
    S.sel = null;
    S.lastTap = null;  // a tap that puts cards down does not start a double tap
    return play(moveText(from, pile, n));
  }
  const src = sourceOf(pile, index);
  if (src) select(src);
}

function activate(pile, { space = false } = {}) {
  // Enter or Space on a pile: pick up, pick up more, put down, or deal
  if (!S.g || S.g.finished) return;
  if (!S.sel) {
    if (pile === 'stock') {
      if (space && sourceOf('stock', 0)) return select({ pile: 'stock', n: 1 });
      return deal();
    }
    const cards = S.g.piles[pile] || [];
    if (!cards.length) return say(`${cap(pileWords(pile))} is empty.`);
    return select({ pile, n: 1 });
  }
  if (S.sel.pile === pile) {
    const sizes = [...new Set([1, ...legalFrom(pile).filter((m) => m.dst).map((m) => m.n)])]
      .sort((a, b) => a - b);
    const next = sizes.find((k) => k > S.sel.n);
    return next ? select({ pile, n: next }) : cancel();
  }
  const { pile: from, n } = S.sel;
  S.sel = null;
  play(moveText(from, pile, n));
}

function drop(src, dst, ghost) {
  if (dst === src.pile || !dst) {
    ghost.back();
    return;
  }
  S.sel = null;
  play(moveText(src.pile, dst, src.n), {
    ghost: { dst, rects: ghost.rects(), remove: ghost.remove },
    onFail: ghost.back,
  });
}

function focusPile(id) {
  if (!S.piles[id]) return;
  if (S.focus && S.piles[S.focus]) S.piles[S.focus].tabIndex = -1;
  S.focus = id;
  S.piles[id].tabIndex = 0;
  S.piles[id].focus();
}

function moveFocus(dir) {
  const g = S.geo;
  const centre = (id) => {
    const s = slotOf[id];
    return [g.x(s.col) + g.cw / 2, g.rowTop[s.row] + g.ch / 2];
  };
  const [x0, y0] = centre(S.focus);
  let best = null;
  let bestScore = Infinity;
  for (const s of L.slots) {
    if (s.id === S.focus) continue;
    const [x, y] = centre(s.id);
    const dx = x - x0;
    const dy = y - y0;
    const along = { left: -dx, right: dx, up: -dy, down: dy }[dir];
    const across = dir === 'left' || dir === 'right' ? Math.abs(dy) : Math.abs(dx);
    if (along <= 1) continue;
    const score = along + across * 2.5;
    if (score < bestScore) {
      bestScore = score;
      best = s.id;
    }
  }
  if (best) focusPile(best);
}

function targetRects() {
  const g = S.geo;
  const box = table.getBoundingClientRect();
  return L.slots.map((s) => ({
    id: s.id,
    left: box.left + g.x(s.col),
    top: box.top + g.rowTop[s.row],
    right: box.left + g.x(s.col) + g.cw,
    bottom: box.top + g.rowTop[s.row] + Math.max(g.ch, S.piles[s.id].offsetHeight,
      Math.min(g.rowH[s.row], g.ch * 2)),
  }));
}

const ctl = {
  table, interrupt, sourceOf, targets, tap, activate, drop, cancel, deal, hint, undo, redo,
  autofinish, toFoundation, moveFocus, focusPile, targetRects,
  get focus() { return S.focus; },
  lift(src) {
    S.sel = src;
    S.lift = src;
    S.hint = null;
    render();
  },
  unlift() {
    S.sel = null;
    S.lift = null;
    render();
  },
  cardsOf(src) {
    const els = [...S.piles[src.pile].querySelectorAll('.card')];
    return src.pile === 'stock' ? els.slice(-1) : els.filter((c) => c.dataset.i !== undefined)
      .slice(-src.n);
  },
  help: () => $('help').showModal(),
};

// ------------------------------------------------------------ start up
function controls() {
  $('b-new').addEventListener('click', () => newDeal());
  $('b-restart').addEventListener('click', restart);
  $('b-restart2').addEventListener('click', () => {
    $('more').open = false;
    restart();
  });
  $('b-undo').addEventListener('click', undo);
  $('b-redo').addEventListener('click', redo);
  $('b-hint').addEventListener('click', hint);
  $('b-finish').addEventListener('click', autofinish);
  $('b-resign').addEventListener('click', resign);
  $('b-help').addEventListener('click', () => {
    $('more').open = false;
    $('help').showModal();
  });
  $('help-link').addEventListener('click', () => $('help').showModal());
  for (const el of document.querySelectorAll('[data-close]')) {
    el.addEventListener('click', () => el.closest('dialog').close());
  }
  const win = $('opt-winnable');
  win.checked = localStorage.getItem('patience.winnable') === '1';
  if (cfg.noWinnable) {  // no deal measured was won: nothing to offer
    win.checked = false;
    win.disabled = true;
    win.parentElement.title = `Not for ${cfg.name}: ${cfg.noWinnable}.`;
  }
  win.addEventListener('change', () => {
    localStorage.setItem('patience.winnable', win.checked ? '1' : '0');
    say(win.checked ? 'New deals will be deals the solver has won.' : 'New deals will be any deal.');
  });
  const four = $('opt-four');
  four.checked = localStorage.getItem('patience.fourColour') === '1';
  body.classList.toggle('four-colour', four.checked);
  four.addEventListener('change', () => {
    localStorage.setItem('patience.fourColour', four.checked ? '1' : '0');
    body.classList.toggle('four-colour', four.checked);
  });
  $('deal-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const n = Number($('deal-number').value);
    if (!Number.isSafeInteger(n) || n < 0) return say('A deal number is a whole number.', 'error');
    $('more').open = false;
    newDeal(n);
  });
  $('copy-link').addEventListener('click', async () => {
    const url = new URL(`/play/${cfg.game}/${S.g.deal}`, location.href).href;
    try {
      await navigator.clipboard.writeText(url);
      say(`Link copied: ${url}`);
    } catch {
      say(`The link to this deal: ${url}`);
    }
  });
  $('feedback').addEventListener('submit', async (e) => {
    e.preventDefault();
    const text = $('fb-text').value.trim();
    const out = $('fb-status');
    if (!text) {
      out.textContent = 'Write something first.';
      return;
    }
    const payload = { message: text };
    if (S.g) payload.game_id = S.g.id;
    else payload.game = cfg.game;
    try {
      const r = await Api.feedback(payload);
      out.textContent = `${r.message} (message ${r.id}; the position was attached).`;
      $('fb-text').value = '';
    } catch (err) {
      out.textContent = err instanceof ApiError ? err.detail : 'Sending failed.';
    }
  });
  document.addEventListener('click', (e) => {  // close the "More" menu when clicking elsewhere
    const more = $('more');
    if (more.open && !more.contains(e.target)) more.open = false;
  });
}

async function load() {
  let state = null;
  let note = '';
  try {
    const { games } = await Api.games({ game: cfg.game, limit: 1 });
    const last = games[0];
    if (last && cfg.deal === null && !last.finished) state = await Api.game(last.id);
    else if (last && cfg.deal !== null && last.deal === cfg.deal) state = await Api.game(last.id);
    else if (last && cfg.deal !== null && !last.finished && last.moves > 0 &&
             !confirm(`You have an unfinished deal #${last.deal} of ${cfg.name}. Start deal ` +
                      `#${cfg.deal}? The unfinished one will count as lost.`)) {
      state = await Api.game(last.id);
    }
    if (state) note = `Welcome back: deal #${state.deal}, where you left it.`;
  } catch {
    state = null;
  }
  let winnable = false;
  if (!state) {
    winnable = cfg.deal === null && winnableOnly();
    try {
      state = winnable ? await solver(() => Api.newGame(cfg.game, null, true))
        : await Api.newGame(cfg.game, cfg.deal);
    } catch (e) {
      if (!winnable) throw e;
      winnable = false;
      note = `${e.detail} A deal that may not be winnable was dealt instead.`;
      state = await Api.newGame(cfg.game, null);
    }
    note = note || `Deal #${state.deal}. Drag cards, or tap a card and then a pile; ` +
      'press ? for the keys.';
  }
  started(state, winnable);
  say(note);
}

async function main() {
  buildPiles();
  measure();
  controls();
  initDrag(ctl);
  initKeys(ctl);
  table.addEventListener('focusin', (e) => {
    const p = e.target.closest('.pile');
    if (p && p.dataset.pile !== S.focus) {
      if (S.focus) S.piles[S.focus].tabIndex = -1;
      S.focus = p.dataset.pile;
      p.tabIndex = 0;
    }
  });
  let resizeTimer = 0;
  window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => { interrupt(); measure(); render(); }, 60);
  });
  setInterval(tick, 1000);
  try {
    await run(load);
  } finally {
    body.dataset.ready = '1';
    window.__tableReady = performance.now();
  }
}

main();
