// Play Homeworlds as a seat: build a whole turn action by action from the legal turns.
// Clicking a ship, star or bank piece narrows the next action to those that involve it; the
// chosen turn is previewed before it is sent. A turn can also be typed in SDG notation.

import { el } from './dom.js';

const MAX_OPTIONS = 48;
const COLOURS = { r: 'red', y: 'yellow', g: 'green', b: 'blue' };

/** The legal turns as lists of action texts (`pass` is one action). */
function splitTurns(moves) {
  return moves.filter((m) => typeof m === 'string').map((m) => m.split(';').map((a) => a.trim()).filter(Boolean));
}

/** Whether action text `action` involves every clicked thing in `wants` (pieces counted, systems named). */
function involves(action, wants) {
  const words = action.split(/\s+/).slice(1);
  const need = new Map();
  for (const want of wants) {
    if (want.piece) need.set(want.piece, (need.get(want.piece) || 0) + 1);
    if (want.system && !words.some((w) => w.toLowerCase() === want.system.toLowerCase())) return false;
    if (want.piece && want.system) {
      const at = words.indexOf(want.piece);
      if (at < 0) return false;
    }
  }
  for (const [piece, count] of need) {
    if (words.filter((w) => w === piece).length < count) return false;
  }
  return true;
}

function piece(text, attrs) {
  const colour = COLOURS[text[0]] || 'grey';
  return el('button', { type: 'button', className: `piece ${colour} size${text[1]}`, ...attrs, title: `${colour} ${text[1]}` }, text);
}

/** Show the play panel in `panel`; `send(move)` posts a move and resolves to whether it was accepted. */
export function mount(panel, { state, seat, legal, send, seatName }) {
  const turns = splitTurns(legal.moves);
  let prefix = [];
  let wants = [];
  let note = '';

  const candidates = () => turns.filter((t) => prefix.every((a, i) => t[i] === a));
  const nextOptions = () => [...new Set(candidates().filter((t) => t.length > prefix.length).map((t) => t[prefix.length]))];
  const filtered = () => nextOptions().filter((o) => involves(o, wants));
  const complete = () => prefix.length > 0 && candidates().some((t) => t.length === prefix.length);

  function choose(action) {
    prefix = [...prefix, action];
    wants = [];
    note = '';
    render();
  }

  function click(want) {
    const trial = [...wants, want];
    const options = nextOptions().filter((o) => involves(o, trial));
    if (!options.length) {
      note = 'No legal next action involves that.';
      render();
      return;
    }
    wants = trial;
    note = '';
    if (options.length === 1) choose(options[0]);
    else render();
  }

  function clickable(want) {
    return filtered().some((o) => involves(o, [...wants, want]));
  }

  function mark(button, want) {
    if (clickable(want)) button.classList.add('clickable');
    else button.disabled = true;
    if (wants.some((w) => w.piece === want.piece && w.system === want.system)) button.classList.add('selected');
    return button;
  }

  function systems() {
    return el('div', { className: 'hw-systems', 'data-testid': 'hw-systems' }, state.systems.map((system) => el('div', {
      className: `hw-system${system.homeworld_of === seat ? ' mine' : ''}`, 'data-testid': 'hw-system', dataset: { system: system.name } },
    el('div', { className: 'hw-system-name' }, system.name, system.homeworld_of !== null ? ` (${seatName(system.homeworld_of)}'s home)` : ''),
    el('div', { className: 'hw-stars' }, system.stars.map((p) => mark(piece(p, {
      'data-testid': 'hw-star', dataset: { system: system.name, piece: p }, onclick: () => click({ system: system.name }) }), { system: system.name }))),
    Object.entries(system.ships).map(([owner, ships]) => el('div', { className: `hw-ships owner${owner}${Number(owner) === seat ? ' mine' : ''}` },
      el('span', { className: 'owner' }, seatName(Number(owner))),
      ships.map((p) => mark(piece(p, { 'data-testid': 'hw-ship', dataset: { system: system.name, piece: p, owner },
        onclick: () => click({ system: system.name, piece: p }) }), { system: system.name, piece: p })))))));
  }

  function bank() {
    const pieces = [];
    for (const [colour, sizes] of Object.entries(state.bank)) {
      for (const [size, count] of Object.entries(sizes)) {
        if (count > 0) pieces.push(`${colour}${size}`);
      }
    }
    return el('div', { className: 'hw-bank', 'data-testid': 'hw-bank' }, el('span', { className: 'label' }, 'Bank'),
      pieces.map((p) => mark(piece(p, { 'data-testid': 'hw-bank-piece', dataset: { piece: p }, onclick: () => click({ piece: p }) }), { piece: p })));
  }

  async function submit(move) {
    const buttons = panel.querySelectorAll('button');
    for (const b of buttons) b.disabled = true;
    const ok = await send(move);
    if (!ok) render();
  }

  function render() {
    const options = filtered();
    const done = complete();
    const turnText = prefix.join('; ');
    const textInput = el('input', { type: 'text', className: 'hw-text', 'data-testid': 'hw-text', placeholder: 'or type a turn: build g1 Home; …', 'aria-label': 'turn in SDG notation' });
    panel.replaceChildren(
      el('h2', {}, 'Your turn'),
      systems(),
      bank(),
      el('div', { className: 'hw-build' },
        el('div', { className: 'hw-chosen', 'data-testid': 'hw-chosen' }, prefix.length ? prefix.map((a) => el('span', { className: 'chosen-action' }, a)) : 'Click a ship, star or bank piece, or pick an action:'),
        note ? el('p', { className: 'note', 'data-testid': 'hw-note' }, note) : null,
        el('div', { className: 'hw-options', 'data-testid': 'hw-options' },
          options.slice(0, MAX_OPTIONS).map((o) => el('button', { type: 'button', className: 'option', 'data-testid': 'hw-option', dataset: { action: o }, onclick: () => choose(o) }, o)),
          options.length > MAX_OPTIONS ? el('span', { className: 'more' }, `… ${options.length - MAX_OPTIONS} more: click pieces to narrow`) : null),
        legal.truncated ? el('p', { className: 'note' }, 'There are more legal turns than listed; type yours below.') : null,
        el('p', { className: 'hw-preview', 'data-testid': 'hw-preview', hidden: !done }, done ? `Turn: ${turnText}` : ''),
        el('div', { className: 'buttons' },
          el('button', { type: 'button', id: 'send-move', 'data-testid': 'send-move', disabled: !done, onclick: () => submit(turnText) }, done && options.length ? 'Send (end turn here)' : 'Send'),
          el('button', { type: 'button', className: 'secondary', 'data-testid': 'hw-undo', disabled: !prefix.length && !wants.length,
            onclick: () => { if (wants.length) wants = []; else prefix = prefix.slice(0, -1); note = ''; render(); } }, 'Undo'),
          el('button', { type: 'button', className: 'secondary', 'data-testid': 'hw-reset', onclick: () => { prefix = []; wants = []; note = ''; render(); } }, 'Reset'),
          el('button', { type: 'button', className: 'danger', 'data-testid': 'resign', onclick: () => { if (window.confirm('Resign this game?')) submit({ resign: true }); } }, 'Resign'))),
      el('form', { className: 'hw-type', onsubmit: (event) => { event.preventDefault(); if (textInput.value.trim()) submit(textInput.value.trim()); } },
        textInput, el('button', { type: 'submit', className: 'secondary', 'data-testid': 'hw-send-text' }, 'Send text')));
  }

  render();
}
