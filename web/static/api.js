// Calls to the JSON API on this server. A token only ever travels in the Authorization header.

export class ApiError extends Error {
  constructor(status, code, message, body) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

function headersFor(token, extra = {}) {
  const headers = { Accept: 'application/json', ...extra };
  if (token) headers.Authorization = `Bearer ${token}`;
  return headers;
}

/** A JSON request; resolves to the parsed body, rejects with an ApiError that carries the API's message. */
export async function api(path, { method = 'GET', token = null, body, headers = {}, signal } = {}) {
  const init = { method, headers: headersFor(token, headers), signal, cache: 'no-cache' };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network', 'The server cannot be reached.', null);
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = data && data.error ? data.error : {};
    throw new ApiError(response.status, error.code || 'http_error', error.message || `HTTP ${response.status}`, data);
  }
  return data;
}

/** A text resource (the board's SVG); resolves to {ok, status, text, type}. */
export async function fetchText(path, { token = null, signal } = {}) {
  const response = await fetch(path, { headers: headersFor(token, { Accept: 'image/svg+xml' }), signal, cache: 'no-cache' });
  return { ok: response.ok, status: response.status, text: await response.text(), type: response.headers.get('Content-Type') || '' };
}

export const gamePath = (id, rest = '') => `/v1/games/${encodeURIComponent(id)}${rest}`;

let catalogPromise = null;
/** The catalog (games, options, bots, Planet Unknown's tiles), fetched once per page. */
export function catalog() {
  if (!catalogPromise) catalogPromise = api('/v1/catalog');
  return catalogPromise;
}
