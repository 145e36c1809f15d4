"""Perlaggen for 2, 3 and 6 players and Strafperlaggen: their deals (spec §9.2-§9.5) and L0 figure tallies.

Rules: shared/rules/perlaggen.md. The four-player deal is simcore.games.perlaggen_deal; this module
plays the same shuffle and cut (§3.2, A-31; the cutter is the dealer's right-hand neighbour, the
non-dealer with two players, A-27) with other packet schedules, trump turned in the middle of the
deal, and other exchange rights. Betting (and so the three-player answers) is not modelled here.

Seats: dealer 0, clockwise 1..n-1; seat 1 gets the first packet (A-10) and leads; the cutter is
seat n-1 and his shown Perlaggen replace his cards of the earliest packets (A-08, A-27). With six
players the teams alternate: team D = seats 0, 2, 4.

* ``schedule``: packet sizes in dealing order, 0 = turn up the trump card there (§9.2-§9.5: "2, 3,
  trump, 2" or "3, trump, 4" for 7 cards; six players "2, 2" for 4 cards, "2, 3" for 5).
* In the Eichel-dealt styles (eichel, schlanders, straf) acorns turned up are laid aside until a
  non-acorn appears (§9.1, §9.5); six players with 5 cards each may run out of cards: the deal is
  thrown in (A-28) and tallied as such.
* Exchanges (§3.5 rules E1-E5 with the exchangers of §9.2-§9.5): the dealer, and with six players
  then his partners clockwise (A-27); two players: the dealer only (A-27); three players: the dealer
  only (DEFAULT here: §9.4 is silent, Strafperlaggen §9.5 says so); Eichel-dealt styles add the
  upgrade (not in Strafperlaggen: "no upgrading") and the acorn swaps of §9.1.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simcore.config import njit
from simcore.dealing import batch_tables, deal
from simcore.errors import CardsimError
from simcore.games import perlaggen as P
from simcore.games import perlaggen_deal as D
from simcore.rng import block_words

MAX_SEATS = 6
FIELDS = tuple(f"seat{s}" for s in range(MAX_SEATS)) + ("taken", "stock", "table", "exposed", "turned", "trump",
                                                         "thrown", "swapper", "upgrades", "acorn_swaps")
(TAKEN, STOCK, TABLE, EXPOSED, TURNED, TRUMP, THROWN, SWAPPER, UPGRADES, ACORN_SWAPS) = range(MAX_SEATS, len(FIELDS))
N_FIELDS = len(FIELDS)
"""A table is one row (N_FIELDS,) uint64: the hands after the exchanges (unused seats 0), the cutter's
shown Perlaggen, the face-down stock, the face-up cards out of play, the acorns laid aside, the trump
card and suit, 1 if thrown in (no trump could be turned), the seat + 1 that took the turned Perlagg
(0: none), the number of upgrades and of acorn swaps."""

PACKETS = {"2-3-T-2": (2, 3, 0, 2), "3-T-4": (3, 0, 4), "2-2": (2, 2, 0), "2-3": (2, 3, 0)}
"""Packet schedules by name (0 = the trump card is turned there)."""
VARIANTS = {  # players: (hand size -> default schedule), the possible schedules
    2: ({7: "2-3-T-2"}, ("2-3-T-2", "3-T-4")),
    3: ({7: "2-3-T-2"}, ("2-3-T-2", "3-T-4")),
    6: ({4: "2-2", 5: "2-3"}, ("2-2", "2-3")),
}
STRAF_PACKETS = "3-T-4"
"""§9.5: Strafperlaggen deals 3 each, turns the trump, then 4 each."""


@dataclass(frozen=True)
class TableRules:
    """A 2-, 3- or 6-player deal: players, style, cards per hand, packet schedule, exchange policy."""

    players: int = 3
    style: str = "innsbruck"
    hand_size: int | None = None
    packets: str | None = None
    exchange: str = "always"
    exchange_gives: str = "keep_figures"
    straf_finish: bool = False
    """Strafperlaggen between the two players left, for places 2 and 3 (§9.5): players=2, style straf."""

    def __post_init__(self):
        if self.players not in VARIANTS:
            raise CardsimError(f"--players must be 2, 3, 4 or 6 (§9.2-§9.4), got {self.players}")
        P.trump_suits(self.style)
        if self.style == "straf" and self.players != (2 if self.straf_finish else 3):
            raise CardsimError("Strafperlaggen is a three-player game (§9.5): use --players 3")
        sizes, schedules = VARIANTS[self.players]
        size = next(iter(sizes)) if self.hand_size is None else self.hand_size
        if size not in sizes:
            raise CardsimError(f"{self.players} players hold {' or '.join(map(str, sizes))} cards (§9.2-§9.4), "
                               f"got {size}")
        if self.style == "straf" and self.packets not in (None, STRAF_PACKETS):
            raise CardsimError(f"Strafperlaggen deals {STRAF_PACKETS} (§9.5), got --packets {self.packets}")
        packets = self.packets or (STRAF_PACKETS if self.style == "straf" else sizes[size])
        if packets not in schedules or sum(PACKETS[packets]) != size:
            fits = [name for name in schedules if sum(PACKETS[name]) == size]
            raise CardsimError(f"--packets {packets} does not deal {size} cards to {self.players} players; "
                               f"choose {' or '.join(fits)}")
        D.DealRules("innsbruck", self.exchange, self.exchange_gives)  # checks the policies
        object.__setattr__(self, "hand_size", size)
        object.__setattr__(self, "packets", packets)

    def key(self) -> str:
        return (f"{self.players}p|{self.style}|{self.hand_size}|{self.packets}|exchange={self.exchange}|"
                f"gives={self.exchange_gives}")

    def exchangers(self) -> np.ndarray:
        """Seats that may exchange, in turn (§9.2-§9.5, A-27)."""
        return np.array((0, 2, 4) if self.players == 6 else (0,), dtype=np.int64)

    def kernel_args(self) -> tuple:
        """(masks, pcards, flags, tables, kinds) as DealRules.kernel_args, plus schedule (k,) int64,
        exchangers, players, hand size; flags[4] = upgrades allowed."""
        masks, pcards, flags, tables, kinds = _deal_args(self.style, self.exchange, self.exchange_gives)
        flags = np.append(flags, int(self.style in D.EICHEL_DEALS))
        return (masks, pcards, flags, tables, kinds, np.array(PACKETS[self.packets], dtype=np.int64),
                self.exchangers(), self.players, self.hand_size)


def _deal_args(style: str, exchange: str, gives: str) -> tuple:
    """DealRules.kernel_args for any style (Strafperlaggen, which DealRules refuses, is dealt like Eichel)."""
    return D.style_arrays(style, exchange, gives, style in D.EICHEL_DEALS + ("straf",)) + (
        P.HANGER_TABLES, P._ladder_kinds(True))


# --- kernels ------------------------------------------------------------------------------------
@njit
def _swap(row, seat, give, take):
    """Seat gives card ``give`` face up and takes card ``take`` from the table."""
    row[seat] = (row[seat] & ~D._bit(give)) | D._bit(take)
    row[TABLE] = (row[TABLE] & ~D._bit(take)) | D._bit(give)


@njit
def _exchange(row, masks, pcards, flags, tables, kinds, exchangers, own_seat, own_gives):
    """The exchanges of §3.5 / §9.1 with the seats ``exchangers`` in turn (module doc); ``own_seat`` gives
    the cards of its recorded swaps ``own_gives`` (perlaggen_deal._choose; -1: every card by the policy)."""
    if not flags[1] or row[THROWN]:
        return
    trump = np.int64(row[TRUMP])
    turned = np.int64(row[TURNED])
    pmask = masks[trump]
    if (pmask >> np.uint64(turned)) & np.uint64(1):
        for seat in exchangers:
            natural = row[seat] & D._suit_mask(trump) & ~pmask
            if natural:
                give = D._choose(row, seat, natural, turned, pmask, flags, tables, kinds, own_seat, own_gives)
                _swap(row, seat, give, turned)
                row[SWAPPER] = seat + 1
                break
        if flags[4] and not row[SWAPPER]:
            for seat in exchangers:
                weakest = -1
                for j in range(pcards.shape[1]):
                    card = pcards[trump, j]
                    if card != D.NO_CARD and ((row[seat] & masks[5]) >> np.uint64(card)) & np.uint64(1):
                        weakest = card
                if weakest >= 0:
                    _swap(row, seat, weakest, turned)
                    row[SWAPPER] = seat + 1
                    row[UPGRADES] += 1
                    break
    if flags[0]:
        for seat in exchangers:
            for j in range(pcards.shape[1]):
                card = pcards[trump, j]
                if card == D.NO_CARD or not ((row[TABLE] & masks[5]) >> np.uint64(card)) & np.uint64(1):
                    continue
                natural = row[seat] & D._suit_mask(D.ACORNS) & ~pmask
                if natural:
                    _swap(row, seat, D._choose(row, seat, natural, card, pmask, flags, tables, kinds, own_seat,
                                               own_gives), card)
                    row[ACORN_SWAPS] += 1


@njit
def _turn_trump(row, deck, n, cut, pos, n_pack, eichel):
    """Turn up the trump card at pack position ``pos`` (Eichel: acorns laid aside first); returns the
    next position, or -1 when the pack runs out (thrown in, A-28)."""
    while pos < n_pack:
        card = D._pack_card(deck, n, cut, pos)
        pos += 1
        if eichel and D._suit(card) == D.ACORNS:
            row[EXPOSED] |= D._bit(card)
            continue
        row[TURNED] = card
        row[TRUMP] = D._suit(card)
        row[TABLE] = row[EXPOSED] | D._bit(card)
        return pos
    return -1


@njit
def _table_procedure(deck, cut, masks, pcards, flags, tables, kinds, schedule, exchangers, players, hand, row):
    """Play a 2-, 3- or 6-player deal on a shuffled ``deck`` (33,) cut at ``cut`` into ``row`` (module doc)."""
    row[:] = 0
    n = D._drop_weli(deck) if flags[3] else D.N_CARDS
    cutter = players - 1
    i = cut - 1
    while i >= 0 and cut - 1 - i < hand and (masks[4] >> np.uint64(deck[i])) & np.uint64(1):
        row[TAKEN] |= D._bit(deck[i])
        i -= 1
    owed = cut - 1 - i
    n_pack = n - owed
    row[cutter] = row[TAKEN]
    pos = 0
    for size in schedule:
        if size == 0:
            pos = _turn_trump(row, deck, n, cut, pos, n_pack, flags[0])
            if pos < 0:
                row[THROWN] = 1
                return
            continue
        for k in range(players):
            seat = (k + 1) % players
            m = size
            if seat == cutter:
                m = max(0, size - owed)
                owed -= size - m
            for _ in range(m):
                row[seat] |= D._bit(D._pack_card(deck, n, cut, pos))
                pos += 1
    for j in range(pos, n_pack):
        row[STOCK] |= D._bit(D._pack_card(deck, n, cut, j))
    _exchange(row, masks, pcards, flags, tables, kinds, exchangers, -1, D._NO_GIVES)


@njit
def _table_block(words, masks, pcards, flags, tables, kinds, schedule, exchangers, players, hand, out):
    padded, _, thresholds = batch_tables(D.DRAW_BOUNDS)
    js = np.empty(padded.shape[0], dtype=np.int64)
    deck = np.empty(D.N_CARDS, dtype=np.int64)
    for d in range(words.shape[0]):
        cut = D._shuffle(words[d], padded, thresholds, js, deck)
        _table_procedure(deck, cut, masks, pcards, flags, tables, kinds, schedule, exchangers, players, hand, out[d])


def table_block(words: np.ndarray, rules: TableRules) -> np.ndarray:
    """Deals as played, one per row of ``words`` ((n, D.WORDS_PER_DEAL) uint32): (n, N_FIELDS) uint64."""
    out = np.empty((words.shape[0], N_FIELDS), dtype=np.uint64)
    _table_block(words, *rules.kernel_args(), out)
    return out


def table_from_order(deck, cut: int, rules: TableRules) -> np.ndarray:
    """The deal of one given pack order (tokens, top first, all 33 cards) cut at ``cut``: (N_FIELDS,)."""
    cards = np.array([P.DECK.parse_face(c) for c in deck], dtype=np.int64)
    if sorted(cards) != list(range(D.N_CARDS)) or not 1 <= cut <= D.N_CARDS:
        raise CardsimError("a pack order must list each of the 33 cards once, cut at 1..33")
    row = np.zeros(N_FIELDS, dtype=np.uint64)
    _table_procedure(cards, cut, *rules.kernel_args(), row)
    return row


# --- table statistics ----------------------------------------------------------------------------
STATS_PARTS = {
    "thrown": (1,),                     # deals thrown in (no trump card could be turned, A-28)
    "trump": (4,),                      # per trump suit index (played deals)
    "cutter_k": (8,),                   # Perlaggen the cutter took
    "turned_perlagg": (1,),             # the trump card is a Perlagg
    "swapper": (MAX_SEATS + 1,),        # none, or seat s took the turned Perlagg
    "upgrades": (1,),                   # deals with an upgrade (Eichel, §9.1 step 2)
    "acorn_swaps": (1,),                # deals with >= 1 acorn swap (§9.1 step 3)
    "perlaggen": (MAX_SEATS, 8),        # seat x Perlaggen held after the exchanges
    "best_size": (2, 8),                # figure x size of the table's best figure (0 = none)
    "seat_best": (MAX_SEATS, 2, 2),     # seat x figure x (strictly best, tied best)
    "team": (2, 4),                     # six players: figure x (team D, team O, stand, void)
}
N_STATS = 1 + sum(int(np.prod(s)) for s in STATS_PARTS.values())
_OFFSET = {}
_pos = 1
for _name, _shape in STATS_PARTS.items():
    _OFFSET[_name] = _pos
    _pos += int(np.prod(_shape))
(_THROWN, _TRUMP, _CUTTER_K, _TURNED, _SWAPPER, _UPGRADES, _ACORN, _PERLAGGEN, _BEST_SIZE, _SEAT_BEST,
 _TEAM) = _OFFSET.values()


@njit
def _seat_codes(row, masks, tables, kinds, players, codes):
    """L0 (Gleich, Hanger) codes (0 = none) of the hands of a played table ``row`` into codes (MAX_SEATS, 2)."""
    for s in range(players):
        codes[s, 0], codes[s, 1] = D._l0(row[s], masks[np.int64(row[TRUMP])], tables, kinds)


@njit
def _tally(row, masks, tables, kinds, players, codes, out):
    """Add one played table to the flat STATS_PARTS tally ``out``; codes (MAX_SEATS, 2) scratch."""
    out[0] += 1
    if row[THROWN]:
        out[_THROWN] += 1
        return
    trump = np.int64(row[TRUMP])
    pmask = masks[trump]
    out[_TRUMP + trump] += 1
    out[_CUTTER_K + D._popcount(row[TAKEN])] += 1
    out[_TURNED] += 1 if (pmask >> np.uint64(row[TURNED])) & np.uint64(1) else 0
    out[_SWAPPER + np.int64(row[SWAPPER])] += 1
    out[_UPGRADES] += row[UPGRADES] > 0
    out[_ACORN] += row[ACORN_SWAPS] > 0
    for s in range(players):
        out[_PERLAGGEN + 8 * s + D._popcount(row[s] & pmask)] += 1
    _seat_codes(row, masks, tables, kinds, players, codes)
    for f in range(2):
        top, holders, best_d, best_o = 0, 0, 0, 0
        for s in range(players):
            top = max(top, codes[s, f])
            if s % 2 == 0:
                best_d = max(best_d, codes[s, f])
            else:
                best_o = max(best_o, codes[s, f])
        out[_BEST_SIZE + 8 * f + top // 16] += 1
        for s in range(players):
            holders += codes[s, f] == top
        for s in range(players):
            if codes[s, f] == top and top > 0:
                out[_SEAT_BEST + 4 * s + 2 * f + (0 if holders == 1 else 1)] += 1
        if players == 6:
            outcome = 0 if best_d > best_o else 1 if best_o > best_d else 3 if top == 0 else 2
            out[_TEAM + 4 * f + outcome] += 1


@njit
def _stats_block(words, masks, pcards, flags, tables, kinds, schedule, exchangers, players, hand, out):
    padded, _, thresholds = batch_tables(D.DRAW_BOUNDS)
    js = np.empty(padded.shape[0], dtype=np.int64)
    deck = np.empty(D.N_CARDS, dtype=np.int64)
    row = np.zeros(N_FIELDS, dtype=np.uint64)
    codes = np.zeros((MAX_SEATS, 2), dtype=np.int64)
    for d in range(words.shape[0]):
        cut = D._shuffle(words[d], padded, thresholds, js, deck)
        _table_procedure(deck, cut, masks, pcards, flags, tables, kinds, schedule, exchangers, players, hand, row)
        _tally(row, masks, tables, kinds, players, codes, out)


class TableStatsJob:
    """Counts for the runner: the STATS_PARTS tallies of 2-, 3- or 6-player deals under ``rules`` (L0)."""

    n_counts = N_STATS

    def __init__(self, rules: TableRules):
        self.rules = rules

    def key(self) -> str:
        return f"perlaggen|table-stats|{self.rules.key()}"

    def run_block(self, seed: int, block: int, n_deals: int) -> np.ndarray:
        out = np.zeros(N_STATS, dtype=np.int64)
        _stats_block(block_words(seed, block, n_deals, D.WORDS_PER_DEAL), *self.rules.kernel_args(), out)
        return out

    @staticmethod
    def split(counts: np.ndarray) -> tuple[int, dict[str, np.ndarray]]:
        """(deals, named count arrays shaped as STATS_PARTS) from a total count vector."""
        return int(counts[0]), {name: counts[_OFFSET[name]:_OFFSET[name] + int(np.prod(shape))].reshape(shape)
                                for name, shape in STATS_PARTS.items()}


# --- odds of one hand (§11.4 at 2, 3 and 6 players) ------------------------------------------------
@njit
def _replay(slots, d, players, trump, taken, masks, pcards, flags, tables, kinds, exchangers, own_seat, own_gives,
            row):
    """Play the exchanges on the pre-exchange deal ``slots[d]`` (perlaggen_deal.Known's places at ``players``:
    seats, turned, stopper, stock) into the table ``row``; False when the sample contradicts the deal
    (perlaggen_deal._turn_up). ``taken``: the cutter's shown Perlaggen (mask)."""
    card = D._turn_up(slots[d, players], slots[d, players + 1], trump, masks, flags)
    if card < 0:
        return False
    row[:] = 0
    for s in range(players):
        row[s] = slots[d, s]
    row[TAKEN], row[TURNED], row[TRUMP], row[TABLE] = taken, card, trump, slots[d, players]
    row[EXPOSED] = slots[d, players] & ~D._bit(card)
    row[STOCK] = slots[d, players + 1] | slots[d, players + 2]
    _exchange(row, masks, pcards, flags, tables, kinds, exchangers, own_seat, own_gives)
    return True


