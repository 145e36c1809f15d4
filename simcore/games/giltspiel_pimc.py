"""Giltspiel card play under imperfect information: a PIMC (Perfect Information Monte Carlo) policy.

Rules: shared/rules/giltspiel.md §6. Seats 0-3, dealer 0, forehand (seat 1) leads; team = seat % 2.

At each decision the player to move samples ``samples`` deals of the cards it cannot see, consistent
with everything it knows, solves each one double dummy (simcore.games.giltspiel_play's search) for
every card it may play, and plays the card that wins the Spiel for its team in most samples. Ties
(common: the Spiel is won or lost in every sample whatever the card) go to the card the greedy
policy of spec §10.5 prefers, then the lowest card index; against random defenders this lifts the
PIMC team from 0.60 to 0.67 (4 samples, 300 deals) compared with lowest-card ties.
What a player knows (its *view*):

* its own hand; with communication ``partner`` also its partner's hand (partners may signal);
* the turn-up (public: it names the trump) and cards named public (``known``, e.g. shown figures);
* every card played so far and the voids the play reveals (§6.1: a card of another suit than the
  one led shows the player has none of the suit led, except a trump on a plain suit, which may be
  played at will).

The hidden cards (the other hands and the 11-card stock) are dealt uniformly among the places they
can be in by rejection (exact); after `MAX_TRIES` rejected tries (many revealed voids) a seat at a
time is filled from the cards it may hold, the most constrained seat first (consistent, close to
uniform). Cost savings: cards equivalent in a sample deal (adjacent in a suit once the stock's cards
are out) are solved once; a card that can no longer win the vote is not solved again; sampling
stops once one card (up to equivalence) is left, or after half the samples when the decision is
clear (`_clear`); an asker who leads (seat 1, communication none) decides its first lead once
per turn-up (`PimcSpielJob.first_lead`).

Randomness: one 64-bit word per deal from ``block_substream(seed, block, PIMC_STREAM)`` seeds a
splitmix64 generator inside the kernel, so a deal's play depends only on (seed, block, place in
block).
"""

from __future__ import annotations

import numpy as np

from simcore import checks
from simcore.config import njit, njit_inline
from simcore.errors import CardsimError, is_whole_int, unknown_name
from simcore.games.giltspiel import HAND_SIZE, N_RANKS, N_SUITS, SEATS, TURNUP, DealJob, Known
from simcore.games.giltspiel_play import (DECISIONS, _greedy_key, _trick_state, FOREHAND, SPIEL, SUITS, TRICKS,
                                          _moves, _solve, _team_trumps, _turnup_cards, checked_hands, new_table)
from simcore.rng import block_substream
from simcore.tricks import FOLLOW_OR_TRUMP, legal_mask, lowest_card, popcount, random_card, trick_winner

COMMUNICATIONS = {"none": 0, "partner": 1}
DEFAULT_SAMPLES = 8
"""Samples per decision of ``cardsim odds giltspiel --spiel pimc`` unless --pimc-samples is given."""
MAX_SAMPLES = 1024
"""The most samples per decision (--pimc-samples), 128 and 256 times the Giltspiel and Perlaggen defaults: every
decision solves that many deals, so a typed extra zero should not start a run of days."""
PIMC_STREAM = 2
"""Sub-stream index of the PIMC players' sampling (1 is giltspiel_play.PLAY_STREAM)."""
FIRST_STREAM = 3
"""Sub-stream index (with the turn-up card as block) of the asker's first lead (`PimcSpielJob.first_lead`)."""
FIRST_LEAD_FACTOR = 16
"""The asker's once-decided first lead uses this many times the samples of a decision."""
MAX_TRIES = 2000
"""Exact (rejection) tries of a sample before the by-seat fallback."""
ALL_SEATS = (1 << SEATS) - 1
N_CARDS = N_SUITS * N_RANKS
ALL = np.uint64((1 << N_CARDS) - 1)
_ONE = np.uint64(1)


def communication_code(name: str) -> int:
    """0 for "none", 1 for "partner"; CardsimError otherwise."""
    if not isinstance(name, str) or name not in COMMUNICATIONS:
        raise unknown_name("--communication", name, COMMUNICATIONS)
    return COMMUNICATIONS[name]


