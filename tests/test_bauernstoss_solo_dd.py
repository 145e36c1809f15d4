"""The Bauernstoss solo solver (`bauernstoss_solve.solo_wins`, spec §4.7, §5.4: the soloist must take
all 8 tricks against the two defenders, its partner sitting out) against the plain AND-OR minimax of
tests/naive_bauernstoss.py, and its use by the odds and thresholds jobs."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_play as play
from simcore.games import bauernstoss_jobs as jobs
from simcore.games import bauernstoss_solve as sv
from simcore.games.bauernstoss_jobs import deal_hands

import naive_bauernstoss as naive

RULES = {play.BS_OVERTAKE: "BS", play.BS_JACK_ALWAYS: "BS:always_overrides_follow", play.BS_NO_JACK: "BS:off",
         play.AS_BEAT_TRUMP: "AS", play.DS_FOLLOW: "DS"}


def _mask(cards) -> int:
    return sum(1 << c for c in cards)


def _solo_ending(pack, k: int, soloist: int, lead_place: int) -> tuple[list, int]:
    """(card lists of the four seats, the partner's empty, leader): ``k`` cards of ``pack`` to each of
    the soloist and the two defenders; the leader is the active player at ``lead_place`` (0-2)."""
    active = [s for s in range(4) if s != (soloist + 2) % 4]
    hands = [[] for _ in range(4)]
    for i, seat in enumerate(active):
        hands[seat] = sorted(pack[i * k:(i + 1) * k])
    return hands, active[lead_place]


@settings(max_examples=150, deadline=None)
@given(st.permutations(range(32)), st.integers(1, 4), st.integers(0, 3), st.integers(0, 3), st.integers(0, 2),
       st.sampled_from(sorted(RULES)))
def test_solo_solver_matches_minimax_on_endings(pack, k, trump, soloist, lead_place, rule):
    """§5.4 endings of 1-4 tricks, any leader among the three players, every play rule: the solver's
    verdict equals the plain minimax's."""
    hands, leader = _solo_ending(pack, k, soloist, lead_place)
    expected = naive.solo_won(hands, trump, leader, soloist, (), RULES[rule])
    got = sv.solo_wins(np.array([[_mask(h) for h in hands]]), trump, soloist, leader, rule, sv.new_solo_table(8))
    assert bool(got[0]) == expected


def _played(hands, trump, leader, soloist, line, tricks):
    """(card lists of the four seats, next leader) after the first ``tricks`` tricks of a solo ``line``."""
    cur = [bs.DECK.cards_of(int(h)) for h in hands]
    cur[(soloist + 2) % 4] = []
    for t in range(tricks):
        seats = [s for s in ((leader + k) % 4 for k in range(4)) if s != (soloist + 2) % 4]
        trick = line[3 * t:3 * t + 3]
        for seat, card in zip(seats, trick):
            cur[seat].remove(card)
        leader = seats[naive.winner(trick, trump)]
    return cur, leader


def test_solo_solver_matches_minimax_in_played_solos():
    """Full deals where the club-jack holder plays a solo in its best suit (§5.4 leader): after the
    first four tricks of the greedy line, when the soloist has won them all, the solver's verdict
    on the 4-trick rest equals the plain minimax's."""
    hands = deal_hands(11, 0, 600)
    checked = 0
    for row in hands:
        soloist = next(s for s in range(4) if (int(row[s]) >> bs.CLUB_JACK) & 1)
        trump = bs.best_suit(int(row[soloist]))
        if bs.trump_length(int(row[soloist]), trump) < 5:
            continue
        leader = play.solo_leader(0, soloist)
        line = play.play_line("greedy", row, trump, leader, soloist=soloist)
        if len(line) < 12:
            continue
        cur, lead = _played(row, trump, leader, soloist, line, 4)
        if lead != soloist:
            continue
        expected = naive.solo_won(cur, trump, lead, soloist)
        got = sv.solo_wins(np.array([[_mask(h) for h in cur]]), trump, soloist, lead)[0]
        assert bool(got) == expected
        checked += 1
        if checked == 12:
            break
    assert checked == 12


def test_solo_with_the_eight_top_trumps_always_wins():
    """The four jacks and trump A 10 K D win every trick whoever leads; seven plain cards to a single
    jack cannot (§1.2 order)."""
    strong = bs.DECK.mask(bs.DECK.parse_cards("cB sB hB dB hA hT hK hD"))
    rest = [c for c in range(32) if not (strong >> c) & 1]
    deals = []
    for shift in range(6):
        cards = rest[shift:] + rest[:shift]
        deals.append([strong, _mask(cards[:8]), _mask(cards[8:16]), _mask(cards[16:])])
    for leader in (0, 1, 3):  # seat 2, the partner, sits out
        assert sv.solo_wins(np.array(deals), 2, 0, leader).all()
    weak = bs.DECK.mask(bs.DECK.parse_cards("cB c7 c8 c9 s7 s8 s9 d7"))
    others = [c for c in range(32) if not (weak >> c) & 1]
    deal = [[weak, _mask(others[:8]), _mask(others[8:16]), _mask(others[16:])]]
    assert not sv.solo_wins(np.array(deal), 2, 0, 1)[0]


def test_small_solo_takes_the_best_exchange():
    """§5.4 under double dummy: a Small Solo is won when some card passed and some card of the
    partner's original eight returned (`play.small_solo_exchange`) give a won solo."""
    hands = deal_hands(5, 0, 6)
    for row in hands:
        soloist, trump = 1, bs.best_suit(int(row[1]))
        leader = play.solo_leader(0, soloist)
        expected = any(sv.solo_wins(np.array([play.small_solo_exchange(row, soloist, trump, give, back)]), trump,
                                    soloist, leader)[0]
                       for give in bs.DECK.cards_of(int(row[soloist])) for back in bs.DECK.cards_of(int(row[3])))
        got = jobs.dd_solo_won(row[None, :], bs.SMALL_SOLO, trump, soloist, leader)[0]
        assert bool(got) == expected


def test_odds_solves_solos_double_dummy():
    """`odds --play dd` gives the solo rows a double-dummy verdict and no card points (§8 A21)."""
    job = jobs.OddsJob(tuple(bs.DECK.parse_cards("cB sB hB hA hT hK h9 h8")), 1,
                       (jobs.Option(bs.SMALL_SOLO, 2), jobs.Option(bs.BIG_SOLO, 2)), "dd")
    counts = dict(zip(jobs.ODDS_STATS, job.unpack(job.run_block(3, 0, 40)).stats[1]))
    big = deal_hands(3, 0, 40, job.spec)
    assert counts["all_tricks"] == sv.solo_wins(big, 2, 1, play.solo_leader(0, 1)).sum()
    assert counts["sum"] == 0 and counts["n"] == 40


@settings(max_examples=150, deadline=None)
@given(st.permutations(range(32)), st.integers(1, 3), st.integers(0, 3), st.integers(0, 3), st.integers(0, 2),
       st.integers(0, 3), st.sampled_from(sorted(RULES)), st.integers(0, 2))
def test_solo_position_mid_trick_matches_minimax(pack, k, trump, soloist, lead_place, played, rule, kept):
    """`solo_position_wins` from a position inside a trick (0-3 cards played, each the first legal card of
    its player's hand by the reference rules), for every trick or those until the soloist holds ``kept``
    cards, equals the plain minimax."""
    hands, leader = _solo_ending(pack, k, soloist, lead_place)
    partner = (soloist + 2) % 4
    order = [s for s in ((leader + j) % 4 for j in range(4)) if s != partner]
    trick = []
    for seat in order[:played]:
        card = sorted(naive.legal(hands[seat], trick, trump, RULES[rule]))[0]
        hands[seat].remove(card)
        trick.append(card)
    expected = naive.solo_won(hands, trump, leader, soloist, tuple(trick), RULES[rule], kept)
    got = sv.solo_position_wins([_mask(h) for h in hands], trump, soloist, leader, trick, rule, kept=kept)
    assert got == expected


def test_solo_line_is_legal_and_keeps_the_verdict():
    """Big Solos of full deals: the line's verdict is `solo_wins`'; replayed by the reference rules every card
    is legal, a won solo takes all 8 tricks and a lost one ends at the first trick the soloist loses, after the
    tricks he holds out for."""
    hands = deal_hands(9, 0, 40)
    for h in hands:
        soloist = next(s for s in range(4) if (int(h[s]) >> bs.CLUB_JACK) & 1)
        trump, leader = bs.best_suit(int(h[soloist])), play.solo_leader(0, soloist)
        won, tricks, line = sv.solo_line(h, trump, soloist, leader)
        assert won == bool(sv.solo_wins(h[None], trump, soloist, leader)[0]) == (tricks == 8)
        assert len(line) == 3 * tricks + (0 if won else 3)  # the soloist's tricks, then the one he loses
        cur = [bs.DECK.cards_of(int(x)) for x in h]
        for t in range(0, len(line), 3):
            trick = []
            for seat, card in line[t:t + 3]:
                assert card in naive.legal(cur[seat], trick, trump, "BS")
                cur[seat].remove(card)
                trick.append(card)
            winner = line[t + naive.winner(trick, trump)][0]
            assert winner == soloist or (not won and t + 3 == len(line))


def _hold_out(hands, trump, leader, soloist, rule, trick=()):
    """The most tricks the soloist takes before losing one, the soloist maximising and the defenders minimising
    it: a plain max/min over every legal card (not through `solo_won`)."""
    partner = (soloist + 2) % 4
    seats = [s for s in ((leader + k) % 4 for k in range(4)) if s != partner]
    if len(trick) == 3:
        if seats[naive.winner(list(trick), trump)] != soloist:
            return 0
        return 1 + (_hold_out(hands, trump, soloist, soloist, rule) if hands[soloist] else 0)
    seat = seats[len(trick)]
    values = []
    for card in sorted(naive.legal(hands[seat], list(trick), trump, rule)):
        rest = [list(h) for h in hands]
        rest[seat].remove(card)
        values.append(_hold_out(rest, trump, leader, soloist, rule, tuple(trick) + (card,)))
    return max(values) if seat == soloist else min(values)


@settings(max_examples=40, deadline=None)
@given(st.permutations(range(32)), st.integers(2, 4), st.integers(0, 3), st.integers(0, 3), st.integers(0, 2),
       st.sampled_from(sorted(RULES)))
def test_solo_line_holds_out_as_long_as_the_minimax_says(pack, k, trump, soloist, lead_place, rule):
    """Endings of 2-4 tricks under every play rule: the line's trick count is the plain max/min's, and the line
    itself plays it (the soloist wins exactly that many tricks, then loses one unless he took them all)."""
    hands, leader = _solo_ending(pack, k, soloist, lead_place)
    won, tricks, line = sv.solo_line([_mask(h) for h in hands], trump, soloist, leader, rule)
    assert tricks == _hold_out(hands, trump, leader, soloist, RULES[rule])
    assert won == (tricks == k) and len(line) == 3 * tricks + (0 if won else 3)


def test_a_jack_is_not_equal_to_the_trump_ace_under_jack_always():
    """Under BS:always_overrides_follow a led jack obliges a later jack to overtake, which the trump ace next to it
    in strength does not: the two are not interchangeable (a deal the solver once called lost)."""
    hands = [[], [0, 22, 23, 25, 26], [3, 10, 13, 15, 27], [1, 4, 7, 11, 17]]
    rule = play.BS_JACK_ALWAYS
    expected = naive.solo_won(hands, 1, 1, 2, (), RULES[rule])
    got = sv.solo_wins(np.array([[_mask(h) for h in hands]]), 1, 2, 1, rule, sv.new_solo_table(8))
    assert expected is True and bool(got[0]) is True
