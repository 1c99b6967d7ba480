"""JSON Schemas of each game's state view and moves, for the OpenAPI document.

The views are what ``Game.view`` returns (``domain/homeworlds/game.py``, ``domain/planet_unknown/game.py``);
the moves are what ``Game.decide`` reads (``domain/homeworlds/notation.py``, ``domain/planet_unknown/moves.py``).
Names of verbs, phases, tracks and colours are read from the rules, not typed here. The square form of
Planet Unknown lives in :data:`PU_SQUARE` alone, so that a change of the accepted form is one edit.
"""

from __future__ import annotations

from typing import Any

from domain.homeworlds.notation import _JSON_FIELDS as HW_ACTION_FIELDS
from domain.homeworlds.pieces import Colour
from domain.homeworlds.position import MAX_NAME_LENGTH
from domain.planet_unknown.data import TRACKS
from domain.planet_unknown.model import Phase, Stage
from domain.planet_unknown.moves import Action as PUAction

JSONSchema = dict[str, Any]


def ref(name: str) -> JSONSchema:
    """A reference to the component schema ``name``."""
    return {"$ref": f"#/components/schemas/{name}"}


def _nullable(schema: JSONSchema) -> JSONSchema:
    return {"anyOf": [schema, {"type": "null"}]}


def _object(properties: dict[str, JSONSchema], required: list[str] | None = None, **more: Any) -> JSONSchema:
    out: JSONSchema = {"type": "object", "properties": properties, "required": required or sorted(properties)}
    return out | more


INT = {"type": "integer"}
STR = {"type": "string"}
BOOL = {"type": "boolean"}
SEATS_BY_INDEX = {"type": "object", "propertyNames": {"pattern": "^[0-9]+$"}}

# --- Homeworlds -----------------------------------------------------------------

COLOURS = [c.letter for c in Colour]
HW_PIECE = {"type": "string", "pattern": f"^[{''.join(COLOURS)}][123]$", "description": "A piece: colour and size."}
HW_NAME = {"type": "string", "minLength": 1, "maxLength": MAX_NAME_LENGTH, "pattern": r"^\S+$"}

HOMEWORLDS_STATE: JSONSchema = _object(
    {
        "systems": {
            "type": "array",
            "description": "The systems in play, homeworlds first.",
            "items": _object(
                {
                    "name": STR,
                    "homeworld_of": _nullable(INT) | {"description": "The seat whose homeworld it is, or null."},
                    "stars": {"type": "array", "items": HW_PIECE, "minItems": 1, "maxItems": 2},
                    "ships": SEATS_BY_INDEX
                    | {
                        "description": 'Ships per seat (`"0"`, `"1"`).',
                        "additionalProperties": {"type": "array", "items": HW_PIECE},
                    },
                },
                additionalProperties=False,
            ),
        },
        "bank": {
            "type": "object",
            "description": "Pieces left in the bank, by colour letter and size.",
            "properties": {
                letter: _object({size: {"type": "integer", "minimum": 0, "maximum": 3} for size in "123"})
                for letter in COLOURS
            },
            "required": COLOURS,
            "additionalProperties": False,
        },
        "to_move": _nullable(INT) | {"description": "The seat on move; null once the game is over."},
        "turn": INT | {"description": "The number of the turn being played, from 1."},
        "set_up": {"type": "array", "items": BOOL, "description": "Per seat: whether its homeworld is set up."},
        "last_turn": _nullable(STR) | {"description": "The last whole turn, in SDG notation."},
        "draw_offer": _nullable(INT) | {"description": "The seat whose draw offer stands, if any."},
        "repetitions": INT
        | {
            "minimum": 1,
            "description": "How many times this position (the same systems, whatever their names, and the same "
            "seat on move) has occurred at the end of a turn, this time included. Information only: repetition "
            "ends no game.",
        },
        "position": STR | {"description": "The whole position as one line of text."},
        "result": _nullable(
            _object(
                {"winners": {"type": "array", "items": INT}, "reason": STR, "text": STR}, additionalProperties=False
            )
        ),
    },
    additionalProperties=False,
    description="The Homeworlds table, the same for every viewer (Homeworlds has no hidden information).",
)


