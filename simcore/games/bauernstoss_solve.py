"""Bauernstoss double-dummy solver: the card points a team takes under perfect play, all hands known.

Rules: shared/rules/bauernstoss.md §5.2 (obligations and the jack rule, scope per ``jack_rule``),
§5.3 (trick winner), AS-7/8 and DS-8 (the variants' play rules, codes of
`simcore.games.bauernstoss_play.play_rule`). A normal game of four players; trump and the team whose
points are counted are fixed.

The search works on *strength bits*: for a trump suit the 32 cards are renumbered so that every
effective suit is a run of bits in strength order, weakest first. The three plain suits (in suit
order, the trump suit skipped) take bits 0-6, 7-13 and 14-20 (7 8 9 D K T A), the trump set bits
21-31 (7 8 9 D K T A of the trump suit, then dB hB sB cB). A higher bit of the same run beats a
lower one and the trump run beats every plain run, so the trick winner, the legal moves and
"equivalent cards" are a few bit operations; and the card points of a bit depend only on its place
in its run, not on the trump (`BIT_POINTS`).

`_search` is a fail-soft alpha-beta over single cards on the points ``team`` takes from the cards
still in play (the current trick included), with principal-variation scouts: after a node's first
card, each further card is first searched with a null window at the node's best so far and searched
again with the open window only when it turns out better (the exact points, one full-window search,
visit 0.82x the nodes of a bisection by null-window probes, 1.2x solves/s); the point-level
questions use null-window probes (`_level_bounds`). At a
trick boundary it first tries the bounds of `_start_bounds`: the side on lead takes at least its
*quick points* (`_quick_points`: the winners the leader cashes one after another while the others
must follow, trumps first, with the cards the others must add, plus its sure trumps), the other
side at least its sure trumps (`_sure_trumps`: a team's trumps above every trump of the other team
are its points for sure); the quick points cut 0.91x nodes for the exact points, 0.92x for the 42
question, against the sure trumps alone. Then it tries a transposition table keyed by the power
structure of the four hands (who holds each suit's cards in rank order, card points left out, `_key`)
and the leader, one 32-byte entry holding a lower and an upper bound, the best lead and the cards in
play they hold for, in buckets of four that keep the entries of the upper tricks (`_probe`); an entry
made for other cards of the same structure serves with its bounds widened by the card points that
differ place by place (`_similar`, *payoff similarity*, below). Of equivalent cards (one hand, adjacent in a run once
the other hands and the trick are taken into account, equal card points) only the highest is
searched; moves are ordered by a points heuristic (the table's best lead first, else the *shape
lead*: the lead that last cut off at a trick start of the same shape, every hand's number of cards
per run and the leader, kept as a run and a place from the top of the leader's cards of it, from 4
cards a hand on, 0.95x nodes and 1.03x exact solves/s; else, from 5 cards a hand on, the *guessed
lead* (`_lead_guess`: a one-trick lookahead scoring the end of the trick by the middle of the next
trick start's `_start_bounds`, 0.74x nodes for the exact points; from 4 cards on 0.98x nodes but
slower; in place of the shape lead 1.10x nodes; ending the trick on the gain alone 1.06x nodes; at
the root the lead of the second best guess is tried second, 0.98x nodes; together 0.72x nodes and
1.30x solves/s for the exact points (the root's re-searches fall from 13,300 to 5,000 nodes a deal),
0.56x nodes for the 42 question, 0.65x nodes and 1.35x questions/s for 42/79/91); then the
*killer*: the lead that last cut off at the same ply by the same leader in this probe, 0.85x nodes
for the exact points, 0.66x for the 42 question); the last three (now five, below)
tricks are played out by loop kernels (`_three_tricks`, the same candidates, order and cutoffs as the
general search for their first trick, then `_two_tricks`) instead of the general search, and the exact
points of every two-trick ending are remembered for the rest of the solve (`_two_trick_points`).
From four cards a hand the whole trick is a loop kernel too: `_four_tricks` plays its first trick by
nested loops (the candidates and order of the general search, no null-window scouts) and at the next
trick start does what the general search does there (start bounds, table, killer lead) before handing
on to `_three_tricks`; of the general search's nodes (42,300 a deal) 11,400 were the four cards of
the trick from four cards a hand and 5,200 the starts after it, where 2,200 table cutoffs and 1,500
bound cutoffs leave 1,500 calls of `_three_tricks`. Same values; 1.13x nodes and 1.15-1.17x exact
solves/s (interleaved rounds on one core; `_three_tricks` and the two-trick memo's misses hold about
15% and 13% of the time, `_lead_guess` 6%). `_five_tricks` does the same from five cards a hand (the
shape lead at its trick starts, then `_four_tricks`); the three kernels are one source (`_last_tricks`)
compiled once per depth with the kernel below as a global (`simcore.config.specialise`: numba's on-disk
cache holds no recursive kernel). Against kernels up to `_four_tricks`: same values, 1.05x nodes (47,600 ->
50,200 a deal on the benchmark's 100 deals), 1.04-1.06x exact solves/s (734 -> 763 on those deals,
625 -> 662 on 1,000; interleaved rounds on one core), 1.02-1.07x 42 questions/s and 1.05-1.07x 42/79/91
questions/s. A `_six_tricks` (measured as a copy before) added 1.03x nodes and 0.97x solves/s on top.
Measured and dropped as well: null-window scouts at the leads of
`_four_tricks` (the same nodes, 0.94x solves/s); an aspiration window at the root around the
guessed value (`_lead_guess`'s best score), searched again on a miss (half-widths 4, 8, 15, 25:
1.13x, 1.10x, 1.10x, 1.07x nodes); MTD(f) null-window probes from that guess (1.57x nodes); a
two-trick memo of 2**13 or 2**14 words (the same speed: its misses are distinct endings). At follow
nodes 95-98% of the cutoffs come from the first card (the points heuristic), so the follow order
was left alone. Dropped too (same values; interleaved rounds on one core, where the untouched
solver timed against itself gave 0.99x): *trump tricks* in the start bounds (a side's player plays
his sure trumps to as many different tricks, which the side wins, so it wins k = max(ka, kb) of
them, to which each opponent adds at least his k cheapest cards and the partner with fewer sure
trumps his cheapest other cards; the leader's side the larger of this and its quick points):
0.96x nodes (0.93x over 1,000 more deals), 0.92x for 42/79/91, but 0.98x exact solves/s and
1.00x and 1.01x questions/s for 42 and 42/79/91, the saved nodes being cheap ones; the same only
in `_search` and only where the plain bounds do not cut, 0.98x nodes and 0.99x solves/s; lazily at
the next trick starts of `_four_tricks` and `_five_tricks` where the plain bounds do not cut, before the
table probe or only on a table miss: 0.963x nodes for the exact points either way (0.937x on 1,000 more
deals), 0.93x and 0.91x for 42 and 42/79/91, but on the benchmark's 100 deals 0.99x exact solves/s before
the probe and 1.00x on a miss (controls 0.99x and 1.00x), 1.02x questions/s for 42 and 42/79/91 on a miss;
on the 1,000 more 1.02x exact solves/s and 1.04x questions/s on a miss (control 1.00x); only in
`_five_tricks` 0.983x nodes; on a miss and in `_search` 0.961x nodes and the same speed (interleaved rounds
on one core); in the guessed lead's leaves as well, 0.99x nodes more and slower; the same with *Hall's count* in
place of the sure trumps (of a player's trumps from a strength f up at least as many win their tricks as they
outnumber the other side's trumps above f: the trumps he loses map one to one to higher trumps of theirs, as he
plays one card a trick; as many tricks his side wins, each with a card of every other player; the partner adds
the larger of his cheapest cards and his own winning trumps, since a trick may hold two trumps of the side), for
both sides: the same values (and never outside the exact value on 45,000 random endings of 3-8 cards a hand
under four play rules), 0.950x nodes for the exact points on the benchmark's deals (50,219 -> 47,682 a deal),
0.922x on 1,000 more, 0.905x and 0.890x for 42/79/91, but 0.946x exact solves/s; lazily, where the plain bounds
leave the window open, and not in the guessed lead's leaves: 0.953x and 0.935x nodes, 0.919x and 0.903x for
42/79/91, 0.945x and 0.95x exact solves/s and 0.97-0.98x questions/s (interleaved rounds on one core; as a
called kernel instead of inlined the same). A diagnosis found why so little is settled: of the trick starts the
search enters (62,800 in 20 of the benchmark's deals, exact points) at 99% the value passes the window where the
bound of the side reaching past it does not, short by 20 points in the median (13% by 5 or less; 18 points on
average at three cards a hand, 27 at five, 43 at seven); along one optimal line from 600 of them that side takes
(points a start, its own cards + the others' in its tricks) plain cards on top of their run 12.8 (4.9 + 2.4 led
by it after the first trick, 3.8 + 1.3 where the other side led), the others' cards in its sure trumps' tricks
5.6, trumps below the other side's top that Hall's count covers 4.7 (0.36 tricks a start), ruffs and lower
trumps it does not 4.7, plain cards promoted by falls 3.4, the bound averaging 5.1 points against 26.5 needed;
Hall's trump tricks settle 8.3% of those starts at three cards a hand, 2.5% at four, 0.4% at five (the sure
trumps' 6.1%, 1.3%, 0.2%); bounds inside a trick (each side's
sure trumps counted against the other side's trumps in hand and in the trick, and the trick's
cards for a side that no opponent still to play can beat): 0.99x nodes, 0.96x solves/s; the
start bounds as the exact value of a two-trick ending where they meet (a quarter of random
endings) in `_two_tricks`: 0.98x solves/s; `_key`'s squeezes by one lookup a hand in tables of 64
and 256 words (the group's cards present and the hand's part) instead of one lookup of the four
parts in tables of 32 kB and 512 kB: the same keys, 0.97-0.98x solves/s (the power-structure key's portable
path, `_key_by_tables`, is such a lookup a hand per group, as no table of the four parts of 7 cards fits);
`_shape` packing the
counts 4 bits each and mixing them once (splitmix64's finaliser) instead of a chain of 16
multiplications: 0.9993x nodes, the same speed (a single multiplication of the packed counts kept
the leader and the trumps out of the slot: 1.04x nodes); the guessed lead from 6 cards a hand on:
1.05x nodes, the same exact solves/s, 0.95x questions/s for 42.

The code avoids what numba makes dear (same nodes, same values, 1.38x exact solves/s and 1.37x 42
questions/s together, 367 -> 506 and 2,400 -> 3,310 a second on one core): every array handed to a
helper, inlined or not, gets its reference count raised and lowered, each an atomic instruction in
a call, which took about a quarter of the solve's time, so the helpers in the search loops take
hands as scalars and the loops touch the arrays themselves (`_three_tricks`, `_two_tricks`,
`_key`, `_shape` on scalars, the two-trick memo written out in `_three_tricks`: 1.12x); the
candidates are a mask (`_candidate_mask`, equivalent cards dropped per group of equal points by a
table) and the next card is picked from it by point classes when it is needed (`_next_candidate`),
not sorted card by card by a key (1.15x); and the lowest and highest bit are one tzcnt / lzcnt
(`lowest_card`, `_highest_card`, `_below_top`: 1.08x). The arrays `_search` hands to the loop kernels (the
table, killers, shape leads, two-trick memo) are views without an owner (`simcore.search.unowned`), whose
reference counts skip the atomic add and subtract: numba's `NRT_incref`/`NRT_decref` fell from 4.9% to 0.8% of
the samples of an instruction-level profile (400 exact solves), same values and nodes deal by deal (1,000 deals
under every play rule, 42/79/91 on 300, solos on 2,000); 1.02x exact solves/s (the median of 14 interleaved
rounds' ratios on one core, 100 deals; the untouched solver against itself 0.99x).

An instruction-level profile (perf sampling one core, the JIT's functions named by a perf map made from the
compiled objects; exact points of 300 deals) put the time in `_probe` 21% (16% the load of a bucket's first
tag: a miss in the core's caches, the 2 MB table filling its L2), `_four_tricks` 19%, `_three_tricks` 17%,
`_two_tricks` 13%, `_five_tricks` 10%, `_search` 8%, `_lead_guess` 5% and numba's reference counts (an
atomic add and subtract at the kernels' entries and exits) 6%; within a kernel no source line holds over 2%.
Cut since (same nodes, same values; the untouched solver and the change interleaved in one process on one
core, 100 deals, 10 rounds, the untouched solver against itself 0.99-1.02x): the loop kernels find a next
trick start's key before its start bounds and prefetch both cache lines of its bucket
(`simcore.search.prefetch`): 1.03x exact solves/s, 1.04x 42/79/91 questions/s; `_equivalents` (the
equivalent cards dropped) found once a hand per trick instead of in every candidate mask, and a single
candidate returned by `_next_candidate` at once: 1.08x and 1.05x with the prefetch; `_beats` and the cards
beating the trick one lookup (`BEATERS`) and `_two_tricks`'s window narrowed to (0, the points in play):
1.18x and 1.14x with both (1.15x and 1.14x in the best rounds). Measured and dropped: the four hands' points
handed to `_start_bounds` by the kernels (the trick start's less the trick's) instead of counted: 0.97x
solves/s; trick starts of three cards a hand kept in the table's first 2**13 entries (256 kB, to stay in
the core's cache): 1.02x nodes, 0.98x solves/s; entries of 16 bytes instead of 32, a bucket one cache line and
the table 1 MB (the position exact in 108 bits: the hands are disjoint, so the cards in play, those of seats 1
and 3 and those of seats 2 and 3 give them back, with the leader and the solve number modulo 1,023, the table
cleared every 1,023 solves; the same buckets and replacements): the same values and the same nodes deal by deal
(1,000 deals under every play rule, 42/79/91 on 300), but 1.01x exact solves/s and 1.00x 42/79/91 questions/s
over the untouched solver timed against itself (interleaved in one process, 100 deals, 20-40 rounds, thread
CPU time, a loaded machine): the prefetch already hides most of the kernels' misses. `_start_bounds` called
instead of inlined in the loop kernels and the search: same nodes, 0.99x exact solves/s (ten interleaved rounds,
100 deals, the untouched solver against itself 1.00x).

A diagnosis of the tree (exact points, the benchmark's 100 deals, 50,219 nodes a deal): `_search` holds
2,400 (1,990 at six cards a hand), `_five_tricks` 9,300, `_four_tricks` 19,800, `_three_tricks` 18,700 (by card
of the trick 2,900 / 3,700 / 5,400 / 6,800 there; 2,200 / 2,800 / 4,200 / 5,300 and 5,300 trick starts in
`_four_tricks`). The move order is near its limit: cut-nodes among the trick starts searched try 1.03-1.06 leads
(873 a deal at three cards a hand, 642 at four, 256 at five, 71 at six), the others (all- and PV nodes) 2.9,
3.8, 4.6, 5.5 and 7.4 at the root; the first lead cuts at 77% of the nodes led by the shape lead (739 a deal at
four cards, 283 at five), 67% by the killer (1,122 at three), 38-46% by the table's lead, 17% by the guessed
lead (87 at five; where it does not cut it stays best at 52%), 7-16% by the points order. Of the 5,300 trick
starts of three cards a hand the kernels reach, 1,490 end on the start bounds, 2,270 on the table and 1,560 are
searched, 65 of them found in the table without a cut (of four cards: 2,530, 550, 950, 1,040, 79). PV
re-searches at the root: 0.2 a deal but 5,200 nodes a deal (26,000 each). Measured and dropped since (same
values): the 3-card trick starts (or the 3- and 4-card ones) searched with the open window for their exact
value: 1.26x (2.35x) nodes; the null-window scouts dropped in `_search`: 1.29x nodes; at the root only 1.10x,
kept at leads only 1.03x, at follows only 1.16x, not in the first trick 1.13x; *enhanced transposition cutoffs*
where the fourth card ends a trick (a cut found by a candidate's next trick start's `_start_bounds` or table
entry, read only, before searching): before every fourth card of `_four_tricks` and `_five_tricks` 0.975x nodes
by the bounds, 0.917x by bounds and table (the skipped children mostly table hits, counted as two nodes each)
but 0.82x solves/s; in `_search` too 0.906x nodes; in `_search` alone 0.985x nodes, 0.95-0.97x solves/s; only
before a child is searched (once a node, the siblings' buckets prefetched), in all kernels and `_search`: 0.967x
nodes (0.966x on 1,000 more deals, 0.937x under DS-8) and 0.89x solves/s, in `_five_tricks` and `_search`
0.975x nodes and 0.93x solves/s (interleaved rounds on one core, control 0.98-1.00x): the probes' keys and
cache misses cost more than the small subtrees they save.

The root's lead order (the benchmark's 1,000 deals, exact points, 61,000 nodes a deal, 2026-12-03): the guessed
lead is the best one in 71% of the deals (the second guess in 11% more); those deals take 44,200 nodes (the first
lead's search 24,700, the other leads' null-window scouts 19,500), the other 29% take 102,200 (first lead 32,600,
scouts 39,000, the re-search of the lead that beat it 30,500) and would take 68,600 with the best lead first. A
perfect root order (an oracle: each deal solved again with its best lead first) would give 0.84x the nodes and
1.23x exact solves/s, the ceiling of any root ordering; a two-trick lookahead at the root (the one-trick guess's
value as its leaf) gave 0.99x the nodes and the same speed, and a null-window probe at the guessed value (the
one-trick guess's score) before the full-window search, whose table entries would order the root, 1.10x the nodes
(300 deals): both dropped.

Payoff similarity (Furtak and Buro, "Using Payoff-Similarity to Speed Up Search", IJCAI 2011; 2026-12-05):
until then the key was the cards themselves, with only the runs of equal points squeezed (the 7 8 9 of a run,
the jacks), which keeps positions of different values apart. Positions of one power structure but other
cards (a King left where another line left the Queen) play alike, so the table now shares their entries and
widens a stored entry's bounds by the points that may differ (`_similar`: the rises and falls of the card
points at the same places); a probe reads an entry of other cards widened and leaves it as it is, and the
search's result rewrites it for its own cards (`_store`). Against the cards' key, on 300 of the benchmark's
deals (exact points, same values): 0.36x the nodes (59,812 -> 21,321 a deal); on all its 1,000 deals 0.35x
(61,047 -> 21,400). Sharing the entries with no widening (unsound: 84 of the 300 values wrong) would search
19,014 nodes a deal, the ceiling of this key. The first version rewrote an entry at every probe that found
it for other cards, cut or not, loosening entries that stayed good for their own: 35,843 nodes a deal on the
300 (32,167 on the 1,000).

`solve_points` finds the exact points (one full-window search); `reaches_points` answers only
"does the team reach 42 / 79 / 91?" (null-window probes at the asked levels), several times cheaper.

Solos (§4.7, §5.4: the soloist alone against two defenders, its partner out, play stopping at the
first trick the soloist loses) are a yes/no question, "can the soloist take every trick?":
`solo_wins` answers it by an AND-OR search (`_solo_search`) on the same strength bits.
"""

