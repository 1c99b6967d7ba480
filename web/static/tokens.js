// Seat and creator tokens, kept in localStorage per game (never in a URL).

const KEY = (id) => `orrery.game.${id}`;

function read(id) {
  try {
    return JSON.parse(localStorage.getItem(KEY(id))) || { seats: {}, creator: null, as: null };
  } catch {
    return { seats: {}, creator: null, as: null };
  }
}

function write(id, value) {
  localStorage.setItem(KEY(id), JSON.stringify(value));
}

/** Keep the tokens of a creation or fork response (201 body); `as` is the identity to open the page with. */
export function rememberCreated(created, as) {
  const value = read(created.id);
  for (const seat of created.seats) {
    if (seat.token) value.seats[seat.index] = seat.token;
  }
  if (created.creator_token) value.creator = created.creator_token;
  value.as = as ?? value.as;
  write(created.id, value);
}

/** Every identity this browser holds for a game: [{as, label, token, seat}] with the spectator last. */
export function identities(id, seats = []) {
  const value = read(id);
  const out = [];
  for (const [index, token] of Object.entries(value.seats)) {
    const name = seats[Number(index)] ? seats[Number(index)].name : `seat ${index}`;
    out.push({ as: `seat:${index}`, label: `${name} (seat ${index})`, token, seat: Number(index) });
  }
  if (value.creator) out.push({ as: 'creator', label: 'creator', token: value.creator, seat: null });
  out.push({ as: 'spectator', label: 'spectator', token: null, seat: null });
  return out;
}

/** The identity the page uses: the one last chosen, else the first seat held, else creator, else spectator. */
export function currentIdentity(id, seats = []) {
  const all = identities(id, seats);
  const chosen = read(id).as;
  return all.find((i) => i.as === chosen) || all[0];
}

export function chooseIdentity(id, as) {
  const value = read(id);
  value.as = as;
  write(id, value);
}

export function creatorToken(id) {
  return read(id).creator;
}

/** Games this browser holds a token for (for the lobby's "your games" marker). */
export function heldGames() {
  const out = new Set();
  for (let i = 0; i < localStorage.length; i += 1) {
    const key = localStorage.key(i);
    if (key && key.startsWith('orrery.game.')) out.add(key.slice('orrery.game.'.length));
  }
  return out;
}