def _hw_action(verb: str, fields: tuple[str, ...]) -> JSONSchema:
    types: dict[str, JSONSchema] = {
        "ship": HW_PIECE,
        "new_ship": HW_PIECE,
        "star": HW_PIECE,
        "system": HW_NAME,
        "from": HW_NAME,
        "to": HW_NAME,
        "name": HW_NAME,
        "colour": {"type": "string", "enum": COLOURS},
        "stars": {
            "type": "array",
            "minItems": 2,
            "maxItems": 2,
            "prefixItems": [HW_PIECE, _nullable(HW_PIECE)],
            "description": "Two stars; the second null for a one-star homeworld.",
        },
    }
    properties = {"action": {"type": "string", "const": verb}, **{f: types[f] for f in fields}}
    required = ["action", *fields]
    if verb == "homeworld":
        properties["name"] = _nullable(HW_NAME)
    return _object(properties, required, additionalProperties=False, title=f"Homeworlds {verb}")


HOMEWORLDS_ACTION: JSONSchema = {
    "oneOf": [_hw_action(verb, fields) for verb, fields in HW_ACTION_FIELDS.items()],
    "description": "One action of a turn as JSON (`capture` may also be written `attack`).",
}
HOMEWORLDS_TURN_TEXT: JSONSchema = {
    "type": "string",
    "minLength": 1,
    "description": "One whole turn in SDG notation: actions separated by `; `, e.g. "
    "`sacrifice y3 Alpha; move g1 Alpha Beta`; `pass` passes.",
}
HOMEWORLDS_MOVE: JSONSchema = {
    "description": "A Homeworlds move: a whole turn in SDG text or as a list of actions, or a special move.",
    "anyOf": [
        ref("HomeworldsTurnText"),
        {"type": "array", "items": ref("HomeworldsAction"), "description": "A whole turn as a list of actions."},
        _object({"resign": {"type": "boolean", "const": True}}, additionalProperties=False, title="Homeworlds resign"),
        _object(
            {"draw": {"type": "string", "enum": ["offer", "accept", "decline"]}},
            additionalProperties=False,
            title="Homeworlds draw",
        ),
    ],
}

# --- Planet Unknown -------------------------------------------------------------

PU_SQUARE: JSONSchema = {
    "type": "string",
    "pattern": "^[a-l](?:[1-9]|1[0-2])$",
    "description": "A square by its name: column letter `a`-`l`, row number `1`-`12` (`a1` is top left, "
    "`l12` bottom right), e.g. `e4` (column e, row 4).",
}
PU_TRACK = {"type": "string", "enum": [str(t) for t in TRACKS]}
PU_TRACKS = _object({str(t): INT for t in TRACKS}, additionalProperties=False)
PU_CARD = _object({"card": INT, "name": STR}, additionalProperties=False)
PU_INTS = {"type": "array", "items": INT}
PU_SQUARES = {"type": "array", "items": PU_SQUARE}

PU_SEAT = _object(
    {
        "seat": INT,
        "planet": STR,
        "grid": {"type": "array", "items": STR, "description": "The printed planet, one string per row."},
        "corporation": STR,
        "position": STR | {"description": "The seat's planet as one line of text."},
        "rows": {"type": "array", "items": STR, "description": "What covers each square (`.` for nothing)."},
        "placed_tiles": {
            "type": "array",
            "items": _object({"tile": INT, "squares": PU_SQUARES}, additionalProperties=False),
            "description": "Each placed tile and the squares it covers, in the order they were placed.",
        },
        "tracks": PU_TRACKS,
        "tech_level": INT,
        "flux_track": PU_TRACK,
        "lanes": {"type": "object", "additionalProperties": PU_TRACK},
        "rovers": {
            "type": "array",
            "items": {"anyOf": [PU_SQUARE, {"type": "string", "enum": ["garage", "destroyed"]}]},
        },
        "lifepods": PU_SQUARES,
        "meteorites": PU_SQUARES,
        "meteor_symbols": PU_SQUARES,
        "lifepods_collected": INT,
        "meteorites_collected": INT,
        "stored_patches": INT,
        "depot": PU_INTS,
        "offered": PU_INTS,
        "civ_cards": INT,
        "stage": {"type": "string", "enum": [s.value for s in Stage]},
        "private_objectives": {
            "anyOf": [INT, {"type": "array", "items": PU_CARD}],
            "description": "The seat's own (or revealed) private objectives; for others, how many.",
        },
        "hand": PU_INTS,
        "pending": {"type": "array", "items": STR, "description": "Own seat: the benefits it must still resolve."},
        "rover_moves": INT,
        "civ_picks_waiting": PU_INTS,
        "objective_offer": {"type": "array", "items": PU_CARD},
        "shared_offer": {"type": "array", "items": PU_CARD},
        "powers": {"type": "array", "items": INT, "description": "Tech powers usable now as `power` moves."},
        "civ_choices": PU_INTS,
        "setup_choices": {"type": "array", "items": _object({"planet": STR, "corporation": STR})},
        "setup_chosen": _nullable({"type": "array", "items": STR}),
        "next_event": INT,
        "restriction_relaxed": BOOL,
    },
    [
        "seat",
        "planet",
        "grid",
        "corporation",
        "position",
        "rows",
        "placed_tiles",
        "tracks",
        "tech_level",
        "rovers",
        "lifepods",
        "meteorites",
        "meteor_symbols",
        "lifepods_collected",
        "meteorites_collected",
        "stored_patches",
        "depot",
        "offered",
        "civ_cards",
        "stage",
        "private_objectives",
    ],
    description="One seat's board. `hand`, `pending` and the other own-seat fields appear for the viewer's seat only.",
)

