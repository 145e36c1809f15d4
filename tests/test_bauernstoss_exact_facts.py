"""Bauernstoss §9.2 exact combinatorial facts (shared/rules/bauernstoss.md lines 680-740) not covered by
tests/test_bauernstoss_rules.py::test_exact_hand_facts, and the X-16 Small Solo exchange of a jack (line 826).

Every exact value is counted over classes of cards (hypergeometric / multinomial), never hand by hand. The classes
come from the product's own data: the pack (`bs.DECK`, `bs.HAND_SIZE`, `bs.SEATS`), the jacks (`bs.JACKS`,
`bs.CLUB_JACK`), the trump sets (`bs.EFF_MASKS[:, bs.TRUMP]`) and the card points (`bs.FACE_POINTS`,
`bs.CARD_POINTS`), so a change of the product's data shows here. Spec fractions are asserted as exact Fractions,
spec decimals to the printed number of places. Where the product estimates the same quantity by Monte Carlo (the
Q8 `jobs.SeatJob`, the auction's forced opening, the dealer `jobs.deal_hands` with the hand features
`bs.jack_count`, `bs.trump_length`, `play.card_points`), a small seeded sample's 99.9% Wilson interval must cover
the exact value."""

from collections import Counter
from fractions import Fraction
from itertools import product
from math import comb, prod, sqrt

import numpy as np
import pytest

from analysis.sections.bauernstoss import exact_jacks
from analysis.stats import wilson
from simcore import runner
from simcore.errors import CardsimError
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_jobs as jobs
from simcore.games import bauernstoss_play as play
from tests.exact import hypergeometric, is_printed
from tests.test_bauernstoss_rules import DECK, C, H, cards, mask
from tests.test_bauernstoss_seats import RUN, Z999

# --- card classes from the product's data ------------------------------------------------------------------------
N_CARDS, HAND, SEATS = DECK.n_cards, bs.HAND_SIZE, bs.SEATS
TEAM = 2 * HAND
N_JACKS = bin(bs.JACKS).count("1")
TRUMP_SETS = [int(m) for m in bs.EFF_MASKS[:, bs.TRUMP]]
N_TRUMPS = bin(TRUMP_SETS[0]).count("1")
PLAIN = [bin(m & ~bs.JACKS).count("1") for m in TRUMP_SETS]
"""Plain cards of each suit that are trumps when the suit is named (the suit without its jack)."""
POINT_CLASSES = sorted(Counter(int(v) for v in bs.FACE_POINTS).items())
"""(card points, cards with that value) over the pack."""
FOREHAND, PARTNER = jobs.FOREHAND, (jobs.FOREHAND + 2) % SEATS
SPEAKING = [(jobs.DEALER + 1 + k) % SEATS for k in range(SEATS)]
"""Seats in speaking order: forehand, 2nd, 3rd, dealer (§4.2)."""
N_MC = 4096


def test_card_classes_are_the_spec_pack():
    """§1 / §9.2: 32 cards, 4 jacks trumps in every suit, 11 trumps per suit, card points 120."""
    assert (N_CARDS, HAND, SEATS, N_JACKS, N_TRUMPS) == (32, 8, 4, 4, 11)
    assert all(m & bs.JACKS == bs.JACKS for m in TRUMP_SETS) and PLAIN == [7] * 4
    plain = [m & ~bs.JACKS for m in TRUMP_SETS]
    assert sum(plain) == (1 << N_CARDS) - 1 - bs.JACKS  # the plain trump cards partition the non-jacks
    assert bs.CLUB_JACK == cards("cB")[0] and (bs.JACKS >> bs.CLUB_JACK) & 1
    assert POINT_CLASSES == [(0, 12), (2, 4), (3, 4), (4, 4), (10, 4), (11, 4)]
    assert sum(v * k for v, k in POINT_CLASSES) == bs.CARD_POINTS == 120


# --- exact distributions -------------------------------------------------------------------------------------------
hyper = hypergeometric(N_CARDS)


