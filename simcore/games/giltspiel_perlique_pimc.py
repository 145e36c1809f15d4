"""Giltspiel mit 3 Perlique (spec shared/rules/giltspiel.md §8) under imperfect information: a PIMC policy.

The method is `simcore.games.giltspiel_pimc`'s with the play rules of `simcore.games.giltspiel_perlique` (the trump's
7, Unter and Ober wild, each standing for the card its owner declares, never a visible one): at each decision the
player samples ``samples`` deals of the cards it cannot see, consistent with what it knows, solves each double dummy
(`giltspiel_perlique._search`) for every candidate play, and makes the play that wins the Spiel for its team in most
samples (ties: the greedy policy's play if it is among the best, else the first candidate); sampling stops early as
in `giltspiel_pimc.next_live`.

* Candidate plays (as Perlaggen's PIMC, `simcore.games.perlaggen_pimc`): every legal natural card and, for one wild
  of the hand (its wilds play alike), the identities of use. Leading: the highest allowed identity of each suit (the
  suit led is the player's choice) and the lowest allowed one; following: the highest allowed trump, the cheapest
  identity that takes the trick and the lowest allowed one. The double-dummy solves that score them try every
  identity. Enough? With every hand public it reached the double-dummy winner in 1,998 of 2,000 deals (2-3 wilds in
  the hands), and a team weighing every allowed identity won 497 of 1,000 games against a team weighing these
  (500 deals with 1-3 wilds in the hands, each played both ways, 8 samples; a scratch variant, 2026-12-07).
* What a player knows (its *view*): its own hand; with communication ``partner`` its partner's; the turn-up and
  the cards named public (``known``); every play so far. From the plays it infers (§6.1 and the readings of §8)
  voids: an identity of neither the suit led nor trumps, or of no trump on a trump lead, shows the player holds no
  natural card of the suit led; a wild, never compulsory, counts for no suit. A wild declared as a natural card
  shows that its owner did not hold that card (a wild may not copy a card of its owner's hand).
* The hidden cards (the other hands and the 11-card stock, wilds among them) are dealt uniformly among the places
  they can be in (`giltspiel_pimc.sample_hidden`). Every seat decides every play, the first lead included, on its
  own samples (the base game's asker decides its first lead once per turn-up; here it is decided deal by deal).

Randomness: one 64-bit word per deal seeds the players' splitmix64 generator (as in `giltspiel_pimc`), so a deal's
play depends only on (seed, block, place in block). tests/naive_giltspiel_perlique_pimc.py is the plain-Python
reference of the kernels: the same plays from the same generator state.
"""

from __future__ import annotations

import numpy as np

from simcore import checks
from simcore.config import njit
from simcore.errors import CardsimError
from simcore.games import giltspiel_perlique as P
from simcore.games.giltspiel import N_RANKS, N_SUITS, PERLIQUE, SEATS
from simcore.games.giltspiel_pimc import (ALL, ALL_SEATS, PimcSpielJob, _next, _pimc_seats, _reveal, _seat_masks, _view,
                                          check_samples, communication_code, next_live, sample_hidden)
from simcore.games.giltspiel_play import checked_hands
from simcore.tricks import leading_zeros, lowest_card, popcount

ID_BITS, N_CARDS, SUITS, SPIEL, FOREHAND = P.ID_BITS, P.N_CARDS, P.SUITS, P.SPIEL, P.FOREHAND
MAX_CANDIDATES = 16
"""Room for a decision's candidate plays: at most 5 natural cards and 5 identities of one wild."""
_ONE = np.uint64(1)