PLANET_UNKNOWN_STATE: JSONSchema = _object(
    {
        "game": {"type": "string", "const": "planet-unknown"},
        "round": INT,
        "phase": {"type": "string", "enum": [p.value for p in Phase]},
        "commander": INT,
        "rotation": INT,
        "ring_offset": INT,
        "last_round": BOOL,
        "to_act": PU_INTS,
        "station": {
            "type": "array",
            "description": "The 12 stacks of the station: size, and the face-up top tile.",
            "items": _object(
                {
                    "stack": INT,
                    "ring": {"type": "string", "enum": ["outer", "inner"]},
                    "size": INT,
                    "top": _nullable(INT),
                    "tiles": PU_INTS | {"description": "The whole stack: for the auditor once the game is over."},
                },
                ["stack", "ring", "size", "top"],
                additionalProperties=False,
            ),
        },
        "civ_piles": {
            "type": "array",
            "items": _object(
                {"rank": INT, "size": INT, "cards": {"type": "array", "items": _object({"id": INT, "name": STR})}},
                ["rank", "size"],
            ),
        },
        "objectives": {
            "type": "array",
            "items": _object({"card": INT, "name": STR, "seats": PU_INTS}),
        },
        "shared_objectives": {"type": "array", "items": PU_CARD},
        "seats": {"type": "array", "items": ref("PlanetUnknownSeat")},
        "events": _nullable(
            _object(
                {
                    "mix": {"type": "object", "additionalProperties": INT},
                    "left": INT,
                    "drawn": INT,
                    "card": _nullable({"type": "object", "properties": {"id": INT, "alert": STR, "effect": STR}}),
                    "deck": PU_INTS,
                },
                ["mix", "left", "drawn", "card"],
            )
        )
        | {"description": "The event deck, or null when it is off."},
        "solo": {
            "type": "object",
            "properties": {"target": INT, "score": INT, "difference": INT, "band": INT, "rating": STR},
            "required": ["target"],
        },
        "civ_aside": PU_INTS,
        "scores": {
            "type": "array",
            "description": "Every seat's scoring, once the game is over.",
            "items": {"type": "object", "properties": {"seat": INT, "total": INT}, "required": ["seat", "total"]},
        },
    },
    [
        "game",
        "round",
        "phase",
        "commander",
        "rotation",
        "ring_offset",
        "last_round",
        "to_act",
        "station",
        "civ_piles",
        "objectives",
        "shared_objectives",
        "seats",
        "events",
    ],
    description="A Planet Unknown table as the viewer may see it: hidden stacks, decks and other seats' "
    "secrets are left out.",
)

