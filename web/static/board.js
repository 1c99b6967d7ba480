// The board picture: the server's SVG (board.svg) for a version, as the viewer may see it.
// It is shown through an <img> from a blob URL: a fetched picture carries the Authorization header and
// runs no script. When the server has no picture, the position's text form stands in for it.

import { fetchText, gamePath } from './api.js';
import { el } from './dom.js';

let currentUrl = null;
let request = 0;

function fallback(state) {
  if (!state) return el('p', {}, 'No picture of this position.');
  if (state.position && !state.seats) return el('pre', { className: 'position', 'data-testid': 'board-text' }, state.position.split('; ').join('\n'));
  if (Array.isArray(state.seats)) {
    return el('div', { className: 'position', 'data-testid': 'board-text' },
      state.seats.map((s) => el('pre', {}, `seat ${s.seat} (${s.planet})\n${(s.rows || []).map((row, r) => row.split('').map((c, i) => (c === '.' ? (s.grid[r][i] === '.' ? ' ' : '·') : c)).join('')).join('\n')}`)));
  }
  return el('pre', { className: 'position' }, JSON.stringify(state, null, 1).slice(0, 4000));
}

/** Draw version `at` (null: the latest) into `container`; `stateFor()` gives the state for the text fallback. */
export async function showBoard(container, { id, token, at, stateFor }) {
  const mine = ++request;
  const path = gamePath(id, '/board.svg') + (at ? `?at=${at}` : '');
  let picture = null;
  try {
    picture = await fetchText(path, { token });
  } catch {
    picture = null;
  }
  if (mine !== request) return;
  if (picture && picture.ok && picture.type.includes('svg')) {
    const url = URL.createObjectURL(new Blob([picture.text], { type: 'image/svg+xml' }));
    const img = el('img', { src: url, alt: `board at version ${at ?? 'latest'}`, 'data-testid': 'board-image', className: 'board-image' });
    container.replaceChildren(img);
    if (currentUrl) URL.revokeObjectURL(currentUrl);
    currentUrl = url;
    return;
  }
  const state = await stateFor();
  if (mine !== request) return;
  container.replaceChildren(fallback(state));
}
