// The restore code: show this browser's, or take up another's.
import { Api, ApiError } from './api.js';

const $ = (id) => document.getElementById(id);

function showMe() {
  Api.me().then((p) => {
    $('me').textContent = p.created_at
      ? `You started on ${new Date(p.created_at * 1000).toLocaleDateString()} and have ` +
        `${p.games} game${p.games === 1 ? '' : 's'} here.`
      : 'You have not played here yet.';
    if (p.restore_code) show(p.restore_code);
  }).catch(() => { $('me').textContent = 'The server cannot be reached.'; });
}

function show(code) {
  $('code').textContent = code;
  $('code').hidden = false;
  $('code-note').hidden = false;
}

$('export').addEventListener('click', async () => {
  try {
    show((await Api.exportCode()).code);
  } catch (e) {
    $('code-note').hidden = false;
    $('code-note').textContent = e instanceof ApiError ? e.detail : 'That failed; try again.';
  }
});

$('restore').addEventListener('submit', async (e) => {
  e.preventDefault();
  const out = $('restore-status');
  try {
    const r = await Api.restore($('restore-code').value);
    out.textContent = `${r.message} (${r.player.games} game${r.player.games === 1 ? '' : 's'}).`;
    $('code').hidden = true;
    showMe();
  } catch (err) {
    out.textContent = err instanceof ApiError ? err.detail : 'That failed; try again.';
  }
});

showMe();
