"""The game state: frozen dataclasses, replaced (never mutated) by :func:`.rules.evolve`."""

from __future__ import annotations

import dataclasses
import enum
from typing import Any

from .corporation_state import CorporationState
from .data import TRACKS, Terrain
from .literal import render

GARAGE = -1
DESTROYED = -2


class Phase(enum.StrEnum):
    """Where the round stands (BGA: rotation, tile engine, civ-card slots, end-game turn)."""

    SETUP = "setup"
    INTERLUDE = "interlude"
    ROTATION = "rotation"
    EVENT = "event"
    DRAFT = "draft"
    CIV = "civ"
    END_GAME = "end_game"
    OVER = "over"


class Stage(enum.StrEnum):
    """What a seat is doing within the current phase."""

    IDLE = "idle"
    CHOOSING = "choosing"
    RESOLVING = "resolving"
    DONE = "done"


class Kind(enum.StrEnum):
    """Kinds of pending benefit."""

    ADVANCE = "advance"
    CHOOSE = "choose"
    DEPLOY = "deploy"
    PATCH = "patch"
    CIV = "civ"
    COLLECT = "collect"
    DESTROY = "destroy"
    CLEAR = "clear"
    TELEPORT = "teleport"
    PLACE = "place"
    REGRESS = "regress"
    SELECT = "select"
    ROTATE = "rotate"
    METEORITE = "meteorite"
    DISCARD = "discard"
    EMPTY = "empty"
    DRAW = "draw"
    PEEK = "peek"
    LIFEPOD = "lifepod"
    KEEP = "keep"


