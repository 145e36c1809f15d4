"""Which Dreeg rule options one hand reads, so that an analysis of hands refuses an option it would ignore.

A hand with a trump reads its play rules (`PLAY_READS`), the options of its sub-game for its number of players
(`HAND_READS` for 3 or 4, `DUEL_READS` for 2), ``kamerun5_no_head`` in phase 5 only, and a §3.5 sub-game's
option when that option puts the sub-game in the hand's phase. The tests record every option a played hand
looks up and compare it with these tables.
"""

from __future__ import annotations

from simcore.errors import CardsimError
from simcore.games import dreeg_rules as r
from simcore.games.dreeg import DEFAULTS

PLAY_READS = ("no_undertrump_duty", "trumped_lead_follow")
"""The play rules of trumps (§5 A3, A4): every hand with a trump reads them."""
TRUMPLESS = ("KA", "KN")
"""Sub-games without a trump (Kamerun, Kamerun bei Nacht): no hand of theirs reads `PLAY_READS`."""
TWO_SIDED_READS = ("two_sided_eraser", "thresholds_include_marriages", "information", "counting_error_percent")
"""Options of a hand whose two sides count to 66 (who erases, what counts, how well the players count)."""
HAND_READS = {
    "66": (), "SM": ("schweige_speak_percent",), "KN": ("kamerun_scores_by",),
    "KA": ("kamerun_scores_by", "durchmarsch_lead_restriction", "kamerun5_no_head"),
    "RU": TWO_SIDED_READS,
    "RA": TWO_SIDED_READS + ("rot_assen_trump", "ra_solo_win_3"),
}
"""Options one hand of 3 or 4 players reads beyond `PLAY_READS`, by sub-game."""
_DUEL = TWO_SIDED_READS + ("closer_win_status_at_close", "duel_closer_loss_min2")
_DUEL66 = _DUEL + ("duel66_indicator", "duel66_exchange_by_follower", "duel66_exchange_on_close")
DUEL_READS = {
    "66": _DUEL66, "SM": _DUEL66 + ("schweige_speak_percent",), "WL": _DUEL66,
    "RA": _DUEL + ("duel_rot_assen_surrender", "rot_assen_trump"),
    "RU": _DUEL + ("duel_rufen_suit_in_packet",),
}
"""Options one hand of 2 players reads beyond `PLAY_READS`, by sub-game (a Weglöscher pair: who leads is its
position, so ``wegloescher_c_leads`` is not read)."""


def hand_reads(subgame: str, players: int, phase: int = 0, options: dict | None = None) -> tuple[str, ...]:
    """The options one hand of ``subgame`` with ``players`` active players in phase ``phase`` reads (phase 0: a
    hand of the sub-game played apart from the phases, as the thresholds play theirs); ``options``: the chosen
    {name: value}, for the §3.5 sub-game placed in this phase."""
    table = DUEL_READS if players == 2 else HAND_READS
    placed = tuple(name for name in r.EXTRA_SUBGAMES if (options or {}).get(name) == f"phase{phase}")
    reads = (() if subgame in TRUMPLESS else PLAY_READS) + table[subgame] + placed
    return tuple(name for name in reads if name != "kamerun5_no_head" or phase == 5)


UNREAD_WHY = {"wegloescher_c_leads": "who leads a Weglöscher pair is the hand's --position, 0 leading"}
"""Why a hand does not read an option, where the reason is not just that the hand never meets its rule."""


def check_reads(options, reads, what: str) -> None:
    """CardsimError naming the first option of ``options`` that ``what`` (e.g. "one hand of phase 2 (Rot Assen)
    with 4 players") does not read: an option is never accepted and ignored."""
    for name, value in options:
        if name not in reads and value != DEFAULTS[name]:
            shown = str(value).lower() if isinstance(value, bool) else value
            why = f" ({UNREAD_WHY[name]})" if name in UNREAD_WHY else ""
            raise CardsimError(f"option {name}={shown} does not change {what}{why}; drop it (it reads "
                               f"{', '.join(sorted(set(reads)))}; whole games, 'match' and 'stats', read every "
                               "option)")