# --- one decision -------------------------------------------------------------------------------
@njit
def _uses(allowed, wild, cards, ids, count, trump, wilds, tie, out):
    """The identities of use of ``wild`` (see the module docstring) among the ``allowed`` ones into out; returns how
    many (each once, in the order leading: per suit, then the lowest; following: top trump, cheapest winner,
    lowest; of equal heights the cheapest winner is the lower card and the lowest the higher card, as greedy picks
    them). The trick's plays are cards/ids[:count]."""
    led = ids[0] // N_RANKS if count else -1
    best_key = P._holding(cards, ids, 0, count, led, trump, wilds, tie)[0]
    n = 0
    if count == 0:
        for suit in range(N_SUITS):
            if allowed & SUITS[suit]:
                out[n] = _highest(allowed & SUITS[suit])
                n += 1
    else:
        if allowed & SUITS[trump]:
            out[n] = _highest(allowed & SUITS[trump])
            n += 1
        winning = np.uint64(0)
        m = allowed
        while m:
            ident = lowest_card(m)
            m &= m - _ONE
            if P._key(wild, ident, led, trump, wilds, tie) > best_key:
                winning |= _ONE << np.uint64(ident)
        if winning:
            out[n] = _lowest_of(winning, trump, False)
            n += 1
    out[n] = _lowest_of(allowed, trump, True)  # of equal heights the later card, as greedy
    n += 1
    k = 0
    for i in range(n):  # drop repeats, keeping the first
        fresh = True
        for j in range(k):
            fresh &= out[j] != out[i]
        if fresh:
            out[k] = out[i]
            k += 1
    return k


@njit
def _lowest_of(mask, trump, later):
    """The identity of the non-empty uint64 ``mask`` lowest in greedy's order (`giltspiel_perlique._height`); of
    equal heights the lower card, or with ``later`` the higher one."""
    low = -1
    while mask:
        ident = lowest_card(mask)
        mask &= mask - _ONE
        if low < 0 or P._height(ident, trump) < P._height(low, trump) or (
                later and P._height(ident, trump) == P._height(low, trump)):
            low = ident
    return low


@njit
def _highest(mask):
    """Index of the highest set bit of a non-empty uint64 mask."""
    return 63 - np.int64(leading_zeros(mask))


@njit
def _candidates(hand, cards, ids, count, trump, wilds, tie, visible, out):
    """The plays (``card << ID_BITS | identity``) the mover compares into out (MAX_CANDIDATES,): its legal natural
    cards in card order, then one wild's identities of use (`_uses`); returns how many."""
    led = ids[0] // N_RANKS if count else -1
    legal, allowed = P._options(hand, wilds, led, trump, visible)
    n = 0
    m = legal
    while m:
        card = lowest_card(m)
        m &= m - _ONE
        out[n] = (card << ID_BITS) | card
        n += 1
    if allowed:
        wild = lowest_card(hand & wilds)
        uses = np.empty(N_SUITS + 1, dtype=np.int64)
        for i in range(_uses(allowed, wild, cards, ids, count, trump, wilds, tie, uses)):
            out[n] = (wild << ID_BITS) | uses[i]
            n += 1
    return n


@njit
def _allowed(voids, declared, wilds, out):
    """Cards each seat may hold into out (4,) uint64: no natural card of a suit it showed void in (bits of
    ``voids`` (4,)), none of the natural cards it declared a wild as (``declared`` (4,) uint64)."""
    for seat in range(SEATS):
        out[seat] = ALL & ~(declared[seat] & ~wilds)
        for suit in range(N_SUITS):
            if (voids[seat] >> suit) & 1:
                out[seat] &= ~(SUITS[suit] & ~wilds)


@njit
def _play_wins(deal, seat, cards, ids, count, leader, won, play, visible, trump, wilds, tie, scratch, table):
    """True if the mover's team (of ``seat``) takes the Spiel after ``play``, the hands being ``deal`` (4,) uint64
    and both teams then playing perfectly. cards, ids[:count]: the trick so far; visible: identities shown before
    this play (turn-up, earlier tricks, this trick); scratch: `giltspiel_perlique._scratch`'s buffers."""
    tcards, tids, stack, plays, vis = scratch
    team = seat % 2
    after = deal.copy()
    card, ident = play >> ID_BITS, play & (N_CARDS - 1)
    after[seat] &= ~(_ONE << np.uint64(card))
    trick_cards, trick_ids, tricks = cards.copy(), ids.copy(), won.copy()
    trick_cards[count], trick_ids[count] = card, ident
    count += 1
    if count == SEATS:
        leader = (leader + P._winning_slot(trick_cards, trick_ids, 0, SEATS, trump, wilds, tie)) % SEATS
        tricks[leader % 2] += 1
        count = 0
        if max(tricks[0], tricks[1]) >= SPIEL:
            return tricks[team] >= SPIEL
    for i in range(count):  # the solver reads the trick so far from slots PAST - count .. PAST - 1
        tcards[P.PAST - count + i], tids[P.PAST - count + i] = trick_cards[i], trick_ids[i]
    return P._search(after, tcards, tids, count, leader, tricks, visible | (_ONE << np.uint64(ident)), trump, wilds,
                     tie, team, SPIEL, stack, plays, vis, table)


