"""The Perlaggen PIMC policy as plain Python around the solver: the reference of the kernels of
simcore.games.perlaggen_pimc, which must make the same plays from the same generator state.

A `Position` holds one deal in play; `decide` samples the hidden cards (`giltspiel_pimc.sample_hidden`,
the same draws as the kernel), solves every candidate play of each sample with the double-dummy
solver (`perlaggen_play._solve`) and votes; `play_deal` plays a deal to the Spiel.
"""

from __future__ import annotations

import numpy as np

from simcore.games import perlaggen_deal as D
from simcore.games import perlaggen_play as play
from simcore.games.giltspiel_pimc import check_samples, communication_code, next_live, sample_hidden
from simcore.tricks import popcount

SEATS, SPIEL = play.SEATS, play.SPIEL
ALL = (1 << D.N_CARDS) - 1


def cards_of(mask: int) -> list[int]:
    """The cards (bit indices) of ``mask`` in increasing order."""
    mask = int(mask)
    return [c for c in range(D.N_CARDS) if mask >> c & 1]


class Position:
    """The state of one deal in play: hands (4,) uint64 still held, the current trick ``tcards,
    tids`` (4,) int64 with ``count`` plays led by ``leader``, ``won`` (2,) tricks per team, the
    revealed voids (4,) (bit s: no natural card of suit s) and ``gone``: cards every player knows
    are out of the hands (the table, completed tricks)."""

    def __init__(self, hands, trump: int, style: str, gone: int = 0):
        self.hands = np.array(hands, dtype=np.uint64)
        self.trump = int(trump)
        pmasks, precs = play.PlayRules(style).arrays()
        self.pmask, self.prec = pmasks[self.trump], precs[self.trump]
        self.tcards = np.zeros(SEATS, dtype=np.int64)
        self.tids = np.zeros(SEATS, dtype=np.int64)
        self.count, self.leader = 0, play.FOREHAND
        self.won = np.zeros(2, dtype=np.int64)
        self.voids = [0] * SEATS
        self.gone = int(gone)

    @property
    def seat(self) -> int:
        return (self.leader + self.count) % SEATS

    @property
    def led(self) -> int:
        return int(play.id_suit(self.tids[0])) if self.count else -1

    def over(self) -> bool:
        return bool(self.won.max() >= SPIEL)

    def apply(self, card: int, identity: int) -> None:
        """Make the play (card, identity) of the seat to move: record its voids, end the trick."""
        seat, led = self.seat, self.led
        if self.count and play.id_suit(identity) not in (led, self.trump):
            self.voids[seat] |= 1 << led
        self.hands[seat] &= ~np.uint64(1 << card)
        self.tcards[self.count], self.tids[self.count] = card, identity
        self.count += 1
        if self.count == SEATS:
            self.leader = int(play.trick_winner(self.tcards, self.tids, self.leader, self.prec, self.trump))
            self.won[self.leader % 2] += 1
            self.gone |= sum(1 << int(c) for c in self.tcards)
            self.count = 0


def candidates(pos: Position) -> list[tuple[int, int]]:
    """The plays the mover compares: legal natural cards, then per Perlagg its identities of use."""
    hand, led, trump = pos.hands[pos.seat], pos.led, pos.trump
    naturals, ok = play.legal_naturals(hand, pos.pmask, led, trump)
    out = [(c, c) for c in cards_of(naturals)]
    best_key = play._best_slot(pos.tids, pos.tcards, pos.count, pos.prec, trump)[1] if pos.count else -1
    for card in cards_of(hand & pos.pmask):
        ids = [8 * trump + 7] if ok >> trump & 1 else []
        if pos.count:
            ids.append(int(play._winning_identity(card, ok, pos.prec, led, trump, best_key)))
        ids.append(int(play._lowest_identity(card, ok, pos.prec, led, trump)))
        out += [(card, b) for b in dict.fromkeys(ids) if b >= 0]
    return out


