// Play Planet Unknown as a seat: pick a tile from the station, rotate or flip it, hover the planet to
// see where it fits (from the legal moves), click to place; then answer each choice as a button.

import { el } from './dom.js';
import { planetUnknownText } from './notation.js';

const SIZE = 12;
const LETTERS = 'abcdefghijkl';
const ROTATIONS = [0, 90, 180, 270];

const squareName = (row, col) => `${LETTERS[col]}${row + 1}`;
const parseSquare = (name) => ({ row: Number(name.slice(1)) - 1, col: LETTERS.indexOf(name[0]) });

/** A tile's squares flipped (left-right), turned clockwise, top-left of the bounding box at (0, 0). */
export function orient(squares, rotation, flip) {
  const cells = squares.map((s) => {
    const at = parseSquare(s.square);
    let r = at.row;
    let c = flip ? -at.col : at.col;
    for (let i = 0; i < rotation / 90; i += 1) [r, c] = [c, -r];
    return { r, c, terrain: s.terrain, icon: s.icon, meteor: s.meteor };
  });
  const top = Math.min(...cells.map((x) => x.r));
  const left = Math.min(...cells.map((x) => x.c));
  return cells.map((x) => ({ ...x, r: x.r - top, c: x.c - left })).sort((a, b) => a.r - b.r || a.c - b.c);
}

const pictureKey = (cells) => cells.map((x) => `${x.r},${x.c},${x.terrain},${x.icon},${x.meteor}`).join(';');

/** The orientation the rules list for this picture: the first of (0, F), (90, F), …, (0, T), … that prints the same. */
export function canonical(squares, rotation, flip) {
  const key = pictureKey(orient(squares, rotation, flip));
  for (const f of [false, true]) {
    for (const r of ROTATIONS) {
      if (pictureKey(orient(squares, r, f)) === key) return { rotation: r, flip: f };
    }
  }
  return { rotation, flip };
}

function tilePicture(cells) {
  const rows = Math.max(...cells.map((x) => x.r)) + 1;
  const cols = Math.max(...cells.map((x) => x.c)) + 1;
  const box = el('div', { className: 'tile-shape', style: `grid-template-columns: repeat(${cols}, 1fr); grid-template-rows: repeat(${rows}, 1fr)` });
  for (const x of cells) {
    box.append(el('span', { className: `cell t-${x.terrain}${x.icon ? ' icon' : ''}${x.meteor ? ' meteor' : ''}`, style: `grid-row: ${x.r + 1}; grid-column: ${x.c + 1}` }));
  }
  return box;
}

