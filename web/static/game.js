// A game's page: board, turn, moves and result, live over SSE; replay; fork; play as a seat.

import { ApiError, api, catalog, gamePath } from './api.js';
import { showBoard } from './board.js';
import { $, el, showError } from './dom.js';
import { moveText } from './notation.js';
import { initReplay } from './replay.js';
import { follow } from './sse.js';
import { chooseIdentity, creatorToken, currentIdentity, identities, rememberCreated } from './tokens.js';

const HIDDEN_INFORMATION = (name) => name !== 'homeworlds';
const PLAYERS = {
  homeworlds: () => import('./play-homeworlds.js'),
  'planet-unknown': () => import('./play-planet-unknown.js'),
};

const ctx = {
  id: decodeURIComponent(window.location.pathname.split('/')[2] || ''),
  identity: null,
  game: null,
  events: [],
  last: 0,
  head: 1,
  boundaries: [],
  stream: null,
  replay: null,
  viewed: { version: null, live: true },
  stateAt: new Map(),
  playing: null,
};

const seatName = (index) => (ctx.game && ctx.game.seats[index] ? ctx.game.seats[index].name : `seat ${index}`);

async function loadGame() {
  try {
    ctx.game = await api(gamePath(ctx.id), { token: ctx.identity.token });
  } catch (error) {
    if (error instanceof ApiError && error.status === 401 && ctx.identity.token) {
      showError(`The key stored for ${ctx.identity.label} is refused (${error.message}); viewing as a spectator.`);
      ctx.identity = { as: 'spectator', label: 'spectator', token: null, seat: null };
      ctx.game = await api(gamePath(ctx.id));
    } else {
      throw error;
    }
  }
  ctx.head = Math.max(ctx.head, ctx.game.version);
}

async function loadEvents() {
  for (;;) {
    const page = await api(gamePath(ctx.id, `/events?after=${ctx.last}&limit=1000`), { token: ctx.identity.token });
    for (const event of page.events) addEvent(event);
    if (!page.events.length || ctx.last >= page.version) break;
  }
}

function addEvent(event) {
  if (event.version <= ctx.last) return false;
  ctx.events.push(event);
  ctx.last = event.version;
  ctx.head = Math.max(ctx.head, event.version);
  return true;
}

function computeBoundaries() {
  const out = new Set();
  for (const event of ctx.events) {
    if (event.type === 'MoveMade' && event.version > 1) out.add(event.version - 1);
  }
  out.add(ctx.head);
  ctx.boundaries = [...out].sort((a, b) => a - b);
}

function renderHeader() {
  const game = ctx.game;
  $('#game-title').textContent = `${game.game} · ${game.id}`;
  document.title = `Orrery: ${game.game} ${game.id}`;
  const select = $('#view-as');
  select.replaceChildren(...identities(ctx.id, game.seats).map((i) => el('option', { value: i.as, selected: i.as === ctx.identity.as }, i.label)));
  $('#seats').replaceChildren(...game.seats.map((s) => el('li', { dataset: { testid: 'seat', seat: String(s.index) }, className: ctx.identity.seat === s.index ? 'me' : null },
    `${s.index}: ${s.name}`, s.bot ? el('span', { className: 'badge' }, s.bot.builtin || Object.keys(s.bot)[0] || 'bot') : null,
    ctx.identity.seat === s.index ? el('span', { className: 'badge you' }, 'you') : null)));
}

function toActOf(state) {
  if (!state) return [];
  if (Array.isArray(state.to_act)) return state.to_act;
  if (typeof state.to_move === 'number') return [state.to_move];
  return [];
}

function renderTurn(toAct, over, where) {
  const turn = $('#turn');
  turn.dataset.toAct = toAct.join(',');
  turn.classList.toggle('mine', ctx.identity.seat !== null && toAct.includes(ctx.identity.seat) && !over);
  if (over) {
    turn.textContent = `${where}game over`;
  } else if (!toAct.length) {
    turn.textContent = `${where}waiting for the server`;
  } else if (ctx.identity.seat !== null && toAct.includes(ctx.identity.seat)) {
    const others = toAct.filter((s) => s !== ctx.identity.seat).map(seatName);
    turn.textContent = `${where}your turn${others.length ? ` (with ${others.join(', ')})` : ''}`;
  } else {
    turn.textContent = `${where}to play: ${toAct.map(seatName).join(', ')}`;
  }
}

