"""Dreeg (Nürnberger Dreck): eight Sechsundsechzig-based phases for 4, 3 or 2 active players.

Rules: shared/rules/dreeg.md. This module declares the 24-card German pack, the deal shapes per
number of active players (spec §2.4), card points, marriage values and the spec's defaults (§5
A1-A24 and the §3.5 variant flags) as data. The rules engine is `dreeg_rules` (legal cards,
scoring), `dreeg_play` (hands), `dreeg_policies`, `dreeg_game` (the eight phases), `dreeg_dd`
(double-dummy solver) and `dreeg_exact` (the §6.3 enumerations).
"""

from __future__ import annotations

import numpy as np

from simcore.cards import Deck
from simcore.dealing import Layout
from simcore.errors import CardsimError
from simcore.registry import Game, Option, chosen_options, default_only, register

DECK = Deck(
    name="dreeg",
    suits=("E", "L", "H", "S"),
    ranks=("9", "U", "O", "K", "10", "A"),
    rank_aliases={"T": "10"},
    suit_names=("Eichel", "Laub", "Herz", "Schellen"),
)
LAYOUTS = {
    4: Layout(DECK, tuple((f"seat{s}", 6) for s in range(4))),
    3: Layout(DECK, tuple((f"seat{s}", 8) for s in range(3))),
    2: Layout(DECK, (("seat0", 6), ("seat1", 6), ("talon", 12))),
}
"""Deal shape per number of active players (spec §2.4): 4 x 6, 3 x 8, or 2 x 6 plus a 12-card talon."""

RANK_POINTS = {"A": 11, "10": 10, "K": 4, "O": 3, "U": 2, "9": 0}
"""Card points per rank (spec §1.2); every suit is worth 30, the pack 120."""
FACE_POINTS = np.array([RANK_POINTS[DECK.ranks[DECK.rank_of_face(f)]] for f in range(DECK.n_faces)], dtype=np.int64)
"""(24,) int64: card points of every face (= card, the pack has no duplicates)."""
MARRIAGE_POINTS = {"trump": 40, "plain": 20, "no_trump": 20}
"""King + Ober of one suit in one hand (spec §1.4); every marriage is 20 while no trump exists."""