_PU_FIELDS: dict[str, JSONSchema] = {
    "rotation": INT,
    "tile": INT,
    "anchor": PU_SQUARE,
    "flip": BOOL,
    "track": PU_TRACK,
    "lane": PU_TRACK,
    "side": BOOL,
    "benefit": INT,
    "option": INT,
    "card": INT,
    "stack": {"type": "integer", "minimum": 0, "maximum": 11},
    "planet": STR,
    "corporation": STR,
    "flux": PU_TRACK,
    "level": INT,
    "from": STR,
    "to": STR,
    "square": PU_SQUARE,
    "rover": INT,
    "line": {
        "type": "string",
        "pattern": "^(?:[a-l]|[1-9]|1[0-2])$",
        "description": "A row `1`-`12` or column `a`-`l`.",
    },
}
_PU_ACTION_FIELDS: dict[str, tuple[list[str], list[str]]] = {
    "rotate": (["rotation"], []),
    "place": (["tile", "anchor", "rotation"], ["flip"]),
    "take": (["tile"], []),
    "advance": (["track"], ["lane", "side"]),
    "regress": (["track"], ["lane", "side"]),
    "choose": (["benefit", "track"], ["lane", "side"]),
    "pick": (["benefit", "option"], []),
    "reject": (["card"], []),
    "keep": (["card"], []),
    "empty": (["stack"], []),
    "setup": (["planet", "corporation"], ["flux"]),
    "power": (["level"], []),
    "lifepod": (["from", "to"], []),
    "deploy": (["square"], []),
    "patch": (["square"], []),
    "collect": (["square"], []),
    "destroy": (["square"], []),
    "meteorite": (["square"], []),
    "rover": (["rover", "square"], []),
    "teleport": (["rover", "square"], []),
    "civ": (["card"], []),
    "clear": (["line"], []),
}


def _pu_action(action: str) -> JSONSchema:
    required, optional = _PU_ACTION_FIELDS.get(action, ([], []))
    properties = {"action": {"type": "string", "const": action}, **{f: _PU_FIELDS[f] for f in [*required, *optional]}}
    if action == "place":
        properties["rotation"] = {"type": "integer", "enum": [0, 90, 180, 270]}
    if action == "rotate":
        properties["rotation"] = {"type": "integer", "minimum": 0, "maximum": 5}
    return _object(properties, ["action", *required], title=f"PlanetUnknown {action}")


PLANET_UNKNOWN_ACTION: JSONSchema = {
    "oneOf": [_pu_action(a.value) for a in PUAction],
    "description": "One Planet Unknown action as a JSON object, as the legal-moves endpoint lists them.",
}
PLANET_UNKNOWN_MOVE_TEXT: JSONSchema = {
    "type": "string",
    "minLength": 1,
    "description": "One action in text form, e.g. `place 57 e4 90`, `place 57 e4 90 flip`, `take 57`, "
    "`advance civ`, `deploy e4`, `rover 0 e5`, `clear 5`, `confirm`.",
}
PLANET_UNKNOWN_MOVE: JSONSchema = {
    "description": "A Planet Unknown move: one action as a JSON object or in text form.",
    "anyOf": [ref("PlanetUnknownAction"), ref("PlanetUnknownMoveText")],
}

COMPONENTS: dict[str, JSONSchema] = {
    "HomeworldsState": HOMEWORLDS_STATE,
    "HomeworldsAction": HOMEWORLDS_ACTION,
    "HomeworldsTurnText": HOMEWORLDS_TURN_TEXT,
    "HomeworldsMove": HOMEWORLDS_MOVE,
    "PlanetUnknownSeat": PU_SEAT,
    "PlanetUnknownState": PLANET_UNKNOWN_STATE,
    "PlanetUnknownAction": PLANET_UNKNOWN_ACTION,
    "PlanetUnknownMoveText": PLANET_UNKNOWN_MOVE_TEXT,
    "PlanetUnknownMove": PLANET_UNKNOWN_MOVE,
}
"""The component schemas this module adds to the OpenAPI document."""

STATE = {
    "oneOf": [ref("HomeworldsState"), ref("PlanetUnknownState")],
    "description": "The game's state as the requester may see it: the view of its game.",
}
LEGAL_MOVE = {
    "anyOf": [ref("HomeworldsTurnText"), ref("PlanetUnknownAction")],
    "description": "A legal move in the form the moves endpoint takes: a Homeworlds turn in SDG text, "
    "or a Planet Unknown action object.",
}
MOVE = {
    "anyOf": [ref("HomeworldsMove"), ref("PlanetUnknownMove")],
    "description": "The move, in the form of the game's rules: see HomeworldsMove and PlanetUnknownMove.",
}
