// Cards as DOM: a face is a rank and a suit symbol (inline SVG from the page's sprite), so it
// is crisp at any size and never turns into an emoji. Move texts are parsed here too.

const RANKS = 'A23456789TJQK';
const LABELS = ['', 'A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'];
export const RANK_WORDS = ['', 'Ace', 'Two', 'Three', 'Four', 'Five', 'Six', 'Seven', 'Eight',
  'Nine', 'Ten', 'Jack', 'Queen', 'King'];
export const SUIT_WORDS = { C: 'clubs', D: 'diamonds', H: 'hearts', S: 'spades' };
const SUIT_SIGNS = { C: '\u2663\uFE0E', D: '\u2666\uFE0E', H: '\u2665\uFE0E', S: '\u2660\uFE0E' };

export const rankOf = (text) => RANKS.indexOf(text[0]) + 1;
export const cardName = (text) => `${RANK_WORDS[rankOf(text)]} of ${SUIT_WORDS[text[1]]}`;
export const cardShort = (text) => `${LABELS[rankOf(text)]}${SUIT_SIGNS[text[1]]}`;

// "KH does not go on 4D" -> "K♥ does not go on 4♦" (texts of the server's messages)
export const prettyCards = (text) =>
  text.replace(/\b([A2-9TJQK])([CDHS])\b/g, (m) => cardShort(m));

function suit(s, cls) {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('class', cls);
  svg.setAttribute('aria-hidden', 'true');
  const use = document.createElementNS('http://www.w3.org/2000/svg', 'use');
  use.setAttribute('href', '#s-' + s);
  svg.appendChild(use);
  return svg;
}

export function faceEl(text) {
  const rank = rankOf(text);
  const s = text[1];
  const el = document.createElement('div');
  el.className = `card s${s}` + (rank > 10 ? ' face' : '');
  el.dataset.c = text;
  el.setAttribute('role', 'img');
  el.setAttribute('aria-label', cardName(text));
  const ix = document.createElement('span');
  ix.className = 'ix';
  ix.textContent = LABELS[rank];
  ix.appendChild(suit(s, 'ixs'));
  el.appendChild(ix);
  if (rank > 10) {
    const big = document.createElement('span');
    big.className = 'big';
    big.textContent = LABELS[rank];
    el.appendChild(big);
  } else {
    el.appendChild(suit(s, 'pip'));
  }
  return el;
}

export function backEl() {
  const el = document.createElement('div');
  el.className = 'card back';
  el.setAttribute('role', 'img');
  el.setAttribute('aria-label', 'a face-down card');
  return el;
}

// 't2>t5x3' -> {text, src: 't2', dst: 't5', n: 3}; 'deal' -> {text, deal: true}
export function parseMove(text) {
  if (text === 'deal') return { text, deal: true, src: 'stock', dst: null, n: 0 };
  const m = /^([a-z]+\d*)>([a-z]+\d*)(?:x(\d+))?$/.exec(text);
  if (!m) return { text, src: null, dst: null, n: 0 };
  return { text, src: m[1], dst: m[2], n: m[3] ? Number(m[3]) : 1 };
}

export const moveText = (src, dst, n) => `${src}>${dst}` + (n > 1 ? `x${n}` : '');