from __future__ import annotations

import numpy as np

from simcore.config import njit, njit_inline, specialise
from simcore import checks
from simcore.errors import CardsimError, is_whole_int
from simcore.games.bauernstoss import CARD_POINTS, FACE_POINTS, JACK, SEATS, TRICKS
from simcore.games.bauernstoss_play import AS_BEAT_TRUMP, BS_JACK_ALWAYS, BS_OVERTAKE, DS_FOLLOW, check_rule
from simcore.search import (FAST_BIT_GATHER, SHAPE_MIX, aligned_zeros, bit_deposit, bit_extract, checked_table, cut_off,
                            narrow, prefetch, shape_code, shape_done, shape_mix, shape_word, table_rows, table_slot,
                            unowned)
from simcore.tricks import leading_zeros, popcount, trailing_zeros


@njit_inline
def lowest_card(mask):
    """Index of the lowest set bit of a non-empty uint64 mask: one tzcnt (numba's trailing_zeros,
    llvm.cttz), where `simcore.tricks.lowest_card` multiplies and looks up a table."""
    return np.int64(trailing_zeros(mask))


TABLE_BITS = 16
"""Transposition table entries: 2**TABLE_BITS (a table is 2 MB). Against 2**19 entries (16 MB, out of the
caches) 1.5% more nodes but 1.10x exact solves/s and 1.12x threshold questions/s; 2**15 and 2**14 lose
again (1.04x and 1.08x more nodes)."""
BUCKET = 4
"""Rows of a table bucket (`_bucket`: a slot's low two bits cleared), so a table holds at least 4 entries."""
PLAIN_RUN = 7
TRUMP_BASE = 3 * PLAIN_RUN
"""First bit of the trump run (21)."""
_RUN_POINTS = (0, 0, 0, 3, 4, 10, 11)
"""Card points of the places 7 8 9 D K T A of a run."""
BIT_POINTS = np.array(list(_RUN_POINTS) * 4 + [2] * 4, dtype=np.int64)
"""(32,) int64: card points of every strength bit (the trump run's top four bits are the jacks)."""
RUNS = np.array([((1 << PLAIN_RUN) - 1) << (PLAIN_RUN * k) for k in range(3)] + [((1 << 11) - 1) << TRUMP_BASE],
                dtype=np.uint64)