def jack_splits() -> dict[tuple[int, ...], Fraction]:
    """P(jack counts (seat in speaking order) = a) for every split a of the jacks over the four hands."""
    out = {}
    for a in product(range(N_JACKS + 1), repeat=SEATS):
        if sum(a) == N_JACKS:
            out[a] = Fraction(prod(comb(HAND, x) for x in a), comb(N_CARDS, N_JACKS))
    return out


def longest_counts() -> dict[tuple[int, int, int], int]:
    """Hands by (holds cB 0/1, jacks J, max_s L(p, s)): J jacks and x_s plain trump cards of each suit s; the
    longest potential trump suit is J + max_s x_s (§4.1)."""
    out = Counter()
    for j in range(N_JACKS + 1):
        for x in product(*(range(p + 1) for p in PLAIN)):
            if sum(x) != HAND - j:
                continue
            plain = prod(comb(p, k) for p, k in zip(PLAIN, x))
            out[1, j, j + max(x)] += comb(N_JACKS - 1, j - 1) * plain if j else 0
            out[0, j, j + max(x)] += comb(N_JACKS - 1, j) * plain
    return out


def point_distribution(size: int) -> dict[int, Fraction]:
    """P(card points dealt to ``size`` cards = v): a generating function over the point classes."""
    ways = {(0, 0): 1}  # (cards, points) -> hands
    for value, count in POINT_CLASSES:
        nxt = Counter()
        for (n, pts), w in ways.items():
            for k in range(min(count, size - n) + 1):
                nxt[n + k, pts + k * value] += w * comb(count, k)
        ways = nxt
    total = comb(N_CARDS, size)
    return {pts: Fraction(w, total) for (n, pts), w in ways.items() if n == size}


SPLITS = jack_splits()
LONGEST = longest_counts()
HAND_POINTS = point_distribution(HAND)
TEAM_POINTS = point_distribution(TEAM)


def close(x, stated: float, places: int = 6) -> bool:
    """The spec's decimal ``stated``, printed with ``places`` places, is ``x`` rounded (`exact.is_printed`)."""
    return is_printed(x, f"{stated:.{places}f}")


def tail(dist: dict[int, Fraction], at: int) -> Fraction:
    return sum((p for v, p in dist.items() if v >= at), Fraction(0))


def covers(hits: int, n: int, exact, what: str) -> None:
    lo, hi = wilson(int(hits), int(n), Z999)
    assert lo <= float(exact) <= hi, f"{what}: {hits}/{n} = {hits / max(n, 1):.5f}, interval [{lo:.5f}, {hi:.5f}] " \
                                     f"misses the exact {float(exact):.6f}"


# --- §9.2 jacks (lines 684-714) --------------------------------------------------------------------------------------
SPLIT_SPEC = {(4, 0, 0, 0): Fraction(7, 899), (3, 1, 0, 0): Fraction(672, 4495), (2, 2, 0, 0): Fraction(588, 4495),
              (2, 1, 1, 0): Fraction(2688, 4495), (1, 1, 1, 1): Fraction(512, 4495)}
"""§9.2 line 690-698: how the 4 jacks split across the four hands."""
SPLIT_DECIMALS = {(4, 0, 0, 0): 0.007786, (3, 1, 0, 0): 0.149499, (2, 2, 0, 0): 0.130812, (2, 1, 1, 0): 0.597998,
                  (1, 1, 1, 1): 0.113904}


