"""Perlaggen: how a hand ranks among the hands one seat is dealt (spec shared/rules/perlaggen.md §11.3 Q1).

Deals as played (`perlaggen_deal.deal_block`: §3, after the exchanges) whose trump is the given one are kept, and
the seat's hand in each is compared with a given hand by its best Gleich and best Hanger (L0: each figure with every
free Perlagg, `perlaggen.figure_codes`), its number of Perlaggen, their precedence (§2.2: the hand whose highest
Perlagg ranks higher is ahead, on a tie the next one, and so on; no Perlagg is the lowest) and its number of natural
trumps.
"""

from __future__ import annotations

import numpy as np

from simcore import checks
from simcore.games import perlaggen as P
from simcore.games import perlaggen_deal as D
from simcore.games.perlaggen_play import SUIT_MASKS
from simcore.rng import block_words

MEASURES = ("gleich", "hanger", "perlaggen", "precedence", "trumps")
TALLIES = tuple(f"{m}.{t}" for m in MEASURES for t in ("below", "equal"))
"""Counts after the kept deals: per measure, the seat's hands below the given hand and those equal to it."""


def hand_measures(hands: np.ndarray, rules: D.DealRules, trump: int) -> np.ndarray:
    """hands (n,) uint64 masks -> (n, 5) int64: best Gleich code, best Hanger code (L0, 0 = none), Perlaggen held,
    their precedence key (the sum of 2**prec over the Perlaggen held, prec from §2.2: comparing keys compares the
    highest Perlagg first) and natural trumps held, under trump suit index ``trump``."""
    letter = P.DECK.suits[trump]
    out = np.empty((hands.shape[0], len(MEASURES)), dtype=np.int64)
    out[:, :2] = P.figure_codes(hands, rules.style, letter, six_below_bells_seven=rules.six_below_bells_seven)
    wild = np.uint64(P.perlagg_mask(rules.style, letter))
    out[:, 2] = np.bitwise_count(hands & wild)
    order = P.perlaggen(rules.style, letter)
    out[:, 3] = sum(((hands >> np.uint64(face)) & np.uint64(1)).astype(np.int64) << (len(order) - i)
                    for i, face in enumerate(order))
    out[:, 4] = np.bitwise_count(hands & ~wild & SUIT_MASKS[trump])
    return out


class HandRankJob:
    """Counts for the runner: [deals kept (trump ``trump``), then TALLIES] comparing ``seat``'s hand of deals as
    played under ``rules`` with the hand ``hand`` (a card mask)."""

    n_counts = 1 + len(TALLIES)

    def __init__(self, rules: D.DealRules, seat: int, trump: int, hand: int):
        self.rules = rules
        self.seat = checks.whole(seat, "seat", 0, D.SEATS - 1)
        self.trump = checks.whole(trump, "trump", 0, P.N_SUITS - 1)
        self.hand = int(hand)
        self.own = hand_measures(np.array([self.hand], dtype=np.uint64), rules, self.trump)[0]

    def key(self) -> str:
        return (f"perlaggen|hand-rank|{self.rules.key()}|seat={self.seat}|trump={self.trump}|hand={self.hand}"
                f"|{','.join(MEASURES)}")

    def run_block(self, seed: int, block: int, n_deals: int) -> np.ndarray:
        rows = D.deal_block(block_words(seed, block, n_deals, D.WORDS_PER_DEAL), self.rules)
        hands = rows[rows[:, D.TRUMP] == self.trump, self.seat]
        measures = hand_measures(hands, self.rules, self.trump)
        below = (measures < self.own).sum(axis=0)
        equal = (measures == self.own).sum(axis=0)
        return np.concatenate([[len(hands)], np.column_stack([below, equal]).ravel()]).astype(np.int64)