def check_samples(samples: int) -> int:
    """``samples`` as an int from 1 to `MAX_SAMPLES` (a whole float such as 8.0 too); CardsimError otherwise."""
    if not checks.is_whole_number(samples) or not 1 <= samples <= MAX_SAMPLES:
        raise CardsimError(f"samples (--pimc-samples) must be a whole number from 1 to {MAX_SAMPLES:,} (each "
                           f"decision solves that many deals), got {samples!r}")
    return int(samples)


def _seat_masks(values, what: str, hands=None) -> np.ndarray:
    """``values`` (None: none) as (4,) uint64 card masks of the 32 cards, one per seat, each within the seat's
    hand of ``hands`` when given; CardsimError otherwise."""
    if values is None:
        return np.zeros(SEATS, dtype=np.uint64)
    if checks.shape_of(values) != (SEATS,):
        raise CardsimError(f"{what} must be {SEATS} card masks, one per seat 0-{SEATS - 1}, got {checks.shown(values)}")
    masks = checks.card_masks(values, what, N_CARDS)
    if hands is not None and any(int(m) & ~int(h) for m, h in zip(masks, hands)):
        raise CardsimError(f"{what} must be cards of the seats' own hands, got {checks.shown(values)}")
    return masks


def _suit_cards(suits: int) -> int:
    """The mask of every card of the suits whose bits ``suits`` sets (bit s: suit s; `SUITS` per suit)."""
    return sum(int(SUITS[suit]) for suit in range(N_SUITS) if suits >> suit & 1)


def _void_bits(voids, hands) -> np.ndarray:
    """``voids`` as (4,) int64 void-suit bits (0-15), none of them a suit the seat still holds; CardsimError
    otherwise."""
    voids = np.array(checks.wholes(voids, "voids (void-suit bits per seat)", SEATS, 0, (1 << N_SUITS) - 1),
                     dtype=np.int64)
    for seat in range(SEATS):
        if int(hands[seat]) & _suit_cards(int(voids[seat])):
            raise CardsimError(f"voids: seat {seat} is marked void in a suit it holds, got {voids.tolist()}")
    return voids


def _pimc_seats(seats) -> int:
    """The seat bits of ``pimc_seats`` (seats 0-3); CardsimError otherwise."""
    if not isinstance(seats, (list, tuple, range, set, frozenset)) \
            or not all(is_whole_int(seat) and 0 <= seat < SEATS for seat in seats):
        raise CardsimError(f"pimc_seats must be a collection of seats 0-{SEATS - 1}, got {checks.shown(seats)}")
    return _seat_bits(int(seat) for seat in seats)


def _checked_trick(trick, seat: int, leader: int, held: int) -> np.ndarray:
    """The current ``trick`` (up to 3 cards led by ``leader``, ``seat`` to play next, none in a hand of the mask
    ``held``) as (4,) int64 cards; CardsimError otherwise."""
    trick = checks.wholes(trick, "trick", len(trick), 0, N_CARDS - 1) if isinstance(trick, (list, tuple)) else None
    if trick is None or len(trick) >= SEATS or (leader + len(trick)) % SEATS != seat or len(set(trick)) < len(trick) \
            or any(held >> c & 1 for c in trick):
        raise CardsimError(f"trick must be up to {SEATS - 1} cards played since the leader led, none still in a hand, "
                           f"with seat {seat} to play next; got {trick!r} led by seat {leader}")
    cards = np.zeros(SEATS, dtype=np.int64)
    cards[:len(trick)] = trick
    return cards


# --- random numbers ---------------------------------------------------------------------------
@njit_inline
def _next(state):
    """splitmix64: the next 64-bit word of the generator ``state`` (1,) uint64 (advanced)."""
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit_inline
def _below(state, n):
    """Uniform int in [0, n) (n >= 1; bias below 2**-50)."""
    return np.int64((_next(state) >> np.uint64(11)) % np.uint64(n))


# --- sampling the hidden cards ----------------------------------------------------------------
@njit
def _cards_of(mask, out):
    """The cards of ``mask`` into ``out`` in increasing order; returns how many."""
    n = 0
    while mask:
        out[n] = lowest_card(mask)
        mask &= mask - _ONE
        n += 1
    return n


@njit
def _allowed(voids):
    """Cards a seat may hold given its void suits (bit s of ``voids`` = no card of suit s)."""
    out = ALL
    for suit in range(N_SUITS):
        if (voids >> suit) & 1:
            out &= ~SUITS[suit]
    return out