@njit
def _decide(hands, seat, known, voids, declared, gone, cards, ids, count, leader, won, visible, trump, wilds, tie,
            samples, state, scratch, table):
    """The PIMC play (``card << ID_BITS | identity``) of ``seat``: the candidate (`_candidates`) that wins the Spiel
    in most sampled deals. hands (4,) uint64: the cards every seat still holds (only their sizes are used, besides
    the mover's own hand and ``known`` (4,) uint64, the cards the mover knows in each hand); voids (4,) suit bits and
    declared (4,) uint64 identities each seat declared a wild as; gone: the cards out of play everyone saw (completed
    tricks, the turn-up); cards, ids[:count]: the trick so far; visible: identities shown (turn-up, plays).
    state: (1,) uint64 splitmix64."""
    out = np.empty(MAX_CANDIDATES, dtype=np.int64)
    n = _candidates(hands[seat], cards, ids, count, trump, wilds, tie, visible, out)
    if n == 1:
        return out[0]
    seen = gone
    for i in range(count):
        seen |= _ONE << np.uint64(cards[i])
    need = np.empty(SEATS, dtype=np.int64)
    for s in range(SEATS):
        seen |= known[s]
        need[s] = popcount(hands[s]) - popcount(known[s])
    allowed = np.empty(SEATS, dtype=np.uint64)
    _allowed(voids, declared, wilds, allowed)
    wins = np.zeros(MAX_CANDIDATES, dtype=np.int64)
    deal = np.empty(SEATS, dtype=np.uint64)
    done = 0
    live = next_live(np.uint64((1 << n) - 1), wins, done, samples)
    while live:
        sample_hidden(known, need, ALL & ~seen, allowed, state, deal)
        m = live
        while m:
            i = lowest_card(m)
            m &= m - _ONE
            wins[i] += _play_wins(deal, seat, cards, ids, count, leader, won, out[i], visible, trump, wilds, tie,
                                  scratch, table)
        done += 1
        live = next_live(live, wins, done, samples)
    top = wins[:n].max()
    greedy = P._choose(P.GREEDY, hands[seat], cards, ids, 0, count, trump, wilds, tie, visible, 0.0)
    first = -1
    for i in range(n):
        if wins[i] == top:
            if out[i] == greedy:
                return greedy
            first = i if first < 0 else first
    return out[first]


