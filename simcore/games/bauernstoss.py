"""Bauernstoss (Palatinate Schafkopf): four players in fixed pairs, 8 cards each, jacks permanent trumps.

Rules: shared/rules/bauernstoss.md (with the variants Alter Schoofkopp and Deutscher Schafkopf,
spec §7). This module declares the pack, the deal layout, the card points and the spec's defaults
(§8 A1-A22) as data; the auction and play engine are not written yet.

The grid lists each printed suit's ranks weakest first in the order of spec §1.1 (A T K D B 9 8 7
strongest first), so the jack sits between the 9 and the queen; the jacks are nevertheless trumps of
every hand, above the trump suit's ace, ranked clubs > spades > hearts > diamonds (spec §1.2).
"""

from __future__ import annotations

import numpy as np

from simcore.cards import Deck
from simcore.dealing import Layout
from simcore.registry import Game, Option, register

DECK = Deck(
    name="bauernstoss",
    suits=("c", "s", "h", "d"),
    ranks=("7", "8", "9", "B", "D", "K", "T", "A"),
    rank_aliases={"10": "T", "J": "B", "Q": "D"},
    suit_names=("clubs", "spades", "hearts", "diamonds"),
)
SEATS = 4
HAND_SIZE = 8
LAYOUT = Layout(DECK, tuple((f"seat{s}", HAND_SIZE) for s in range(SEATS)))

RANK_POINTS = {"A": 11, "T": 10, "K": 4, "D": 3, "B": 2, "9": 0, "8": 0, "7": 0}
"""Card points per rank (spec §1.1); every suit is worth 30, the pack 120."""
FACE_POINTS = np.array([RANK_POINTS[DECK.ranks[DECK.rank_of_face(f)]] for f in range(DECK.n_faces)], dtype=np.int64)
"""(32,) int64: card points of every face (= card, the pack has no duplicates)."""

TARGETS = {"BS": 20, "AS": 15, "DS": 9}
"""Strokes that win a game in each variant (spec §6.4, AS-1, DS-12)."""

OPTIONS = (
    Option("variant", "BS", ("BS", "AS", "DS"),
           "Bauernstoss, Alter Schoofkopp or Deutscher Schafkopf (spec §7); sets the target (20/15/9)"),
    Option("jack_rule", "overtake_when_trumping", ("overtake_when_trumping", "always_overrides_follow", "off"),
           "scope of the BS duty to overtake a jack with a higher jack (spec §8 A1)"),
    Option("mit_rule", "strict_threshold", ("strict_threshold", "advisory"),
           "'mit' is legal only if the lowest card can still win the tie-break (spec §8 A2, §4.6)"),
    Option("partner_tie", "higher_low", ("higher_low", "earlier_speaker", "later_speaker", "strategy_callback"),
           "who names trumps when only partners tie at the top bid (spec §8 A3)"),
    Option("min_number_bid", 2, (2, 3), "lowest legal number bid (spec §8 A4)"),
    Option("allow_suit_switch", False, (False, True),
           "may the chooser name a suit whose length differs from the winning bid (spec §8 A5)"),
    Option("ds_ten_value", 10, (10, 0), "value of a Ten in the DS equal-length tie-break (spec §8 A6)"),
    Option("ds_schwarz", "game_credit_only", ("game_credit_only", "game_credit_plus_strokes",
           "end_current_game"),
           "DS: what winning all 8 tricks earns (spec §8 A7)"),
    Option("ds_tie_chain", "queue", ("queue", "only_last"), "DS: repeated 60-60 hands (spec §8 A8)"),
    Option("ds_require_unter", False, (False, True), "DS: is an Unter needed to bid (spec §8 A9)"),
    Option("as_first_hand_solo", False, (False, True),
           "AS: may a Big Solo be called in the first hand of a game (spec §8 A10; 4-jack holders bid normally)"),
    Option("partner_return_policy", "highest_trump", ("highest_trump", "strategy_callback"),
           "Small Solo: the card the partner returns; baseline highest trump, else highest points (spec §8 A11)"),
    Option("throwin_consumes_first_hand", False, (False, True),
           "does a throw-in use up the first hand of a game (spec §8 A13)"),
    Option("first_dealer", 0, (0, 1, 2, 3), "first dealer of a session in simulations (spec §8 A14, §3)"),
    Option("mixed_tie", "individual", ("individual", "team_then_agree"),
           "ties at the top bid that mix both teams: best lowest card over all tied players (spec §8 A15)"),
)

GAME = register(Game(
    name="bauernstoss",
    title="Bauernstoss (Palatinate Schafkopf)",
    deck=DECK,
    rules_file="bauernstoss.md",
    options=OPTIONS,
))