@njit
def _try_exact(cards, n, need, allowed, state, out):
    """One rejection try: a uniform draw of the needed cards from ``cards[:n]`` (shuffled in place),
    seat by seat; False if a card lands in a seat that cannot hold it."""
    k = 0
    for seat in range(SEATS):
        for _ in range(need[seat]):
            j = k + _below(state, n - k)
            cards[k], cards[j] = cards[j], cards[k]
            card = cards[k]
            if not (allowed[seat] >> np.uint64(card)) & _ONE:
                return False
            out[seat] |= _ONE << np.uint64(card)
            k += 1
    return True


@njit
def _try_by_seat(pool, need, allowed, state, out):
    """Fill the seats one at a time, fewest candidate cards first, uniformly from the cards each may
    hold; False if a seat finds too few."""
    order = np.argsort(np.array([popcount(pool & allowed[s]) for s in range(SEATS)]))
    cards = np.empty(64, dtype=np.int64)
    for seat in order:
        n = _cards_of(pool & allowed[seat], cards)
        if n < need[seat]:
            return False
        for k in range(need[seat]):
            j = k + _below(state, n - k)
            cards[k], cards[j] = cards[j], cards[k]
            out[seat] |= _ONE << np.uint64(cards[k])
            pool &= ~(_ONE << np.uint64(cards[k]))
    return True


@njit
def sample_hidden(known, need, pool, allowed, state, out):
    """One deal of the hidden cards of any pack (cards are bits of uint64 masks): out (4,) uint64 =
    known[s] plus need[s] cards of ``pool`` among ``allowed[s]`` (the cards seat s may hold); the
    rest of the pool stays out of play (the stock). state: the splitmix64 generator (`_next`).
    Returns True if the draw is exact (uniform), False if it came from the by-seat fallback."""
    cards = np.empty(64, dtype=np.int64)
    n = _cards_of(pool, cards)
    for _ in range(MAX_TRIES):
        out[:] = known
        if _try_exact(cards, n, need, allowed, state, out):
            return True
    for _ in range(100 * MAX_TRIES):
        out[:] = known
        if _try_by_seat(pool, need, allowed, state, out):
            return False
    raise ValueError("no deal of the hidden cards fits the view")


@njit
def _sample(known, need, pool, voids, state, out):
    """`sample_hidden` for Giltspiel: seat s may hold no card of its ``voids`` (suit bits)."""
    allowed = np.empty(SEATS, dtype=np.uint64)
    for seat in range(SEATS):
        allowed[seat] = _allowed(voids[seat])
    return sample_hidden(known, need, pool, allowed, state, out)