@njit
def _play_deal(hands, trump, turnup, tie, public, partner, pimc_seats, samples, state, scratch, table, line):
    """Play one deal to the Spiel with PIMC at the seats of bit mask ``pimc_seats`` and the random policy
    (`giltspiel_perlique.RANDOM`, a uniform from ``state``) at the others, forehand (seat 1) leading: hands (4,)
    uint64 (modified); turnup: the turn-up card; public (4,) uint64 cards every player knows in each hand; line
    (DECISIONS,) gets the plays (``card << ID_BITS | identity``) in order. Returns (winning team, plays made)."""
    wilds = PERLIQUE[trump]
    cards = np.zeros(SEATS, dtype=np.int64)
    ids = np.zeros(SEATS, dtype=np.int64)
    won = np.zeros(2, dtype=np.int64)
    voids = np.zeros(SEATS, dtype=np.int64)
    declared = np.zeros(SEATS, dtype=np.uint64)
    gone = _ONE << np.uint64(turnup)
    visible = gone
    leader, made = FOREHAND, 0
    while won[0] < SPIEL and won[1] < SPIEL:
        for count in range(SEATS):
            seat = (leader + count) % SEATS
            if (pimc_seats >> seat) & 1:
                play = _decide(hands, seat, _view(hands, seat, public, partner), voids, declared, gone, cards, ids,
                               count, leader, won, visible, trump, wilds, tie, samples, state, scratch, table)
            else:
                play = P._choose(P.RANDOM, hands[seat], cards, ids, 0, count, trump, wilds, tie, visible,
                                 (_next(state) >> np.uint64(11)) * 2.0 ** -53)
            card, ident = play >> ID_BITS, play & (N_CARDS - 1)
            _reveal(voids, seat, ident, ids[0] // N_RANKS if count else ident // N_RANKS, trump)
            if card != ident:
                declared[seat] |= _ONE << np.uint64(ident)
            hands[seat] &= ~(_ONE << np.uint64(card))
            visible |= _ONE << np.uint64(ident)
            cards[count], ids[count] = card, ident
            line[made] = play
            made += 1
        for card in cards:
            gone |= _ONE << np.uint64(card)
        leader = (leader + P._winning_slot(cards, ids, 0, SEATS, trump, wilds, tie)) % SEATS
        won[leader % 2] += 1
    return (0 if won[0] >= SPIEL else 1), made


@njit
def _play_many(hands, trumps, turnups, tie, public, partner, samples, seeds, scratch, table, teams):
    """Winning team of every deal into teams (n,): hands (n, 4) uint64, trumps (n,), turnups (n,) uint64 masks, seeds
    (n,) uint64 (each deal's generator seed)."""
    line = np.empty(P.DECISIONS, dtype=np.int64)
    state = np.empty(1, dtype=np.uint64)
    for i in range(hands.shape[0]):
        state[0] = seeds[i]
        teams[i] = _play_deal(hands[i].copy(), trumps[i], lowest_card(turnups[i]), tie, public, partner, ALL_SEATS,
                              samples, state, scratch, table, line)[0]


# --- Python API ---------------------------------------------------------------------------------
def play_line(hands, turnup: int, samples: int, communication: str = "none", seed: int = 0, public=None,
              tie: str = "wild", pimc_seats=range(SEATS)) -> tuple[int, list[tuple[int, int, int]]]:
    """(winning team, the (seat, card, identity) line) of one deal played to the Spiel by PIMC at ``pimc_seats``
    (the random policy at the others), with the trump's 7, Unter and Ober wild. hands (4,) uint64 five cards each;
    turnup: the turn-up card (its suit is trump); public (4,) uint64: cards every player knows in each hand; seed:
    the players' 64-bit generator seed; tie: option perlique_tie."""
    hands = checked_hands(hands)
    turnup, seed = checks.whole(turnup, "turnup", 0, N_CARDS - 1), checks.whole(seed, "seed", 0, 2 ** 64 - 1)
    if int(np.bitwise_or.reduce(hands)) >> turnup & 1:
        raise CardsimError(f"the turn-up (card {turnup}) is in a hand: it is never played; take it out of the hands")
    public, code = _seat_masks(public, "public", hands), P.checked_tie(tie)
    line = np.empty(P.DECISIONS, dtype=np.int64)
    team, made = _play_deal(np.array(hands, dtype=np.uint64), turnup // N_RANKS, turnup, code, public,
                            communication_code(communication), _pimc_seats(pimc_seats), check_samples(samples),
                            np.array([seed], dtype=np.uint64), P._scratch(), P.new_table(), line)
    trump, line_out, leader = turnup // N_RANKS, [], FOREHAND
    for k in range(0, made, SEATS):  # a deal ends with a whole trick
        trick = [(int(p) >> ID_BITS, int(p) & (N_CARDS - 1)) for p in line[k:k + SEATS]]
        line_out += [((leader + i) % SEATS, card, ident) for i, (card, ident) in enumerate(trick)]
        leader = (leader + P._slot_of(trick, trump, PERLIQUE[trump], code)) % SEATS
    return int(team), line_out


class PerliquePimcSpielJob(PimcSpielJob):
    """`giltspiel_pimc.PimcSpielJob`'s counts with the Perlique in play (``tie``: option perlique_tie): every seat
    plays PIMC by `_decide`, the first lead included (no once-per-turn-up first lead)."""

    def __init__(self, known, seat: int, samples: int, communication: str = "none", accept=(), tie: str = "wild"):
        super().__init__(known, seat, samples, communication, accept)
        self.tie, self.tie_code = tie, P.checked_tie(tie)

    def first_lead(self, seed: int, turnup: int) -> int:
        return -1

    def extra_key(self) -> str:
        return f"{super().extra_key()}|perlique={self.tie}"

    def play_many(self, hands, trumps, turnups, seeds, firsts, teams) -> None:
        _play_many(hands, trumps, turnups, self.tie_code, self.public, self.partner, self.samples, seeds,
                   P._scratch(), P.new_table(), teams)
