"""Perlaggen: what one card is worth to the team that holds it (spec shared/rules/perlaggen.md §11.3 Q8), by
paired swaps.

Each deal is dealt as played (`perlaggen_deal`: §3, after the exchanges). Each of the 20 cards in the hands is in
turn swapped for one card of the face-down stock drawn at random: the held card goes into the stock, the drawn card
into its place, and every other card stays where it was. The holder's team is judged on both deals: the Gleich and
the Hanger at level L0 (`perlaggen_deal.outcomes`, each figure with every free Perlagg, §11.6) and the Spiel played
out by one method of `perlaggen_play.METHODS` at every seat (seat 1 leads; a random policy reads the same draws on
both deals). The trump suit stays the deal's. The face-up cards (the turn-up unless team D took it, a card given in
an exchange, Eichel's laid-aside acorns) are not in the stock, so they are never drawn; a turned card that team D
took is in a hand and is swapped like any other. The swapped deal is judged as if it had been dealt so: the
exchanges are not played again.

So the value of a card is measured against a random card of the face-down stock, on the same deals: a positive
difference means the card wins its holder's team more often than such a card would. A win is a win: a swap that
turns a lost figure into a standing one changes nothing.

`CardPairJob` compares two named cards directly (card against card, paired on the same deals): on every deal where
a hand holds one of them and the other lies in the face-down stock, the hand is judged with the one and, on the same
deal, with the other in its place.

Randomness: the cards from the deal's words (`perlaggen_deal.deal_block`), the stock draws from
``block_substream(seed, block, SWAP_STREAM)`` (SLOTS uniforms a deal), the random policy's choices from
``block_substream(seed, block, perlaggen_play.PLAY_STREAM)``, as in `perlaggen_play.SpielJob`.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

from simcore.errors import CardsimError, unknown_name
from simcore.games import perlaggen as P
from simcore.games import perlaggen_deal as D
from simcore.games import perlaggen_play as play
from simcore.rng import block_substream, block_words

FIGURES = ("gleich", "hanger", "spiel")
SLOTS = D.SEATS * D.HAND_SIZE
"""Cards in the hands of a deal; slot ``s`` is card ``s % 5`` (ascending index) of seat ``s // 5``."""
SLOT_SEATS = np.arange(SLOTS) // D.HAND_SIZE
SWAP_STREAM = 2
"""Sub-stream of a block for the stock draws (`perlaggen_play.PLAY_STREAM`, 1, is the policies')."""
N_TRUMPS = P.N_SUITS
N_CARDS = P.DECK.n_cards
TALLIES = ("held",) + tuple(f"{f}.{t}" for f in FIGURES for t in ("with", "only_with", "only_without"))
"""Counts per trump and card: holdings (deals of that trump in which a hand holds the card), then per figure the
holder's team's wins with the card, the wins it has with the card only (the swap loses them), and the wins after the
swap only."""
N_COUNTS = 1 + N_TRUMPS + N_TRUMPS * N_CARDS * len(TALLIES)
_CARD_BITS = np.arange(N_CARDS, dtype=np.uint64)
_ONE = np.uint64(1)


def hand_cards(hands: np.ndarray) -> np.ndarray:
    """hands (n, 4) uint64 of five cards each -> (n, 4, 5) int64 card indices, ascending."""
    bits = (hands[..., None] >> _CARD_BITS) & _ONE
    return np.argsort(bits == 0, axis=-1, kind="stable")[..., :D.HAND_SIZE]


def stock_draws(stock: np.ndarray, u: np.ndarray) -> np.ndarray:
    """stock (n,) uint64 masks, u (n, k) uniforms in [0, 1) -> (n, k) int64: the card of rank floor(u * size) among
    the stock's cards in ascending order (a uniform draw of one stock card for each u)."""
    bits = ((stock[:, None] >> _CARD_BITS) & _ONE).astype(np.int64)
    rank = (u * bits.sum(axis=1)[:, None]).astype(np.int64)
    return (np.cumsum(bits, axis=1)[:, None, :] > rank[..., None]).argmax(axis=-1)


def swap_cards(rows: np.ndarray, deals: np.ndarray, seats: np.ndarray, out_cards: np.ndarray,
               in_cards: np.ndarray) -> np.ndarray:
    """rows (n, N_FIELDS) deals; deals, seats, out_cards, in_cards (m,) int64 -> (m, N_FIELDS): row k is deal
    ``deals[k]`` with card ``out_cards[k]`` of seat ``seats[k]``'s hand and card ``in_cards[k]`` of the stock
    exchanged."""
    out = rows[deals]
    moved = (_ONE << out_cards.astype(np.uint64)) | (_ONE << in_cards.astype(np.uint64))
    out[np.arange(len(deals)), seats] ^= moved
    out[:, D.STOCK] ^= moved
    return out