def test_jack_split_patterns():
    """§9.2 lines 684-698: P(>= 1) = 0.704505, P(>= 3) = 0.039321, P(1-3) = 0.702558, P(some hand holds all 4) =
    7/899, and the split patterns 4-0-0-0 ... 1-1-1-1 (exact Fractions and decimals)."""
    one = [hyper(k, N_JACKS, HAND) for k in range(N_JACKS + 1)]
    assert close(sum(one[1:]), 0.704505) and close(sum(one[3:]), 0.039321) and close(sum(one[1:4]), 0.702558)
    patterns = Counter()
    for a, p in SPLITS.items():
        patterns[tuple(sorted(a, reverse=True))] += p
    assert sum(patterns.values()) == 1
    assert dict(patterns) == SPLIT_SPEC
    assert all(close(patterns[k], v) for k, v in SPLIT_DECIMALS.items())
    assert patterns[4, 0, 0, 0] == SEATS * one[4] == Fraction(7, 899)  # line 688: someone holds all four
    # the report's exact jack table (analysis/sections/bauernstoss.py exact_jacks) is the same hypergeometric law
    assert np.allclose(exact_jacks()["p"], [float(p) for p in one], rtol=0, atol=1e-15)


def test_jacks_held_by_a_team():
    """§9.2 line 700: jacks among a team's 16 cards: 0: 91/1798, 1: 224/899, 2: 360/899, 3: 0.249166, 4: 0.050612."""
    team = [hyper(k, N_JACKS, TEAM) for k in range(N_JACKS + 1)]
    assert team[:3] == [Fraction(91, 1798), Fraction(224, 899), Fraction(360, 899)]
    assert all(close(p, v) for p, v in zip(team, (0.050612, 0.249166, 0.400445, 0.249166, 0.050612)))
    via_splits = Counter()  # the same law from the four hands' split: a team is seats 1 and 3 (or 0 and 2)
    for a, p in SPLITS.items():
        via_splits[a[0] + a[2]] += p
    assert [via_splits[k] for k in range(N_JACKS + 1)] == team


def test_club_jack_holder_jacks():
    """§9.2 lines 702-705: the cB holder's own jacks (1: 0.450278; 2: 1932/4495; 3: 504/4495; 4: 0.007786) and its
    team's (1: 112/899; 2: 0.400445; 3: 336/899; 4: 91/899): the other 3 jacks among the 31 other cards."""
    own = [hyper(k, N_JACKS - 1, HAND - 1, N_CARDS - 1) for k in range(N_JACKS)]
    team = [hyper(k, N_JACKS - 1, TEAM - 1, N_CARDS - 1) for k in range(N_JACKS)]
    assert own[1:3] == [Fraction(1932, 4495), Fraction(504, 4495)]
    assert all(close(p, v) for p, v in zip(own, (0.450278, 0.429811, 0.112125, 0.007786)))
    assert [team[0], team[2], team[3]] == [Fraction(112, 899), Fraction(336, 899), Fraction(91, 899)]
    assert all(close(p, v) for p, v in zip(team, (0.124583, 0.400445, 0.373749, 0.101224)))
    # Bayes from the one-hand law: P(J = k | cB) = P(J = k) k / 4
    assert own == [hyper(k + 1, N_JACKS, HAND) * (k + 1) / N_JACKS / Fraction(HAND, N_CARDS) for k in range(4)]


PARTNER_SPEC = {0: (0.171278, 0.421607, 0.316206, 0.084321, 0.006588), 1: (0.276680, 0.474308, 0.221344, 0.027668),
                2: (0.434783, 0.463768, 0.101449), 3: (0.666667, 0.333333)}
"""§9.2 lines 707-714: P(partner holds k jacks | I hold j)."""


def partner_given(j: int) -> list[Fraction]:
    """The 24 unseen cards hold 4 - j jacks; the partner gets 8 of them."""
    return [hyper(k, N_JACKS - j, HAND, N_CARDS - HAND) for k in range(N_JACKS - j + 1)]


def test_partner_jacks_given_mine():
    """§9.2 lines 707-714: the partner's jacks given mine (table), also as a ratio of the split law."""
    for j, row in PARTNER_SPEC.items():
        exact = partner_given(j)
        assert len(exact) == len(row) and all(close(p, v) for p, v in zip(exact, row)), j
        mine = sum(p for a, p in SPLITS.items() if a[0] == j)
        assert exact == [sum(p for a, p in SPLITS.items() if a[0] == j and a[2] == k) / mine for k in range(len(row))]


