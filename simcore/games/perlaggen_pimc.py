"""Perlaggen card play under imperfect information: a PIMC (Perfect Information Monte Carlo) policy.

Rules: shared/rules/perlaggen.md §7 (play), §11.4 (sampling unseen cards). Seats 0-3, dealer 0,
seat 1 leads; team = seat % 2. The method follows simcore.games.giltspiel_pimc: at each decision
the player samples ``samples`` deals of the cards it cannot see, consistent with what it knows,
solves each double dummy (simcore.games.perlaggen_play's solver) for every candidate play, and
makes the play that wins the Spiel for its team in most samples (ties: the play of policy G1 if it
is among the best, else the first candidate); sampling stops early as in
`giltspiel_pimc.next_live`.

* Candidate plays: every legal natural card; for each Perlagg the identities of use (as policy R0
  of §11.7): the trump Ace, the cheapest identity that takes the trick, the lowest allowed one.
* What a player knows (its *view*): its own hand; with communication ``partner`` also its
  partner's; the public facts of the deal (§3.6: the cutter's shown Perlaggen in seat 3's hand,
  the cards team D took in an exchange, the cards on the table; the cutter also knows the
  stopper); every play so far and the voids it reveals (§11.4 item 5: a play whose suit is
  neither the suit led nor trump shows that the player holds no natural card of the suit led).
* The hidden cards are dealt uniformly among the places they can be in
  (`giltspiel_pimc.sample_hidden`). The players draw no inference from the exchange policy (§11.4
  item 3) or from how the others played.

Randomness: one 64-bit word per deal from ``block_substream(seed, block, PIMC_STREAM)`` seeds the
players' splitmix64 generator, so a deal's play depends only on (seed, block, place in block).
The whole deal is played in numba (`_play_deal`; `_play_many` for a block of deals): as a Python
driver around the solver, the interpreter took about half the time (solves average ~20 µs). All
solves of one decision share one solve number of the table (one trump, one team, one target: a
position's entry holds for every sample), so they reuse each other's entries (1.2x). The
plain-Python driver of tests/naive_perlaggen_pimc.py is its reference: the same plays from the
same generator state.
"""

from __future__ import annotations

import numpy as np

from simcore import checks
from simcore.config import njit
from simcore.errors import CardsimError, unknown_name
from simcore.games import perlaggen_deal as D
from simcore.games import perlaggen_play as play
from simcore.games.giltspiel_pimc import check_samples, communication_code, next_live, sample_hidden
from simcore.rng import block_substream
from simcore.search import checked_table, laid_out_as, layout_text
from simcore.tricks import lowest_card, popcount

DEFAULT_SAMPLES = 4
"""Samples per decision of ``cardsim odds perlaggen --spiel pimc`` unless --pimc-samples is given."""
PIMC_STREAM = 2
"""Sub-stream index of the PIMC players' sampling (1 is perlaggen_play.PLAY_STREAM)."""
SEATS, SPIEL = play.SEATS, play.SPIEL
ALL = np.uint64((1 << D.N_CARDS) - 1)
_ONE = np.uint64(1)


# --- one decision -------------------------------------------------------------------------------
MAX_PLAYS = 64
"""Room for a decision's candidate plays (at most 5 natural cards and 3 identities for each of 5 Perlaggen)."""


@njit
def _candidates(hand, tcards, tids, count, pmask, prec, trump, plays):
    """The plays the mover compares into plays (MAX_PLAYS, 2) (card, identity); returns how many:
    its legal natural cards in card order, then per Perlagg (card order) its identities of use in
    this order, each once: the trump Ace (if it may take trump), the cheapest identity that takes
    the trick (following), the lowest allowed one."""
    led = play.id_suit(tids[0]) if count else -1
    naturals, ok = play.legal_naturals(hand, pmask, led, trump)
    n = 0
    m = naturals
    while m:
        card = lowest_card(m)
        m &= m - _ONE
        plays[n, 0], plays[n, 1] = card, card
        n += 1
    best_key = play._best_slot(tids, tcards, count, prec, trump)[1] if count else -1
    ids = np.empty(3, dtype=np.int64)
    m = hand & pmask
    while m:
        card = lowest_card(m)
        m &= m - _ONE
        k = 0
        if (ok >> trump) & 1:
            ids[k] = 8 * trump + 7
            k += 1
        if count:
            ids[k] = play._winning_identity(card, ok, prec, led, trump, best_key)
            k += 1
        ids[k] = play._lowest_identity(card, ok, prec, led, trump)
        k += 1
        for i in range(k):
            fresh = ids[i] >= 0
            for j in range(i):
                fresh &= ids[j] != ids[i]
            if fresh:
                plays[n, 0], plays[n, 1] = card, ids[i]
                n += 1
    return n