@njit
def _odds_rows(slots, seat, trump, taken, hand, table, took, check, own_gives, conds, masks, pcards, flags, tables,
               kinds, exchangers, players, rows, keep):
    """Replay sampled pre-exchange deals into played tables rows (n, N_FIELDS); keep (n,): the deal leaves
    ``seat`` holding ``hand`` (mask), when ``check`` the face-up cards are ``table`` (mask) and every seat s
    holds the cards took (MAX_SEATS,) it was seen to take, and the L0 codes meet ``conds``
    (perlaggen_deal._meets). The seat's own swaps give the cards ``own_gives`` (64,)."""
    codes = np.zeros((MAX_SEATS, 2), dtype=np.int64)
    for d in range(slots.shape[0]):
        keep[d] = False
        if not _replay(slots, d, players, trump, taken, masks, pcards, flags, tables, kinds, exchangers, seat,
                       own_gives, rows[d]):
            continue
        if (rows[d, seat] & hand) != hand:
            continue
        if check:
            seen = rows[d, TABLE] == table
            for s in range(players):
                seen &= (rows[d, s] & took[s]) == took[s]
            if not seen:
                continue
        codes[:] = 0
        _seat_codes(rows[d], masks, tables, kinds, players, codes)
        keep[d] = D._meets(codes[:, 0], codes[:, 1], conds)


