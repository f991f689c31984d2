// The keyboard: arrows move between piles, Enter or Space picks up and puts down (again on
// the same pile: pick up more of a run, then put back), Escape puts back; D deals, F sends a
// card home, H hints, U / Ctrl+Z undoes, R / Ctrl+Y redoes, A auto-finishes, ? lists the keys.

const ARROWS = { ArrowLeft: 'left', ArrowRight: 'right', ArrowUp: 'up', ArrowDown: 'down' };

export function initKeys(ctl) {
  document.addEventListener('keydown', (e) => {
    if (e.defaultPrevented || e.isComposing) return;
    const t = e.target;
    const typing = t.closest && t.closest('input, textarea, select, [contenteditable]');
    const ctrl = e.ctrlKey || e.metaKey;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (ctrl && !e.altKey && !typing) {
      if (key === 'z' && !e.shiftKey) {
        e.preventDefault();
        ctl.undo();
      } else if (key === 'y' || (key === 'z' && e.shiftKey)) {
        e.preventDefault();
        ctl.redo();
      }
      return;
    }
    const menu = document.querySelector('details.more[open]');
    if (menu && e.key === 'Escape') {
      menu.open = false;
      menu.querySelector('summary').focus();
      return;
    }
    if (ctrl || e.altKey || typing || document.querySelector('dialog[open]')) return;
    const pile = t.closest && t.closest('#table .pile');
    if (ARROWS[e.key]) {
      if (!pile) return;
      e.preventDefault();
      ctl.moveFocus(ARROWS[e.key]);
      return;
    }
    if (e.key === 'Enter' || e.key === ' ') {
      if (!pile) return;
      e.preventDefault();
      ctl.activate(pile.dataset.pile, { space: e.key === ' ' });
      return;
    }
    const actions = {
      Escape: () => ctl.cancel(),
      d: () => ctl.deal(),
      f: () => ctl.toFoundation(ctl.focus),
      h: () => ctl.hint(),
      u: () => ctl.undo(),
      r: () => ctl.redo(),
      a: () => ctl.autofinish(),
      '?': () => ctl.help(),
      t: () => ctl.focusPile(ctl.focus),
    };
    const action = actions[key];
    if (action) {
      e.preventDefault();
      action();
    }
  });
}