function renderResult() {
  const result = ctx.game.result;
  const box = $('#result');
  box.hidden = ctx.game.status !== 'finished' && !result;
  if (box.hidden) return;
  let text = 'The game is over.';
  if (result) {
    const winners = result.winners.map(seatName);
    text = result.draw || !winners.length ? `Draw (${result.reason}).` : `${winners.join(' and ')} won (${result.reason}).`;
    if (result.scores) text += ` ${describeScores(result.scores)}`;
  }
  $('#result-text').textContent = text;
  $('#verify-link').href = gamePath(ctx.id, '/verify');
}

/** Scores keyed by seat (Planet Unknown) per seat; any other fields (Homeworlds' result text) as they are. */
function describeScores(scores) {
  const show = (v) => (typeof v === 'object' ? JSON.stringify(v) : String(v));
  const entries = Object.entries(scores);
  const perSeat = entries.filter(([key]) => /^\d+$/.test(key)).map(([key, v]) => `${seatName(Number(key))}: ${show(v)}`);
  const other = entries.filter(([key]) => !/^\d+$/.test(key)).map(([key, v]) => `${key}: ${show(v)}`);
  const parts = [...perSeat, ...other];
  return parts.length ? `Scores: ${parts.join('; ')}.` : '';
}

function renderMoves() {
  const list = $('#moves');
  const moves = ctx.events.filter((e) => e.type === 'MoveMade' || e.type === 'TurnTimedOut' || e.type === 'PlayerResigned');
  const at = ctx.viewed.live ? ctx.head : ctx.viewed.version;
  list.replaceChildren(...moves.map((e) => {
    const who = e.seat === null || e.seat === undefined ? 'server' : seatName(e.seat);
    const text = e.type === 'MoveMade' ? moveText(e.payload.move) : e.type;
    const item = el('li', { dataset: { testid: 'move', version: String(e.version) }, className: e.version <= at ? 'played' : 'ahead', tabindex: '0',
      title: `version ${e.version}`, onclick: () => ctx.replay.goTo(ctx.boundaries.find((b) => b >= e.version) ?? ctx.head) },
    el('span', { className: 'who' }, who), ' ', el('span', { className: 'text', 'data-testid': 'move-text' }, text));
    return item;
  }));
  const current = [...list.querySelectorAll('li.played')].pop();
  if (current && ctx.viewed.live) current.scrollIntoView({ block: 'nearest' });
}

async function stateAt(version) {
  if (!ctx.stateAt.has(version)) {
    ctx.stateAt.set(version, api(gamePath(ctx.id, `/state?at=${version}`), { token: ctx.identity.token }).then((r) => r.state).catch(() => null));
  }
  return ctx.stateAt.get(version);
}

function renderFork() {
  const button = $('#fork');
  const creator = creatorToken(ctx.id);
  const allowed = creator && (!HIDDEN_INFORMATION(ctx.game.game) || ctx.game.status === 'finished');
  button.hidden = !allowed;
  if (!allowed) return;
  const at = ctx.viewed.live ? ctx.head : ctx.viewed.version;
  const boundary = ctx.boundaries.includes(at);
  button.disabled = !boundary;
  button.title = boundary ? `Start a new game from version ${at}` : 'Forks start at a turn boundary: step to one (← / →)';
}

async function fork() {
  const at = ctx.viewed.live ? ctx.head : ctx.viewed.version;
  try {
    const forked = await api(gamePath(ctx.id, '/fork'), { method: 'POST', token: creatorToken(ctx.id), body: { at } });
    const seat = forked.seats.find((s) => s.token);
    rememberCreated(forked, seat ? `seat:${seat.index}` : 'creator');
    window.location.assign(`/games/${encodeURIComponent(forked.id)}`);
  } catch (error) {
    showError(error.message);
  }
}

async function view(version, live) {
  ctx.viewed = { version, live };
  renderMoves();
  renderFork();
  if (!ctx.game) return;
  const over = ctx.game.status === 'finished';
  if (live) {
    renderTurn(ctx.game.to_act, over, '');
  } else {
    const state = await stateAt(version);
    if (ctx.viewed.version === version && !ctx.viewed.live) renderTurn(toActOf(state), !!(state && state.result) || (over && version === ctx.head), `at version ${version}: `);
  }
  showBoard($('#board'), {
    id: ctx.id,
    token: ctx.identity.token,
    at: live ? null : version,
    stateFor: () => (live ? Promise.resolve(ctx.game.state) : stateAt(version)),
  });
  updatePlay();
}

