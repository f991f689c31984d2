// Pointer input (mouse, pen and touch alike): press and drag a card or a run, with the legal
// targets lit while dragging; a press without a drag is a tap (tap a card, then a pile; tap
// twice to send a card home; tap the stock to deal).

const DRAG_MOUSE = 5;   // px of movement before a press becomes a drag
const DRAG_TOUCH = 9;

export function initDrag(ctl) {
  const table = ctl.table;
  let P = null;         // the press being followed
  let pointerClick = false;

  function makeGhost(src) {
    const els = ctl.cardsOf(src);
    const start = els.map((el) => el.getBoundingClientRect());
    const layer = document.createElement('div');
    layer.className = 'ghost';
    layer.setAttribute('aria-hidden', 'true');
    els.forEach((el, i) => {
      const c = el.cloneNode(true);
      c.classList.remove('sel', 'hint', 'lifted', 'flying');
      c.style.left = start[i].left + 'px';
      c.style.top = start[i].top + 'px';
      layer.appendChild(c);
    });
    table.appendChild(layer);
    let over = null;
    let dx = 0;
    let dy = 0;
    const ghost = {
      src,
      moveTo(x, y) {
        dx = x;
        dy = y;
        layer.style.transform = `translate(${x}px, ${y}px)`;
      },
      rects: () => [...layer.children].map((c) => c.getBoundingClientRect()),
      target(px, py) {
        const first = layer.firstElementChild.getBoundingClientRect();
        let best = null;
        let area = 0;
        for (const r of ctl.targetRects()) {
          const w = Math.min(first.right, r.right) - Math.max(first.left, r.left);
          const h = Math.min(first.bottom, r.bottom) - Math.max(first.top, r.top);
          if (w > 0 && h > 0 && w * h > area) {
            area = w * h;
            best = r.id;
          }
        }
        if (!best) {
          const r = ctl.targetRects().find((t) => px >= t.left && px <= t.right &&
            py >= t.top && py <= t.bottom);
          best = r ? r.id : null;
        }
        return best;
      },
      hover(id) {
        if (id === over) return;
        if (over) document.getElementById('pile-' + over)?.classList.remove('over');
        over = id;
        if (id && id !== src.pile) document.getElementById('pile-' + id)?.classList.add('over');
      },
      remove() {
        ghost.hover(null);
        layer.remove();
      },
      back() {
        ghost.hover(null);
        const reduce = matchMedia('(prefers-reduced-motion: reduce)').matches;
        if (reduce || (Math.abs(dx) + Math.abs(dy) < 2)) {
          layer.remove();
          ctl.unlift();
          return;
        }
        const anim = layer.animate(
          [{ transform: `translate(${dx}px, ${dy}px)` }, { transform: 'translate(0, 0)' }],
          { duration: 160, easing: 'cubic-bezier(.3,.6,.3,1)', fill: 'forwards' });
        const done = () => {
          layer.remove();
          ctl.unlift();
        };
        anim.onfinish = done;
        anim.oncancel = done;
      },
    };
    return ghost;
  }

  table.addEventListener('pointerdown', (e) => {
    pointerClick = true;
    if (P || (e.pointerType === 'mouse' && e.button !== 0)) return;
    const pileEl = e.target.closest('.pile');
    if (!pileEl) return;
    const cardEl = e.target.closest('.card');
    ctl.interrupt();
    P = {
      id: e.pointerId,
      x: e.clientX,
      y: e.clientY,
      type: e.pointerType,
      pile: pileEl.dataset.pile,
      index: cardEl && cardEl.dataset.i !== undefined ? Number(cardEl.dataset.i) : -1,
      onCard: !!cardEl,
      drag: null,
      dead: false,
    };
  });

  table.addEventListener('pointermove', (e) => {
    if (!P || e.pointerId !== P.id) return;
    const dx = e.clientX - P.x;
    const dy = e.clientY - P.y;
    if (!P.drag) {
      if (P.dead || Math.hypot(dx, dy) < (P.type === 'mouse' ? DRAG_MOUSE : DRAG_TOUCH)) return;
      const src = P.onCard ? ctl.sourceOf(P.pile, P.index) : null;
      if (!src || document.body.dataset.busy === '1') {
        P.dead = true;
        return;
      }
      P.drag = makeGhost(src);
      try {
        table.setPointerCapture(P.id);
      } catch { /* the pointer is gone already */ }
      ctl.lift(src);
    }
    e.preventDefault();
    P.drag.moveTo(dx, dy);
    P.drag.hover(P.drag.target(e.clientX, e.clientY));
  });

  table.addEventListener('pointerup', (e) => {
    if (!P || e.pointerId !== P.id) return;
    const p = P;
    P = null;
    if (p.drag) {
      const dst = p.drag.target(e.clientX, e.clientY);
      p.drag.hover(null);
      ctl.drop(p.drag.src, dst, p.drag);
    } else if (!p.dead) {
      ctl.tap(p.pile, p.index);
    }
  });

  table.addEventListener('pointercancel', (e) => {
    if (!P || e.pointerId !== P.id) return;
    if (P.drag) P.drag.back();
    P = null;
  });

  // a click that no pointer made (a screen reader's "activate"): like Enter on the pile
  table.addEventListener('click', (e) => {
    const had = pointerClick;
    pointerClick = false;
    if (had) return;
    const pileEl = e.target.closest('.pile');
    if (pileEl) ctl.activate(pileEl.dataset.pile);
  });

  table.addEventListener('contextmenu', (e) => {
    if (e.target.closest('.pile')) e.preventDefault();
  });
}