FORCED_SPEC = {"forehand": 0.702558, "2nd": 0.242937, "3rd": 0.046719, "dealer": 0.0, "none": 0.007786}
"""§9.2 line 716: the forced opener (first in speaking order with 1-3 jacks)."""
ROLES = ("forehand", "2nd", "3rd", "dealer")


def forced_role(hands: list[int]) -> str:
    """Who the product's auction forces to open (§4.4, BS): everyone passes while passing is legal; the first seat
    refused a pass is the forced opener; 'none' when all four may pass (a 4-jack hand is then thrown in, §4.11)."""
    auction = bs.Auction(hands, jobs.DEALER, False, bs.rule_options())
    while not auction.done:
        seat = auction.to_speak
        if bs.Call(bs.PASS) not in auction.legal_calls():
            assert auction.illegal(bs.Call(bs.PASS)) is not None
            return ROLES[SPEAKING.index(seat)]
        auction.call(bs.Call(bs.PASS))
    assert auction.contract().kind == bs.THROW_IN
    return "none"


def deal_with_jacks(counts: tuple[int, ...]) -> list[int]:
    """A deal whose seats in speaking order hold ``counts`` jacks (cB first), the rest filled with plain cards."""
    jacks = [c for c in range(N_CARDS) if (bs.JACKS >> c) & 1]
    plain = [c for c in range(N_CARDS) if not (bs.JACKS >> c) & 1]
    hands = [0] * SEATS
    for seat, k in zip(SPEAKING, counts):
        held = jacks[:k] + plain[:HAND - k]
        jacks, plain = jacks[k:], plain[HAND - k:]
        hands[seat] = DECK.mask(held)
    return hands


def test_forced_opener_distribution():
    """§9.2 line 716: forehand 0.702558, 2nd 0.242937, 3rd 0.046719, dealer 0 (impossible), none 0.007786 (= 7/899,
    the 4-jack case). Exact over the jack splits, with the product's auction deciding who is forced in each split."""
    exact = Counter()
    for a, p in SPLITS.items():
        first = next((ROLES[i] for i, x in enumerate(a) if 1 <= x <= 3), "none")
        assert forced_role(deal_with_jacks(a)) == first, a  # the product's §4.4 rule on this split
        exact[first] += p
    assert sum(exact.values()) == 1 and exact["dealer"] == 0 and exact["none"] == Fraction(7, 899)
    assert exact["forehand"] == sum(hyper(k, N_JACKS, HAND) for k in (1, 2, 3))
    assert all(close(exact[k], v) for k, v in FORCED_SPEC.items()), {k: float(v) for k, v in exact.items()}


def test_forced_opener_by_the_auction_covers_the_exact_values():
    """§9.2 line 716 by Monte Carlo: the product's auction (`bs.Auction`, §4.4) on the product's deals
    (`jobs.deal_hands`), N_MC deals; the dealer is never forced."""
    hands = jobs.deal_hands(9216, 0, N_MC)
    roles = Counter(forced_role([int(h) for h in deal]) for deal in hands)
    assert roles["dealer"] == 0
    exact = Counter()
    for a, p in SPLITS.items():
        exact[next((ROLES[i] for i, x in enumerate(a) if 1 <= x <= 3), "none")] += p
    for role in ("forehand", "2nd", "3rd", "none"):
        covers(roles[role], N_MC, exact[role], f"forced opener {role}")


# --- §9.2 longest potential trump suit (lines 718-730) ---------------------------------------------------------------
LONGEST_ROWS = {  # lengths 2..8 and the mean (4 places)
    "bidders": ((0, 0.140361, 0.525242, 0.281651, 0.049333, 0.003342, 0.000070), 4.2503),
    "all": ((0.018490, 0.285466, 0.447975, 0.208726, 0.036644, 0.002635, 0.000063), None),
}
MEANS = (3.2823, 3.9696, 4.6452, 5.3615, 6.0400)
"""§9.2 lines 722-726: the mean column per jack count."""