@njit
def _view(hands, seat, public, partner, stopper, tcards, count, gone, voids, pmask, known, need, allowed):
    """The mover's view into known, need, allowed (4,) (cards it knows in each hand, cards to deal to
    each, cards each seat may hold: none of a natural suit it showed void in); returns the pool of
    cards it cannot place. public (4,) uint64: cards every player knows in each hand; gone: cards out
    of the hands everyone saw; stopper: the card the cutter saw (known to seat 3 only)."""
    seen = gone
    for i in range(count):
        seen |= _ONE << np.uint64(tcards[i])
    for s in range(SEATS):
        known[s] = hands[s] & public[s]
    known[seat] = hands[seat]
    if partner:
        known[(seat + 2) % SEATS] = hands[(seat + 2) % SEATS]
    for s in range(SEATS):
        seen |= known[s]
        need[s] = popcount(hands[s]) - popcount(known[s])
        allowed[s] = ALL
        for suit in range(4):
            if (voids[s] >> suit) & 1:
                allowed[s] &= ~(play.SUIT_MASKS[suit] & ~pmask)
    if seat == D.CUTTER and stopper != D.NO_CARD:
        seen |= _ONE << np.uint64(stopper)
    return ALL & ~seen


@njit
def _play_wins(deal, seat, tcards, tids, count, leader, won, card, identity, pmask, prec, trump, table, moves):
    """True if the mover's team (of ``seat``) takes the Spiel after its play (card, identity), the hands
    being ``deal`` (4,) uint64 and both teams then playing perfectly."""
    team = seat % 2
    after = deal.copy()
    after[seat] &= ~(_ONE << np.uint64(card))
    cards, ids, tricks = tcards.copy(), tids.copy(), won.copy()
    cards[count], ids[count] = card, identity
    count += 1
    if count == SEATS:
        leader = play.trick_winner(cards, ids, leader, prec, trump)
        tricks[leader % 2] += 1
        count = 0
        if max(tricks[0], tricks[1]) >= SPIEL:
            return tricks[team] >= SPIEL
    return play._search(after, cards, ids, np.int64(count), np.int64(leader), tricks, pmask, prec, np.int64(trump),
                        np.int64(team), np.int64(SPIEL), table, moves)


@njit
def _decide(hands, tcards, tids, count, leader, won, voids, gone, public, partner, stopper, pmask, prec, trump,
            samples, state, table, moves):
    """(card, identity) of the PIMC play of the seat to move: the candidate (`_candidates`) that wins the
    Spiel in most sampled deals (`next_live` decides which are solved in each sample and when sampling
    stops); ties: G1's play if it is among the best, else the first. state: (1,) uint64 splitmix64."""
    seat = (leader + count) % SEATS
    plays = np.empty((MAX_PLAYS, 2), dtype=np.int64)
    n = _candidates(hands[seat], tcards, tids, count, pmask, prec, trump, plays)
    if n == 1:
        return plays[0, 0], plays[0, 1]
    known = np.empty(SEATS, dtype=np.uint64)
    need = np.empty(SEATS, dtype=np.int64)
    allowed = np.empty(SEATS, dtype=np.uint64)
    pool = _view(hands, seat, public, partner, stopper, tcards, count, gone, voids, pmask, known, need, allowed)
    wins = np.zeros(MAX_PLAYS, dtype=np.int64)
    deal = np.empty(SEATS, dtype=np.uint64)
    table[1][0] += 1  # one solve number for the whole decision: its solves share the table entries
    done = 0
    live = next_live(np.uint64((1 << n) - 1), wins, done, samples)
    while live:
        sample_hidden(known, need, pool, allowed, state, deal)
        m = live
        while m:
            i = lowest_card(m)
            m &= m - _ONE
            wins[i] += _play_wins(deal, seat, tcards, tids, count, leader, won, plays[i, 0], plays[i, 1], pmask, prec,
                                  trump, table, moves)
        done += 1
        live = next_live(live, wins, done, samples)
    top = wins[:n].max()
    card, identity = play._choose(play.GREEDY, hands[seat], tcards, tids, count, pmask, prec, trump, 0.0)
    first = -1
    for i in range(n):
        if wins[i] == top:
            if plays[i, 0] == card and plays[i, 1] == identity:
                return card, identity
            first = i if first < 0 else first
    return plays[first, 0], plays[first, 1]