def play_wins(pos: Position, deal, card: int, identity: int, table, moves) -> bool:
    """True if the mover's team takes the Spiel after the play (card, identity), all hands being
    ``deal`` (4,) uint64 and both teams then playing perfectly."""
    seat, team = pos.seat, pos.seat % 2
    after = np.array(deal, dtype=np.uint64)
    after[seat] &= ~np.uint64(1 << card)
    tcards, tids, won = pos.tcards.copy(), pos.tids.copy(), pos.won.copy()
    tcards[pos.count], tids[pos.count] = card, identity
    count, leader = pos.count + 1, pos.leader
    if count == SEATS:
        leader = int(play.trick_winner(tcards, tids, leader, pos.prec, pos.trump))
        won[leader % 2] += 1
        count = 0
        if won.max() >= SPIEL:
            return bool(won[team] >= SPIEL)
    return bool(play._solve(after, tcards, tids, count, leader, won, pos.pmask, pos.prec, pos.trump, team, SPIEL,
                            table, moves))


def view(pos: Position, public, partner: bool, stopper: int = D.NO_CARD) -> tuple:
    """(known (4,) uint64 cards the mover knows in each hand, need (4,) int64 cards to deal to each,
    pool: the cards it cannot place, allowed (4,) uint64 cards each seat may hold) of the mover.
    public (4,) uint64: the cards every player knows in each hand; stopper: the card the cutter
    saw (out of the hands; known to seat 3 only)."""
    seat = pos.seat
    known = pos.hands & np.asarray(public, dtype=np.uint64)
    known[seat] = pos.hands[seat]
    if partner:
        known[(seat + 2) % SEATS] = pos.hands[(seat + 2) % SEATS]
    seen = pos.gone | sum(1 << int(c) for c in pos.tcards[:pos.count]) | int(np.bitwise_or.reduce(known))
    if seat == D.CUTTER and stopper != D.NO_CARD:
        seen |= 1 << int(stopper)
    need = np.array([popcount(h) - popcount(k) for h, k in zip(pos.hands, known)], dtype=np.int64)
    allowed = np.array([ALL & ~sum(int(play.SUIT_MASKS[s]) & ~int(pos.pmask) for s in range(4) if v >> s & 1)
                        for v in pos.voids], dtype=np.uint64)
    return known, need, np.uint64(ALL & ~seen), allowed


def decide(pos: Position, public, partner: bool, samples: int, state, table, moves,
           stopper: int = D.NO_CARD) -> tuple[int, int]:
    """The PIMC play (card, identity) of the seat to move; state: (1,) uint64 splitmix64 generator."""
    plays = candidates(pos)
    if len(plays) == 1:
        return plays[0]
    known, need, pool, allowed = view(pos, public, partner, stopper)
    wins = np.zeros(64, dtype=np.int64)
    deal = np.empty(SEATS, dtype=np.uint64)
    done = 0
    live = next_live(np.uint64((1 << len(plays)) - 1), wins, done, samples)
    while live:
        sample_hidden(known, need, pool, allowed, state, deal)
        for i in cards_of(live):
            wins[i] += play_wins(pos, deal, *plays[i], table, moves)
        done += 1
        live = next_live(np.uint64(live), wins, done, samples)
    return pick(pos, plays, wins)


def pick(pos: Position, plays, wins) -> tuple[int, int]:
    """The play with most wins; ties: G1's play if it is among them, else the first."""
    top = max(wins[:len(plays)])
    best = [p for i, p in enumerate(plays) if wins[i] == top]
    greedy = play._choose(play.GREEDY, pos.hands[pos.seat], pos.tcards, pos.tids, pos.count, pos.pmask, pos.prec,
                          np.int64(pos.trump), 0.0)
    greedy = (int(greedy[0]), int(greedy[1]))
    return greedy if greedy in best else best[0]


def play_deal(hands, trump: int, samples: int, communication: str = "none", seed: int = 0, style: str = "innsbruck",
              public=(0, 0, 0, 0), gone: int = 0, stopper: int = D.NO_CARD, table=None,
              moves=None) -> tuple[int, list[tuple[int, int, int]]]:
    """`perlaggen_pimc.play_deal` (the same arguments and result) as a loop of `decide`."""
    partner = bool(communication_code(communication))
    samples = check_samples(samples)
    table = play.new_table() if table is None else table
    moves = play.new_moves() if moves is None else moves
    pos = Position(hands, trump, style, gone)
    state = np.array([seed], dtype=np.uint64)
    line = []
    while not pos.over():
        seat = pos.seat
        card, identity = decide(pos, public, partner, samples, state, table, moves, stopper)
        line.append((seat, int(card), int(identity)))
        pos.apply(int(card), int(identity))
    return (0 if pos.won[0] >= SPIEL else 1), line