def longest_law(keep) -> list[Fraction]:
    """P(max_s L = 0..8) over the hands whose (cB, J) pass ``keep``."""
    counts = [sum(w for (c, j, length), w in LONGEST.items() if length == m and keep(c, j)) for m in range(HAND + 1)]
    return [Fraction(w, sum(counts)) for w in counts]


def mean_of(law: list[Fraction]) -> Fraction:
    return sum(m * p for m, p in enumerate(law))


def test_longest_trump_rows_means_and_club_jack_tails():
    """§9.2 lines 718-730: the 'bidders' (1-3 jacks) and 'all hands' rows, the mean column, and for cB holders
    P(>= 6 | cB) = 0.086384, P(>= 7 | cB) = 0.006891; the class counts equal the product's hand-by-hand
    enumeration (`bs.longest_trump_table`)."""
    table = bs.longest_trump_table()
    for (c, j, length), w in LONGEST.items():
        assert table[c, j, length] == w, (c, j, length)
    assert table.sum() == sum(LONGEST.values()) == comb(N_CARDS, HAND)
    for j, mean in enumerate(MEANS):
        assert close(mean_of(longest_law(lambda c, jj: jj == j)), mean, 4), j
    bidders, mean = LONGEST_ROWS["bidders"]
    law = longest_law(lambda c, j: 1 <= j <= 3)
    assert all(close(p, v) for p, v in zip(law[2:], bidders)) and sum(law[:2]) == 0
    assert close(mean_of(law), mean, 4)
    law = longest_law(lambda c, j: True)
    assert all(close(p, v) for p, v in zip(law[2:], LONGEST_ROWS["all"][0])) and sum(law[:2]) == 0
    club = longest_law(lambda c, j: c == 1)
    assert close(sum(club[6:]), 0.086384) and close(sum(club[7:]), 0.006891)
    assert close(sum(club[6:]), 0.079493 + 0.006708 + 0.000183)  # the tail agrees with the printed cB row


def test_trumps_held_for_a_fixed_suit():
    """§9.2 line 734: trumps held for a fixed trump suit (11 among 32, 8 cards): 0: 0.019346 ... 8: 0.000016,
    mean 2.75."""
    law = [hyper(k, N_TRUMPS, HAND) for k in range(HAND + 1)]
    spec = (0.019346, 0.121605, 0.283745, 0.319214, 0.187773, 0.058418, 0.009224, 0.000659, 0.000016)
    assert all(close(p, v) for p, v in zip(law, spec))
    assert mean_of(law) == Fraction(11, 4)


def test_top_jacks_together():
    """§9.2 line 736: P(cB and sB) = 7/124 = 0.056452; P(cB, sB and hB) = 0.011290 (exactly 7/620)."""
    two, three = (Fraction(comb(N_CARDS - k, HAND - k), comb(N_CARDS, HAND)) for k in (2, 3))
    assert two == Fraction(7, 124) and close(two, 0.056452)
    assert three == Fraction(7, 620) and close(three, 0.011290)


# --- §9.2 card points dealt (lines 738-740) --------------------------------------------------------------------------
def test_card_points_dealt_to_one_hand():
    """§9.2 line 738: mean 30, SD 10.3175, min 0, max 84, P(>= 20 / 30 / 40 / 42 / 50 / 61)."""
    dist = HAND_POINTS
    assert sum(dist.values()) == 1
    mean = sum(v * p for v, p in dist.items())
    var = sum(v * v * p for v, p in dist.items()) - mean ** 2
    assert mean == 30 and close(sqrt(var), 10.3175, 4)
    # the finite-population variance formula agrees: n sigma^2 (N - n) / (N - 1)
    values = [int(v) for v in bs.FACE_POINTS]
    sigma2 = Fraction(sum(v * v for v in values), N_CARDS) - Fraction(sum(values), N_CARDS) ** 2
    assert var == HAND * sigma2 * (N_CARDS - HAND) / (N_CARDS - 1)
    assert min(dist) == 0 and max(dist) == 84
    for at, stated in ((20, 0.840095), (30, 0.508898), (40, 0.181987), (42, 0.133621), (50, 0.033583),
                       (61, 0.001895)):
        assert close(tail(dist, at), stated), at