# --- one decision -----------------------------------------------------------------------------
@njit
def _twin_above(card, hand, gone):
    """The next card above ``card`` in its suit that is not ``gone``, if ``hand`` holds it, else -1
    (then ``card`` and it are equivalent for whoever holds ``hand``)."""
    top = (card // N_RANKS + 1) * N_RANKS
    for above in range(card + 1, top):
        if not (gone >> np.uint64(above)) & _ONE:
            return above if (hand >> np.uint64(above)) & _ONE else -1
    return -1


@njit
def _card_wins(hands, seat, card, trick, count, leader, won, trump, table, moves):
    """True if the team of ``seat`` wins the Spiel after ``seat`` plays ``card`` to the trick, both
    teams then playing perfectly with all of ``hands`` (4,) uint64 known."""
    team = seat % 2
    after = hands.copy()
    after[seat] &= ~(_ONE << np.uint64(card))
    cards = trick.copy()
    cards[count] = card
    tricks = won.copy()
    if count + 1 < SEATS:
        return _solve(after, cards, count + 1, leader, tricks, trump, team, SPIEL, table, moves)
    winner = trick_winner(cards, leader, trump, N_RANKS)
    tricks[winner % 2] += 1
    if tricks[team] >= SPIEL or tricks[1 - team] >= SPIEL:
        return tricks[team] >= SPIEL
    return _solve(after, cards, 0, winner, tricks, trump, team, SPIEL, table, moves)


@njit
def _add_votes(hands, seat, live, trick, count, leader, won, trump, table, moves, wins):
    """wins (N_CARDS,) += 1 for every card of ``live`` that wins the Spiel in the deal ``hands``.

    Cards equivalent in this deal (the mover's cards of one suit with no card of another hand or of
    the trick between them: the stock's cards are out of play) share one solve, of the highest."""
    present = hands[0] | hands[1] | hands[2] | hands[3]
    for i in range(count):
        present |= _ONE << np.uint64(trick[i])
    solved, winning = np.uint64(0), np.uint64(0)
    m = live
    while m:
        card = lowest_card(m)
        m &= m - _ONE
        top, above = card, card
        while above >= 0:
            top, above = above, _twin_above(above, hands[seat], ~present)
        bit = _ONE << np.uint64(top)
        if not solved & bit:
            solved |= bit
            if _card_wins(hands, seat, top, trick, count, leader, won, trump, table, moves):
                winning |= bit
        if winning & bit:
            wins[card] += 1


@njit
def _most_wins(live, wins):
    """The most wins of a card of ``live`` so far."""
    top = 0
    m = live
    while m:
        top = max(top, wins[lowest_card(m)])
        m &= m - _ONE
    return top


@njit
def _contenders(live, wins, remaining):
    """The cards of ``live`` that can still be picked after ``remaining`` more samples: a card whose
    wins cannot reach the most wins so far loses the vote whatever the rest of the samples show."""
    top = _most_wins(live, wins)
    out = live
    m = live
    while m:
        card = lowest_card(m)
        m &= m - _ONE
        if wins[card] + remaining < top:
            out &= ~(_ONE << np.uint64(card))
    return out


@njit
def _clear(live, wins, done):
    """True if after ``done`` samples a card of ``live`` has won every one, or none has won any:
    the rest of the samples would rarely change the card (about 2% of decisions, losing on average
    0.02 of a sample's vote; for the same saving, 17% of the solves, fewer samples lose more)."""
    top = _most_wins(live, wins)
    return top == done or top == 0


@njit
def next_live(live, wins, done, samples):
    """The choices (bits of ``live``: cards, or indices of a list of plays) to solve in the next
    sample after ``done`` of ``samples`` samples with ``wins`` per choice so far: those that can
    still win the vote (`_contenders`); 0 when sampling stops: after the last sample, when one
    choice is left (it is the one all the samples would pick), or after half the samples when the
    decision is clear (`_clear`)."""
    if done == samples:
        return np.uint64(0)
    live = _contenders(live, wins, samples - done)
    if popcount(live) <= 1 or 2 * done >= samples and _clear(live, wins, done):
        return np.uint64(0)
    return live


@njit
def _next_live(live, wins, done, samples, gone):
    """`next_live` for a hand's cards, also stopping when the cards left are equivalent (one card up
    to `_representatives`: the card picked is then the one all the samples would give)."""
    live = next_live(live, wins, done, samples)
    return live if popcount(_representatives(live, gone)) > 1 else np.uint64(0)


@njit
def _representatives(cards, gone):
    """Of ``cards`` (a mask of one hand's cards) the highest of each run equivalent for everyone
    (see `_twin_above`): more than one means a choice worth sampling."""
    reps = cards
    m = cards
    while m:
        card = lowest_card(m)
        m &= m - _ONE
        if _twin_above(card, cards, gone) >= 0:
            reps &= ~(_ONE << np.uint64(card))
    return reps


@njit
def _pick(legal, wins, trick, count, trump):
    """The legal card with most wins; ties: the greedy policy's preference (spec §10.5), then the
    lowest card."""
    led, best_power, partner = _trick_state(trick, count, trump)
    best, best_wins = -1, -1
    m = legal
    while m:
        card = lowest_card(m)
        m &= m - _ONE
        key = wins[card] * 64 + _greedy_key(card, count, led, best_power, partner, trump) + 32
        if key > best_wins:
            best, best_wins = card, key
    return best


@njit
def _decide(hands, seat, known, voids, gone, trick, count, leader, won, trump, samples, state, table, moves):
    """The PIMC card of ``seat``. hands (4,) uint64: the cards every seat still holds (only their
    sizes and the known cards are used, besides the mover's own hand); known (4,) uint64: the cards
    the mover knows in each hand (its own included); voids (4,) int64 suit bits revealed by play;
    gone: cards out of play that everyone saw (completed tricks, the turn-up); trick[:count]: the
    current trick. Returns the card.

    Sampling may stop before ``samples`` samples (`_next_live`)."""
    led = trick[0] // N_RANKS if count else -1
    legal = legal_mask(hands[seat], led, trump, SUITS, FOLLOW_OR_TRUMP)
    seen = gone
    for i in range(count):
        seen |= _ONE << np.uint64(trick[i])
    pool = ALL & ~seen
    need = np.empty(SEATS, dtype=np.int64)
    for s in range(SEATS):
        pool &= ~known[s]
        need[s] = popcount(hands[s]) - popcount(known[s])
    wins = np.zeros(N_CARDS, dtype=np.int64)
    deal = np.empty(SEATS, dtype=np.uint64)
    done = 0
    live = _next_live(legal, wins, done, samples, gone)
    while live:
        _sample(known, need, pool, voids, state, deal)
        _add_votes(deal, seat, live, trick, count, leader, won, trump, table, moves, wins)
        done += 1
        live = _next_live(live, wins, done, samples, gone)
    return _pick(legal, wins, trick, count, trump)


@njit
def _reveal(voids, seat, card, led, trump):
    """Record the voids a card reveals (§6.1) into voids (4,) int64: a card off the suit led shows
    that suit is gone, except a trump on a plain suit (trumping is allowed at will)."""
    suit = card // N_RANKS
    if suit != led and suit != trump or led == trump and suit != trump:
        voids[seat] |= 1 << led


@njit
def _view(hands, seat, public, partner):
    """The cards ``seat`` knows in each hand: its own, its partner's if ``partner``, public ones."""
    known = hands & public
    known[seat] = hands[seat]
    if partner:
        known[(seat + 2) % SEATS] = hands[(seat + 2) % SEATS]
    return known


@njit
def _play_deal(hands, trump, turnup, public, partner, pimc_seats, samples, state, table, moves, line, first):
    """Play one deal to the Spiel with PIMC at the seats of bit mask ``pimc_seats``, uniformly random
    legal cards at the others. hands (4,) uint64 (modified); turnup mask; public (4,) uint64 cards
    every player knows in each hand; line (DECISIONS,) receives the cards in play order; first: the
    card of the first lead if decided beforehand (see `PimcSpielJob.first_lead`), else -1.
    Returns (winning team, cards played)."""
    trick = np.zeros(SEATS, dtype=np.int64)
    won = np.zeros(2, dtype=np.int64)
    voids = np.zeros(SEATS, dtype=np.int64)
    gone = turnup
    leader, played = FOREHAND, 0
    while won[0] < SPIEL and won[1] < SPIEL:
        for count in range(SEATS):
            seat = (leader + count) % SEATS
            if played == 0 and first >= 0:
                card = first
            elif (pimc_seats >> seat) & 1:
                known = _view(hands, seat, public, partner)
                card = _decide(hands, seat, known, voids, gone, trick, count, leader, won, trump, samples, state,
                               table, moves)
            else:
                legal = legal_mask(hands[seat], trick[0] // N_RANKS if count else -1, trump, SUITS, FOLLOW_OR_TRUMP)
                card = random_card(legal, (_next(state) >> np.uint64(11)) * 2.0 ** -53)
            _reveal(voids, seat, card, trick[0] // N_RANKS if count else card // N_RANKS, trump)
            hands[seat] &= ~(_ONE << np.uint64(card))
            trick[count] = card
            line[played] = card
            played += 1
        for card in trick:
            gone |= _ONE << np.uint64(card)
        leader = trick_winner(trick, leader, trump, N_RANKS)
        won[leader % 2] += 1
    return (0 if won[0] >= SPIEL else 1), played


@njit
def _play_many(hands, trumps, turnups, public, partner, pimc_seats, samples, seeds, firsts, table, moves, teams):
    """Winning team of every deal into teams (n,): hands (n, 4) uint64, trumps (n,), turnups (n,)
    uint64 masks, seeds (n,) uint64 (each deal's generator seed), firsts (n,) int64 (`_play_deal`'s first)."""
    line = np.empty(DECISIONS, dtype=np.int64)
    state = np.empty(1, dtype=np.uint64)
    for i in range(hands.shape[0]):
        state[0] = seeds[i]
        teams[i], _ = _play_deal(hands[i].copy(), trumps[i], turnups[i], public, partner, pimc_seats, samples, state,
                                 table, moves, line, firsts[i])


# --- Python API -------------------------------------------------------------------------------
def choose(hands, seat: int, trump: int, known, samples: int, seed: int, voids=(0, 0, 0, 0), gone=0,
           trick=(), leader: int | None = None, won=(0, 0)) -> int:
    """The PIMC card of ``seat`` in one position.

    hands (4,) uint64: cards still held; known (4,) uint64: the cards ``seat`` knows in each hand;
    voids: revealed void suits per seat (suit bits); gone: mask of cards out of play that everyone
    saw (completed tricks, turn-up); trick: the current trick's cards led by ``leader`` (default:
    ``seat`` leads); won: tricks of teams 0 and 1; seed: the generator's 64-bit seed. CardsimError for
    arguments that are no such position.
    """
    samples = check_samples(samples)
    hands = checked_hands(hands, sizes=range(HAND_SIZE + 1), equal=False)
    seat, trump = checks.whole(seat, "seat", 0, SEATS - 1), checks.whole(trump, "trump", 0, N_SUITS - 1)
    leader = seat if leader is None else checks.whole(leader, "leader", 0, SEATS - 1)
    won, seed = checks.wholes(won, "won", 2, 0, SPIEL - 1), checks.whole(seed, "seed", 0, 2 ** 64 - 1)
    held = int(np.bitwise_or.reduce(hands))
    cards = _checked_trick(trick, seat, leader, held)
    checks.position_sizes(hands, leader, len(trick), won, TRICKS)
    known, voids = _seat_masks(known, "known", hands), _void_bits(voids, hands)
    gone = checks.whole(gone, "gone (a mask of the cards out of play)", 0, (1 << N_CARDS) - 1)
    if gone & held or any(gone >> c & 1 for c in trick):
        raise CardsimError(f"gone must be cards out of play, none in a hand or on the trick, got {gone}")
    table, moves = new_table(), _moves()
    state = np.array([seed], dtype=np.uint64)
    return int(_decide(np.asarray(hands, dtype=np.uint64), seat, known, voids, np.uint64(gone), cards, len(trick),
                       leader, np.array(won, dtype=np.int64), trump, samples, state, table, moves))


def votes(deals, seat: int, trump: int, trick=(), leader: int | None = None, won=(0, 0)) -> np.ndarray:
    """(N_CARDS,) int64: for each legal card of ``seat``, the number of ``deals`` (k, 4) uint64 (all
    holding ``seat``'s same hand) in which it wins the Spiel (0 for the other cards). CardsimError for
    arguments that are no such position."""
    deals = checked_hands(deals, rows=True, sizes=range(HAND_SIZE + 1), equal=False)
    seat, trump = checks.whole(seat, "seat", 0, SEATS - 1), checks.whole(trump, "trump", 0, N_SUITS - 1)
    leader = seat if leader is None else checks.whole(leader, "leader", 0, SEATS - 1)
    won = checks.wholes(won, "won", 2, 0, SPIEL - 1)
    if not len(deals) or not deals[0, seat] or (deals[:, seat] != deals[0, seat]).any():
        raise CardsimError(f"deals must be one or more deals, all holding seat {seat}'s same hand of 1 or more cards")
    cards = _checked_trick(trick, seat, leader, int(np.bitwise_or.reduce(deals, axis=None)))
    legal = legal_mask(deals[0, seat], trick[0] // N_RANKS if len(trick) else -1, trump, SUITS, FOLLOW_OR_TRUMP)
    wins = np.zeros(N_CARDS, dtype=np.int64)
    table, moves = new_table(), _moves()
    for deal in deals:
        _add_votes(deal, seat, legal, cards, len(trick), leader, np.array(won, dtype=np.int64), trump, table, moves,
                   wins)
    return wins


def sample(known, need, pool: int, voids, seed: int) -> tuple[np.ndarray, bool]:
    """One deal of hidden cards (see `_sample`): ((4,) uint64 hands, exact draw?). known (4,) uint64 masks,
    need (4,) cards to add to each seat (0-5), pool: a mask of the cards to draw from (none known), voids (4,)
    void-suit bits, seed 0 to 2**64 - 1; CardsimError otherwise, or when the pool cannot fill the seats."""
    known = _seat_masks(known, "known")
    need = np.array(checks.wholes(need, "need (cards to add per seat)", SEATS, 0, HAND_SIZE), dtype=np.int64)
    pool = checks.whole(pool, "pool (a mask of the unseen cards)", 0, (1 << N_CARDS) - 1)
    voids = np.array(checks.wholes(voids, "voids (void-suit bits per seat)", SEATS, 0, (1 << N_SUITS) - 1),
                     dtype=np.int64)
    seed = checks.whole(seed, "seed", 0, 2 ** 64 - 1)
    if pool & int(np.bitwise_or.reduce(known)) or (np.bitwise_count(known) + need > HAND_SIZE).any():
        raise CardsimError(f"sample: the pool must hold no known card and no seat more than {HAND_SIZE} cards")
    for seat in range(SEATS):
        allowed = pool & ~_suit_cards(int(voids[seat]))
        if allowed.bit_count() < need[seat]:
            raise CardsimError(f"sample: seat {seat} needs {need[seat]} cards but the pool holds "
                               f"{allowed.bit_count()} it may hold")
    if int(need.sum()) > pool.bit_count():
        raise CardsimError(f"sample: the seats need {int(need.sum())} cards but the pool holds {pool.bit_count()}")
    out = np.empty(SEATS, dtype=np.uint64)
    try:
        exact = _sample(known, need, np.uint64(pool), voids, np.array([seed], dtype=np.uint64), out)
    except ValueError:  # the voids leave no way to fill every seat at once
        raise CardsimError("sample: no deal of the pool fits the seats' needs and voids") from None
    return out, bool(exact)


def _seat_bits(seats) -> int:
    return sum(1 << s for s in set(seats))


def play_line(hands, trump: int, turnup: int, samples: int, communication: str = "none", seed: int = 0,
              public=None, pimc_seats=range(SEATS)) -> list[tuple[int, int]]:
    """The (seat, card) line of one deal played to the Spiel by PIMC at ``pimc_seats`` (random legal
    cards at the others); hands (4,) uint64, turnup: the turn-up card; public (4,) uint64: cards
    every player knows in each hand."""
    from simcore.games.giltspiel_play import _seated

    hands, trump = checked_hands(hands), checks.whole(trump, "trump", 0, N_SUITS - 1)
    turnup, seed = checks.whole(turnup, "turnup", 0, N_CARDS - 1), checks.whole(seed, "seed", 0, 2 ** 64 - 1)
    if int(np.bitwise_or.reduce(hands)) >> turnup & 1:
        raise CardsimError(f"turnup must be a card in no hand, got {turnup}")
    public, seats = _seat_masks(public, "public", hands), _pimc_seats(pimc_seats)
    line = np.empty(DECISIONS, dtype=np.int64)
    table, moves = new_table(), _moves()
    _, played = _play_deal(np.array(hands, dtype=np.uint64), trump, _ONE << np.uint64(turnup), public,
                           communication_code(communication), seats, check_samples(samples),
                           np.array([seed], dtype=np.uint64), table, moves, line, -1)
    return _seated(line[:played], trump, FOREHAND)


def play_out(hands, trumps, turnups, samples: int, communication: str = "none", seeds=None,
             public=None, pimc_seats=range(SEATS)) -> np.ndarray:
    """Winning team (n,) int64 of deals hands (n, 4) uint64 played by PIMC at ``pimc_seats`` (random
    legal cards at the others); trumps (n,) int64; turnups (n,) uint64 masks; seeds (n,) uint64
    (default 0..n-1)."""
    code, samples = communication_code(communication), check_samples(samples)
    hands = np.ascontiguousarray(checked_hands(hands, rows=True))
    n = hands.shape[0]
    trumps = checks.suit_indices(trumps, "trumps", n, range(N_SUITS))
    turnups = checks.card_masks(turnups, "turnups", N_CARDS, disjoint=False)
    if turnups.shape != (n,) or (np.bitwise_count(turnups) != 1).any() \
            or (turnups & np.bitwise_or.reduce(hands, axis=1)).any():
        raise CardsimError(f"turnups must be {n} masks of one card each, one per deal, in no hand, got "
                           f"{checks.shown(turnups.tolist())}")
    seeds = np.arange(n, dtype=np.uint64) if seeds is None else \
        np.array(checks.wholes(seeds, "seeds", n, 0, 2 ** 64 - 1), dtype=np.uint64)
    public_masks = _seat_masks(public, "public")
    if (public_masks[None, :] & ~hands).any():
        raise CardsimError(f"public must be cards of the seats' own hands in every deal, got {checks.shown(public)}")
    teams = np.empty(n, dtype=np.int64)
    _play_many(hands, np.asarray(trumps, dtype=np.int64), turnups, public_masks,
               code, _pimc_seats(pimc_seats), samples, seeds,
               np.full(n, -1, dtype=np.int64), new_table(), _moves(), teams)
    return teams


class PimcSpielJob(DealJob):
    """Counts as `giltspiel_play.SpielJob` ([accepted deals, wins of ``team``, deals (9) and wins (9)
    by trumps held]) with every seat playing PIMC with ``samples`` deals per decision.

    Cards of ``known`` outside the asker's ``seat`` are public (every player knows them); the
    accept predicates condition the deals but not the players' samples. The first lead of an asker
    who leads (seat 1) with communication none is decided once per turn-up (`first_lead`).
    """

    n_counts = 2 + 2 * (N_RANKS + 1)
    block_size = 64

    def __init__(self, known: Known, seat: int, samples: int = DEFAULT_SAMPLES, communication: str = "none",
                 accept=()):
        super().__init__(known, accept)
        self.seat, self.team = seat, seat % 2
        self.samples = check_samples(samples)
        self.communication = communication
        self.partner = communication_code(communication)
        self.public = np.array([0 if s == seat else int(sum(1 << c for c in known.seat_cards.get(s, ())))
                                for s in range(SEATS)], dtype=np.uint64)
        self._firsts: dict[tuple[int, int], int] = {}

    def first_lead(self, seed: int, turnup: int) -> int:
        """The card the asker leads to trick 1 when it is forehand and sees only its own hand, the
        turn-up and the public cards (communication none): that view is the same in every deal with
        this turn-up, so, like a player who always meets it, the asker decides it once per (seed,
        turn-up), by PIMC with `FIRST_LEAD_FACTOR` times the samples; -1 otherwise (decided per deal)."""
        if self.seat != FOREHAND or self.partner:
            return -1
        if (seed, turnup) not in self._firsts:
            own = int(sum(1 << c for c in self.known.seat_cards[self.seat]))
            known = self.public.copy()
            known[self.seat] = own
            taken = int(np.bitwise_or.reduce(known)) | 1 << turnup
            spare = [c for c in range(N_CARDS) if not taken >> c & 1]  # fill the other hands to size
            hands = [int(k) | sum(1 << spare.pop() for _ in range(HAND_SIZE - popcount(np.uint64(k)))) for k in known]
            word = block_substream(seed, turnup, FIRST_STREAM).bit_generator.random_raw()
            self._firsts[seed, turnup] = choose(hands, self.seat, turnup // N_RANKS, known,
                                                FIRST_LEAD_FACTOR * self.samples, int(word), gone=1 << turnup)
        return self._firsts[seed, turnup]

    def extra_key(self) -> str:
        return f"seat={self.seat}|pimc={self.samples}|communication={self.communication}"

    def play_many(self, hands, trumps, turnups, seeds, firsts, teams) -> None:
        """The winning team of every deal into teams (n,): hands (n, 4) uint64, trumps (n,), turnups (n,) uint64
        masks, seeds (n,) uint64 (each deal's generator), firsts (n,) int64 (first leads decided before, -1: none)."""
        _play_many(hands, trumps, turnups, self.public, self.partner, ALL_SEATS, self.samples, seeds, firsts,
                   new_table(), _moves(), teams)

    def run_block(self, seed: int, block: int, n_deals: int) -> np.ndarray:
        slots, keep = self.deal_block(seed, block, n_deals)
        seeds = block_substream(seed, block, PIMC_STREAM).bit_generator.random_raw(self.block_size)[:n_deals]
        hands = np.ascontiguousarray(slots[keep, :SEATS])
        turnups = np.ascontiguousarray(slots[keep, TURNUP])
        trumps = _turnup_cards(turnups) // N_RANKS
        teams = np.empty(hands.shape[0], dtype=np.int64)
        firsts = np.array([self.first_lead(seed, lowest_card(t)) for t in turnups], dtype=np.int64)
        self.play_many(hands, trumps, turnups, seeds[keep], firsts, teams)
        wins = teams == self.team
        held = _team_trumps(hands, trumps, self.team)
        by_trumps = np.bincount(held, minlength=N_RANKS + 1), np.bincount(held[wins], minlength=N_RANKS + 1)
        return np.concatenate(([keep.sum(), wins.sum()], *by_trumps)).astype(np.int64)
