"""The Perlaggen deal as played, in plain Python, written from the spec (§3.7, §3.5, §9.1).

Cards are tokens (``HK``, ``S6``, ``L10``); a pack is a list, index 0 = top. `deal(words)` decodes
the same random words as the kernel (a Fisher-Yates shuffle of the 33 cards in index order, then
the cut depth) with `naive.batch`; `play(deck, cut)` is the reference procedure of §3.7 with the
exchanges of §3.5 and the Eichel sequence of §9.1 under the always-exchange policy (A-07).
"""

from __future__ import annotations

import naive
import naive_perlaggen as nf

SUITS = nf.SUITS
LADDER = nf.LADDER
CARDS = tuple(s + r for s in SUITS for r in LADDER) + ("S6",)  # card index order of the toolkit
PERMANENT = {"innsbruck": ("HK", "S6", "S7", "E7"), "eichel": ("HK", "S6", "E7", "EU", "EO"),
             "schlanders": ("HK", "S8", "E7", "EO", "EU"),                      # §9.6, A-04
             "schlanders_e8": ("HK", "E8", "E7", "EO", "EU"),                   # §9.6 as the seed S1 reads it
             "deutschnofen": ("S6", "HK", "SK", "H7", "S7", "L7", "E7")}        # §9.6
ACORN_PERLAGGEN = {"eichel": ("E7", "EU", "EO"), "schlanders": ("E7", "EO", "EU"),
                   "schlanders_e8": ("E8", "E7", "EO", "EU")}  # precedence order
"""The styles dealt as Eichelperlaggen (§9.1: acorns laid aside, upgrades, acorn swaps), Schlanders being
an Eichel club; their acorn Perlaggen, highest first."""
HAND = 5
SHUFFLE_BATCHES = 11  # 33 draws with bounds 33, 32, ..., 1
CUT_MIN, CUT_MAX = 5, 28


def suit(card: str) -> str:
    return card[0]


def l0(hand, style: str, trump: str) -> tuple[int, int]:
    """(best Gleich, best Hanger) with every Perlagg free for each figure (§5.4, §6.4 as written)."""
    wild = nf.PERLAGGEN[(style, trump)]
    naturals = [c for c in hand if c not in wild]
    w = len(hand) - len(naturals)
    gleich = 0
    for rank in LADDER:
        n = sum(1 for c in naturals if c[1:] == rank)
        if n + w >= 2:
            gleich = max(gleich, 16 * (n + w) + nf.STRENGTH["E" + rank])
    hanger = 0
    for s in SUITS:
        held = {nf.STRENGTH[c] for c in naturals if suit(c) == s}
        for length in range(2, len(hand) + 1):
            for top in range(length, 9):
                missing = sum(1 for st in range(top - length + 1, top + 1) if st not in held)
                if missing <= w:
                    hanger = max(hanger, 16 * length + top)
    return gleich, hanger


def give(hand, candidates, perlagg: str, style: str, trump: str, keep_figures: bool = True) -> str:
    """The natural card given up for ``perlagg``: A-07, lowest card keeping the best (Gleich, Hanger)."""
    ordered = sorted(candidates, key=lambda c: nf.STRENGTH[c])
    if not keep_figures:
        return ordered[0]
    after = {c: l0([x for x in hand if x != c] + [perlagg], style, trump) for c in ordered}
    best = max(after.values())
    return next(c for c in ordered if after[c] == best)


