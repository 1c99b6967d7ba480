"""The table every game is played at, whatever the game: seats, the record of a game folded from its
service events and its game's events, and the verifier that re-decides a log. Pure: the standard library and
:mod:`domain.contract` only."""