def test_card_points_dealt_to_one_team():
    """§9.2 line 740: P(>= 42) = 0.938423, P(>= 61) = 0.482753, P(= 60) = 0.034495, P(>= 79) = 0.061577."""
    dist = TEAM_POINTS
    assert sum(dist.values()) == 1 and sum(v * p for v, p in dist.items()) == 60
    assert close(tail(dist, 42), 0.938423) and close(tail(dist, 61), 0.482753)
    assert close(dist[60], 0.034495) and close(tail(dist, 79), 0.061577)
    assert tail(dist, 79) == 1 - tail(dist, 42)  # the other team holds the rest of the 120


# --- Monte-Carlo estimates of the product against the exact values ---------------------------------------------------
def test_seat_job_jack_masks_cover_the_exact_values():
    """§9.2 lines 684-705, 736 against the product's Q8 job (`jobs.SeatJob`, every seat's jack mask, random play):
    forehand's jack count, cB+sB and cB+sB+hB, the cB holder's own jacks, and the throw-in rate 7/899 (B0: a
    4-jack holder passes, §4.11)."""
    parts = jobs.SeatJob.unpack(runner.run(jobs.SeatJob("random"), N_MC, 4242, **RUN))
    deals = parts["jacks"][FOREHAND, :, jobs.SEAT_JACK_STATS.index("deals")]  # by jack mask, bit s = suit s
    assert deals.sum() == parts["deals"] == N_MC
    count = [bin(m).count("1") for m in range(jobs.JACK_MASKS)]
    for k in range(N_JACKS + 1):
        covers(sum(deals[m] for m in range(16) if count[m] == k), N_MC, hyper(k, N_JACKS, HAND), f"{k} jacks")
    two, three = (Fraction(comb(N_CARDS - k, HAND - k), comb(N_CARDS, HAND)) for k in (2, 3))
    covers(sum(deals[m] for m in range(16) if m & 0b11 == 0b11), N_MC, two, "cB and sB")
    covers(sum(deals[m] for m in range(16) if m & 0b111 == 0b111), N_MC, three, "cB, sB and hB")
    club = [m for m in range(16) if m & 1]
    held = sum(deals[m] for m in club)
    covers(held, N_MC, Fraction(HAND, N_CARDS), "holds cB")
    for k in range(1, N_JACKS + 1):
        covers(sum(deals[m] for m in club if count[m] == k), held, hyper(k - 1, N_JACKS - 1, HAND - 1, N_CARDS - 1),
               f"cB holder holds {k} jacks")
    covers(parts["throw_ins"], N_MC, SPLIT_SPEC[4, 0, 0, 0], "throw-ins")