@njit
def _side_counts(rows, keep, players, side, masks, tables, kinds, least, length_only, out):
    """out (12,) += [deals, Gleich (win, stand, lose, void), Hanger (...), both gestrichen (win, lose, play on)]
    of the kept tables for the seats of ``side`` (bit mask: one seat with three players, else the team
    seat % 2) against the others: win when the side's best code is above all others', stand when equal,
    void when nobody has one. Both gestrichen (perlaggen_deal._gestrichen) with ``least`` > 0 only."""
    codes = np.zeros((MAX_SEATS, 2), dtype=np.int64)
    team = 0 if side & 1 else 1
    for d in range(rows.shape[0]):
        if not keep[d]:
            continue
        codes[:] = 0
        _seat_codes(rows[d], masks, tables, kinds, players, codes)
        out[0] += 1
        for f in range(2):
            mine, theirs = 0, 0
            for s in range(players):
                if (side >> s) & 1:
                    mine = max(mine, codes[s, f])
                else:
                    theirs = max(theirs, codes[s, f])
            outcome = 0 if mine > theirs else 2 if theirs > mine else 3 if mine == 0 else 1
            out[1 + 4 * f + outcome] += 1
        if least > 0:
            winner = D._gestrichen(codes[:, 0], codes[:, 1], players, least, length_only)
            out[9 + (2 if winner < 0 else 0 if winner == team else 1)] += 1


