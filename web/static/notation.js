// Text forms of moves, as each game writes them.

function route(action) {
  if (!action.lane && !action.side) return '';
  return (action.lane ? ` ${action.lane}` : '') + (action.side ? ' side' : '');
}

/** A Planet Unknown action object in its one-line text form (`place 57 e4 90 flip`, `advance civ`). */
export function planetUnknownText(a) {
  switch (a.action) {
    case 'rotate': return `rotate ${a.rotation}`;
    case 'place': return `place ${a.tile} ${a.anchor} ${a.rotation ?? 0}${a.flip ? ' flip' : ''}`;
    case 'take': return `take ${a.tile}`;
    case 'advance':
    case 'regress': return `${a.action} ${a.track}${route(a)}`;
    case 'choose': return `choose ${a.benefit} ${a.track}${route(a)}`;
    case 'deploy':
    case 'patch':
    case 'collect':
    case 'destroy':
    case 'meteorite': return `${a.action} ${a.square}`;
    case 'pick': return `pick ${a.benefit} ${a.option}`;
    case 'reject':
    case 'keep':
    case 'civ': return `${a.action} ${a.card}`;
    case 'empty': return `empty ${a.stack}`;
    case 'setup': return `setup ${a.planet} ${a.corporation}${a.flux ? ` ${a.flux}` : ''}`;
    case 'power': return `power ${a.level}`;
    case 'lifepod': return `lifepod ${a.from} ${a.to}`;
    case 'rover':
    case 'teleport': return `${a.action} ${a.rover} ${a.square}`;
    case 'clear': return `clear ${a.line}`;
    case 'store':
    case 'confirm': return a.action;
    default:
      return Object.entries(a).map(([k, v]) => (k === 'action' ? v : `${k}=${JSON.stringify(v)}`)).join(' ');
  }
}

/** A Homeworlds action object (JSON form) in SDG text. */
function homeworldsActionText(a) {
  switch (a.action) {
    case 'homeworld': return `homeworld ${a.stars[0]} ${a.stars[1] ?? '-'} ${a.ship}${a.name ? ` ${a.name}` : ''}`;
    case 'build': case 'attack': case 'capture': case 'sacrifice':
      return `${a.action === 'capture' ? 'attack' : a.action} ${a.ship} ${a.system}`;
    case 'trade': return `trade ${a.ship} ${a.new_ship} ${a.system}`;
    case 'move': return `move ${a.ship} ${a.from} ${a.to}`;
    case 'discover': return `discover ${a.ship} ${a.from} ${a.star} ${a.name}`;
    case 'catastrophe': return `catastrophe ${a.system} ${a.colour}`;
    case 'pass': return 'pass';
    default: return JSON.stringify(a);
  }
}

/** Any recorded move (a MoveMade payload's `move`) as text. */
export function moveText(move) {
  if (move === null || move === undefined) return '(hidden)';
  if (typeof move === 'string') return move;
  if (Array.isArray(move)) return move.map((a) => (typeof a === 'string' ? a : homeworldsActionText(a))).join('; ');
  if (typeof move === 'object') {
    if (move.resign) return 'resign';
    if (move.draw) return `draw ${move.draw}`;
    if (move.action) return planetUnknownText(move);
  }
  return JSON.stringify(move);
}