def test_dealt_hands_cover_the_exact_values():
    """§9.2 lines 690-740 against N_MC of the product's deals (`jobs.deal_hands`) measured by the product's hand
    features (`bs.jack_count`, `bs.trump_length`, `play.card_points`): split patterns, team jacks, the cB team's
    jacks, partner's jacks given forehand's, the longest trump suit, trumps of a fixed suit (hearts), card points
    dealt to forehand and to its team."""
    hands = jobs.deal_hands(5150, 0, N_MC)
    jacks = np.array([[bs.jack_count(int(h)) for h in deal] for deal in hands])
    patterns = Counter(tuple(sorted(row, reverse=True)) for row in jacks)
    for pattern, exact in SPLIT_SPEC.items():
        covers(patterns[pattern], N_MC, exact, f"split {pattern}")
    team = jacks[:, FOREHAND] + jacks[:, PARTNER]
    for k in range(N_JACKS + 1):
        covers((team == k).sum(), N_MC, hyper(k, N_JACKS, TEAM), f"team holds {k} jacks")
    club_seat = np.array([next(s for s in range(SEATS) if (int(d[s]) >> bs.CLUB_JACK) & 1) for d in hands])
    club_team = jacks[np.arange(N_MC), club_seat] + jacks[np.arange(N_MC), (club_seat + 2) % SEATS]
    for k in range(1, N_JACKS + 1):
        covers((club_team == k).sum(), N_MC, hyper(k - 1, N_JACKS - 1, TEAM - 1, N_CARDS - 1), f"cB team {k} jacks")
    for j, row in PARTNER_SPEC.items():
        mine = jacks[:, FOREHAND] == j
        for k, exact in enumerate(partner_given(j)):
            covers((mine & (jacks[:, PARTNER] == k)).sum(), mine.sum(), exact, f"partner {k} given {j}")
    own = [int(d[FOREHAND]) for d in hands]
    longest = Counter(max(bs.trump_length(h, s) for s in range(4)) for h in own)
    for m, exact in enumerate(longest_law(lambda c, j: True)):
        covers(longest[m], N_MC, exact, f"longest trump suit {m}")
    hearts = Counter(bs.trump_length(h, H) for h in own)
    for k in range(HAND + 1):
        covers(hearts[k], N_MC, hyper(k, N_TRUMPS, HAND), f"{k} trumps (hearts)")
    points = np.array([int(play.card_points(np.uint32(h))) for h in own])
    for at in (20, 30, 40, 42, 50, 61):
        covers((points >= at).sum(), N_MC, tail(HAND_POINTS, at), f"hand points >= {at}")
    pair = np.array([int(play.card_points(np.uint32(int(d[FOREHAND]) | int(d[PARTNER])))) for d in hands])
    for at in (42, 61, 79):
        covers((pair >= at).sum(), N_MC, tail(TEAM_POINTS, at), f"team points >= {at}")
    covers((pair == 60).sum(), N_MC, TEAM_POINTS[60], "team points = 60")


# --- a jack passed in the Small Solo exchange (§5.4 line 354, §8 A11 line 635, §10 line 826) -----------------
def test_x16_small_solo_passes_a_jack():
    """X-16 (line 826): S passes the heart jack to P'. The jack goes to P' (face up, §5.4 line 354: "a jack must be
    passed face up"), and P' returns one of its ORIGINAL 8 cards: by the A11 baseline its highest original trump,
    the dB, even though the hB it has just received (and seen) is now its highest trump; returning the hB is
    refused. P' then sits out with the hB, which is never played in the solo. (The product keeps no record of which
    cards are face up, so the public view of the jack itself cannot be asserted; see the report.)"""
    hands = [mask("cB hB cA cT cK cD c9 h7"), mask("sB c8 h8 h9 hD hK s7 s8"),
             mask("dB c7 hA hT sA sK sD sT"), mask("s9 d7 d8 d9 dD dK dT dA")]
    heart_jack = cards("hB")[0]
    new = play.small_solo_exchange(hands, 0, C, heart_jack)
    assert new[0] == mask("cB dB cA cT cK cD c9 h7")
    assert new[2] == mask("hB c7 hA hT sA sK sD sT")
    assert new[1] == hands[1] and new[3] == hands[3]
    assert bs.jack_count(new[0]) == 2 and (new[2] >> heart_jack) & 1  # the passed jack stays with P'
    with pytest.raises(CardsimError, match="original hand"):  # P' may not send the received jack back
        play.small_solo_exchange(hands, 0, C, heart_jack, back=heart_jack)
    line = play.play_line("greedy", new, C, play.solo_leader(0, 0), soloist=0)
    assert heart_jack not in line and not set(line) & set(DECK.cards_of(new[2]))  # P' sits out (§5.4)