def side_mask(players: int, seat: int) -> int:
    """Bit mask of the seats on ``seat``'s side: himself with three players, else his team (seat % 2)."""
    return 1 << seat if players == 3 else sum(1 << s for s in range(seat % 2, players, 2))


class TableOdds:
    """One hand's question at a 2-, 3- or 6-player table: the deals of the hidden cards under the public
    facts ``known`` (perlaggen_deal.Known with ``players``, ``hand_size``; §11.4) and ``conditions`` ((k, 4)
    int64, perlaggen_deal._meets). `rows` gives the played tables of one block and which are kept."""

    def __init__(self, known: D.Known, rules: TableRules, conditions: np.ndarray = D.NO_CONDITIONS):
        self.known, self.rules = known, rules
        self.conditions = np.asarray(conditions, dtype=np.int64).reshape(-1, 4)
        self.spec = known.deal_spec(P.has_weli(rules.style))

    def key(self) -> str:
        given = f"|given={self.conditions.tolist()}" if len(self.conditions) else ""
        return f"{self.rules.key()}|{self.known.key()}{given}"

    def rows(self, seed: int, block: int, n_deals: int) -> tuple[np.ndarray, np.ndarray]:
        """(tables (n, N_FIELDS) uint64, keep (n,) bool) of one block of sampled deals."""
        known = self.known
        slots = deal(self.spec, block_words(seed, block, n_deals, self.spec.words_per_deal))
        took = np.zeros(MAX_SEATS, dtype=np.uint64)
        table = P.DECK.mask(known.exposed) | (0 if known.turned is None else 1 << known.turned)
        for seat, gave, taken in known.exchanges or ():
            took[seat] |= np.uint64(1 << taken)
            table = (table & ~(1 << taken)) | (1 << gave)
        rows = np.zeros((n_deals, N_FIELDS), dtype=np.uint64)
        keep = np.zeros(n_deals, dtype=np.bool_)
        masks, pcards, flags, tables, kinds, _, exchangers, players, _ = self.rules.kernel_args()
        _odds_rows(slots, known.seat, known.trump, np.uint64(P.DECK.mask(known.taken)),
                   np.uint64(P.DECK.mask(known.hand)), np.uint64(table), took, known.exchanges is not None,
                   known.own_gives(), self.conditions, masks, pcards, flags, tables, kinds, exchangers, players, rows,
                   keep)
        return rows, keep


class TableOddsJob:
    """Counts for the runner (`_side_counts`): [accepted deals, Gleich (win, stand, lose, void), Hanger (...),
    both gestrichen (win, lose, play on; zeros with three players)] of ``question``'s seat's side."""

    n_counts = 1 + 2 * 4 + 3

    def __init__(self, question: TableOdds):
        self.question = question

    def key(self) -> str:
        return f"perlaggen|table-odds|{self.question.key()}"

    def run_block(self, seed: int, block: int, n_deals: int) -> np.ndarray:
        q = self.question
        rows, keep = q.rows(seed, block, n_deals)
        masks, _, _, tables, kinds, *_ = q.rules.kernel_args()
        least, length_only = (0, False) if q.rules.players == 3 else D.gestrichen_args(q.rules.style)
        out = np.zeros(self.n_counts, dtype=np.int64)
        _side_counts(rows, keep, q.rules.players, side_mask(q.rules.players, q.known.seat), masks, tables, kinds,
                     least, length_only, out)
        return out