@njit
def _play_deal(hands, pmask, prec, trump, public, gone, stopper, partner, samples, state, table, moves, line):
    """Play one deal to the Spiel with PIMC at every seat: line (DECISIONS, 3) gets the (seat, card,
    identity) plays; returns (winning team, plays made). Forehand (seat 1) leads."""
    hands = hands.copy()
    tcards = np.zeros(SEATS, dtype=np.int64)
    tids = np.zeros(SEATS, dtype=np.int64)
    won = np.zeros(2, dtype=np.int64)
    voids = np.zeros(SEATS, dtype=np.int64)
    count, leader, made = 0, play.FOREHAND, 0
    while max(won[0], won[1]) < SPIEL:
        seat = (leader + count) % SEATS
        card, identity = _decide(hands, tcards, tids, count, leader, won, voids, gone, public, partner, stopper, pmask,
                                 prec, trump, samples, state, table, moves)
        line[made, 0], line[made, 1], line[made, 2] = seat, card, identity
        made += 1
        if count:  # a play of neither the suit led nor trump shows a void in the suit led
            led = play.id_suit(tids[0])
            if play.id_suit(identity) != led and play.id_suit(identity) != trump:
                voids[seat] |= 1 << led
        hands[seat] &= ~(_ONE << np.uint64(card))
        tcards[count], tids[count] = card, identity
        count += 1
        if count == SEATS:
            leader = play.trick_winner(tcards, tids, leader, prec, trump)
            won[leader % 2] += 1
            for i in range(SEATS):
                gone |= _ONE << np.uint64(tcards[i])
            count = 0
    return (0 if won[0] >= SPIEL else 1), made


@njit
def public_facts(row):
    """(public (4,) uint64 cards known in each hand, gone: the cards on the table (uint64), stopper
    (int64)) of a deal row as played (perlaggen_deal.FIELDS, uint64): the cutter's shown Perlaggen,
    the cards team D took."""
    public = np.zeros(SEATS, dtype=np.uint64)
    public[0], public[2], public[D.CUTTER] = row[D.TOOK0], row[D.TOOK2], row[D.TAKEN]
    return public, row[D.TABLE], np.int64(row[D.STOPPER])


@njit
def _play_many(rows, pmasks, precs, partner, samples, seeds, table, moves, teams):
    """teams (n,): the Spiel winner of every deal as played (rows (n, N_FIELDS) uint64 of
    perlaggen_deal), each played by `_play_deal` with its own generator seed (seeds (n,) uint64)."""
    line = np.empty((play.DECISIONS, 3), dtype=np.int64)
    state = np.empty(1, dtype=np.uint64)
    for i in range(rows.shape[0]):
        row = rows[i]
        trump = np.int64(row[D.TRUMP])
        public, gone, stopper = public_facts(row)
        state[0] = seeds[i]
        teams[i] = _play_deal(row[:SEATS], pmasks[trump], precs[trump], trump, public, gone, stopper, partner, samples,
                              state, table, moves, line)[0]


def _settings(trump: int, samples: int, communication: str, style: str, seed, public, gone, stopper) -> tuple:
    """(partner: bool, samples, trump, pmask, prec, seed, public, gone, stopper) of the public API's arguments,
    checked (CardsimError)."""
    trump = play.checked_trump(trump, style)
    pmasks, precs = play.PlayRules(style).arrays()
    public = checks.card_masks(public, "public", play.N_IDS, disjoint=False)
    if public.shape != (play.SEATS,):
        raise CardsimError(f"public must be {play.SEATS} card masks, one per seat, got {public.tolist()}")
    stopper = D.NO_CARD if stopper == D.NO_CARD else checks.whole(stopper, "stopper", 0, play.N_IDS - 1)
    return (bool(communication_code(communication)), check_samples(samples), trump, pmasks[trump], precs[trump],
            checks.whole(seed, "seed", 0, 2 ** 64 - 1), public, int(checks.card_masks(gone, "gone", play.N_IDS)),
            stopper)


