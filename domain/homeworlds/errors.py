"""Why a move is rejected: one error class per rule, each with a sentence a player can read.

All are :class:`ValueError` subclasses through the service contract's
:class:`~domain.contract.IllegalMoveError` and :class:`~domain.contract.InvalidMoveError`.
"""

from __future__ import annotations

from domain.contract import GameOverError as ContractGameOverError
from domain.contract import IllegalMoveError, InvalidMoveError


class NotationError(InvalidMoveError):
    """Text that is not a turn in SDG notation."""

    code = "invalid_move"


class SystemNameTooLongError(NotationError):
    """A system name longer than :data:`~domain.homeworlds.position.MAX_NAME_LENGTH` characters."""

    rule = "system-name-length"


class HomeworldsRuleError(IllegalMoveError):
    """A well-formed turn that breaks a rule; ``rule`` names the rule for machines."""

    rule = "rule"


class GameOverError(HomeworldsRuleError, ContractGameOverError):
    """The game has ended."""

    rule = "game-over"
    code = "game_over"


class SetupError(HomeworldsRuleError):
    """A homeworld turn that breaks the setup rules, or a setup missing or repeated."""

    rule = "setup"


class UnknownSystemError(HomeworldsRuleError):
    """A system name that is not on the table."""

    rule = "unknown-system"


class SystemNameError(HomeworldsRuleError):
    """A new system name that is taken or unusable."""

    rule = "system-name"


class NoSuchShipError(HomeworldsRuleError):
    """The named ship is not where the turn says."""

    rule = "no-such-ship"


class NoPowerError(HomeworldsRuleError):
    """A basic action whose colour is not available to the player in that system."""

    rule = "power"


class TurnStructureError(HomeworldsRuleError):
    """More actions than the turn allows, or actions of the wrong colour after a sacrifice."""

    rule = "turn-structure"


class BankError(HomeworldsRuleError):
    """The bank lacks the piece the action needs, or a build names the wrong size."""

    rule = "bank"


class TradeError(HomeworldsRuleError):
    """A trade for another size or for the same colour."""

    rule = "trade"


class MovementError(HomeworldsRuleError):
    """A move or discovery to a system that is not connected."""

    rule = "movement"


class CaptureError(HomeworldsRuleError):
    """A capture of one's own ship or of a ship too large."""

    rule = "capture"


class CatastropheError(HomeworldsRuleError):
    """A catastrophe where the colour is not overpopulated."""

    rule = "catastrophe"