OPTIONAL = frozenset({Kind.COLLECT, Kind.DESTROY, Kind.CLEAR, Kind.TELEPORT, Kind.METEORITE, Kind.LIFEPOD})
"""Benefits a player may leave unused unless ``forced``; confirming discards them (like unused rover movement)."""


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class Benefit:
    """A benefit waiting for its owner to resolve it.

    ``advance``: advance ``track`` once. ``choose``: advance ``count`` different tracks
    among ``options`` (all five when empty), ``steps`` spaces each, ``source`` says why
    (energy, synergy, card, end). ``deploy``: put a garage rover on the last tile.
    ``patch``: place (or store) a biomass patch; ``final`` patches must be placed.
    ``civ``: take a civ card of ``rank`` (0: of any rank, optional; Republic tech 5).
    ``collect``/``destroy``: up to ``count`` lifepods / meteorites anywhere. ``clear``: destroy
    the meteorites of a row or column.
    ``teleport``: move a rover to any square. ``place``: place a depot tile, with
    resources when ``resources``.

    Event cards add: ``regress`` one of ``options`` by ``steps`` (less if no listed
    tracker can go back that far); ``select`` one of ``alternatives`` (each a tuple of
    benefits; the others are dropped); ``rotate`` the station; ``meteorite`` onto an empty
    meteor symbol; ``discard`` a private objective; ``empty`` a stack of the depot;
    ``draw`` an objective card and ``peek`` at the next event (both automatic; Jump Drive tech F:
    ``draw`` with ``what`` ``shared`` draws three, then ``keep`` one). Cosmos Inc.:
    ``lifepod`` puts a collected lifepod on a track space (``source`` ``collected``: the one just
    collected, from the scoring area) or moves up to ``count`` of them (``reposition``). ``what``
    names the piece a ``collect`` or ``destroy`` takes (default lifepod / meteorite);
    ``forced`` makes an optional kind required; ``benefits`` False: a track ``choose``
    claims nothing on the spaces it reaches.
    """

    kind: Kind
    track: Terrain | None = None
    options: tuple[Terrain, ...] = ()
    count: int = 1
    steps: int = 1
    source: str = ""
    rank: int = 0
    resources: bool = True
    final: bool = False
    chosen: tuple[Terrain, ...] = ()
    shown: bool = False
    what: str = ""
    forced: bool = False
    benefits: bool = True
    alternatives: tuple[tuple[Benefit, ...], ...] = ()

    @property
    def optional(self) -> bool:
        """Whether confirming may discard this benefit unused."""
        return (self.kind in OPTIONAL or (self.kind is Kind.CIV and self.rank == 0)) and not self.forced

    def describe(self) -> str:
        """A short description for views, e.g. ``choose energy: civ/water``."""
        k = self.kind
        if k is Kind.ADVANCE:
            return f"advance {self.track}"
        if k is Kind.CHOOSE:
            opts = "/".join(t.value for t in (self.options or TRACKS) if t not in self.chosen)
            extra = f" x{self.count}" if self.count > 1 else ""
            steps = f" {self.steps} spaces" if self.steps > 1 else ""
            return f"choose {self.source}{extra}{steps}: {opts}"
        if k is Kind.CIV:
            return f"civ card rank {self.rank}" if self.rank else "civ card of any rank (optional)"
        if k in (Kind.COLLECT, Kind.DESTROY):
            piece = f" {self.what}" if self.what else ""
            if self.forced:
                return f"{k.value} a{piece}" if self.count == 1 else f"{k.value} {self.count}{piece}s"
            return f"{k.value}{piece} up to {self.count}"
        if k is Kind.REGRESS:
            steps = f" {self.steps} spaces" if self.steps > 1 else ""
            return f"regress{steps}: " + "/".join(t.value for t in self.options)
        if k is Kind.SELECT:
            options = (", ".join(b.describe() for b in alt) for alt in self.alternatives)
            return "pick one: " + " | ".join(f"{n}) {text}" for n, text in enumerate(options))
        if k is Kind.PLACE:
            return "place a depot tile" + ("" if self.resources else " without resources")
        if k is Kind.LIFEPOD:
            if self.source == "collected":
                return "lifepod: the collected lifepod onto a track space (optional)"
            return f"lifepod: reposition up to {self.count} collected lifepod(s)"
        if k is Kind.KEEP:
            return "keep one of the drawn objective cards for everyone"
        if k is Kind.PATCH and self.final:
            return "place a stored patch"
        return k.value

    def __repr__(self) -> str:
        return render(self)


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class Seat:
    """One player's planet and corporation board.

    ``cover`` holds one letter per square: ``""`` uncovered, a terrain letter for a tile
    square (upper case when it carries the resource icon), ``p`` for a biomass patch.
    ``rovers`` holds each rover's square, or GARAGE / DESTROYED. Before round 1, with the setup
    choice, ``setup_offer`` is the (planet, corporation) dealt besides the symmetric sides and
    ``setup_choice`` what the seat chose (applied when every seat has chosen; ``setup_track`` the
    track it named with a corporation that names one, :attr:`.powers.Corporation.setup_tracks`).
    ``once_used`` holds the once-per-game tech powers already used, ``corporation_state`` the
    corporation's own state (one class per corporation that has one, defined in its module under
    :mod:`.corporation_state`; None for the others). ``tile_squares`` holds the squares each tile of
    ``placed`` covers, in the same order.
    """

    planet: str
    corporation: str
    cover: tuple[str, ...]
    covered: int
    lifepods: frozenset[int]
    meteorites: frozenset[int]
    rovers: tuple[int, ...]
    tracks: tuple[int, ...]
    lifepods_collected: int = 0
    meteorites_collected: int = 0
    placed: tuple[int, ...] = ()
    unplaced: tuple[int, ...] = ()
    last_tile: tuple[int, ...] = ()
    tile_squares: tuple[tuple[int, ...], ...] = ()
    stored_patches: int = 0
    hand: tuple[int, ...] = ()
    civ_queue: tuple[int, ...] = ()
    pending: tuple[Benefit, ...] = ()
    moves: int = 0
    stage: Stage = Stage.IDLE
    end_cards_used: tuple[int, ...] = ()
    meteor_symbols: frozenset[int] = frozenset()
    objective_offer: tuple[int, ...] = ()
    private_objectives: tuple[int, ...] = ()
    peeked: int | None = None
    setup_offer: tuple[str, str] | None = None
    powers_used: tuple[int, ...] = ()
    setup_choice: tuple[str, str] | None = None
    once_used: tuple[int, ...] = ()
    setup_track: Terrain | None = None
    corporation_state: CorporationState | None = None

    def track(self, terrain: Terrain) -> int:
        """The position of the tracker of ``terrain``."""
        return self.tracks[TRACKS.index(terrain)]

    def __repr__(self) -> str:
        return render(self)


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class Rulings:
    """How the rules settle six points where rules ``planet-unknown-4`` strayed from the cards and the
    rulebook (issue 17). Every flag is on from rules ``planet-unknown-5``; :data:`RULINGS_4` turns them
    all off for the games stored under rules 3 and 4, which play on as they were recorded.

    ``compulsory_events``: events 82/83 must be carried out when possible. ``exact_collections``: civ
    cards 13/18 collect as many lifepods as they name (all there are, if fewer). ``synergy_powers_blocked``:
    event 122 also blocks the tech powers that make or double a synergy (Jump Drive A and C).
    ``one_resource_when_taken``: events 104/108 also apply to a tile taken without placing.
    ``once_per_round``: once-per-round powers and round-start bonuses come once a round (the powers
    are free again when a round starts, the bonuses come in its tile phase), not again at each civ-card
    slot and end-game turn. ``end_game_gains_once``: the corporation's end-game gains (Republic tech 5)
    come in the first end-game turn only.
    """

    compulsory_events: bool = True
    exact_collections: bool = True
    synergy_powers_blocked: bool = True
    one_resource_when_taken: bool = True
    once_per_round: bool = True
    end_game_gains_once: bool = True

    def __repr__(self) -> str:
        return render(self)