def choose(hands, trump: int, samples: int = DEFAULT_SAMPLES, seed: int = 0, trick=(), leader: int = play.FOREHAND,
           won=(0, 0), voids=(0, 0, 0, 0), gone: int = 0, public=(0, 0, 0, 0), communication: str = "none",
           style: str = "innsbruck", stopper: int = D.NO_CARD) -> tuple[int, int]:
    """The PIMC play (card, identity) of the seat to move in one position: hands (4,) uint64 cards still
    held (the mover's own hand and what it may know are taken from them, the rest is sampled); trick:
    the (card, identity) plays of the current trick led by ``leader``; won: tricks of teams 0 and 1;
    voids: per seat the suits it showed void in (suit bits); gone: cards out of the hands everyone saw;
    public (4,) uint64: cards every player knows in each hand; seed: the generator's 64-bit seed."""
    partner, samples, trump, pmask, prec, seed, public, gone, stopper = _settings(trump, samples, communication, style,
                                                                                 seed, public, gone, stopper)
    hands = play.checked_hands(hands, sizes=range(play.TRICKS + 1), equal=False)
    play.check_trick(trick, int(np.bitwise_or.reduce(hands)), int(pmask))
    leader, won = checks.whole(leader, "leader", 0, play.SEATS - 1), checks.wholes(won, "won", 2, 0, play.SPIEL - 1)
    voids = checks.wholes(voids, "voids", play.SEATS, 0, 15)
    checks.position_sizes(hands, leader, len(trick), won, play.TRICKS)
    if gone & int(np.bitwise_or.reduce(hands)):
        raise CardsimError(f"gone must be cards out of the hands, got {gone}")
    tcards, tids = play._trick_arrays(trick)
    card, identity = _decide(hands, tcards, tids, len(trick), leader,
                             np.array(won, dtype=np.int64), np.array(voids, dtype=np.int64), np.uint64(gone),
                             public, partner, np.int64(stopper), pmask, prec,
                             np.int64(trump), samples, np.array([seed], dtype=np.uint64), play.new_table(),
                             play.new_moves())
    return int(card), int(identity)


def play_deal(hands, trump: int, samples: int, communication: str = "none", seed: int = 0, style: str = "innsbruck",
              public=(0, 0, 0, 0), gone: int = 0, stopper: int = D.NO_CARD, table=None,
              moves=None) -> tuple[int, list[tuple[int, int, int]]]:
    """(winning team, the (seat, card, identity) line) of one deal played to the Spiel by PIMC at
    every seat. hands (4,) uint64; public (4,) uint64 cards every player knows in each hand; gone:
    cards out of the hands that everyone saw (the table); seed: the players' 64-bit generator seed."""
    partner, samples, trump, pmask, prec, seed, public, gone, stopper = _settings(trump, samples, communication, style,
                                                                                 seed, public, gone, stopper)
    table = checked_table(table, play.new_table, 2)
    if moves is not None and not laid_out_as(moves, model := play.new_moves(), len(model)):
        raise CardsimError("moves must be a scratch buffer made by perlaggen_play.new_moves() (or None for a new "
                           f"one), got {layout_text(moves)}")
    line = np.empty((play.DECISIONS, 3), dtype=np.int64)
    team, made = _play_deal(play.checked_hands(hands), pmask, prec, np.int64(trump),
                            public, np.uint64(gone), np.int64(stopper), partner, samples,
                            np.array([seed], dtype=np.uint64), play.new_table() if table is None else table,
                            play.new_moves() if moves is None else moves, line)
    return int(team), [(int(s), int(c), int(b)) for s, c, b in line[:made]]


class PimcSpielJob(play.SpielJob):
    """Counts [accepted deals, deals whose Spiel ``team`` wins] with every seat playing PIMC with
    ``samples`` deals per decision; deals as `perlaggen_play.SpielJob` (under the public facts of
    ``known``, or as played)."""

    n_counts = 2
    block_size = 16

    def __init__(self, known: D.Known | None, rules: D.DealRules = D.DealRules(), samples: int = DEFAULT_SAMPLES,
                 communication: str = "none", team: int = play.FOREHAND % 2):
        super().__init__(known, rules, "greedy", team)
        self.method = "pimc"
        self.samples = check_samples(samples)
        communication_code(communication)
        self.communication = communication

    def key(self) -> str:
        return f"{super().key()}|samples={self.samples}|communication={self.communication}"

    def run_block(self, seed: int, block: int, n_deals: int) -> np.ndarray:
        rows, keep = self._rows(seed, block, n_deals)
        seeds = block_substream(seed, block, PIMC_STREAM).bit_generator.random_raw(self.block_size)[:n_deals]
        pmasks, precs = play.PlayRules(self.rules.style).arrays()
        teams = np.empty(int(keep.sum()), dtype=np.int64)
        _play_many(np.ascontiguousarray(rows[keep], dtype=np.uint64), pmasks, precs,
                   bool(communication_code(self.communication)), self.samples, seeds[keep].astype(np.uint64),
                   play.new_table(), play.new_moves(), teams)
        return np.array([keep.sum(), (teams == self.team).sum()], dtype=np.int64)


def check_method(method: str) -> None:
    """CardsimError unless ``method`` is a Spiel method of ``cardsim odds perlaggen``."""
    if method not in play.METHODS + ("pimc",):
        raise unknown_name("--spiel", method, play.METHODS + ("pimc",))
