// The lobby: list games with filters, and create a game against built-in bots.

import { api, catalog } from './api.js';
import { $, el, showError, when } from './dom.js';
import { heldGames, rememberCreated } from './tokens.js';

let cursor = null;
let games = [];

function seatsText(seats) {
  return seats.map((s) => (s.bot ? `${s.name} (${s.bot.builtin || 'bot'})` : s.name)).join(' vs ');
}

function statusText(game) {
  if (game.status === 'finished') {
    const r = game.result;
    if (!r) return 'finished';
    if (r.draw || !r.winners.length) return `draw (${r.reason})`;
    return `won by ${r.winners.map((w) => game.seats[w] ? game.seats[w].name : `seat ${w}`).join(', ')}`;
  }
  return game.to_act.length ? `to play: ${game.to_act.map((s) => game.seats[s] ? game.seats[s].name : s).join(', ')}` : 'active';
}

async function loadGames(append = false) {
  const params = new URLSearchParams({ limit: '20' });
  const game = $('#filter-game').value;
  const status = $('#filter-status').value;
  if (game) params.set('game', game);
  if (status) params.set('status', status);
  if (append && cursor) params.set('cursor', cursor);
  try {
    const page = await api(`/v1/games?${params}`);
    games = append ? games.concat(page.games) : page.games;
    cursor = page.next_cursor || null;
    renderGames();
  } catch (error) {
    showError(error.message);
  }
}

function renderGames() {
  const mine = heldGames();
  const body = $('#games-body');
  body.replaceChildren(...games.map((g) => el('tr', { dataset: { testid: 'game-row', gameId: g.id, status: g.status } },
    el('td', {}, el('a', { href: `/games/${encodeURIComponent(g.id)}`, 'data-testid': 'game-link' }, g.game),
      mine.has(g.id) ? el('span', { className: 'badge', title: 'you hold a token for this game' }, 'yours') : null),
    el('td', {}, seatsText(g.seats)),
    el('td', { className: `status ${g.status}` }, statusText(g)),
    el('td', {}, String(g.version)),
    el('td', {}, when(g.created_at)))));
  $('#games-empty').hidden = games.length > 0;
  $('#games-more').hidden = !cursor;
}

function botSelect(entry, value) {
  return el('select', { className: 'bot', 'data-testid': 'create-opponent-bot', 'aria-label': 'bot' },
    entry.bots.map((b) => el('option', { value: b, selected: b === value }, b)));
}

function addOpponent(entry, bot = null) {
  const box = $('#opponents');
  const n = box.children.length + 1;
  const row = el('div', { className: 'opponent', 'data-testid': 'create-opponent' },
    botSelect(entry, bot || (entry.bots.includes('greedy') ? 'greedy' : entry.bots[0])),
    el('input', { className: 'opponent-name', 'data-testid': 'create-opponent-name', 'aria-label': 'opponent name', value: `Bot ${n}`, maxlength: '64' }),
    el('button', { type: 'button', className: 'secondary remove', 'data-testid': 'create-remove-opponent', 'aria-label': 'remove opponent',
      onclick: () => { row.remove(); syncOpponentButtons(entry); } }, '×'));
  box.append(row);
  syncOpponentButtons(entry);
}

function syncOpponentButtons(entry) {
  const count = $('#opponents').children.length;
  $('#create-add-opponent').hidden = count + 1 >= entry.max_seats;
  for (const button of document.querySelectorAll('#opponents .remove')) button.hidden = count + 1 <= entry.min_seats || count <= 0;
}

const COMMON_ARRAY_OR_OBJECT = new Set(['array', 'object']);

