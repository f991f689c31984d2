// The lobby: mark the games with an unfinished deal, to take it up again.
import { Api } from './api.js';

Api.games({ finished: false, limit: 50 }).then(({ games }) => {
  for (const g of games) {
    const el = document.querySelector(`.game[data-game="${CSS.escape(g.game)}"] .resume`);
    if (!el || !el.hidden) continue;
    el.hidden = false;
    const a = document.createElement('a');
    a.href = `/play/${g.game}`;
    a.textContent = `Continue deal #${g.deal}`;
    el.append(a, ` (${g.moves} move${g.moves === 1 ? '' : 's'})`);
  }
}).catch(() => {});