def play(deck, cut: int, style: str = "innsbruck", exchange: bool = True, keep_figures: bool = True) -> dict:
    """The deal of §3.7 from a pack order ``deck`` (tokens, top first) cut at ``cut``.

    Returns hands (seat -> list, seat 0 dealer, 3 cutter), taken, stopper, stock (set), exposed
    (acorns laid aside), turned, trump, table (face-up set), gave/took (seat -> set) for seats 0, 2.
    """
    if style.startswith("schlanders"):  # 32 cards: the Weli is not played (§9.6)
        deck = [c for c in deck if c != "S6"]
    taken, i = [], cut - 1
    while i >= 0 and len(taken) < HAND and deck[i] in PERMANENT[style]:
        taken.append(deck[i])
        i -= 1
    k = len(taken)
    pack = deck[cut:] + deck[:cut - k]
    hands = {seat: [] for seat in range(4)}
    hands[3] = list(taken)
    pos = 0
    for rnd, n in ((0, 2), (1, 3)):
        for seat in (1, 2, 3, 0):
            m = n if seat != 3 else (max(0, 2 - k) if rnd == 0 else 3 - max(0, k - 2))
            hands[seat] += pack[pos:pos + m]
            pos += m
    exposed = []
    turned = pack[pos]
    pos += 1
    while style in ACORN_PERLAGGEN and suit(turned) == "E":
        exposed.append(turned)
        turned = pack[pos]
        pos += 1
    trump = suit(turned)
    deal = {"hands": hands, "taken": taken, "stopper": pack[-1], "stock": set(pack[pos:]), "exposed": exposed,
            "turned": turned, "trump": trump, "table": set(exposed) | {turned}, "gave": {0: set(), 2: set()},
            "took": {0: set(), 2: set()}}
    if exchange:
        _exchange(deal, style, keep_figures)
    return deal


def _swap(deal, seat: int, given: str, taken: str) -> None:
    hand = deal["hands"][seat]
    hand.remove(given)
    hand.append(taken)
    deal["table"].discard(taken)
    deal["table"].add(given)
    deal["gave"][seat].add(given)
    deal["took"][seat].add(taken)


def _exchange(deal, style: str, keep_figures: bool) -> None:
    """§3.5 E1-E5 and, in Eichel, the upgrade and the acorn swaps of §9.1."""
    trump, turned = deal["trump"], deal["turned"]
    wild = nf.PERLAGGEN[(style, trump)]
    naturals = {seat: [c for c in deal["hands"][seat] if c not in wild] for seat in (0, 2)}
    if turned in wild:
        for seat in (0, 2):  # E1, E2: the partner only if the dealer has no natural trump
            trumps = [c for c in naturals[seat] if suit(c) == trump]
            if trumps:
                _swap(deal, seat, give(deal["hands"][seat], trumps, turned, style, trump, keep_figures), turned)
                break
        if style in ACORN_PERLAGGEN and turned in deal["table"]:  # step 2: upgrade with the weakest acorn Perlagg
            for seat in (0, 2):
                mine = [c for c in ACORN_PERLAGGEN[style] if c in deal["hands"][seat]]
                if mine:
                    _swap(deal, seat, mine[-1], turned)
                    break
    if style in ACORN_PERLAGGEN:  # step 3: natural acorns for face-up acorn Perlaggen, dealer first
        for seat in (0, 2):
            for card in ACORN_PERLAGGEN[style]:
                acorns = [c for c in deal["hands"][seat] if suit(c) == "E" and c not in wild]
                if card in deal["table"] and acorns:
                    _swap(deal, seat, give(deal["hands"][seat], acorns, card, style, trump, keep_figures), card)


def shuffled(words) -> tuple[list[str], int]:
    """(pack order, cut depth) of one row of random words: a Fisher-Yates shuffle of the 33 cards in
    index order, then the cut depth (A-31), decoded with `naive.batch` like the kernels."""
    deck = list(CARDS)
    spare = SHUFFLE_BATCHES + 1
    for b in range(SHUFFLE_BATCHES):
        draws, spare = naive.batch(words, b, spare, len(CARDS) - 3 * b, 3)
        for t, j in enumerate(draws):
            i = 3 * b + t
            deck[i], deck[i + j] = deck[i + j], deck[i]
    (c,), spare = naive.batch(words, SHUFFLE_BATCHES, spare, CUT_MAX - CUT_MIN + 1, 1)
    return deck, CUT_MIN + c


def deal(words, style: str = "innsbruck", exchange: bool = True, keep_figures: bool = True) -> dict:
    """One deal from one row of random words (the kernel's WORDS_PER_DEAL words)."""
    return play(*shuffled(words), style, exchange, keep_figures)


# --- 2, 3 and 6 players, Strafperlaggen (§9.2-§9.5) --------------------------------------------------
STRAF_PERMANENT = ("HK", "S6", "S7", "E7", "EU", "EO")  # the Strafperlaggen wild cards that ignore the trump