def swapped_rows(rows: np.ndarray, held: np.ndarray, drawn: np.ndarray) -> np.ndarray:
    """rows (n, N_FIELDS) deals, held (n, SLOTS) their hand cards by slot, drawn (n, SLOTS) a stock card per slot ->
    (n * SLOTS, N_FIELDS): row ``d * SLOTS + s`` is deal d with slot s's card and its drawn card exchanged."""
    n = rows.shape[0]
    return swap_cards(rows, np.repeat(np.arange(n), SLOTS), np.tile(SLOT_SEATS, n), held.ravel(), drawn.ravel())


def team_wins(rows: np.ndarray, rules: D.DealRules, method: str, u: np.ndarray | None) -> np.ndarray:
    """(n, 3) int64: the winning team of the Gleich, the Hanger (L0; STAND and VOID as in `simcore.figures`, never a
    team) and the Spiel (0 or 1, played by ``method``, u (n, DECISIONS) its uniforms) of each deal row."""
    out = np.empty((rows.shape[0], len(FIGURES)), dtype=np.int64)
    out[:, :2] = D.outcomes(rows, rules)
    hands = np.ascontiguousarray(rows[:, :D.SEATS])
    out[:, 2] = play.spiel_winners(method, hands, rows[:, D.TRUMP].astype(np.int64), u, rules.style)
    return out


def tally(rows: np.ndarray, held: np.ndarray, before: np.ndarray, after: np.ndarray) -> np.ndarray:
    """Counts (N_COUNTS,) of deal rows (n, N_FIELDS), their slot cards held (n, SLOTS), the winners before the swaps
    (n, 3) and after them (n, SLOTS, 3) (`team_wins`)."""
    n = rows.shape[0]
    trumps = rows[:, D.TRUMP].astype(np.int64)
    where = (trumps[:, None] * N_CARDS + held).ravel()
    team = SLOT_SEATS % 2
    columns = [np.ones(n * SLOTS, dtype=np.int64)]
    for f in range(len(FIGURES)):
        with_card = (before[:, None, f] == team).ravel()
        without = (after[:, :, f] == team).ravel()
        columns += [with_card, with_card & ~without, without & ~with_card]
    per_card = np.stack([np.bincount(where, weights=c, minlength=N_TRUMPS * N_CARDS) for c in columns], axis=1)
    return np.concatenate([[n], np.bincount(trumps, minlength=N_TRUMPS), per_card.ravel()]).astype(np.int64)