async function send(move) {
  showError('');
  try {
    await api(gamePath(ctx.id, '/moves'), {
      method: 'POST',
      token: ctx.identity.token,
      body: { move },
      headers: { 'Idempotency-Key': crypto.randomUUID ? crypto.randomUUID() : `${Date.now()}-${Math.random()}` },
    });
    await refresh();
    return true;
  } catch (error) {
    showError(error.message);
    return false;
  }
}

let playToken = 0;
async function updatePlay() {
  const panel = $('#play');
  const game = ctx.game;
  const seat = ctx.identity.seat;
  const mine = ++playToken;
  if (seat === null || !game || game.status !== 'active' || !ctx.viewed.live) {
    panel.hidden = true;
    panel.replaceChildren();
    ctx.playing = null;
    return;
  }
  panel.hidden = false;
  if (!game.to_act.includes(seat)) {
    panel.replaceChildren(el('p', { className: 'waiting', 'data-testid': 'play-waiting' }, `Waiting for ${game.to_act.map(seatName).join(', ') || 'the server'}.`));
    ctx.playing = null;
    return;
  }
  const key = `${game.version}`;
  if (ctx.playing === key) return;
  let legal;
  try {
    legal = await api(gamePath(ctx.id, '/legal-moves?limit=20000'), { token: ctx.identity.token });
  } catch (error) {
    showError(error.message);
    return;
  }
  const loader = PLAYERS[game.game];
  if (mine !== playToken) return;
  if (!loader) {
    ctx.playing = key;
    panel.replaceChildren(el('p', {}, `This page cannot play ${game.game} yet.`));
    return;
  }
  const module = await loader();
  const served = await catalog();
  // Only the newest call mounts, and only a mount marks the version as shown: a call that returned early
  // because an older one had claimed the version would otherwise leave the old panel up.
  if (mine !== playToken) return;
  ctx.playing = key;
  module.mount(panel, { state: game.state, seat, legal, send, catalog: served, seatName });
}

let refreshing = null;
let again = false;
async function refresh() {
  if (refreshing) {
    again = true;
    return refreshing;
  }
  refreshing = (async () => {
    do {
      again = false;
      try {
        await loadGame();
        await loadEvents();
      } catch (error) {
        showError(error.message);
      }
      computeBoundaries();
      renderHeader();
      renderResult();
      ctx.replay.update(ctx.head, ctx.boundaries);
    } while (again);
  })();
  try {
    await refreshing;
  } finally {
    refreshing = null;
  }
}

let pending = null;
function onFrame(frame) {
  if (frame.event === 'end') {
    refresh();
    return;
  }
  if (!frame.data) return;
  try {
    addEvent(JSON.parse(frame.data));
  } catch {
    return;
  }
  clearTimeout(pending);
  pending = setTimeout(refresh, 120);
}

function startStream() {
  if (ctx.stream) ctx.stream.close();
  const state = $('#stream-state');
  ctx.stream = follow(gamePath(ctx.id, `/stream?after=${ctx.last}`), {
    token: ctx.identity.token,
    onEvent: onFrame,
    onState: (text) => {
      state.textContent = text;
      state.dataset.state = text.split(':')[0];
    },
  });
}

async function start() {
  if (!ctx.id) {
    showError('No game id in this address.');
    return;
  }
  ctx.identity = currentIdentity(ctx.id);
  ctx.replay = initReplay({ onView: view });
  $('#fork').addEventListener('click', fork);
  $('#view-as').addEventListener('change', (event) => {
    chooseIdentity(ctx.id, event.target.value);
    window.location.reload();
  });
  try {
    await loadGame();
    ctx.identity = currentIdentity(ctx.id, ctx.game.seats).token === ctx.identity.token ? currentIdentity(ctx.id, ctx.game.seats) : ctx.identity;
    await loadEvents();
    // The stream starts after the newest event read; a game read before that event would stay behind it.
    if (ctx.last > ctx.game.version) await loadGame();
  } catch (error) {
    $('#turn').textContent = '';
    showError(error.message);
    $('#stream-state').textContent = 'not connected';
    return;
  }
  computeBoundaries();
  renderHeader();
  renderResult();
  ctx.replay.update(ctx.head, ctx.boundaries);
  if (ctx.game.status === 'finished') {
    $('#stream-state').textContent = 'finished';
  } else {
    startStream();
  }
}

start();