/** Show the play panel in `panel`; `send(move)` posts a move and resolves to whether it was accepted. */
export function mount(panel, { state, seat, legal, send, catalog }) {
  const tiles = new Map(catalog.planet_unknown.tiles.map((t) => [t.id, t]));
  const places = legal.moves.filter((m) => m && m.action === 'place');
  const others = legal.moves.filter((m) => m && m.action !== 'place');
  const offered = [...new Set(places.map((m) => m.tile))];
  const mine = (state.seats || []).find((s) => s.seat === seat) || null;
  let tile = offered.length === 1 ? offered[0] : null;
  let rotation = 0;
  let flip = false;
  let hover = null;

  const oriented = () => orient(tiles.get(tile).squares, rotation, flip);
  const canon = () => canonical(tiles.get(tile).squares, rotation, flip);

  /** The placement whose first (top-left) square lies on `row`, `col`: {anchor, cells} or null off the frame. */
  function placementAt(row, col) {
    const cells = oriented();
    const first = cells[0];
    const ar = row - first.r;
    const ac = col - first.c;
    const covered = cells.map((x) => ({ row: ar + x.r, col: ac + x.c }));
    if (ar < 0 || ac < 0 || covered.some((x) => x.row >= SIZE || x.col >= SIZE)) return null;
    return { anchor: squareName(ar, ac), cells: covered };
  }

  function legalPlacement(anchor) {
    const c = canon();
    return places.find((m) => m.tile === tile && m.anchor === anchor && m.rotation === c.rotation && !!m.flip === c.flip) || null;
  }

  function firstSquares() {
    const c = canon();
    const first = oriented()[0];
    const out = new Set();
    for (const m of places) {
      if (m.tile !== tile || m.rotation !== c.rotation || !!m.flip !== c.flip) continue;
      const a = parseSquare(m.anchor);
      out.add(squareName(a.row + first.r, a.col + first.c));
    }
    return out;
  }

  async function submit(move) {
    for (const b of panel.querySelectorAll('button')) b.disabled = true;
    if (!(await send(move))) render();
  }

  function place(row, col) {
    if (tile === null) return;
    const at = placementAt(row, col);
    const c = canon();
    if (!at) {
      panel.querySelector('.pu-note').textContent = 'The tile would leave the planet there.';
      return;
    }
    submit({ action: 'place', tile, anchor: at.anchor, rotation: c.rotation, flip: c.flip });
  }

  function paintHover(grid) {
    for (const cell of grid.querySelectorAll('.fit, .nofit')) cell.classList.remove('fit', 'nofit');
    if (tile === null || !hover) return;
    const at = placementAt(hover.row, hover.col);
    if (!at) return;
    const ok = !!legalPlacement(at.anchor);
    for (const x of at.cells) {
      const cell = grid.querySelector(`[data-square="${squareName(x.row, x.col)}"]`);
      if (cell) cell.classList.add(ok ? 'fit' : 'nofit');
    }
  }

  function planetGrid() {
    const starts = tile === null ? new Set() : firstSquares();
    const grid = el('div', { className: 'pu-grid', 'data-testid': 'pu-grid', onmouseleave: () => { hover = null; paintHover(grid); } });
    for (let row = 0; row < SIZE; row += 1) {
      for (let col = 0; col < SIZE; col += 1) {
        const name = squareName(row, col);
        const printed = mine ? mine.grid[row][col] : 'L';
        const cover = mine && mine.rows ? mine.rows[row][col] : '.';
        const cell = el('button', {
          type: 'button', className: `sq p-${printed === '.' ? 'off' : printed}${cover !== '.' ? ` c-${cover}` : ''}${starts.has(name) ? ' can-start' : ''}`,
          'data-testid': 'pu-square', dataset: { square: name }, title: name, 'aria-label': name,
          onmouseenter: () => { hover = { row, col }; paintHover(grid); },
          onfocus: () => { hover = { row, col }; paintHover(grid); },
          onclick: () => place(row, col),
        }, cover !== '.' ? cover : '');
        grid.append(cell);
      }
    }
    return grid;
  }

  function station() {
    return el('div', { className: 'pu-station', 'data-testid': 'pu-station' },
      offered.map((id) => el('button', {
        type: 'button', className: `pu-tile${id === tile ? ' selected' : ''}`, 'data-testid': 'pu-station-tile', dataset: { tile: String(id) },
        'aria-pressed': String(id === tile), title: `tile ${id} (${tiles.get(id).shape})`,
        onclick: () => { tile = id; rotation = 0; flip = false; render(); },
      }, tilePicture(orient(tiles.get(id).squares, id === tile ? rotation : 0, id === tile ? flip : false)), el('span', {}, `${id}`))));
  }

  function render() {
    const parts = [el('h2', {}, 'Your move')];
    if (offered.length) {
      parts.push(el('p', {}, 'Pick a tile, turn it, then click where its top-left square goes (green: it fits).'), station(),
        el('div', { className: 'buttons' },
          el('button', { type: 'button', className: 'secondary', 'data-testid': 'pu-rotate', disabled: tile === null,
            onclick: () => { rotation = (rotation + 90) % 360; render(); } }, '⟳ Rotate'),
          el('button', { type: 'button', className: 'secondary', 'data-testid': 'pu-flip', disabled: tile === null, 'aria-pressed': String(flip),
            onclick: () => { flip = !flip; render(); } }, '⇋ Flip'),
          el('span', { className: 'orientation', 'data-testid': 'pu-orientation' }, tile === null ? '' : `tile ${tile}, ${rotation}°${flip ? ', flipped' : ''}`)),
        el('p', { className: 'pu-note note', 'data-testid': 'pu-note' }),
        planetGrid());
    }
    if (others.length) {
      parts.push(el('div', { className: 'pu-choices', 'data-testid': 'pu-choices' },
        el('p', {}, offered.length ? 'Or:' : 'Choose:'),
        others.map((m) => el('button', { type: 'button', className: 'option', 'data-testid': 'pu-choice', dataset: { action: m.action, move: planetUnknownText(m) },
          onclick: () => submit(m) }, planetUnknownText(m)))));
    }
    if (!offered.length && !others.length) parts.push(el('p', {}, 'No legal move is listed for you right now.'));
    panel.replaceChildren(...parts);
  }

  render();
}