class CardValueJob:
    """Counts for the runner (layout: [deals, deals by trump suit index, then per trump and card the TALLIES]) of
    deals as played under ``rules``, the Spiel by ``method`` (`perlaggen_play.METHODS`)."""

    n_counts = N_COUNTS
    block_size = 512

    def __init__(self, rules: D.DealRules = D.DealRules(), method: str = "greedy"):
        if method not in play.METHODS:
            raise unknown_name("Spiel method", method, play.METHODS)
        self.rules, self.method = rules, method

    def key(self) -> str:
        return f"perlaggen|card-values|{self.rules.key()}|method={self.method}"

    def run_block(self, seed: int, block: int, n_deals: int) -> np.ndarray:
        rows = D.deal_block(block_words(seed, block, n_deals, D.WORDS_PER_DEAL), self.rules)
        held = hand_cards(rows[:, :D.SEATS]).reshape(n_deals, SLOTS)
        drawn = stock_draws(rows[:, D.STOCK], block_substream(seed, block, SWAP_STREAM).random((n_deals, SLOTS)))
        u = None
        if self.method != "dd":
            u = block_substream(seed, block, play.PLAY_STREAM).random((n_deals, play.DECISIONS))
        before = team_wins(rows, self.rules, self.method, u)
        after = team_wins(swapped_rows(rows, held, drawn), self.rules, self.method,
                          None if u is None else np.repeat(u, SLOTS, axis=0))
        return tally(rows, held, before, after.reshape(n_deals, SLOTS, len(FIGURES)))

    @staticmethod
    def unpack(counts: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
        """(deals, deals by trump (N_TRUMPS,), tallies (N_TRUMPS, N_CARDS, len(TALLIES))) of a count vector."""
        return (int(counts[0]), counts[1:1 + N_TRUMPS],
                counts[1 + N_TRUMPS:].reshape(N_TRUMPS, N_CARDS, len(TALLIES)))


PAIR_TALLIES = ("pairs",) + tuple(f"{f}.{t}" for f in FIGURES for t in ("first", "second", "only_first",
                                                                          "only_second"))
"""Counts per trump and pair of `CardPairJob`: the deals compared, then per figure the holder's team's wins with the
first card, with the second, with the first only and with the second only."""


class CardPairJob:
    """Counts for the runner (layout: [deals, deals by trump suit index, then per trump and pair the PAIR_TALLIES]) of
    the paired comparison of ``cards`` (card indices, two or more, distinct) two by two, on deals as played under
    ``rules``, the Spiel by ``method``. The pairs are (cards[i], cards[j]) for i < j in `itertools.combinations`
    order. A deal counts for a pair when a hand holds one of its two cards and the other lies in the face-down stock:
    the deal as dealt is judged against the same deal with the two exchanged."""

    block_size = 512

    def __init__(self, rules: D.DealRules = D.DealRules(), method: str = "greedy", cards=(0, 1)):
        if method not in play.METHODS:
            raise unknown_name("Spiel method", method, play.METHODS)
        cards = tuple(int(c) for c in cards)
        if len(cards) < 2 or len(set(cards)) != len(cards) or not all(0 <= c < N_CARDS for c in cards):
            raise CardsimError(f"a card comparison takes two or more different cards of the pack, got {cards}")
        self.rules, self.method, self.cards = rules, method, cards
        self.pairs = tuple(combinations(range(len(cards)), 2))
        self.n_counts = 1 + N_TRUMPS + N_TRUMPS * len(self.pairs) * len(PAIR_TALLIES)

    def key(self) -> str:
        return (f"perlaggen|card-pairs|{self.rules.key()}|method={self.method}|"
                f"cards={','.join(map(str, self.cards))}")

    def swaps(self, held: np.ndarray, stock: np.ndarray) -> tuple[np.ndarray, ...]:
        """The comparisons of a block: held (n, SLOTS) hand cards by slot, stock (n,) uint64 -> (deal, slot, card
        held, card from the stock, pair index, whether the held card is the pair's first), each (m,) int64 or
        bool, pair by pair, the first card held before the second."""
        parts = []
        for index, (i, j) in enumerate(self.pairs):
            for out, into, first in ((self.cards[i], self.cards[j], True), (self.cards[j], self.cards[i], False)):
                in_stock = ((stock >> np.uint64(into)) & _ONE).astype(bool)
                deal, slot = np.nonzero((held == out) & in_stock[:, None])
                m = len(deal)
                parts.append((deal, slot, np.full(m, out), np.full(m, into), np.full(m, index), np.full(m, first)))
        return tuple(np.concatenate(column) for column in zip(*parts))

    def run_block(self, seed: int, block: int, n_deals: int) -> np.ndarray:
        rows = D.deal_block(block_words(seed, block, n_deals, D.WORDS_PER_DEAL), self.rules)
        held = hand_cards(rows[:, :D.SEATS]).reshape(n_deals, SLOTS)
        deal, slot, out, into, pair, first = self.swaps(held, rows[:, D.STOCK])
        u = None
        if self.method != "dd":
            u = block_substream(seed, block, play.PLAY_STREAM).random((n_deals, play.DECISIONS))
        trumps = rows[:, D.TRUMP].astype(np.int64)
        counts = np.zeros(self.n_counts, dtype=np.int64)
        counts[0], counts[1:1 + N_TRUMPS] = n_deals, np.bincount(trumps, minlength=N_TRUMPS)
        if len(deal):
            judged, back = np.unique(deal, return_inverse=True)
            before = team_wins(rows[judged], self.rules, self.method, None if u is None else u[judged])[back]
            after = team_wins(swap_cards(rows, deal, SLOT_SEATS[slot], out, into), self.rules, self.method,
                              None if u is None else u[deal])
            counts[1 + N_TRUMPS:] = self.tally(trumps[deal] * len(self.pairs) + pair, SLOT_SEATS[slot] % 2, first,
                                               before, after)
        return counts

    def tally(self, where: np.ndarray, team: np.ndarray, first: np.ndarray, before: np.ndarray,
              after: np.ndarray) -> np.ndarray:
        """(N_TRUMPS * pairs * len(PAIR_TALLIES),) counts of comparisons in cells ``where`` (trump * pairs + pair),
        the holder's team, whether the held card is the first, and the winners (m, 3) as dealt and swapped."""
        columns = [np.ones(len(where), dtype=np.int64)]
        for f in range(len(FIGURES)):
            held_wins, swapped_wins = before[:, f] == team, after[:, f] == team
            with_first = np.where(first, held_wins, swapped_wins)
            with_second = np.where(first, swapped_wins, held_wins)
            columns += [with_first, with_second, with_first & ~with_second, with_second & ~with_first]
        cells = N_TRUMPS * len(self.pairs)
        return np.stack([np.bincount(where, weights=c, minlength=cells) for c in columns], axis=1).ravel()

    def unpack(self, counts: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
        """(deals, deals by trump (N_TRUMPS,), tallies (N_TRUMPS, pairs, len(PAIR_TALLIES))) of a count vector."""
        return (int(counts[0]), counts[1:1 + N_TRUMPS],
                counts[1 + N_TRUMPS:].reshape(N_TRUMPS, len(self.pairs), len(PAIR_TALLIES)))