RULINGS_4 = Rulings(
    compulsory_events=False,
    exact_collections=False,
    synergy_powers_blocked=False,
    one_resource_when_taken=False,
    once_per_round=False,
    end_game_gains_once=False,
)
"""The rulings of rules ``planet-unknown-4`` (and 3): none of issue 17's."""


@dataclasses.dataclass(frozen=True, slots=True, repr=False)
class State:
    """A whole game. ``stacks`` lists the 12 station stacks (outer 0-5, inner 6-11), top tile first;
    ``revealed[k]`` says whether stack k's top tile is face up.

    With the event module: ``event_mix`` (green, orange, red), the ``event_deck`` still to
    draw with one secret ``event_rolls`` number per card (for its random choices),
    ``event_card`` (this round's card) and its ``event_roll``, ``civ_changes`` (pile changes still to make).
    ``objective_deck`` is the rest of the objective cards; ``removed`` the tiles an event
    took out of the station. ``shared_objectives`` are the objective cards Jump Drive tech F
    kept face up, scored by every seat against all the others. ``rulings`` are the game's rules version's
    (:class:`Rulings`).
    """

    players: int
    options: dict[str, Any] = dataclasses.field(hash=False, compare=False)
    seats: tuple[Seat, ...]
    phase: Phase = Phase.SETUP
    round: int = 0
    commander: int = 0
    rotation: int = 0
    offset: int = 0
    stacks: tuple[tuple[int, ...], ...] = ()
    revealed: tuple[bool, ...] = ()
    civ_piles: tuple[tuple[int, ...], ...] = ()
    civ_aside: tuple[int, ...] = ()
    objectives: tuple[int, ...] = ()
    civ_order: tuple[int, ...] = ()
    last_round: bool = False
    ending: bool = False
    shown_hands: tuple[tuple[int, ...], ...] | None = None
    forfeited: int | None = None
    event_mix: tuple[int, int, int] | None = None
    event_deck: tuple[int, ...] = ()
    event_rolls: tuple[int, ...] = ()
    event_card: int | None = None
    event_roll: int = 0
    events_drawn: int = 0
    civ_changes: int = 0
    drafted: bool = False
    objective_deck: tuple[int, ...] = ()
    removed: tuple[int, ...] = ()
    shown_objectives: tuple[tuple[int, ...], ...] | None = None
    shared_objectives: tuple[int, ...] = ()
    rulings: Rulings = Rulings()

    def seat(self, index: int) -> Seat:
        return self.seats[index]

    def __repr__(self) -> str:
        """The expression that builds the state (:func:`.notation.parse_state` reads it back)."""
        return render(self)