function optionField(option) {
  const id = `option-${option.name}`;
  const testid = `create-option-${option.name}`;
  const hint = option.description;
  if (option.type === 'boolean' && option.default === null) {
    return el('label', { title: hint }, option.name.replaceAll('_', ' '),
      el('select', { id, name: option.name, 'data-testid': testid },
        el('option', { value: '' }, 'default'), el('option', { value: 'true' }, 'on'), el('option', { value: 'false' }, 'off')));
  }
  if (option.type === 'boolean') {
    const box = el('input', { type: 'checkbox', id, name: option.name, 'data-testid': testid, checked: option.default === true });
    return el('label', { className: 'check', title: hint }, box, ` ${option.name.replaceAll('_', ' ')}`);
  }
  if (option.choices) {
    return el('label', { title: hint }, option.name.replaceAll('_', ' '),
      el('select', { id, name: option.name, 'data-testid': testid },
        option.choices.map((c) => el('option', { value: JSON.stringify(c), selected: c === option.default }, String(c)))));
  }
  if (option.type === 'integer') {
    return el('label', { title: hint }, option.name.replaceAll('_', ' '),
      el('input', { type: 'number', id, name: option.name, 'data-testid': testid, min: option.minimum ?? null, max: option.maximum ?? null,
        value: option.default ?? '', placeholder: option.default === null ? 'unset' : null }));
  }
  return null;
}

function renderForm(entry) {
  $('#opponents').replaceChildren();
  const opponents = Math.max(1, entry.min_seats - 1);
  for (let i = 0; i < opponents; i += 1) addOpponent(entry);
  const fields = entry.options.filter((o) => !COMMON_ARRAY_OR_OBJECT.has(o.type) && o.name !== 'seat_names').map(optionField).filter(Boolean);
  $('#create-options').replaceChildren(...fields);
}

function readOptions(entry) {
  const options = {};
  for (const option of entry.options) {
    const input = document.getElementById(`option-${option.name}`);
    if (!input) continue;
    if (option.type === 'boolean' && option.default === null) {
      if (input.value) options[option.name] = input.value === 'true';
    } else if (option.type === 'boolean') {
      if (input.checked !== option.default) options[option.name] = input.checked;
    } else if (option.choices) {
      const value = JSON.parse(input.value);
      if (value !== option.default) options[option.name] = value;
    } else if (option.type === 'integer' && input.value !== '') {
      const value = Number(input.value);
      if (value !== option.default) options[option.name] = value;
    }
  }
  return options;
}

async function submit(event, entries) {
  event.preventDefault();
  showError('');
  const entry = entries.find((g) => g.name === $('#create-game').value);
  const name = $('#create-seat-name').value.trim();
  if (!name) {
    showError('Give your seat a name.');
    return;
  }
  const seats = [{ name }];
  for (const row of document.querySelectorAll('#opponents .opponent')) {
    const bot = row.querySelector('.bot').value;
    seats.push({ name: row.querySelector('.opponent-name').value.trim() || bot, bot: { builtin: bot } });
  }
  const button = $('#create-submit');
  button.disabled = true;
  try {
    const created = await api('/v1/games', { method: 'POST', body: { game: entry.name, seats, options: readOptions(entry) } });
    rememberCreated(created, 'seat:0');
    window.location.assign(`/games/${encodeURIComponent(created.id)}`);
  } catch (error) {
    showError(error.message);
    button.disabled = false;
  }
}

async function start() {
  $('#filter-game').addEventListener('change', () => loadGames());
  $('#filter-status').addEventListener('change', () => loadGames());
  $('#games-refresh').addEventListener('click', () => loadGames());
  $('#games-more').addEventListener('click', () => loadGames(true));
  loadGames();
  let entries;
  try {
    entries = (await catalog()).games;
  } catch (error) {
    showError(error.message);
    return;
  }
  for (const entry of entries) {
    $('#create-game').append(el('option', { value: entry.name }, entry.name));
    $('#filter-game').append(el('option', { value: entry.name }, entry.name));
  }
  const current = () => entries.find((g) => g.name === $('#create-game').value);
  $('#create-game').addEventListener('change', () => renderForm(current()));
  $('#create-add-opponent').addEventListener('click', () => addOpponent(current()));
  $('#create-form').addEventListener('submit', (event) => submit(event, entries));
  renderForm(current());
}

start();