OPTIONS = (
    Option("strokes_per_phase", 7, (7, 10), "strokes every player starts a phase with (spec §2.2, §3.5)"),
    default_only("elimination_phases", "1-3,6-8",
                 "phases where players at 0 drop out; Kamerun 4-5 is first-out-loses (spec §5 A1; the Persian "
                 "'5-8' would need a 2-player Kamerun, which does not exist)"),
    Option("two_sided_eraser", "winner", ("winner", "loser"),
           "which side erases status(loser) after a played-out two-sided hand (spec §5 A2)"),
    Option("no_undertrump_duty", False, (False, True),
           "STRICT play: may a void player unable to over-trump discard instead of under-trumping (spec §5 A3)"),
    Option("trumped_lead_follow", "any_of_suit", ("any_of_suit", "must_head"),
           "a plain lead already trumped: any card of the led suit (spec §5 A4)"),
    Option("thresholds_include_marriages", True, (True, False),
           "the 66 and 33 thresholds count announced marriages (spec §5 A5)"),
    Option("closer_win_status_at_close", False, (False, True),
           "a successful closer's strokes from the state at go-out/end, not at closing (spec §5 A6)"),
    default_only("wrong_out_by_closer_opponent", 2,
                 "the closer erases 2 when the opponent goes out wrongly (spec §5 A7)"),
    default_only("dropped_out_dealer", "deals_next_hand",
                 "a player at 0 whose turn it is deals the next hand of the phase, then sits out (spec §5 A8)"),
    default_only("phase1_trump_card", "last_card_of_deal",
                 "trump card when the dealer is out: last card of the deal (spec §5 A9)"),
    default_only("between_trick_order", "canonical",
                 "order of between-trick actions (spec §3.0.9, §5 A10)"),
    Option("kamerun_scores_by", "tricks", ("tricks", "points"),
           "Kamerun 0 strokes means no trick, not no points (spec §5 A11)"),
    default_only("penalty_opponents_only", False,
                 "a penalty outside Kamerun: every other player erases 3, partner included (spec §5 A12); the one "
                 "breach simulated, a hidden heart ace in 2-player Rot Assen, has no partner to spare"),
    default_only("hidden_heart_ace", "strict",
                 "2-player Rot Assen: a heart ace kept unannounced in a hand is detected when the talon is flipped "
                 "or closed or the ace is played; the hand ends and the other player erases 3 (spec §5 A13)"),
    Option("rot_assen_trump", "any_suit", ("any_suit", "hearts"),
           "suits the heart-ace holder may name (spec §5 A14)"),
    Option("duel_rot_assen_surrender", False, (False, True), "surrender in 2-player Rot Assen (spec §5 A15)"),
    Option("duel_rufen_suit_in_packet", False, (False, True),
           "2-player Rufen: must the named trump be in FH's first 3 cards (spec §5 A16)"),
    Option("durchmarsch_lead_restriction", False, (False, True),
           "Kamerun lead restriction applies to a Durchmarsch declarer (spec §5 A17)"),
    Option("wegloescher_c_leads", False, (False, True),
           "Weglöscher: the second of the two players dealt to (the source's literal C) leads (spec §5 A18)"),
    Option("kamerun_losers_dealer", "draw", ("draw", "agree"),
           "several Kamerun losers choose the next dealer by drawing cards (spec §5 A19)"),
    default_only("going_out_min_tricks_left", 2,
                 "going out is allowed while at least 2 tricks remain (spec §5 A20)"),
    default_only("closer_wrong_out", "max_2_close_value",
                 "a closer going out below 66: the opponent erases max(2, close_value) (spec §5 A21, "
                 "DUEL_WRONG_OUT_3)"),
    default_only("announce_out_card_played", False,
                 "going out by an announcement: the led marriage card is not played (spec §5 A22, 'no effect on "
                 "scoring': the hand is scored the moment the side goes out, so the card could change nothing)"),
    Option("first_dealer", "loser_right", ("loser_right", "loser_deals"),
           "who deals first in a new phase, chosen by the loser (spec §2.3, §5 A23)"),
    Option("information", "perfect_recall", ("perfect_recall", "counting_errors"),
           "agents' count of their side's points (spec §3.0.3, §5 A24): perfect recall, or at every going-out "
           "window a miscount by one taken card's points with probability counting_error_percent"),
    Option("counting_error_percent", 5, (1, 2, 5, 10, 20, 50),
           "information=counting_errors: percent of going-out windows at which the player miscounts"),
    Option("duel66_indicator", "between_packets", ("between_packets", "13th_card", "bottom"),
           "2-player 66 trump indicator (spec §3.5 DUEL66_INDICATOR_13TH / _BOTTOM)"),
    Option("duel66_exchange_by_follower", False, (False, True), "spec §3.5 DUEL66_EXCHANGE_BY_FOLLOWER"),
    Option("duel66_exchange_on_close", False, (False, True), "spec §3.5 DUEL66_EXCHANGE_ON_CLOSE"),
    Option("duel_closer_loss_min2", False, (False, True),
           "a failed closer's opponent erases at least 2 (spec §3.5)"),
    Option("ra_solo_win_3", False, (False, True), "a successful Rot Assen soloist always erases 3 (spec §3.5)"),
    Option("kamerun5_no_head", False, (False, True),
           "phase 5 Kamerun: follow suit only, no duty to head (spec §3.5)"),
    Option("kamerun_bei_nacht", "off", ("off", "extra", "phase4", "phase5"),
           "the §3.5 sub-game Kamerun bei Nacht (blind Kamerun: no obligations, cards played at random): off, an "
           "extra phase after phase 8, or in place of phase 4 or 5"),
    Option("schweige_mass", "off", ("off", "extra", "phase1", "phase8"),
           "the §3.5 sub-game Schweige-Maß (66 in silence; a player who speaks loses the phase): off, an extra "
           "phase, or in place of phase 1 or 8"),
    Option("schweige_speak_percent", 2, (0, 1, 2, 5, 10),
           "Schweige-Maß: percent chance that a given active player speaks during a given hand"),
    Option("wegloescher", "off", ("off", "extra", "phase1", "phase8"),
           "the §3.5 sub-game Weglöscher (2-player 66 two at a time; bystanders erase too, never their last "
           "stroke): off, an extra phase, or in place of phase 1 or 8"),
    default_only("going_out_decision", "side",
                 "in team games the side decides to go out as one, whoever of it calls (spec §3.0.7)"),
)

GAME = register(Game(
    name="dreeg",
    title="Dreeg (Nürnberger Dreck)",
    deck=DECK,
    rules_file="dreeg.md",
    options=OPTIONS,
))


NEEDS = {
    "counting_error_percent": ("information=counting_errors", lambda o: o["information"] == "counting_errors"),
    "schweige_speak_percent": ("schweige_mass=extra, phase1 or phase8", lambda o: o["schweige_mass"] != "off"),
    "wegloescher_c_leads": ("wegloescher=extra, phase1 or phase8", lambda o: o["wegloescher"] != "off"),
    "kamerun5_no_head": ("a Kamerun in phase 5 (not kamerun_bei_nacht=phase5, which has no duties at all)",
                         lambda o: o["kamerun_bei_nacht"] != "phase5"),
}
"""Options that matter only together with another: name -> (what they need, whether the options provide it)."""


DEFAULTS = {o.name: o.default for o in OPTIONS}
"""The default of every option of `OPTIONS` by name."""


def rule_options(**chosen) -> dict:
    """Every option of `OPTIONS` by name: ``chosen`` values over the defaults (CardsimError for an
    unknown option or a value outside its choices)."""
    return chosen_options("dreeg", OPTIONS, chosen)


def check_needs(opts: dict) -> None:
    """CardsimError when `rule_options` ``opts`` give an option of `NEEDS` a non-default value without the
    setting it needs (it would be ignored); the commands check this, a single hand does not need it."""
    for name, (needed, given) in NEEDS.items():
        if opts[name] != DEFAULTS[name] and not given(opts):
            value = str(opts[name]).lower() if isinstance(opts[name], bool) else opts[name]
            raise CardsimError(f"option {name}={value} applies only with {needed}; drop it or add that option")