def play_table(deck, cut: int, players: int, style: str, schedule, exchange: bool = True,
               keep_figures: bool = True) -> dict:
    """A 2-, 3- or 6-player deal from a pack order (tokens, top first) cut at ``cut``.

    schedule: packet sizes, 0 = turn the trump card there. Seat 1 gets the first packet, seat
    players-1 cuts and his shown Perlaggen replace his earliest cards; Eichel-dealt styles (Eichel,
    Schlanders, Strafperlaggen) lay acorns aside; no trump card left = thrown in. Exchangers: the
    dealer, with six players then seats 2 and 4; upgrades only in Eichel and Schlanders.
    """
    if style.startswith("schlanders"):
        deck = [c for c in deck if c != "S6"]
    permanent = STRAF_PERMANENT if style == "straf" else PERMANENT[style]
    hand = sum(schedule)
    taken, i = [], cut - 1
    while i >= 0 and len(taken) < hand and deck[i] in permanent:
        taken.append(deck[i])
        i -= 1
    pack = deck[cut:] + deck[:cut - len(taken)]
    cutter = players - 1
    hands = {seat: [] for seat in range(players)}
    hands[cutter] = list(taken)
    owed, pos = len(taken), 0
    table = {"hands": hands, "taken": taken, "exposed": [], "thrown": False, "swapper": None, "upgrades": 0,
             "acorn_swaps": 0}
    eichel = style in ("eichel", "schlanders", "schlanders_e8", "straf")
    for size in schedule:
        if size == 0:
            while pos < len(pack) and eichel and suit(pack[pos]) == "E":
                table["exposed"].append(pack[pos])
                pos += 1
            if pos == len(pack):
                table["thrown"] = True
                return table
            table["turned"] = pack[pos]
            table["trump"] = suit(pack[pos])
            pos += 1
            continue
        for k in range(players):
            seat = (k + 1) % players
            m = size
            if seat == cutter:
                m = max(0, size - owed)
                owed -= size - m
            hands[seat] += pack[pos:pos + m]
            pos += m
    table["stock"] = set(pack[pos:])
    table["table"] = set(table["exposed"]) | {table["turned"]}
    if exchange:
        _exchange_table(table, style, (0, 2, 4) if players == 6 else (0,), keep_figures)
    return table


def _exchange_table(table, style: str, exchangers, keep_figures: bool) -> None:
    """§3.5 with the given exchangers in turn; Eichel-dealt styles: upgrade (not Strafperlaggen), acorn swaps."""
    trump, turned, hands = table["trump"], table["turned"], table["hands"]
    wild = nf.PERLAGGEN[(style, trump)]

    def swap(seat, given, took):
        hands[seat].remove(given)
        hands[seat].append(took)
        table["table"].discard(took)
        table["table"].add(given)

    if turned in wild:
        for seat in exchangers:
            trumps = [c for c in hands[seat] if suit(c) == trump and c not in wild]
            if trumps:
                swap(seat, give(hands[seat], trumps, turned, style, trump, keep_figures), turned)
                table["swapper"] = seat
                break
        if style in ACORN_PERLAGGEN and table["swapper"] is None:
            for seat in exchangers:
                mine = [c for c in ACORN_PERLAGGEN[style] if c in hands[seat]]
                if mine:
                    swap(seat, mine[-1], turned)
                    table["swapper"] = seat
                    table["upgrades"] += 1
                    break
    if style in ("eichel", "schlanders", "schlanders_e8", "straf"):
        order = [c for c in wild if suit(c) == "E"]  # the acorn Perlaggen (acorns are never trump here)
        for seat in exchangers:
            for card in order:
                acorns = [c for c in hands[seat] if suit(c) == "E" and c not in wild]
                if card in table["table"] and acorns:
                    swap(seat, give(hands[seat], acorns, card, style, trump, keep_figures), card)
                    table["acorn_swaps"] += 1


def deal_table(words, players: int, style: str, schedule, exchange: bool = True, keep_figures: bool = True) -> dict:
    """One 2-, 3- or 6-player deal from one row of random words (decoded as in `deal`)."""
    return play_table(*shuffled(words), players, style, schedule, exchange, keep_figures)
