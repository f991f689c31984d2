// The statistics page: per game from /api/stats, and the latest games from /api/games.
import { Api } from './api.js';

const fmtTime = (secs) => {
  if (secs === null || secs === undefined) return '—';
  const s = Math.round(secs);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return (h ? `${h}:${String(m).padStart(2, '0')}` : `${m}`) + `:${String(s % 60).padStart(2, '0')}`;
};
const pct = (x) => (x === null || x === undefined ? '—' : `${Math.round(x * 100)}%`);

const LABELS = ['Played', 'Won', 'Win rate', 'Streak', 'Best streak', 'Best time', 'Fewest moves'];

function cell(row, text, label) {
  const td = document.createElement('td');
  td.textContent = text;
  td.dataset.label = label;
  row.appendChild(td);
}

Api.stats().then((s) => {
  for (const g of s.games) {
    const row = document.querySelector(`tr[data-game="${CSS.escape(g.game)}"]`);
    if (!row) continue;
    row.querySelectorAll('td').forEach((td) => td.remove());
    [g.played, g.won, pct(g.win_rate), g.current_streak, g.best_streak,
      fmtTime(g.best_time_seconds), g.fewest_moves ?? '—']
      .forEach((v, i) => cell(row, String(v), LABELS[i]));
  }
  document.getElementById('t-played').textContent = s.played;
  document.getElementById('t-won').textContent = s.won;
  document.getElementById('t-rate').textContent = s.played ? pct(s.won / s.played) : '—';
}).catch(() => {
  document.getElementById('t-played').textContent = 'unavailable';
});

const names = Object.fromEntries([...document.querySelectorAll('tr[data-game]')]
  .map((tr) => [tr.dataset.game, tr.querySelector('a').textContent]));

Api.games({ limit: 20 }).then(({ games }) => {
  const list = document.getElementById('recent');
  document.getElementById('recent-empty').hidden = games.length > 0;
  for (const g of games) {
    const li = document.createElement('li');
    const when = new Date(g.started_at * 1000).toLocaleString();
    const what = g.finished ? `${g.status}, ${g.moves} moves, ${fmtTime(g.elapsed_seconds)}`
      : `unfinished, ${g.moves} moves`;
    const a = document.createElement('a');
    a.href = `/play/${g.game}/${g.deal}`;
    a.textContent = `${names[g.game] || g.game} #${g.deal}`;
    li.append(a, ` — ${what}${g.winnable_only ? ' (winnable deal)' : ''} · ${when}`);
    list.appendChild(li);
  }
}).catch(() => {
  const empty = document.getElementById('recent-empty');
  empty.textContent = 'The latest games are unavailable just now; reload the page to try again.';
  empty.hidden = false;
});