"""(4,) uint64: the bits of plain runs 0-2 and of the trump run (index 3)."""
RUN_OF = np.array([min(b // PLAIN_RUN, 3) for b in range(32)], dtype=np.int64)
"""(32,) int64: the run (0-2 plain, 3 trumps) of every strength bit."""
JACK_BITS = np.uint64(0xF << 28)
TRUMP_RUN = 3
_ONE = np.uint64(1)
_FULL = np.uint64(0xFFFFFFFF)


def _strength_bit(card: int, trump: int) -> int:
    """The strength bit of ``card`` (8*suit + rank, ranks 7 8 9 B D K T A) when ``trump`` is trumps."""
    suit, rank = divmod(card, 8)
    if rank == JACK:
        return 28 + (3 - suit)
    place = rank if rank < JACK else rank - 1
    if suit == trump:
        return TRUMP_BASE + place
    return PLAIN_RUN * (suit - (suit > trump)) + place


TO_BIT = np.array([[_strength_bit(c, t) for c in range(32)] for t in range(4)], dtype=np.int64)
"""(4 trumps, 32 cards) int64: strength bit of every card."""
TO_CARD = np.argsort(TO_BIT, axis=1).astype(np.int64)
"""(4 trumps, 32 bits) int64: the card of every strength bit (inverse of `TO_BIT`)."""


@njit
def to_bits(mask, trump):
    """A card mask as a strength-bit mask for ``trump`` (uint64 in, uint64 out)."""
    out = np.uint64(0)
    m = np.uint64(mask)
    while m:
        card = lowest_card(m)
        m &= m - _ONE
        out |= _ONE << np.uint64(TO_BIT[trump, card])
    return out


_PLAIN_POINTS = np.array([sum(_RUN_POINTS[b] for b in range(PLAIN_RUN) if (m >> b) & 1) for m in range(1 << 7)],
                         dtype=np.int64)
"""(128,) int64: card points of every subset of a plain run."""
_TRUMP_POINTS = np.array([sum(BIT_POINTS[TRUMP_BASE + b] for b in range(11) if (m >> b) & 1) for m in range(1 << 11)],
                         dtype=np.int64)
"""(2048,) int64: card points of every subset of the trump run."""


@njit_inline
def bit_points(mask):
    """Card points of a strength-bit mask (one table lookup per run)."""
    seven, eleven = np.uint64(127), np.uint64(2047)
    return (_PLAIN_POINTS[np.int64(mask & seven)] + _PLAIN_POINTS[np.int64((mask >> np.uint64(7)) & seven)]
            + _PLAIN_POINTS[np.int64((mask >> np.uint64(14)) & seven)]
            + _TRUMP_POINTS[np.int64((mask >> np.uint64(TRUMP_BASE)) & eleven)])


@njit_inline
def _above(bit):
    """Mask of the bits above ``bit``."""
    return _FULL & ~((_ONE << np.uint64(bit + 1)) - _ONE)


def _beaters(top: int) -> int:
    """The strength bits that take the trick from bit ``top``: the higher bits of its run, and every trump
    when it is plain."""
    run = RUN_OF[top]
    above = int(RUNS[run]) & ~((1 << (top + 1)) - 1)
    return above | (int(RUNS[TRUMP_RUN]) if run != TRUMP_RUN else 0)


BEATERS = np.array([_beaters(b) for b in range(32)], dtype=np.uint64)
"""(32,) uint64: the strength bits that take the trick from each bit (`_beaters`)."""


@njit_inline
def _beats(card, top):
    """True if strength bit ``card`` takes the trick from ``top`` (the card holding it): one lookup
    (`BEATERS`) instead of the runs of both."""
    return (BEATERS[top] >> np.uint64(card)) & _ONE != 0


@njit_inline
def _legal(hand, led, top, rule):
    """Legal strength bits of ``hand`` when run ``led`` was led (-1: leading) and bit ``top`` holds
    the trick (spec §5.2 with the §8 A1 scopes, AS-7/8, DS-8; the same rules as
    `bauernstoss_play.legal_mask`)."""
    if led < 0:
        return hand
    follow = hand & RUNS[led]
    if rule == DS_FOLLOW:
        return follow if follow else hand
    trumps = hand & RUNS[TRUMP_RUN]
    must = follow if follow else trumps
    if not must:
        return hand
    if rule == AS_BEAT_TRUMP:
        over = must & _above(top)
        return over if led == TRUMP_RUN and over else must
    jack_duty = rule == BS_JACK_ALWAYS or (rule == BS_OVERTAKE and (led == TRUMP_RUN or not follow))
    over = hand & JACK_BITS & _above(top)
    if jack_duty and over and top >= 28:
        return over
    return must


@njit_inline
def _can_beat(hand, top, led):
    """True if ``hand`` holds a card that may take the trick from bit ``top`` (run ``led`` led): a
    higher card of top's run, or a trump when top is plain and the hand cannot follow."""
    run = RUN_OF[top]
    if hand & RUNS[run] & _above(top):
        return True
    return run != TRUMP_RUN and not hand & RUNS[led] and hand & RUNS[TRUMP_RUN] != 0


def _drop_table(width: int) -> np.ndarray:
    """(2**(2*width),) uint64: for a group of ``width`` bits of equal card points (the 7 8 9 of a run,
    the jacks) and ``present | hand << width`` (the group's cards in play and those of one hand),
    the hand's cards whose next card in play above them in the group is the hand's too."""
    table = np.zeros(1 << (2 * width), dtype=np.uint64)
    for present in range(1 << width):
        for hand in range(1 << width):
            if hand & ~present:
                continue
            drop = 0
            for b in range(width):
                above = [c for c in range(b + 1, width) if (present >> c) & 1]
                if (hand >> b) & 1 and above and (hand >> above[0]) & 1:
                    drop |= 1 << b
            table[present | hand << width] = drop
    return table


_ZERO_DROP = _drop_table(3)
_JACK_DROP = _drop_table(4)


@njit_inline
def _equivalents(hand, present):
    """The cards of ``hand`` not worth searching (``present``: every card in play, the trick's included): of
    equivalent cards (adjacent in a run once the other hands and the trick are taken into account, equal card
    points) all but the highest. Cards of equal points in a run are its 7 8 9 and the jacks, so the cards
    dropped are looked up per group (`_drop_table`) instead of card by card (1.1x solves/s). Constant within a
    trick: the loop kernels find it once a hand per trick."""
    seven, fifteen, jacks = np.uint64(7), np.uint64(15), np.uint64(28)
    drop = _JACK_DROP[np.int64(((present >> jacks) & fifteen) | (((hand >> jacks) & fifteen) << np.uint64(4)))] << jacks
    for run in range(4):
        shift = _GROUP_SHIFTS[run]
        index = ((present >> shift) & seven) | (((hand >> shift) & seven) << np.uint64(3))
        drop |= _ZERO_DROP[np.int64(index)] << shift
    return drop


@njit_inline
def _candidate_mask(hand, present, led, top, rule):
    """The cards of ``hand`` worth searching (``present``: every card in play, the trick's
    included; ``led``, ``top`` as `_legal`): its legal cards but the `_equivalents`."""
    return _legal(hand, led, top, rule) & ~_equivalents(hand, present)


_POINT_CLASSES = np.array([sum(1 << b for b in range(32) if BIT_POINTS[b] == p) for p in (0, 2, 3, 4, 10, 11)],
                          dtype=np.uint64)
"""(6,) uint64: the strength bits of 0, 2, 3, 4, 10 and 11 card points."""


@njit_inline
def _dearest(cards, high):
    """The card of ``cards`` (non-empty) of the most points: of equals the highest (``high``) or the lowest."""
    for k in range(5, -1, -1):
        m = cards & _POINT_CLASSES[k]
        if m:
            return _highest_card(m) if high else lowest_card(m)
    return -1


@njit_inline
def _cheapest(cards):
    """The card of ``cards`` (non-empty) of the fewest points, of equals the lowest."""
    for k in range(6):
        m = cards & _POINT_CLASSES[k]
        if m:
            return lowest_card(m)
    return -1


@njit_inline
def _next_candidate(cands, hand, present, count, top, partner_holds, first, killer):
    """The card of the candidates ``cands`` (a non-empty `_candidate_mask` of ``hand``, the cards
    not yet tried) searched next: ``first`` (the table's best lead), then ``killer`` (the lead that
    last cut off at this ply and seat; -1 for none), then by a points heuristic: leading, a card no
    other hand can beat in its run (more points first, then the higher card), else the cheapest card
    (fewer points, then the lower); following, for the partner's trick that nobody after can beat
    the dearest card (more points, then the lower), else a card taking the trick (more points, then
    the lower), else the cheapest card. Found by whole masks (a point class at a time), and only
    when it is needed (the first card cuts off at most nodes), instead of sorting every candidate by
    a key: 1.2x solves/s, the same order. A single candidate (a forced card) is returned at once."""
    if not cands & (cands - _ONE):
        return lowest_card(cands)
    if first >= 0 and (cands >> np.uint64(first)) & _ONE:
        return first
    if killer >= 0 and (cands >> np.uint64(killer)) & _ONE:
        return killer
    if count == 0:
        others = present & ~hand
        winners = np.uint64(0)
        for run in range(4):
            winners |= cands & RUNS[run] & ~_below_top(others & RUNS[run])
        return _dearest(winners, True) if winners else _cheapest(cands)
    if partner_holds:
        return _dearest(cands, False)
    beating = BEATERS[top] & cands
    return _dearest(beating, False) if beating else _cheapest(cands)


@njit_inline
def _below_top(mask):
    """Mask of every bit up to the highest bit of ``mask`` (0 for an empty mask; masks below 2**32)."""
    return (_ONE << np.uint64(64 - leading_zeros(mask))) - _ONE


@njit_inline
def _highest_card(mask):
    """Index of the highest set bit of a non-empty mask."""
    return 63 - np.int64(leading_zeros(mask))


@njit_inline
def _sure_trumps(own, other):
    """The trumps of ``own`` above every trump of ``other`` (one team's hands against the other's):
    the trick such a trump is played to is won by it or by a higher trump of its own team, so its
    points are sure for that team."""
    return own & RUNS[TRUMP_RUN] & ~_below_top(other & RUNS[TRUMP_RUN])


def _k_points_table(run_points, order) -> np.ndarray:
    """(2**len(run_points) * 9,) uint8: for a subset ``m`` of a run and k = 0-8, the card points of
    the first k of its cards taken in ``order`` (places of the run; all of them if fewer), at
    ``m * 9 + k``."""
    subsets = np.arange(1 << len(run_points))
    table = np.zeros((len(subsets), 9), dtype=np.int64)
    taken = np.zeros(len(subsets), dtype=np.int64)  # cards of m before place b in the order
    for b in order:
        held = (subsets >> b) & 1
        table += np.where(np.arange(9) > taken[:, None], held[:, None] * run_points[b], 0)
        taken += held
    return table.astype(np.uint8).reshape(-1)


_TRUMP_RUN_POINTS = tuple(int(p) for p in BIT_POINTS[TRUMP_BASE:])
_PLAIN_CHEAP = _k_points_table(_RUN_POINTS, range(PLAIN_RUN))
_PLAIN_DEAR = _k_points_table(_RUN_POINTS, range(PLAIN_RUN - 1, -1, -1))
_TRUMP_CHEAP = _k_points_table(_TRUMP_RUN_POINTS, sorted(range(11), key=lambda b: (_TRUMP_RUN_POINTS[b], b)))
_TRUMP_DEAR = _k_points_table(_TRUMP_RUN_POINTS, sorted(range(11), key=lambda b: (-_TRUMP_RUN_POINTS[b], b)))


@njit_inline
def _run_part(mask, run):
    """The bits of run ``run`` (0-2 plain, 3 trumps) of ``mask``, shifted down to bit 0 (int64)."""
    return np.int64((mask & RUNS[run]) >> np.uint64(PLAIN_RUN * run))


@njit_inline
def _quick_points(lead, partner, left, right):
    """Card points the leader's side surely takes from a trick start (a lower bound); lead, partner,
    left, right: the strength-bit hands of the leader, the partner and the two opponents.

    The leader cashes winners, keeping the lead, while the others must follow: first his trumps
    above every other trump (each is the highest trump of its trick; everyone holding trumps must
    follow trumps, and no jack or AS duty can make anyone beat it), then in each plain run his cards
    above every other card of the run. A player who holds no more trumps than those rounds has
    none left afterwards; one who has trumps left (partner or opponent) could trump a plain winner
    (or must, and would take the lead), so a plain run is cashed at most as many times as each such
    player holds cards of it, and then everyone with trumps follows suit and nobody trumps. The side
    takes every card of these tricks: the leader's winners (the dearest, when fewer rounds than
    winners), the partner's dearest cards of the run led, and of each opponent at least his k
    cheapest cards of the run after k rounds (he must follow while he can; what he discards instead
    goes to the side too). The side's sure trumps (`_sure_trumps`: each is played to a trick its
    side wins) are added whole: the partner plays his other trumps first (dearest first) to the
    trump rounds, and the leader's winning trumps are sure trumps. When the rounds take every
    trick, the side takes every card.
    """
    trumps = RUNS[TRUMP_RUN]
    others = partner | left | right
    rounds = popcount(lead & trumps & ~_below_top(others & trumps))
    sure = _sure_trumps(lead | partner, left | right)
    points = bit_points(sure) + np.int64(_TRUMP_DEAR[_run_part(partner & ~sure, TRUMP_RUN) * 9 + min(rounds, 8)]) \
        + np.int64(_TRUMP_CHEAP[_run_part(left, TRUMP_RUN) * 9 + min(rounds, 8)]) \
        + np.int64(_TRUMP_CHEAP[_run_part(right, TRUMP_RUN) * 9 + min(rounds, 8)])
    tricks = rounds
    partner_ruffs = popcount(partner & trumps) > rounds
    left_ruffs = popcount(left & trumps) > rounds
    right_ruffs = popcount(right & trumps) > rounds
    for run in range(3):
        cards = RUNS[run]
        winners = lead & cards & ~_below_top(others & cards)
        k = popcount(winners)
        if partner_ruffs:
            k = min(k, popcount(partner & cards))
        if left_ruffs:
            k = min(k, popcount(left & cards))
        if right_ruffs:
            k = min(k, popcount(right & cards))
        if k:
            tricks += k
            points += np.int64(_PLAIN_DEAR[_run_part(winners, run) * 9 + k]) \
                + np.int64(_PLAIN_DEAR[_run_part(partner, run) * 9 + k]) \
                + np.int64(_PLAIN_CHEAP[_run_part(left, run) * 9 + k]) \
                + np.int64(_PLAIN_CHEAP[_run_part(right, run) * 9 + k])
    if tricks == popcount(lead):
        return bit_points(lead | others)
    return points


@njit_inline
def _start_bounds(lead, partner, left, right, leads):
    """(lower, upper) bounds of the points a team takes from a trick start: lead, partner, left,
    right the strength-bit hands of the leader, his partner and the two opponents; ``leads``: the
    team is the leader's side. The leader's side takes at least its `_quick_points`, the other side
    at least its sure trumps (`_sure_trumps`)."""
    quick = _quick_points(lead, partner, left, right)
    ours, theirs = lead | partner, left | right
    total = bit_points(ours | theirs)
    if leads:
        return quick, total - bit_points(_sure_trumps(theirs, ours))
    return bit_points(_sure_trumps(theirs, ours)), total - quick


@njit_inline
def _other(hand, card):
    """The card of a two-card ``hand`` that is not ``card``."""
    return lowest_card(hand ^ (_ONE << np.uint64(card)))


@njit_inline
def _last_winner(last, first):
    """Place (0-3 from the first trick's leader) winning the last trick: ``last`` the one card of
    every place (a tuple of four strength bits), led from place ``first``."""
    top_place = first
    top = last[first]
    for i in range(1, SEATS):
        place = (first + i) % SEATS
        if _beats(last[place], top):
            top, top_place = last[place], place
    return top_place


@njit_inline
def _last_trick(h0, h1, h2, h3, leader, team):
    """Points ``team`` takes in the last trick (one card per hand: h0-h3 of seats 0-3) led by ``leader``."""
    hands = (h0, h1, h2, h3)
    last = (lowest_card(hands[leader]), lowest_card(hands[(leader + 1) % SEATS]),
            lowest_card(hands[(leader + 2) % SEATS]), lowest_card(hands[(leader + 3) % SEATS]))
    won = (leader + _last_winner(last, 0)) % 2 == team
    return bit_points(h0 | h1 | h2 | h3) if won else 0


@njit
def _two_tricks(h0, h1, h2, h3, up_a, rule, alpha, beta):
    """Points the team counted takes in the last two tricks (two cards per hand; h0-h3 the hands in
    play order from the leader, ``up_a``: the leader's side is the team counted): fail-soft
    alpha-beta within (alpha, beta) over the legal cards of the first of them, the last trick then
    forced; nested loops, one per seat, instead of the general search. The window is narrowed to (0, the
    points in play) first: a side taking every point (or none) cuts off at once, and a bound at either end is
    the exact value."""
    total = bit_points(h0 | h1 | h2 | h3)
    alpha, beta = max(alpha, 0), min(beta, total)
    best_a = -1 if up_a else 1 << 20
    ma = h0
    while ma and not cut_off(best_a, alpha, beta, up_a):
        a = lowest_card(ma)
        ma &= ma - _ONE
        led = RUN_OF[a]
        lo_b, hi_b = narrow(best_a, alpha, beta, up_a)
        best_b = 1 << 20 if up_a else -1
        mb = _legal(h1, led, a, rule)
        while mb and not cut_off(best_b, lo_b, hi_b, not up_a):
            b = lowest_card(mb)
            mb &= mb - _ONE
            top_b, win_b = (b, 1) if _beats(b, a) else (a, 0)
            lo_c, hi_c = narrow(best_b, lo_b, hi_b, not up_a)
            best_c = -1 if up_a else 1 << 20
            mc = _legal(h2, led, top_b, rule)
            while mc and not cut_off(best_c, lo_c, hi_c, up_a):
                c = lowest_card(mc)
                mc &= mc - _ONE
                top_c, win_c = (c, 2) if _beats(c, top_b) else (top_b, win_b)
                lo_d, hi_d = narrow(best_c, lo_c, hi_c, up_a)
                best_d = 1 << 20 if up_a else -1
                md = _legal(h3, led, top_c, rule)
                gain_c = BIT_POINTS[a] + BIT_POINTS[b] + BIT_POINTS[c]
                last_abc = (_other(h0, a), _other(h1, b), _other(h2, c))
                while md and not cut_off(best_d, lo_d, hi_d, not up_a):
                    d = lowest_card(md)
                    md &= md - _ONE
                    win = 3 if _beats(d, top_c) else win_c
                    gain = gain_c + BIT_POINTS[d]
                    win2 = _last_winner((last_abc[0], last_abc[1], last_abc[2], _other(h3, d)), win)
                    ours = (win % 2 == 0) == up_a
                    ours2 = (win2 % 2 == 0) == up_a
                    value = (gain if ours else 0) + (total - gain if ours2 else 0)
                    best_d = min(best_d, value) if up_a else max(best_d, value)
                best_c = max(best_c, best_d) if up_a else min(best_c, best_d)
            best_b = min(best_b, best_c) if up_a else max(best_b, best_c)
        best_a = max(best_a, best_b) if up_a else min(best_a, best_b)
    return best_a


TWO_TRICK_BITS = 12
"""Words of the two-trick memo (`_two_trick_points`): 2**TWO_TRICK_BITS (32 kB, one per solve)."""


@njit_inline
def _two_trick_key(h0, h1, h2, h3, up):
    """Memo key of a two-card ending (nonzero): every hand's two strength bits (5 bits each, the
    lower first), h0-h3 in play order from the leader, below a flag telling whether the leader's
    side is the team counted (``up``)."""
    key = np.uint64(2 if up else 1)
    for hand in (h0, h1, h2, h3):
        low = lowest_card(hand)
        key = (key << np.uint64(10)) | np.uint64(32 * low + lowest_card(hand & (hand - _ONE)))
    return key


@njit
def _two_trick_points(h0, h1, h2, h3, up, rule, memo):
    """Points the team counted takes in the last two tricks (h0-h3 the hands in play order from the
    leader, ``up``: the leader's side is the team counted; `_two_tricks` with the open window, the
    exact value), remembered in ``memo`` ((2**TWO_TRICK_BITS,) uint64, one play rule: key << 8 |
    points per word, 0 empty, a new ending replacing the one in its slot). Within a full deal's exact
    solve an ending is asked for three times on average (11,000 questions, 3,300 endings), so the
    exact value, dearer than a windowed search, pays: 1.04x exact solves/s and 1.02x threshold
    questions over 1,000 deals (same values)."""
    key = _two_trick_key(h0, h1, h2, h3, up)
    slot = np.int64((key * SHAPE_MIX) >> np.uint64(64 - TWO_TRICK_BITS))
    word = memo[slot]
    if word >> np.uint64(8) == key:
        return np.int64(word & np.uint64(255))
    points = _two_tricks(h0, h1, h2, h3, up, rule, -1, CARD_POINTS + 1)
    memo[slot] = (key << np.uint64(8)) | np.uint64(points)
    return points


def _run_squeeze_table() -> np.ndarray:
    """(2**14,) uint64: for the cards in play of a group of 7 bits and one hand's part of them, packed as
    ``present | part << 7``, the part with the cards in play moved down to the group's lowest bits, order
    kept (``present`` below 2**7; `_key_by_tables`)."""
    table = np.zeros(1 << (2 * PLAIN_RUN), dtype=np.uint64)
    for present in range(1 << PLAIN_RUN):
        places = [b for b in range(PLAIN_RUN) if (present >> b) & 1]
        for part in range(1 << PLAIN_RUN):
            if not part & ~present:
                table[present | part << PLAIN_RUN] = sum(1 << i for i, b in enumerate(places) if (part >> b) & 1)
    return table


_RUN_SQUEEZE = _run_squeeze_table()
_GROUP_SHIFTS = np.array([0, PLAIN_RUN, 2 * PLAIN_RUN, TRUMP_BASE, 28], dtype=np.uint64)
"""The key's groups of cards, each at most 7 bits from its shift: the three plain runs, the trump run's
7 8 9 D K T A, the jacks (the jack rule tells them from the other trumps); the first four share the card
points of their places (`_RUN_POINTS`)."""
_GROUP = np.uint64((1 << PLAIN_RUN) - 1)


@njit_inline
def _key_by_tables(h0, h1, h2, h3):
    """Transposition key (k1, k2) of a trick boundary: the *power structure* of the four hands. In every group
    of `_GROUP_SHIFTS` the cards still in play move down to the group's foot, order and holders kept, so the
    key says who holds the group's cards in rank order and nothing of their card points. Positions with the
    same key play alike (the same legal cards and trick winners, §1.2, §5.2, the jack rule); their values
    differ by at most what the points of the cards at the same places differ by, which `_similar` adds to
    a stored entry's bounds (*payoff similarity*, Furtak and Buro, IJCAI 2011). A key of the cards
    themselves, with only the cards of no points (7 8 9) and the jacks squeezed, which keeps positions of
    one value apart, searched 2.8x the nodes (59,812 against 21,321 a deal over 300 of the benchmark's deals,
    the exact points, same values)."""
    present = h0 | h1 | h2 | h3
    for group in range(5):
        shift = _GROUP_SHIFTS[group]
        h0, h1 = _squeezed_part(h0, present, shift), _squeezed_part(h1, present, shift)
        h2, h3 = _squeezed_part(h2, present, shift), _squeezed_part(h3, present, shift)
    return h0 | (h1 << np.uint64(32)), h2 | (h3 << np.uint64(32))


@njit_inline
def _squeezed_part(hand, present, shift):
    """``hand`` with its part of the group at ``shift`` (of the cards in play ``present``) moved down to the
    group's foot as `_RUN_SQUEEZE` moves it."""
    part = (hand >> shift) & _GROUP
    squeezed = _RUN_SQUEEZE[np.int64(((present >> shift) & _GROUP) | (part << np.uint64(PLAIN_RUN)))]
    return (hand & ~(_GROUP << shift)) | (squeezed << shift)


@njit_inline
def _key_by_gathers(h0, h1, h2, h3):
    """`_key_by_tables`' key by bit gathers, where they are fast (`simcore.search.FAST_BIT_GATHER`): the cards in
    play squeezed (`_squeezed_present`), each hand's cards gathered from those in play (pext) and spread over the
    squeezed ones (pdep), order kept. 8 instructions instead of 20 table lookups (for the key of the older
    solver, 5 lookups: 1.02-1.04x exact solves/s, 10 -> 5.5 ns a key). Measured and dropped (same nodes):
    `_equivalents` by the same gathers (the hand moved onto the squeezed cards, its cards whose next one there is
    its own too, moved back) 0.96x; `bit_points` by five popcounts 0.97x, and from tables of uint8 instead of
    int64 0.97x."""
    present = h0 | h1 | h2 | h3
    squeezed = _squeezed_present(present)
    return (bit_deposit(bit_extract(h0, present), squeezed)
            | (bit_deposit(bit_extract(h1, present), squeezed) << np.uint64(32)),
            bit_deposit(bit_extract(h2, present), squeezed)
            | (bit_deposit(bit_extract(h3, present), squeezed) << np.uint64(32)))


@njit_inline
def _squeezed_present(present):
    """The cards in play ``present`` moved down to the foot of each group of `_GROUP_SHIFTS` (`_key_by_tables`'
    squeeze of the four hands together)."""
    squeezed = np.uint64(0)
    for group in range(5):
        shift = _GROUP_SHIFTS[group]
        squeezed |= ((_ONE << np.uint64(popcount(present & (_GROUP << shift)))) - _ONE) << shift
    return squeezed


_key = _key_by_gathers if FAST_BIT_GATHER else _key_by_tables
"""The transposition key of a trick boundary (`_key_by_tables`), by bit gathers where the CPU has them."""


def new_table(bits: int = TABLE_BITS) -> tuple:
    """An empty transposition table of 2**bits entries: (entries (size, 4) uint64: the two key words,
    the tag (`_tag`) and the packed bounds, best lead and cards in play (`_pack`); counters (2,)
    int64: solves started and nodes searched). Entries go in buckets of four (`_probe`); one entry
    is 32 bytes, a bucket two 64-byte cache lines (the array is aligned to 64 bytes)."""
    return aligned_zeros(table_rows(bits, BUCKET), 4), np.zeros(2, dtype=np.int64)


@njit_inline
def _tag(solve, leader, held):
    """An entry's tag: the solve number, the leader and the cards per hand (0: empty). Tags of
    earlier solves are smaller than every tag of solve ``solve`` (at least `_tag`(solve, 0, 0)), so
    their entries are never read and are replaced first."""
    return np.uint64((solve * SEATS + leader) * 16 + held)


@njit_inline
def _bucket(k1, k2, tag, rows):
    """The first row of the bucket of four 32-byte entries that holds position (k1, k2) under ``tag`` in a table
    of ``rows`` entries (`_probe`; the kernels prefetch its two cache lines)."""
    return table_slot(k1, k2, tag, rows) & ~3


@njit
def _probe(entries, k1, k2, tag, fresh):
    """(slot, found) for the position (k1, k2) under ``tag`` in its bucket of four entries: the slot
    holding it, or else the slot to overwrite: an entry of an earlier solve (tag below ``fresh``),
    else the one with the fewest cards per hand (its subtree is the cheapest to search again; of
    equals the last). Buckets of four keep the entries of the upper tricks that a direct-mapped
    table lost to collisions (0.62x nodes against two, 0.55x against one, 19 bits)."""
    slot = _bucket(k1, k2, tag, entries.shape[0])
    for s in range(slot, slot + 4):
        if entries[s, 2] == tag and entries[s, 0] == k1 and entries[s, 1] == k2:
            return s, True
    victim, fewest = slot, 99
    for s in range(slot, slot + 4):
        t = entries[s, 2]
        if t < fresh:
            return s, False
        if np.int64(t & np.uint64(15)) <= fewest:
            victim, fewest = s, np.int64(t & np.uint64(15))
    return victim, False


@njit_inline
def _pack(lower, upper, lead, present):
    """A table entry's last word: bounds 0-120 in bits 0-7 and 8-15, the best lead + 1 in bits 16-23, and in
    bits 32-63 the cards in play of the position they hold for (``present``; others of its key, `_similar`)."""
    return (np.uint64(lower) | (np.uint64(upper) << np.uint64(8)) | (np.uint64(lead + 1) << np.uint64(16))
            | (present << np.uint64(32)))


@njit_inline
def _unpack(word):
    """(lower, upper, best lead) of a table entry's last word (`_pack`)."""
    return (np.int64(word & np.uint64(255)), np.int64((word >> np.uint64(8)) & np.uint64(255)),
            np.int64((word >> np.uint64(16)) & np.uint64(255)) - 1)


def _similar_table() -> np.ndarray:
    """(2**14,) int64: for two sets of as many cards of a run, ``stored | current << 7``, matched in rank order,
    the points the current cards hold more than the stored ones at the same places (the sum of the rises) plus
    256 times the points they hold less (the sum of the falls)."""
    table = np.zeros(1 << (2 * PLAIN_RUN), dtype=np.int64)
    for stored in range(1 << PLAIN_RUN):
        for current in range(1 << PLAIN_RUN):
            if bin(stored).count("1") == bin(current).count("1"):
                old = [_RUN_POINTS[b] for b in range(PLAIN_RUN) if (stored >> b) & 1]
                new = [_RUN_POINTS[b] for b in range(PLAIN_RUN) if (current >> b) & 1]
                rises = sum(max(0, n - o) for o, n in zip(old, new))
                falls = sum(max(0, o - n) for o, n in zip(old, new))
                table[stored | current << PLAIN_RUN] = rises | falls << 8
    return table


_SIMILAR = _similar_table()


@njit_inline
def _similar(word, present):
    """(lower, upper, best lead) of a table entry's last word (`_pack`) for the position of its key whose cards
    in play are ``present``. The two positions have the same power structure (`_key_by_tables`): every line of
    play of one is a line of the other with the cards at the same places, and each card scores for the same
    team in both, so the counted team's points differ by at most the rises of the card points place by place
    (up) and the falls (down), and so do the values under perfect play. The bounds are widened by those, within
    0-120, and the best lead is the card at the stored lead's place."""
    lower, upper, lead = _unpack(word)
    stored = word >> np.uint64(32)
    if stored == present:
        return lower, upper, lead
    rises, falls = 0, 0
    width = np.uint64(PLAIN_RUN)
    for run in range(4):  # the jacks, of equal points, never differ
        shift = _GROUP_SHIFTS[run]
        both = _SIMILAR[np.int64(((stored >> shift) & _GROUP) | (((present >> shift) & _GROUP) << width))]
        rises += both & 255
        falls += both >> 8
    if lead >= 0:
        run = RUN_OF[lead]
        lead = _card_at(present & RUNS[run], popcount(stored & RUNS[run] & ((_ONE << np.uint64(lead)) - _ONE)))
    return max(lower - falls, 0), min(upper + rises, CARD_POINTS), lead


SHAPE_BITS = 12
"""Entries of the shape-lead table, 2**SHAPE_BITS (32 kB, one per search; 2**14: the same nodes, a
little slower)."""
SHAPE_MIN_CARDS = 4
"""Trick starts with fewer cards a hand neither read nor write shape leads (3: no fewer nodes)."""


@njit_inline
def _shape(h0, h1, h2, h3, leader):
    """A 64-bit hash of a trick start's shape: the leader and every hand's number of cards per run
    (h0-h3 the hands of seats 0-3)."""
    shape = np.uint64(leader + 1)
    for run in range(4):
        for hand in (h0, h1, h2, h3):
            shape = shape_mix(shape, popcount(hand & RUNS[run]))
    return shape_done(shape)


@njit_inline
def _shape_entry(shape, card, hand):
    """The shape-lead table's word (`simcore.search.shape_word`) for leading strength bit ``card`` from
    ``hand``: code 8 * run + the number of the hand's cards of the run above it."""
    run = RUN_OF[card]
    return shape_word(shape, 8 * run + popcount(hand & RUNS[run] & _above(card)))


@njit_inline
def _shape_lead(entry, shape, hand):
    """The strength bit ``hand`` leads by the shape-lead table's word ``entry`` (`_shape_entry`) if it
    was written for ``shape``: of the entry's run, the card at its place from the top (or the lowest);
    -1 for none."""
    code = shape_code(entry, shape)
    if code < 0:
        return -1
    cards = hand & RUNS[code // 8]
    if not cards:
        return -1
    return _card_at(cards, popcount(cards) - 1 - code % 8)


@njit_inline
def _card_at(cards, below):
    """The card of ``cards`` (non-empty) with ``below`` of its cards under it (the lowest if ``below`` <= 0)."""
    for _ in range(max(below, 0)):
        cards &= cards - _ONE  # drop the lowest until the card at the place is the lowest left
    return lowest_card(cards)


NONE = -(1 << 30)
"""Marker of "no value yet" in `_search`."""
PLIES = SEATS * TRICKS + 1


GUESS_MIN_CARDS = 5
"""Trick starts with at least this many cards a hand and no lead from the table or the shape-lead table
lead by `_lead_guess` (4: fewer nodes, slower)."""


@njit_inline
def _guess_leaf(r0, r1, r2, r3, win, ours, gain):
    """Twice the guessed points of the team counted at the end of a trick: its ``gain`` in the trick
    (0 unless ``ours``: its side won it) plus the middle of the next trick start's `_start_bounds`
    (r0-r3 the hands left in play order from the trick's leader, ``win`` the winner's place)."""
    hands = (r0, r1, r2, r3)
    lower, upper = _start_bounds(hands[win], hands[(win + 2) % SEATS], hands[(win + 1) % SEATS],
                                 hands[(win + 3) % SEATS], ours)
    return 2 * gain + lower + upper


@njit
def _lead_guess(q0, q1, q2, q3, up, rule, every):
    """(lead, second lead) of a trick start by a one-trick lookahead: an alpha-beta over the trick's
    cards (the candidates and order of `_search`) on `_guess_leaf` at its end (q0-q3 the hands in play
    order from the leader, ``up``: the leader's side is the team counted). ``every``: every lead gets
    its exact guess, for the second lead (else each lead is searched with a window above the best so
    far and the second lead is -1). A few hundred leaf guesses, a few per cent of the solve's time."""
    present = q0 | q1 | q2 | q3
    alpha, beta = -1, 1 << 20
    best_a, lead = (-1 if up else 1 << 20), -1
    runner, second = best_a, -1
    d1, d2, d3 = _equivalents(q1, present), _equivalents(q2, present), _equivalents(q3, present)
    c0 = q0 & ~_equivalents(q0, present)
    while c0:
        a = _next_candidate(c0, q0, present, 0, 0, False, -1, -1)
        c0 ^= _ONE << np.uint64(a)
        r0 = q0 ^ (_ONE << np.uint64(a))
        led = RUN_OF[a]
        lo_b, hi_b = (alpha, beta) if every else narrow(best_a, alpha, beta, up)
        best_b = 1 << 20 if up else -1
        c1 = _legal(q1, led, a, rule) & ~d1
        while c1 and not cut_off(best_b, lo_b, hi_b, not up):
            b = _next_candidate(c1, q1, present, 1, a, False, -1, -1)
            c1 ^= _ONE << np.uint64(b)
            r1 = q1 ^ (_ONE << np.uint64(b))
            top_b, place_b = (b, 1) if _beats(b, a) else (a, 0)
            lo_c, hi_c = narrow(best_b, lo_b, hi_b, not up)
            best_c = -1 if up else 1 << 20
            holds = place_b == 0 and not _can_beat(q3, top_b, led)
            c2 = _legal(q2, led, top_b, rule) & ~d2
            while c2 and not cut_off(best_c, lo_c, hi_c, up):
                c = _next_candidate(c2, q2, present, 2, top_b, holds, -1, -1)
                c2 ^= _ONE << np.uint64(c)
                r2 = q2 ^ (_ONE << np.uint64(c))
                top_c, place_c = (c, 2) if _beats(c, top_b) else (top_b, place_b)
                lo_d, hi_d = narrow(best_c, lo_c, hi_c, up)
                best_d = 1 << 20 if up else -1
                partner_c = place_c % 2 == 1
                c3 = _legal(q3, led, top_c, rule) & ~d3
                points = BIT_POINTS[a] + BIT_POINTS[b] + BIT_POINTS[c]
                while c3 and not cut_off(best_d, lo_d, hi_d, not up):
                    e = _next_candidate(c3, q3, present, 3, top_c, partner_c, -1, -1)
                    c3 ^= _ONE << np.uint64(e)
                    r3 = q3 ^ (_ONE << np.uint64(e))
                    win = 3 if _beats(e, top_c) else place_c
                    ours = (win % 2 == 0) == up
                    value = _guess_leaf(r0, r1, r2, r3, win, ours, points + BIT_POINTS[e] if ours else 0)
                    best_d = min(best_d, value) if up else max(best_d, value)
                best_c = max(best_c, best_d) if up else min(best_c, best_d)
            best_b = min(best_b, best_c) if up else max(best_b, best_c)
        if (best_b > best_a) if up else (best_b < best_a):
            runner, second = best_a, lead
            best_a, lead = best_b, a
        elif (best_b > runner) if up else (best_b < runner):
            runner, second = best_b, a
    return lead, second


@njit
def _store(entries, slot, k1, k2, tag, value, alpha, beta, lead, present):
    """Narrow the bounds of table entry ``slot`` (if it still holds the position (k1, k2) under
    ``tag``; slot -1: none) by a search ``value`` found in the window (alpha, beta) with ``lead``
    best, for the position of cards in play ``present``: the entry's bounds are first made its
    (`_similar`), and the entry is its from then on. A probe that finds an entry for other cards
    reads it widened and leaves it alone; only a search rewrites it. Rewriting it at the probe,
    also where the widened bounds cut off, loosened entries that stayed good for their own cards:
    1.50x the nodes (21,400 -> 32,167 a deal over the benchmark's 1,000 deals, same values).
    ``value`` and the bounds lie in 0-120 (`_pack` does not mask them)."""
    if slot >= 0 and entries[slot, 2] == tag and entries[slot, 0] == k1 and entries[slot, 1] == k2:
        lo, hi, _ = _similar(entries[slot, 3], present)
        if value <= alpha:
            hi = min(hi, value)
        elif value >= beta:
            lo = max(lo, value)
        else:
            lo, hi = value, value
        entries[slot, 3] = _pack(lo, hi, lead, present)


KERNEL_CARDS = 5
"""Trick starts with 3 to KERNEL_CARDS cards a hand are searched by the loop kernels (`_last_tricks`):
`_search` hands them to `_five_tricks`, the top one, so this is not a knob without a kernel per depth."""
_CARDS, _inner = 0, None
"""Placeholders of the names each `_last_tricks` kernel gets from `specialise`: its cards a hand and the kernel
a trick below."""


def _last_tricks(q0, q1, q2, q3, leader, up, rule, alpha, beta, first, killer, entries, solve, fresh, killers, ply,
                 memo, leads):
    """(points the team counted takes in the last tricks, best lead, nodes searched): the loop kernel of
    trick starts with ``_CARDS`` cards a hand, compiled once per depth 3-5 as `_three_tricks`,
    `_four_tricks` and `_five_tricks` (`simcore.config.specialise`, ``_inner`` the kernel a trick below, to
    which the upper two hand a position of fewer cards a hand). q0-q3 the hands in play
    order from ``leader`` (its seat), ``up``: the leader's side is the team counted; fail-soft alpha-beta
    within (alpha, beta) with the candidates and order of `_search` (``first`` the table's or the shape
    table's lead, ``killer`` the killer lead; -1: none), one nested loop per seat for the first trick
    instead of the general search, no null-window scouts (scouting the leads finds the same nodes,
    slower). At three cards the rest is the two-trick memo (`_two_trick_points`, ``memo``, written out
    here); else each next trick start does what `_search` does there (its key found and its table bucket
    prefetched first): the `_start_bounds`, the table
    (``entries``, ``solve`` the solve number, ``fresh`` as `_probe`), the shape lead (from 4 cards,
    ``leads`` the shape-lead table), the killer lead of its ply (``killers``, ``ply`` the ply of this
    trick start), then ``_inner``. The hands are scalars and the arrays are read and written here, not
    in helpers: numba counts the references of every array handed to a helper (an atomic add and
    subtract, each a call)."""
    if _CARDS > 3 and popcount(q0) < _CARDS:
        return _inner(q0, q1, q2, q3, leader, up, rule, alpha, beta, first, killer, entries, solve, fresh, killers,
                      ply, memo, leads)
    present = q0 | q1 | q2 | q3
    nodes = 0
    next_ply = ply + SEATS
    table_start = np.uint64(entries.ctypes.data)
    shape_slots = np.uint64((1 << SHAPE_BITS) - 1)
    best_a, lead = (-1 if up else 1 << 20), -1
    d1, d2, d3 = _equivalents(q1, present), _equivalents(q2, present), _equivalents(q3, present)
    c0 = q0 & ~_equivalents(q0, present)
    while c0 and not cut_off(best_a, alpha, beta, up):
        a = _next_candidate(c0, q0, present, 0, 0, False, first, killer)
        c0 ^= _ONE << np.uint64(a)
        nodes += 1
        r0 = q0 ^ (_ONE << np.uint64(a))
        led = RUN_OF[a]
        lo_b, hi_b = narrow(best_a, alpha, beta, up)
        best_b = 1 << 20 if up else -1
        c1 = _legal(q1, led, a, rule) & ~d1
        while c1 and not cut_off(best_b, lo_b, hi_b, not up):
            b = _next_candidate(c1, q1, present, 1, a, False, -1, -1)
            c1 ^= _ONE << np.uint64(b)
            nodes += 1
            r1 = q1 ^ (_ONE << np.uint64(b))
            top_b, place_b = (b, 1) if _beats(b, a) else (a, 0)
            lo_c, hi_c = narrow(best_b, lo_b, hi_b, not up)
            best_c = -1 if up else 1 << 20
            holds = place_b == 0 and not _can_beat(q3, top_b, led)
            c2 = _legal(q2, led, top_b, rule) & ~d2
            while c2 and not cut_off(best_c, lo_c, hi_c, up):
                c = _next_candidate(c2, q2, present, 2, top_b, holds, -1, -1)
                c2 ^= _ONE << np.uint64(c)
                nodes += 1
                r2 = q2 ^ (_ONE << np.uint64(c))
                top_c, place_c = (c, 2) if _beats(c, top_b) else (top_b, place_b)
                lo_d, hi_d = narrow(best_c, lo_c, hi_c, up)
                best_d = 1 << 20 if up else -1
                partner_c = place_c % 2 == 1
                c3 = _legal(q3, led, top_c, rule) & ~d3
                points = BIT_POINTS[a] + BIT_POINTS[b] + BIT_POINTS[c]
                while c3 and not cut_off(best_d, lo_d, hi_d, not up):
                    e = _next_candidate(c3, q3, present, 3, top_c, partner_c, -1, -1)
                    c3 ^= _ONE << np.uint64(e)
                    nodes += 1
                    r3 = q3 ^ (_ONE << np.uint64(e))
                    win = 3 if _beats(e, top_c) else place_c
                    ours = (win % 2 == 0) == up
                    gain = points + BIT_POINTS[e] if ours else 0
                    if win == 0:
                        w0, w1, w2, w3 = r0, r1, r2, r3
                    elif win == 1:
                        w0, w1, w2, w3 = r1, r2, r3, r0
                    elif win == 2:
                        w0, w1, w2, w3 = r2, r3, r0, r1
                    else:
                        w0, w1, w2, w3 = r3, r0, r1, r2
                    if _CARDS == 3:  # the two-trick memo
                        key = _two_trick_key(w0, w1, w2, w3, ours)
                        slot = np.int64((key * SHAPE_MIX) >> np.uint64(64 - TWO_TRICK_BITS))
                        word = memo[slot]
                        if word >> np.uint64(8) == key:
                            value = gain + np.int64(word & np.uint64(255))
                        else:
                            rest = _two_tricks(w0, w1, w2, w3, ours, rule, -1, CARD_POINTS + 1)
                            memo[slot] = (key << np.uint64(8)) | np.uint64(rest)
                            value = gain + rest
                    else:  # the next trick start
                        nodes += 1  # as `_search` counts it
                        rest = (r0, r1, r2, r3)  # in play order: seat s holds rest[(s - leader) % 4]
                        s0, s1, s2, s3 = (rest[(4 - leader) % SEATS], rest[(5 - leader) % SEATS],
                                          rest[(6 - leader) % SEATS], rest[(7 - leader) % SEATS])
                        k1, k2 = _key(s0, s1, s2, s3)
                        present_e = r0 | r1 | r2 | r3
                        seat = (leader + win) % SEATS
                        tag = _tag(solve, seat, _CARDS - 1)
                        bucket = table_start + np.uint64(32 * _bucket(k1, k2, tag, entries.shape[0]))
                        prefetch(bucket)
                        prefetch(bucket + np.uint64(64))
                        lo_e, hi_e = narrow(best_d, lo_d, hi_d, not up)
                        lo_e, hi_e = lo_e - gain, hi_e - gain
                        lower, upper = _start_bounds(w0, w2, w1, w3, ours)
                        if lower >= hi_e:
                            value = lower
                        elif upper <= lo_e:
                            value = upper
                        else:
                            value = NONE
                            slot, found = _probe(entries, k1, k2, tag, fresh)
                            next_first = -1
                            if found:
                                lo, hi, best_lead = _similar(entries[slot, 3], present_e)
                                if lo >= hi_e or lo == hi:
                                    value = lo
                                elif hi <= lo_e:
                                    value = hi
                                else:
                                    lo_e, hi_e = max(lo_e, lo), min(hi_e, hi)
                                    next_first = best_lead
                            else:
                                entries[slot, 0], entries[slot, 1], entries[slot, 2] = k1, k2, tag
                                entries[slot, 3] = _pack(lower, upper, -1, present_e)
                            if value == NONE:
                                shape = np.uint64(0)
                                if _CARDS > SHAPE_MIN_CARDS:
                                    shape = _shape(s0, s1, s2, s3, seat)
                                    if next_first < 0:
                                        next_first = _shape_lead(leads[np.int64(shape & shape_slots)], shape, w0)
                                value, next_lead, n = _inner(w0, w1, w2, w3, seat, ours, rule, lo_e, hi_e, next_first,
                                                             killers[next_ply, seat], entries, solve, fresh, killers,
                                                             next_ply, memo, leads)
                                nodes += n
                                if cut_off(value, lo_e, hi_e, ours):
                                    killers[next_ply, seat] = next_lead
                                    if _CARDS > SHAPE_MIN_CARDS and next_lead >= 0:
                                        leads[np.int64(shape & shape_slots)] = _shape_entry(shape, next_lead, w0)
                                _store(entries, slot, k1, k2, tag, value, lo_e, hi_e, next_lead, present_e)
                        value += gain
                    best_d = min(best_d, value) if up else max(best_d, value)
                best_c = max(best_c, best_d) if up else min(best_c, best_d)
            best_b = min(best_b, best_c) if up else max(best_b, best_c)
        if (best_b > best_a) if up else (best_b < best_a):
            best_a, lead = best_b, a
    return best_a, lead, nodes


_three_tricks = specialise(_last_tricks, "_three_tricks", _CARDS=3)
_four_tricks = specialise(_last_tricks, "_four_tricks", _CARDS=4, _inner=_three_tricks)
_five_tricks = specialise(_last_tricks, "_five_tricks", _CARDS=5, _inner=_four_tricks)


@njit
def _search(hands, trick, count, leader, top, top_seat, rule, team, alpha, beta, table, memo):
    """Points ``team`` takes from the cards still in play (hands and current trick) under perfect
    play: fail-soft alpha-beta (exact when the result lies inside (alpha, beta)), depth-first
    without recursion (ply d holds the node after d cards), with principal-variation scouts where
    a node's window is open (`scout`: a later card is searched with a null window at the best so
    far, and again only if it beats it).

    hands (4,) uint64 strength-bit masks (modified and restored); trick (4,) int64 strength bits
    of the current trick, ``count`` played from ``leader``; top, top_seat: the bit holding the trick
    and its seat (ignored when count == 0); memo: the two-trick memo of this play rule
    (`_two_trick_points`). No array is handed to an inlined helper in the loop (numba would count
    its references, atomically, at every node).
    """
    entries, solve = unowned(table[0]), table[1]  # the caller holds the table
    leaders = np.empty(PLIES, dtype=np.int64)
    counts = np.empty(PLIES, dtype=np.int64)
    tops = np.empty((PLIES, 2), dtype=np.int64)
    window = np.empty((PLIES, 4), dtype=np.int64)  # alpha, beta, and both as the node was entered
    best = np.empty((PLIES, 2), dtype=np.int64)  # value, card
    cands = np.zeros(PLIES, dtype=np.uint64)  # candidates not yet tried (`_candidate_mask`)
    order = np.empty((PLIES, 5), dtype=np.int64)  # partner holds, first, killer, card in search, cards tried
    presents = np.empty(PLIES, dtype=np.uint64)
    gains = np.zeros(PLIES, dtype=np.int64)
    slots = np.empty(PLIES, dtype=np.int64)
    tricks = np.empty((PLIES, SEATS), dtype=np.int64)
    ident = np.empty((PLIES, 3), dtype=np.uint64)
    killers = np.full((PLIES, SEATS), -1, dtype=np.int64)  # by ply and leader: the last lead that cut off
    scout = np.zeros(PLIES, dtype=np.int64)  # the child in search: 0 plain, 1 a null-window scout, 2 searched again
    scouted = np.zeros(PLIES, dtype=np.int64)  # the scout's value (a bound) while the child is searched again
    fresh = _tag(solve[0], 0, 0)
    shapes = np.zeros(PLIES, dtype=np.uint64)
    leads = np.zeros(1 << SHAPE_BITS, dtype=np.uint64)
    shape_slots = np.uint64((1 << SHAPE_BITS) - 1)
    # for the kernels, views without reference counts (the arrays themselves stay in use below)
    killers_k, memo_k, leads_k = unowned(killers), unowned(memo), unowned(leads)
    d = 0
    leaders[0], counts[0], tops[0, 0], tops[0, 1] = leader, count, top, top_seat
    window[0, 0], window[0, 1] = alpha, beta
    for i in range(SEATS):
        tricks[0, i] = trick[i]
    entering = True
    pending = NONE
    while True:
        leader, count = leaders[d], counts[d]
        seat = (leader + count) % SEATS
        mine = seat % 2 == team
        if entering:
            solve[1] += 1  # nodes searched
            entering = False
            scout[d] = 0
            value = NONE
            slots[d] = -1
            first, second = -1, -1
            lower, upper = 0, 0
            if count == 0:
                held = popcount(hands[leader])
                h0, h1, h2, h3 = hands[0], hands[1], hands[2], hands[3]
                if held == 1:
                    value = _last_trick(h0, h1, h2, h3, leader, team)
                elif held == 2:
                    value = _two_trick_points(hands[leader], hands[(leader + 1) % SEATS], hands[(leader + 2) % SEATS],
                                              hands[(leader + 3) % SEATS], leader % 2 == team, rule, memo)
                else:
                    lower, upper = _start_bounds(hands[leader], hands[(leader + 2) % SEATS],
                                                 hands[(leader + 1) % SEATS], hands[(leader + 3) % SEATS],
                                                 leader % 2 == team)
                    if lower >= window[d, 1]:
                        value = lower
                    elif upper <= window[d, 0]:
                        value = upper
                if value == NONE:
                    k1, k2 = _key(h0, h1, h2, h3)
                    in_play = h0 | h1 | h2 | h3
                    tag = _tag(solve[0], leader, held)
                    slot, found = _probe(entries, k1, k2, tag, fresh)
                    if found:
                        lo, hi, lead = _similar(entries[slot, 3], in_play)
                        if lo >= window[d, 1] or lo == hi:
                            value = lo
                        elif hi <= window[d, 0]:
                            value = hi
                        else:
                            window[d, 0], window[d, 1] = max(window[d, 0], lo), min(window[d, 1], hi)
                            first = lead
                    else:
                        entries[slot, 0], entries[slot, 1], entries[slot, 2] = k1, k2, tag
                        entries[slot, 3] = _pack(lower, upper, -1, in_play)
                    slots[d], ident[d, 0], ident[d, 1], ident[d, 2] = slot, k1, k2, tag
                if value == NONE and held >= SHAPE_MIN_CARDS:
                    shapes[d] = _shape(h0, h1, h2, h3, leader)
                    if first < 0:
                        first = _shape_lead(leads[np.int64(shapes[d] & shape_slots)], shapes[d], hands[leader])
                if value == NONE and first < 0 and held >= GUESS_MIN_CARDS:
                    first, second = _lead_guess(hands[leader], hands[(leader + 1) % SEATS], hands[(leader + 2) % SEATS],
                                                hands[(leader + 3) % SEATS], leader % 2 == team, rule, d == 0)
                if value == NONE and held <= KERNEL_CARDS:
                    value, lead, nodes = _five_tricks(hands[leader], hands[(leader + 1) % SEATS],
                                                      hands[(leader + 2) % SEATS], hands[(leader + 3) % SEATS], leader,
                                                      leader % 2 == team, rule, window[d, 0], window[d, 1], first,
                                                      killers[d, leader], entries, solve[0], fresh, killers_k, d,
                                                      memo_k, leads_k)
                    solve[1] += nodes
                    if cut_off(value, window[d, 0], window[d, 1], leader % 2 == team):
                        killers[d, leader] = lead
                        if held >= SHAPE_MIN_CARDS and lead >= 0:
                            leads[np.int64(shapes[d] & shape_slots)] = _shape_entry(shapes[d], lead, hands[leader])
                    _store(entries, slots[d], ident[d, 0], ident[d, 1], ident[d, 2], value, window[d, 0], window[d, 1],
                           lead, in_play)
            if value == NONE:
                window[d, 2], window[d, 3] = window[d, 0], window[d, 1]
                present = hands[0] | hands[1] | hands[2] | hands[3]
                for i in range(count):
                    present |= _ONE << np.uint64(tricks[d, i])
                led = RUN_OF[tricks[d, 0]] if count else -1
                partner_holds = count >= 1 and tops[d, 1] % 2 == seat % 2
                if partner_holds and count == 2:  # does the last player, an opponent, beat it?
                    partner_holds = not _can_beat(hands[(leader + 3) % SEATS], tops[d, 0], led)
                cands[d] = _candidate_mask(hands[seat], present, led, tops[d, 0], rule)
                presents[d] = present
                order[d, 0], order[d, 1] = partner_holds, first
                order[d, 2] = killers[d, seat] if count == 0 else -1
                if d == 0 and second >= 0:
                    order[d, 2] = second
                order[d, 4] = 0
                best[d, 0], best[d, 1] = (-1 if mine else 1 << 20), -1
            else:
                if d == 0:
                    return value
                d -= 1
                pending = value
                continue
        else:
            card = order[d, 3]
            hands[seat] ^= _ONE << np.uint64(card)
            value = pending + gains[d]
            if scout[d] == 1 and window[d, 0] < value < window[d, 1]:  # better than the best so far: search
                scout[d] = 2  # the card again, in (value, beta) (in (alpha, value) for the other side)
                scouted[d] = value
            else:
                if scout[d] == 2:  # the scout's bound and the second search's value make the exact value
                    value = max(value, scouted[d]) if mine else min(value, scouted[d])
                if mine:
                    if value > best[d, 0]:
                        best[d, 0], best[d, 1] = value, card
                    window[d, 0] = max(window[d, 0], value)
                else:
                    if value < best[d, 0]:
                        best[d, 0], best[d, 1] = value, card
                    window[d, 1] = min(window[d, 1], value)
                scout[d] = 0
        if (scout[d] == 2 or cands[d]) and window[d, 0] < window[d, 1]:
            lo, hi = window[d, 0], window[d, 1]
            if scout[d] == 2:
                card = order[d, 3]
                if mine:
                    lo = scouted[d]
                else:
                    hi = scouted[d]
            else:
                card = _next_candidate(cands[d], hands[seat], presents[d], count, tops[d, 0], order[d, 0] != 0,
                                       order[d, 1], order[d, 2])
                cands[d] ^= _ONE << np.uint64(card)
                order[d, 3] = card
                order[d, 4] += 1
                if order[d, 4] > 1 and hi - lo > 1:  # not the first card: a null-window scout first
                    scout[d] = 1
                    if mine:
                        hi = lo + 1
                    else:
                        lo = hi - 1
            hands[seat] ^= _ONE << np.uint64(card)
            top, top_seat = tops[d, 0], tops[d, 1]
            if count == 0 or _beats(card, top):
                top, top_seat = card, seat
            c = d + 1
            for i in range(count):
                tricks[c, i] = tricks[d, i]
            tricks[c, count] = card
            if count < SEATS - 1:
                gains[d] = 0
                leaders[c], counts[c], tops[c, 0], tops[c, 1] = leader, count + 1, top, top_seat
            else:
                gain = 0
                if top_seat % 2 == team:
                    for i in range(SEATS):
                        gain += BIT_POINTS[tricks[c, i]]
                gains[d] = gain
                if hands[top_seat] == 0:  # the last card of the deal
                    gains[d], pending = 0, gain
                    continue
                leaders[c], counts[c] = top_seat, 0
            window[c, 0], window[c, 1] = lo - gains[d], hi - gains[d]
            d = c
            entering = True
            continue
        value = best[d, 0]
        if count == 0 and window[d, 0] >= window[d, 1]:
            killers[d, seat] = best[d, 1]
            if popcount(hands[seat]) >= SHAPE_MIN_CARDS and best[d, 1] >= 0:
                leads[np.int64(shapes[d] & shape_slots)] = _shape_entry(shapes[d], best[d, 1], hands[seat])
        _store(entries, slots[d], ident[d, 0], ident[d, 1], ident[d, 2], value, window[d, 2], window[d, 3], best[d, 1],
               hands[0] | hands[1] | hands[2] | hands[3])
        if d == 0:
            return value
        d -= 1
        pending = value


@njit
def _solve(hands, trick, count, leader, trump, rule, team, table, levels):
    """(lower, upper) bounds of the points ``team`` takes from a position in card masks (hands (4,),
    trick (4,) cards, ``count`` of them played from ``leader``), as a new solve of ``table``, close
    enough that every point level of ``levels`` (sorted int64) is decided: reached when <= lower,
    missed when > upper (`EXACT_LEVELS`: lower == upper, the exact value)."""
    table[1][0] += 1
    bits = np.empty(SEATS, dtype=np.uint64)
    for s in range(SEATS):
        bits[s] = to_bits(hands[s], trump)
    memo = np.zeros(1 << TWO_TRICK_BITS, dtype=np.uint64)
    cards = np.zeros(SEATS, dtype=np.int64)
    top, top_seat = 0, leader
    for i in range(count):
        cards[i] = TO_BIT[trump, trick[i]]
        if i == 0 or _beats(cards[i], top):
            top, top_seat = cards[i], (leader + i) % SEATS
    if count == 0 and bits[leader] == 0:
        return 0, 0
    if count == SEATS:  # a complete trick: score it, the winner leads
        gain = 0
        for i in range(SEATS):
            gain += BIT_POINTS[cards[i]] if top_seat % 2 == team else 0
        if bits[top_seat] == 0:
            return gain, gain
        lower, upper = _level_bounds(bits, cards, 0, top_seat, 0, 0, rule, team, table, levels, gain, memo)
        return gain + lower, gain + upper
    return _level_bounds(bits, cards, count, leader, top, top_seat, rule, team, table, levels, 0, memo)


EXACT_LEVELS = np.arange(1, CARD_POINTS + 1, dtype=np.int64)
"""Every level 1-120: `_solve` then finds the exact value."""


@njit
def _level_bounds(hands, trick, count, leader, top, top_seat, rule, team, table, levels, offset, memo):
    """(lower, upper) bounds of the `_search` value close enough that no level of ``levels`` (minus
    ``offset``, the points already scored) lies in (lower, upper]. For every level (`EXACT_LEVELS`)
    one full-window search gives the value itself; else null-window probes, each answering "at least
    beta?" for beta the middle level still between the bounds (bisection; fail-soft values step
    further), the table keeping what earlier probes learnt."""
    upper = bit_points(hands[0] | hands[1] | hands[2] | hands[3])
    for i in range(count):
        upper += BIT_POINTS[trick[i]]
    if levels.shape[0] == CARD_POINTS:
        value = _search(hands, trick, count, leader, top, top_seat, rule, team, -1, upper + 1, table, memo)
        return value, value
    lower = 0
    while True:
        first, last = 0, -1
        for i in range(levels.shape[0]):
            level = levels[i] - offset
            if level <= lower:
                first = i + 1
            elif level <= upper:
                last = i
        if first > last:
            return lower, upper
        beta = levels[first + (last - first) // 2] - offset
        guess = _search(hands, trick, count, leader, top, top_seat, rule, team, beta - 1, beta, table, memo)
        if guess < beta:
            upper = guess
        else:
            lower = guess


@njit
def _solve_many(hands, trumps, leaders, teams, rule, table, levels, out):
    """``out`` (n, 2): the (lower, upper) bounds of `_solve` of every deal."""
    trick = np.zeros(SEATS, dtype=np.int64)
    for i in range(hands.shape[0]):
        out[i, 0], out[i, 1] = _solve(hands[i], trick, 0, leaders[i], trumps[i], rule, teams[i], table,
                                      levels)


def solve_points(hands, trumps, leaders, teams, rule: int = BS_OVERTAKE, table=None) -> np.ndarray:
    """Card points ``teams`` take under perfect play in many deals, every card still in hand played.

    hands (n, 4) uint32/uint64 card masks of seats 0-3 (equal sizes); trumps, leaders, teams (n,)
    int (or scalars); rule: a `bauernstoss_play.play_rule` code. Returns (n,) int64 points 0-120.
    """
    return _bounds(hands, trumps, leaders, teams, rule, table, EXACT_LEVELS)[:, 0]


def reaches_points(hands, trumps, leaders, teams, levels, rule: int = BS_OVERTAKE, table=None) -> np.ndarray:
    """Whether ``teams`` take at least each of the point ``levels`` under perfect play (the
    zero-window questions "does the team reach 42 / 79 / 91?", much cheaper than the exact points:
    a few null-window probes instead of a bisection down to one point).

    hands, trumps, leaders, teams, rule as `solve_points`; levels: point levels (whole numbers; none above 120
    is reached, every one up to 0 is). Returns (n, len(levels)) bool, columns in the order of ``levels``.
    """
    levels = np.asarray(levels)
    if levels.ndim != 1 or levels.size == 0 or not checks.whole_numbers(levels):  # 42.0 is 42; 42.5, nan, True not
        raise CardsimError(f"levels must be one or more whole numbers of card points, got {checks.shown(levels)}")
    levels = levels.astype(np.int64)
    ordered = np.unique(levels)
    lower = _bounds(hands, trumps, leaders, teams, rule, table, ordered)[:, :1]
    return lower >= levels[None, :]


def checked_hands(hands, equal_sizes: bool = True, disjoint: bool = True) -> np.ndarray:
    """``hands`` as an (n, 4) uint64 array of card masks (32 cards), with ``disjoint`` every card in one seat at
    most and with ``equal_sizes`` the four seats of a deal holding the same number of cards (1-8); CardsimError
    otherwise (`checks.hand_masks`; without ``equal_sizes`` each seat holds 0-8)."""
    sizes = range(1, TRICKS + 1) if equal_sizes else range(TRICKS + 1)
    return checks.hand_masks(hands, "hands", 32, SEATS, sizes, True, equal_sizes, disjoint)


def _bounds(hands, trumps, leaders, teams, rule: int, table, levels: np.ndarray) -> np.ndarray:
    """(n, 2) int64: `_solve`'s (lower, upper) bounds of every deal for the sorted ``levels``."""
    hands = checked_hands(hands)
    check_rule(rule)
    n = hands.shape[0]
    out = np.empty((n, 2), dtype=np.int64)
    trumps, leaders = checks.column(trumps, n, "trumps", 4), checks.column(leaders, n, "leaders", SEATS)
    teams = checks.column(teams, n, "teams", 2)
    table = checked_table(table, new_table, BUCKET)
    _solve_many(hands, trumps, leaders, teams, rule, new_table() if table is None else table, levels, out)
    return out


def position_points(hands, trump: int, leader: int, team: int, trick=(), rule: int = BS_OVERTAKE,
                    table=None) -> int:
    """Points ``team`` takes from a position under perfect play: the cards still held and those of
    the current ``trick`` (played in order from ``leader``; a complete trick is scored first).
    hands (4,) card masks. The arguments are checked (CardsimError); `trusted_position_points` skips that."""
    hands, trump, leader, team, trick = checked_position(hands, trump, leader, team, trick)
    check_rule(rule)
    return trusted_position_points(hands, trump, leader, team, trick, rule, checked_table(table, new_table, BUCKET))


def checked_position(hands, trump, leader, team, trick=()) -> tuple[np.ndarray, int, int, int, tuple[int, ...]]:
    """(hands as (4,) uint64 masks, trump, leader, team as ints, trick as card numbers) of a position in play: trump
    0-3, leader a seat, team 0-1, four disjoint hands, ``trick``
    at most 4 distinct cards 0-31 that no hand holds, and the seats that played to it (from ``leader`` on) holding
    one card fewer than the others (all equal once the trick is complete); CardsimError otherwise."""
    hands = checks.hand_masks(hands, "hands", 32, SEATS, range(TRICKS + 1), equal=False)
    trump, leader = int(checks.column(trump, 1, "trump", 4)[0]), int(checks.column(leader, 1, "leader", SEATS)[0])
    team = int(checks.column(team, 1, "team", 2)[0])
    listed = not isinstance(trick, (str, bytes))
    try:
        trick = tuple(trick) if listed else trick
    except TypeError:  # None, 5, np.array(5)
        listed = False
    held = int(np.bitwise_or.reduce(hands))
    if not listed or len(trick) > SEATS \
            or not all(is_whole_int(c) and 0 <= c < 32 and not held >> int(c) & 1 for c in trick) \
            or len(set(trick)) != len(trick):
        raise CardsimError(f"trick must list at most {SEATS} distinct cards 0-31 that no hand holds, got "
                           f"{checks.shown(trick)}")
    played = {(leader + i) % SEATS for i in range(len(trick) % SEATS)}
    sizes = np.bitwise_count(hands).astype(np.int64) + [seat in played for seat in range(SEATS)]
    if (sizes != sizes[0]).any() or not (len(trick) != SEATS) <= sizes[0] <= TRICKS:
        raise CardsimError(f"the seats hold {', '.join(map(str, np.bitwise_count(hands)))} cards with {len(trick)} "
                           f"on the trick led by seat {leader}: each seat that has played to the trick must hold one "
                           f"card fewer than the others, and a seat at most {TRICKS}")
    return hands, trump, leader, team, tuple(int(c) for c in trick)


def trusted_position_points(hands, trump: int, leader: int, team: int, trick=(), rule: int = BS_OVERTAKE,
                            table=None) -> int:
    """`position_points` without its checks, for callers whose positions come from the engine itself (PIMC,
    `optimal_line`): the checks cost more than solving a short ending."""
    cards = np.zeros(SEATS, dtype=np.int64)
    cards[:len(trick)] = trick
    return int(_solve(np.asarray(hands, dtype=np.uint64), cards, len(trick), leader, trump, rule, team,
                      new_table(10) if table is None else table, EXACT_LEVELS)[0])


def optimal_line(hands, trump: int, leader: int, team: int, rule: int = BS_OVERTAKE) -> tuple[int, list]:
    """(points ``team`` takes, a line of perfect play as (seat, card) pairs to the end of the deal):
    at every turn the first legal card, in card order, whose position keeps the optimum.
    hands (4,) card masks of equal sizes at a trick boundary."""
    from simcore.games.bauernstoss_play import legal_mask, winning_slot

    hands, trump, leader, team, _ = checked_position(hands, trump, leader, team)
    check_rule(rule)
    table = new_table(14)
    value = trusted_position_points(hands, trump, leader, team, (), rule, table)
    hands = [int(h) for h in hands]
    trick: list[int] = []
    line, taken = [], 0
    while any(hands):
        seat = (leader + len(trick)) % SEATS
        padded = np.array(trick + [0] * (SEATS - len(trick)), dtype=np.int64)
        legal = int(legal_mask(np.uint64(hands[seat]), padded, len(trick), trump, rule))
        for card in range(32):
            if not (legal >> card) & 1:
                continue
            rest = list(hands)
            rest[seat] ^= 1 << card
            if taken + trusted_position_points(rest, trump, leader, team, trick + [card], rule, table) == value:
                break
        hands[seat] ^= 1 << card
        trick.append(card)
        line.append((seat, card))
        if len(trick) == SEATS:
            padded = np.array(trick, dtype=np.int64)
            winner = (leader + int(winning_slot(padded, SEATS, trump))) % SEATS
            if winner % 2 == team:
                taken += sum(int(FACE_POINTS[c]) for c in trick)
            leader, trick = winner, []
    return value, line


# --- solos (§5.4): can the soloist take all 8 tricks? ------------------------------------------
SOLO_TABLE_BITS = 16
"""Entries of a solo table: 2**SOLO_TABLE_BITS (2 MB)."""


def new_solo_table(bits: int = SOLO_TABLE_BITS) -> tuple:
    """An empty solo table: (entries (size, 4) uint64: two key words, tag (solve number + 1; 0 empty)
    and the result 0/1; counters (2,) int64: solves started and nodes searched)."""
    return np.zeros((table_rows(bits), 4), dtype=np.uint64), np.zeros(2, dtype=np.int64)


@njit_inline
def _solo_seat(leader, place, partner):
    """The seat at ``place`` (0-2) of a solo trick led by ``leader``; the soloist's ``partner`` sits out."""
    seat = leader
    for _ in range(place):
        seat = (seat + 1) % SEATS
        if seat == partner:
            seat = (seat + 1) % SEATS
    return seat


SOLO_PLIES = 3 * TRICKS + 1


@njit
def _solo_search(hands, leader, soloist, rule, table, trick, count, kept):
    """True if the soloist takes every trick (with ``kept`` > 0, only those until he holds ``kept`` cards, the
    current trick always included) from a position (``leader`` led the current trick, of which
    ``count`` cards, strength bits ``trick[:count]``, are played; 0 at a trick boundary), the two
    defenders playing to stop it: an AND-OR search over single cards (the soloist needs one card
    that works, every defender card must fail; a lost trick ends it), highest cards first,
    depth-first without recursion (ply d holds the node after d cards). hands (4,) uint64
    strength-bit masks, the partner's 0 (modified and restored). Of cards adjacent in a run once
    the other hands and the table are counted only the highest is searched (card points do not
    matter here). Trick boundaries after the first (the soloist leads, having won everything so
    far) go in ``table``."""
    entries, counters = table
    partner = (soloist + 2) % SEATS
    leaders = np.empty(SOLO_PLIES, dtype=np.int64)
    places = np.empty(SOLO_PLIES, dtype=np.int64)
    leds = np.empty(SOLO_PLIES, dtype=np.int64)
    tops = np.empty((SOLO_PLIES, 2), dtype=np.int64)  # bit holding the trick, its seat
    on_table = np.empty(SOLO_PLIES, dtype=np.uint64)
    moves = np.empty(SOLO_PLIES, dtype=np.uint64)  # cards still to try
    cards = np.empty(SOLO_PLIES, dtype=np.int64)  # card being tried
    slots = np.empty(SOLO_PLIES, dtype=np.int64)
    keys = np.empty((SOLO_PLIES, 2), dtype=np.uint64)
    tag = np.uint64(counters[0] + 1)
    d = 0
    leaders[0], places[0], leds[0], tops[0, 0], tops[0, 1], on_table[0] = leader, count, -1, 0, leader, 0
    for i in range(count):
        if i == 0 or _beats(trick[i], tops[0, 0]):
            tops[0, 0], tops[0, 1] = trick[i], _solo_seat(leader, i, partner)
        on_table[0] |= _ONE << np.uint64(trick[i])
    if count:
        leds[0] = RUN_OF[trick[0]]
    entering, result, done = True, False, False
    while True:
        if entering:
            counters[1] += 1
            entering, done = False, False
            slots[d] = -1
            if places[d] == SEATS - 1:  # the trick is complete
                if tops[d, 1] != soloist or popcount(hands[soloist]) <= kept:
                    result, done = tops[d, 1] == soloist, True
                else:
                    k1 = hands[soloist] | (hands[(soloist + 1) % SEATS] << np.uint64(32))
                    k2 = hands[(soloist + 3) % SEATS]
                    slot = table_slot(k1, k2, tag, entries.shape[0])
                    if entries[slot, 2] == tag and entries[slot, 0] == k1 and entries[slot, 1] == k2:
                        result, done = entries[slot, 3] == _ONE, True
                    else:
                        slots[d], keys[d, 0], keys[d, 1] = slot, k1, k2
                        leaders[d], places[d], leds[d], tops[d, 0], tops[d, 1], on_table[d] = \
                            soloist, 0, -1, 0, soloist, 0
            if not done:
                seat = _solo_seat(leaders[d], places[d], partner)
                moves[d] = _legal(hands[seat], leds[d], tops[d, 0], rule)
        else:
            seat = _solo_seat(leaders[d], places[d], partner)
            hands[seat] ^= _ONE << np.uint64(cards[d])
            done = result == (seat == soloist)
        if not done and moves[d]:
            hand = hands[seat]
            card = _highest_card(moves[d])
            bit = _ONE << np.uint64(card)
            present = hands[0] | hands[1] | hands[2] | hands[3] | on_table[d]
            lower = present & RUNS[RUN_OF[card]] & ~_above(card) & ~bit
            if rule == BS_JACK_ALWAYS and bit & JACK_BITS:  # a jack compels a later jack to overtake, the ace not
                lower &= JACK_BITS
            moves[d] &= ~bit & ~(hand & lower & ~_below_top(lower & ~hand))  # the hand's cards just below: equal
            cards[d] = card
            hands[seat] ^= bit
            place = places[d]
            wins = place == 0 or _beats(card, tops[d, 0])
            c = d + 1
            leaders[c], places[c], leds[c], on_table[c] = leaders[d], place + 1, RUN_OF[card] if place == 0 else \
                leds[d], on_table[d] | bit
            tops[c, 0], tops[c, 1] = (card, seat) if wins else (tops[d, 0], tops[d, 1])
            d = c
            entering = True
            continue
        if not done:
            result = seat != soloist  # no card worked for the soloist / every defender card failed
        if slots[d] >= 0:
            entries[slots[d], 0], entries[slots[d], 1], entries[slots[d], 2] = keys[d, 0], keys[d, 1], tag
            entries[slots[d], 3] = _ONE if result else np.uint64(0)
        if d == 0:
            return result
        d -= 1


@njit
def _solo_many(hands, trumps, soloists, leaders, rule, table, out):
    bits = np.empty(SEATS, dtype=np.uint64)
    for i in range(hands.shape[0]):
        table[1][0] += 1
        for s in range(SEATS):
            bits[s] = to_bits(hands[i, s], trumps[i]) if s != (soloists[i] + 2) % SEATS else np.uint64(0)
        out[i] = _solo_search(bits, leaders[i], soloists[i], rule, table, np.zeros(3, dtype=np.int64), 0, 0)


def solo_position_wins(hands, trump: int, soloist: int, leader: int, trick=(), rule: int = BS_OVERTAKE,
                       table=None, kept: int = 0) -> bool:
    """Whether the soloist still takes every trick from a position, all hands known: hands (4,) card masks
    of the cards still held (the partner's ignored), ``trick`` the cards of the current trick played in
    order from ``leader`` (0-3 of them; a complete trick of 3 is scored first). With ``kept`` > 0, only the
    tricks until he holds ``kept`` cards (from 8 cards, kept 5 asks for the first 3 tricks). The arguments are
    checked (CardsimError, `checked_solo_position`); `trusted_solo_position_wins` skips that."""
    hands, trump, soloist, leader, trick = checked_solo_position(hands, trump, soloist, leader, trick)
    check_rule(rule)
    kept = checks.whole(kept, "kept (the cards the soloist is to hold)", 0, TRICKS)
    return trusted_solo_position_wins(hands, trump, soloist, leader, trick, rule, checked_table(table, new_solo_table),
                                      kept)


def checked_solo_position(hands, trump, soloist, leader, trick=()) -> tuple[list[int], int, int, int, list[int]]:
    """(hands as 4 ints, the partner's 0, trump, soloist, leader, trick as card numbers) of a solo position: four
    card masks (the soloist's partner's ignored), the other three disjoint; trump 0-3; soloist and leader seats, the
    leader not the partner; ``trick`` at most 3 distinct cards 0-31 no hand holds, the seats that played to it
    (from ``leader`` on) holding one card fewer than the others; CardsimError otherwise."""
    hands = checks.hand_masks(hands, "hands", 32, SEATS, range(TRICKS + 1), equal=False, disjoint=False)
    trump = checks.whole(trump, "trump", 0, 3)
    soloist, leader = checks.whole(soloist, "soloist", 0, SEATS - 1), checks.whole(leader, "leader", 0, SEATS - 1)
    partner = (soloist + 2) % SEATS
    if leader == partner:
        raise CardsimError(f"leader must be a seat in play, not the soloist's partner (seat {partner}), who sits out")
    hands = [0 if seat == partner else int(h) for seat, h in enumerate(hands)]
    checks.card_masks(hands, "hands (the partner's ignored)", 32)
    trick = list(trick) if isinstance(trick, (list, tuple)) else None
    held = hands[0] | hands[1] | hands[2] | hands[3]
    if trick is None or len(trick) > SEATS - 1 or len(set(trick)) != len(trick) \
            or not all(is_whole_int(c) and 0 <= c < 32 and not held >> int(c) & 1 for c in trick):
        raise CardsimError(f"trick must list at most {SEATS - 1} distinct cards 0-31 that no hand holds, got {trick}")
    played = {_solo_seat(leader, place, partner) for place in range(len(trick) % (SEATS - 1))}
    sizes = [hands[seat].bit_count() + (seat in played) for seat in range(SEATS) if seat != partner]
    if len(set(sizes)) > 1:
        raise CardsimError(f"the seats in play hold {', '.join(str(h.bit_count()) for h in hands)} cards with "
                           f"{len(trick)} on the trick led by seat {leader}: each seat that has played to the trick "
                           "must hold one card fewer than the others")
    return hands, trump, soloist, leader, [int(c) for c in trick]


def trusted_solo_position_wins(hands, trump: int, soloist: int, leader: int, trick=(), rule: int = BS_OVERTAKE,
                               table=None, kept: int = 0) -> bool:
    """`solo_position_wins` without its checks, for `solo_line`, which searches positions it built itself."""
    table = new_solo_table(10) if table is None else table
    table[1][0] += 1
    partner = (soloist + 2) % SEATS
    bits = np.array([to_bits(np.uint64(int(h)), trump) if s != partner else np.uint64(0) for s, h in enumerate(hands)],
                    dtype=np.uint64)
    cards = np.zeros(3, dtype=np.int64)
    cards[:len(trick)] = [TO_BIT[trump, c] for c in trick]
    return bool(_solo_search(bits, leader, soloist, rule, table, cards, len(trick), kept))


def solo_line(hands, trump: int, soloist: int, leader: int, rule: int = BS_OVERTAKE) -> tuple[bool, int, list]:
    """(won, tricks, a line of perfect solo play as (seat, card) pairs) from a trick boundary: ``tricks`` the
    soloist takes before he loses one when both sides play perfectly (all of them when ``won``), the
    soloist holding out as long as he can and the defenders stopping him as soon as they can. At every turn
    a side chooses the first legal card, in card order, that keeps its aim (a side whose play changes
    nothing, the first legal card). Play stops at the first trick the soloist loses (§5.4). hands (4,) card
    masks (the partner's ignored)."""
    from simcore.games.bauernstoss_play import legal_mask, winning_slot

    hands, trump, soloist, leader, _ = checked_solo_position(hands, trump, soloist, leader)
    check_rule(rule)
    partner = (soloist + 2) % SEATS
    table = new_solo_table(12)
    held = hands[soloist].bit_count()

    def wins(tricks: int, rest, trick) -> bool:
        """Whether the soloist can take the first ``tricks`` tricks of the line (counted from its start; the
        current trick always counts, so in the trick he loses no card of his keeps it). ``leader`` is read
        when called: the current trick's."""
        return trusted_solo_position_wins(rest, trump, soloist, leader, trick, rule, table, held - tricks)

    tricks = 0
    while tricks < held and wins(tricks + 1, hands, []):
        tricks += 1
    line: list = []
    trick: list[int] = []
    while hands[soloist] or trick:
        seat = _solo_seat(leader, len(trick), partner)
        padded = np.array(trick + [0] * (SEATS - len(trick)), dtype=np.int64)
        legal_cards = int(legal_mask(np.uint64(hands[seat]), padded, len(trick), trump, rule))
        legal = [c for c in range(32) if legal_cards >> c & 1]
        aim = tricks if seat == soloist else tricks + 1  # the soloist keeps reaching it, the defenders not
        card = legal[0]
        if 0 < aim <= held:
            for candidate in legal:
                rest = list(hands)
                rest[seat] ^= 1 << candidate
                if wins(aim, rest, trick + [candidate]) == (seat == soloist):
                    card = candidate
                    break
        hands[seat] ^= 1 << card
        trick.append(card)
        line.append((seat, card))
        if len(trick) == SEATS - 1:
            slot = int(winning_slot(np.array(trick + [0], dtype=np.int64), SEATS - 1, trump))
            winner = [s for s, _ in line[-len(trick):]][slot]
            if winner != soloist:
                break
            leader, trick = soloist, []
    return tricks == held, tricks, line


def solo_wins(hands, trumps, soloists, leaders, rule: int = BS_OVERTAKE, table=None) -> np.ndarray:
    """Whether each solo is won (the soloist takes all 8 tricks, §4.7, §5.4) under perfect play,
    all hands known. hands (n, 4) card masks after any exchange (the partner's hand is ignored; it
    sits out); trumps, soloists, leaders (n,) int (or scalars; `bauernstoss_play.solo_leader` gives
    the leader). Returns (n,) bool."""
    hands = checked_hands(hands, equal_sizes=False, disjoint=False)
    check_rule(rule)
    n = hands.shape[0]
    out = np.empty(n, dtype=np.bool_)
    trumps, soloists = checks.column(trumps, n, "trumps", 4), checks.column(soloists, n, "soloists", SEATS)
    leaders = checks.column(leaders, n, "leaders", SEATS)
    playing = hands.copy()
    playing[np.arange(n), (soloists + 2) % SEATS] = 0  # the partner sits out: his hand is not checked
    checks.card_masks(playing, "hands", 32)
    table = checked_table(table, new_solo_table)
    _solo_many(hands, trumps, soloists, leaders, rule, new_solo_table() if table is None else table, out)
    return out
