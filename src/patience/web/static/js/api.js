// The JSON API of the server (/api): one function per endpoint. The first call sets the
// player cookie (HttpOnly), so the pages need no account and no script-visible identity.

export class ApiError extends Error {
  constructor(status, detail, retryAfter = null) {
    super(detail);
    this.status = status;
    this.detail = detail;
    this.retryAfter = retryAfter;
  }
}

export async function api(method, path, body) {
  const init = { method, headers: { Accept: 'application/json' }, credentials: 'same-origin' };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch('/api' + path, init);
  } catch {
    throw new ApiError(0, 'The server cannot be reached: check the connection and try again.');
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const detail = (data && typeof data.detail === 'string' && data.detail) ||
      `the server answered ${response.status} ${response.statusText}`;
    throw new ApiError(response.status, detail, response.headers.get('Retry-After'));
  }
  return data;
}

const enc = encodeURIComponent;

export const Api = {
  newGame: (game, deal = null, winnable = false) =>
    api('POST', '/games', deal === null ? { game, winnable } : { game, deal }),
  game: (id) => api('GET', `/games/${enc(id)}`),
  games: (query) => api('GET', '/games?' + new URLSearchParams(query)),
  move: (id, move, version) => api('POST', `/games/${enc(id)}/moves`, { move, version }),
  act: (id, name, version) => api('POST', `/games/${enc(id)}/${name}`, { version }),
  hint: (id) => api('GET', `/games/${enc(id)}/hint`),
  winnable: (id) => api('GET', `/games/${enc(id)}/winnable`),
  autofinish: (id, version) => api('POST', `/games/${enc(id)}/autofinish`, { version }),
  stats: () => api('GET', '/stats'),
  feedback: (body) => api('POST', '/feedback', body),
  me: () => api('GET', '/players/me'),
  exportCode: () => api('POST', '/players/restore-code'),
  restore: (code) => api('POST', '/players/restore', { code }),
};
