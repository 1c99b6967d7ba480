"""The setup choice before round 1 (BGA's ``chooseSetup``) and the options that fix it.

With ``asymmetric_planets`` and/or ``asymmetric_corporations`` each seat is dealt one random
asymmetric planet and/or corporation and keeps it or takes the symmetric side, everyone at
once (``setup <planet> <corporation>``). What was dealt is shown only to its seat; the
choices become public together once every seat has chosen. ``seat_setup`` instead fixes
each seat's planet and corporation. Names may be given as printed (``K'Aax``) or as slugs.
"""

from __future__ import annotations

from typing import Any

from domain.contract import InvalidOptionError, rng

from .data import TRACKS, Terrain, corporations, planets
from .planets import PLANET_RULES
from .powers import CORPORATIONS, STANDARD

SYMMETRIC_PLANET = "ksb-4156"


def _slug(name: object, table: dict[str, str]) -> str | None:
    return table.get(str(name).strip().lower())


def _names(rows: dict[str, dict[str, Any]]) -> dict[str, str]:
    out = {slug: slug for slug in rows}
    out.update({str(row["name"]).lower(): slug for slug, row in rows.items()})
    return out


def planet_slug(name: object) -> str | None:
    """The slug of a planet named by its printed name or its slug, or None."""
    return _slug(name, _names({p.slug: {"name": p.name} for p in planets().values()}))


def corporation_slug(name: object) -> str | None:
    """The slug of a corporation named by its printed name or its slug, or None."""
    return _slug(name, _names(corporations()))


def playable_planet(slug: str) -> bool:
    """Whether the planet has rules here."""
    return slug in PLANET_RULES


def playable_corporation(slug: str) -> bool:
    """Whether the corporation has rules here."""
    return slug in CORPORATIONS


def asymmetric_planets() -> list[str]:
    """The asymmetric planets that can be dealt, in data order."""
    return [slug for slug, p in planets().items() if p.side == "asymmetric" and playable_planet(slug)]


def asymmetric_corporations() -> list[str]:
    """The asymmetric corporations that can be dealt, in data order."""
    return [s for s, c in corporations().items() if c["side"] == "asymmetric" and playable_corporation(s)]


def missing() -> tuple[list[str], list[str]]:
    """The asymmetric planets and corporations (printed names) that have no rules yet."""
    return (
        [p.name for p in planets().values() if p.side == "asymmetric" and not playable_planet(p.slug)],
        [
            str(c["name"])
            for s, c in corporations().items()
            if c["side"] == "asymmetric" and not playable_corporation(s)
        ],
    )


def parse_seat_setup(value: Any, seats: int) -> tuple[tuple[str, str], ...]:
    """The fixed (planet, corporation) per seat from option ``seat_setup``; raises InvalidOptionError."""
    if not isinstance(value, list) or len(value) != seats:
        raise InvalidOptionError(f"option 'seat_setup' needs one entry per seat ({seats}), not {value!r}")
    out = []
    for n, entry in enumerate(value):
        if not isinstance(entry, dict) or set(entry) - {"planet", "corporation", "flux"}:
            raise InvalidOptionError(
                f"option 'seat_setup': entry {n} must be {{'planet': ..., 'corporation': ...[, 'flux': track]}}"
            )
        planet = planet_slug(entry.get("planet", SYMMETRIC_PLANET))
        corp = corporation_slug(entry.get("corporation", STANDARD))
        if planet is None:
            raise InvalidOptionError(f"option 'seat_setup': unknown planet {entry.get('planet')!r} for seat {n}")
        if corp is None:
            raise InvalidOptionError(
                f"option 'seat_setup': unknown corporation {entry.get('corporation')!r} for seat {n}"
            )
        if not playable_planet(planet):
            raise InvalidOptionError(f"planet {planets()[planet].name} has no rules on this server yet")
        if not playable_corporation(corp):
            raise InvalidOptionError(f"corporation {corporations()[corp]['name']} has no rules on this server yet")
        if "flux" in entry and entry["flux"] not in CORPORATIONS[corp].setup_tracks:
            raise InvalidOptionError(
                f"option 'seat_setup': 'flux' (one of {', '.join(TRACKS)}) is only for Flux Industries (seat {n})"
            )
        out.append((planet, corp))
    return tuple(out)


def seat_setup_tracks(value: list[dict[str, Any]]) -> tuple[Terrain | None, ...]:
    """Per seat of a checked ``seat_setup``, the track its ``flux`` names (None: the corporation's default)."""
    return tuple(Terrain(entry["flux"]) if "flux" in entry else None for entry in value)


def check_options(options: dict[str, Any], seats: int) -> None:
    """Refuse setup options this server cannot play (InvalidOptionError)."""
    if options.get("seat_setup"):
        parse_seat_setup(options["seat_setup"], seats)
    if options.get("asymmetric_planets") and not asymmetric_planets():
        raise InvalidOptionError("no asymmetric planet has rules on this server yet")
    if options.get("asymmetric_corporations"):
        planets_missing, corps_missing = missing()
        if corps_missing:
            raise InvalidOptionError(
                "option 'asymmetric_corporations': these corporations have no rules on this server yet: "
                + ", ".join(corps_missing)
            )
    if options.get("asymmetric_planets"):
        planets_missing, _ = missing()
        if planets_missing:
            raise InvalidOptionError(
                "option 'asymmetric_planets': these planets have no rules on this server yet: "
                + ", ".join(planets_missing)
            )


def dealt(options: dict[str, Any], seats: int, seed: bytes) -> list[tuple[str, str]] | None:
    """Per seat, the (planet, corporation) it is offered besides the symmetric sides, or None
    when there is no setup choice. A side not dealt is the symmetric one."""
    if options.get("seat_setup") or not (options.get("asymmetric_planets") or options.get("asymmetric_corporations")):
        return None
    planet_pool = asymmetric_planets() if options.get("asymmetric_planets") else [SYMMETRIC_PLANET]
    corp_pool = asymmetric_corporations() if options.get("asymmetric_corporations") else [STANDARD]
    rng(seed, "setup-planets").shuffle(planet_pool)
    rng(seed, "setup-corporations").shuffle(corp_pool)
    return [(planet_pool[i % len(planet_pool)], corp_pool[i % len(corp_pool)]) for i in range(seats)]


def choices(offer: tuple[str, str]) -> list[tuple[str, str]]:
    """The (planet, corporation) pairs a seat dealt ``offer`` may choose."""
    planet_options = sorted({SYMMETRIC_PLANET, offer[0]})
    corp_options = sorted({STANDARD, offer[1]})
    return [(p, c) for p in planet_options for c in corp_options]
