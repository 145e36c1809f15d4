"""Bauernstoss double-dummy solver against the plain minimax of tests/naive_bauernstoss.py (spec §5)."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from analysis.games import bauernstoss as bs_api
from simcore.errors import CardsimError
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_jobs as jobs
from simcore.games import bauernstoss_play as play
from simcore.games import bauernstoss_solve as sv

import naive_bauernstoss as naive

RULES = {play.BS_OVERTAKE: "BS", play.BS_JACK_ALWAYS: "BS:always_overrides_follow", play.BS_NO_JACK: "BS:off",
         play.AS_BEAT_TRUMP: "AS", play.DS_FOLLOW: "DS"}


def _mask(cards) -> int:
    return sum(1 << c for c in cards)


def _ending(pack, k: int, played: int, leader: int, trump: int, rule: int):
    """Four hands of k cards from the shuffled ``pack`` and the first ``played`` legal cards (lowest
    legal each) of a trick led by ``leader``: (hands as lists, trick)."""
    hands = [sorted(pack[i * k:(i + 1) * k]) for i in range(4)]
    trick = []
    for i in range(played):
        seat = (leader + i) % 4
        card = min(naive.legal(hands[seat], trick, trump, RULES[rule]))
        hands[seat].remove(card)
        trick.append(card)
    return hands, trick


@settings(max_examples=120)
@given(st.permutations(range(32)), st.integers(1, 3), st.integers(0, 3), st.integers(0, 3), st.integers(0, 3),
       st.integers(0, 1), st.sampled_from(sorted(RULES)))
def test_endings_match_minimax(pack, k, played, leader, trump, team, rule):
    """Random endings of 1-3 tricks, also in the middle of a trick, under every play rule."""
    hands, trick = _ending(pack, k, played, leader, trump, rule)
    expected = naive.minimax_points(hands, trump, leader, team, trick, RULES[rule])
    assert sv.position_points([_mask(h) for h in hands], trump, leader, team, trick, rule) == expected


@pytest.mark.parametrize("seed", range(12))
def test_deeper_endings_match_minimax(seed):
    """Endings of 4 and 5 tricks (the transposition table and the equivalent-card cut at work)."""
    rng = np.random.default_rng(seed)
    k = 4 if seed < 9 else 5
    pack = [int(c) for c in rng.permutation(32)]
    trump, leader, team = int(rng.integers(4)), int(rng.integers(4)), int(rng.integers(2))
    rule = sorted(RULES)[seed % len(RULES)]
    hands, _ = _ending(pack, k, 0, leader, trump, rule)
    expected = naive.minimax_points(hands, trump, leader, team, (), RULES[rule])
    assert sv.position_points([_mask(h) for h in hands], trump, leader, team, (), rule) == expected


def test_many_positions_share_one_table():
    """solve_points over many endings with one table equals solving each alone."""
    rng = np.random.default_rng(7)
    hands = np.array([[_mask(p[i * 3:(i + 1) * 3]) for i in range(4)] for p in
                      (rng.permutation(32) for _ in range(40))], dtype=np.uint64)
    trumps, leaders, teams = rng.integers(0, 4, 40), rng.integers(0, 4, 40), rng.integers(0, 2, 40)
    together = sv.solve_points(hands, trumps, leaders, teams)
    alone = [sv.position_points(h, t, ld, tm) for h, t, ld, tm in zip(hands, trumps, leaders, teams)]
    assert list(together) == alone


def _full_deal(seed: int) -> list[int]:
    perm = np.random.default_rng(100 + seed).permutation(32)
    return [_mask(int(c) for c in perm[8 * s:8 * s + 8]) for s in range(4)]


@pytest.mark.parametrize("seed", range(3))
def test_full_deals_line_and_minimax(seed):
    """Full 8-trick deals: the two teams' optimal values add up to 120; the optimal line is legal,
    its card points replay to the value, and after its first four tricks the plain minimax of the
    remaining 4-trick ending plus the points taken so far gives the same value."""
    hands = _full_deal(seed)
    trump, leader, team = seed % 4, 1, 1
    value, line = sv.optimal_line(hands, trump, leader, team)
    other = int(sv.solve_points(np.array([hands]), trump, leader, 1 - team)[0])
    assert value + other == bs.CARD_POINTS
    held = [sorted(bs.DECK.cards_of(h)) for h in hands]
    taken, lead = [0, 0], leader
    for start in range(0, 32, 4):
        trick = []
        for seat, card in line[start:start + 4]:
            assert seat == (lead + len(trick)) % 4 and card in naive.legal(held[seat], trick, trump, "BS")
            held[seat].remove(card)
            trick.append(card)
        lead = (lead + naive.winner(trick, trump)) % 4
        taken[lead % 2] += naive.points(trick)
        if start == 12:
            assert taken[team] + naive.minimax_points(held, trump, lead, team) == value
    assert taken[team] == value


def test_strength_bits_are_a_renumbering():
    """Every trump suit maps the 32 cards one-to-one onto bits; points and runs follow spec §1.2."""
    for trump in range(4):
        assert sorted(sv.TO_BIT[trump]) == list(range(32))
        for card in range(32):
            bit = sv.TO_BIT[trump, card]
            assert sv.BIT_POINTS[bit] == bs.FACE_POINTS[card]
            assert (sv.RUN_OF[bit] == sv.TRUMP_RUN) == (bs.EFF[trump, card] == bs.TRUMP)
            assert sv.TO_CARD[trump, bit] == card
            assert int(sv.to_bits(np.uint64(1 << card), trump)) == 1 << bit
        for a in range(32):  # a higher bit of the same run is the stronger card
            for b in range(32):
                if bs.EFF[trump, a] == bs.EFF[trump, b] and a != b:
                    assert ((sv.TO_BIT[trump, a] > sv.TO_BIT[trump, b])
                            == (bs.STRENGTH[trump, a] > bs.STRENGTH[trump, b]))


def test_complete_trick_position_is_scored_first():
    """A position given with a full trick scores it for its winner, who then leads."""
    hands = [_mask([0]), _mask([8]), _mask([16]), _mask([24])]  # c7 s7 h7 d7 left
    trick = [bs.DECK.parse_cards(t)[0] for t in ("cA", "cT", "cK", "cD")]
    # seat 1 leads cA and wins; team 1 takes 28 and, leading c7 under clubs trumps, the last trick's 0
    assert sv.position_points(hands, 0, 1, 1, trick) == 28


def test_pimc_averages_the_solved_worlds():
    """PIMC (perfect-information Monte Carlo) of a 2-trick ending in the middle of a trick: each legal
    card's value is the mean of the plain minimax over the same sampled worlds, and the worlds keep
    what the player knows (own hand, the trick, the cards gone, the other hands' sizes)."""
    import naive_bauernstoss as naive

    rng = np.random.default_rng(11)
    pack = [int(c) for c in rng.permutation(32)]
    hands = [pack[2 * s:2 * s + 2] for s in range(4)]
    trick = (hands[0].pop(0),)  # seat 0 led; seat 1 is to play with 2 cards
    gone = _mask(pack[8:])
    hand = _mask(hands[1])
    worlds = jobs.pimc_worlds(hand, 1, 0, trick, gone, 6, seed=3)
    sizes = {(s, bin(int(h)).count("1")) for w in worlds for s, h in enumerate(w)}
    assert sizes == {(0, 1), (1, 2), (2, 2), (3, 2)}
    assert all(int(w[1]) == hand and int(np.bitwise_or.reduce(w)) | gone | _mask(trick) == bs.DECK.full_mask
               for w in worlds)
    values = jobs.pimc_values(hand, 1, trump=2, team=1, leader=0, trick=trick, gone=gone, samples=6, seed=3)
    legal = naive.legal(hands[1], list(trick), 2, "BS")
    assert set(values) == set(legal)
    for card, value in values.items():
        expected = []
        for w in worlds:
            rest = [bs.DECK.cards_of(int(h)) for h in w]
            rest[1].remove(card)
            expected.append(naive.minimax_points(rest, 2, 0, 1, list(trick) + [card]))
        assert value == pytest.approx(sum(expected) / len(expected))


def test_pimc_rejects_an_inconsistent_view():
    from simcore.errors import CardsimError
    from simcore.games import bauernstoss_jobs as jobs

    with pytest.raises(CardsimError, match="not to play"):
        jobs.pimc_worlds(_mask(range(8)), 2, 0, (), 0, 1, 0)
    with pytest.raises(CardsimError, match="one place only"):
        jobs.pimc_worlds(_mask(range(8)), 1, 0, (3,), 0, 1, 0)
    with pytest.raises(CardsimError, match="cannot fill"):
        jobs.pimc_worlds(_mask(range(8)), 1, 1, (), _mask(range(8, 12)), 1, 0)


def test_run_squeeze_table_matches_the_card_by_card_definition():
    for present in range(128):
        places = [b for b in range(7) if present >> b & 1]
        for part in range(128):
            if not part & ~present:
                moved = sum(1 << i for i, b in enumerate(places) if part >> b & 1)
                assert int(sv._RUN_SQUEEZE[present | part << 7]) == moved


def _squeezed_hands(hands: list[int]) -> list[int]:
    """The key's hands by its definition (`sv._key_by_tables`), card by card: in each group (the plain runs, the
    trump run's 7 to Ace, the jacks) the cards still in play moved to its foot, in order, each with its holder."""
    out = [0, 0, 0, 0]
    for shift, width in ((0, 7), (7, 7), (14, 7), (21, 7), (28, 4)):
        held = [(bit, s) for bit in range(shift, shift + width) for s in range(4) if hands[s] >> bit & 1]
        for place, (_, s) in enumerate(held):
            out[s] |= 1 << (shift + place)
    return out


@settings(max_examples=300)
@given(st.permutations(range(32)), st.integers(1, 8))
def test_transposition_keys_squeeze_as_defined(order, cards):
    """Both ways of making the key (tables; bit gathers where the CPU has fast ones) give the key of its definition,
    and the solver uses the gathers exactly where they are fast."""
    hands = [sum(1 << c for c in order[cards * s:cards * (s + 1)]) for s in range(4)]
    h = _squeezed_hands(hands)
    expected = (h[0] | h[1] << 32, h[2] | h[3] << 32)
    words = [np.uint64(x) for x in hands]
    assert tuple(int(k) for k in sv._key_by_tables(*words)) == expected
    assert sv._key is (sv._key_by_gathers if sv.FAST_BIT_GATHER else sv._key_by_tables)
    assert tuple(int(k) for k in sv._key(*words)) == expected


def _same_structure(hands: list[int], groups: list[list[int]]) -> list[int]:
    """Hands (strength bits) with, in every group of `sv._GROUP_SHIFTS`, the cards in play replaced by the cards of
    ``groups`` (as many, in rank order), each going to the holder of the card at its place."""
    out = [0, 0, 0, 0]
    for shift, width, chosen in zip((0, 7, 14, 21, 28), (7, 7, 7, 7, 4), groups):
        held = [s for bit in range(shift, shift + width) for s in range(4) if hands[s] >> bit & 1]
        for s, bit in zip(held, sorted(chosen)):
            out[s] |= 1 << bit
    return out


@settings(max_examples=150, deadline=None)
@given(st.permutations(range(32)), st.integers(1, 3), st.integers(0, 3), st.integers(0, 3), st.integers(0, 1),
       st.sampled_from(sorted(RULES)), st.data())
def test_payoff_similarity_bounds_hold(order, k, leader, trump, team, rule, data):
    """Two positions of one key (the same holders in rank order in every group, other cards): the exact value of
    one lies within `_similar`'s widening of the other's, and the stored best lead maps to the card at its place,
    held by the same hand."""
    stored = [sum(1 << c for c in order[k * s:k * (s + 1)]) for s in range(4)]
    present = stored[0] | stored[1] | stored[2] | stored[3]
    groups = []
    for shift, width in ((0, 7), (7, 7), (14, 7), (21, 7), (28, 4)):
        size = bin(present >> shift & ((1 << width) - 1)).count("1")
        groups.append(data.draw(st.permutations(range(shift, shift + width)))[:size] if shift < 28
                      else [b for b in range(28, 32) if present >> b & 1])
    current = _same_structure(stored, groups)
    words = [np.uint64(h) for h in stored], [np.uint64(h) for h in current]
    assert sv._key(*words[0]) == sv._key(*words[1])
    to_cards = [[sum(1 << int(sv.TO_CARD[trump, b]) for b in range(32) if h >> b & 1) for h in hs] for hs in
                (stored, current)]
    value, other = (sv.position_points(masks, trump, leader, team, (), rule) for masks in to_cards)
    lead = data.draw(st.sampled_from([b for b in range(32) if stored[leader] >> b & 1]))
    lower, upper, mapped = sv._similar(np.uint64(sv._pack(value, value, lead, np.uint64(present))),
                                       np.uint64(current[0] | current[1] | current[2] | current[3]))
    assert lower <= other <= upper
    assert current[leader] >> mapped & 1
    assert sum(stored[leader] >> b & 1 for b in range(lead)) == sum(current[leader] >> b & 1 for b in range(mapped))


@pytest.mark.parametrize("points, order", [(sv._RUN_POINTS, range(6, -1, -1)), ((0, 3, 4, 2, 2, 11), (3, 0, 5, 1, 4, 2))])
def test_k_points_table_sums_the_first_k_cards_in_order(points, order):
    table = sv._k_points_table(points, order)
    for m in range(1 << len(points)):
        places = [b for b in order if m >> b & 1]
        assert [int(table[m * 9 + k]) for k in range(9)] == [sum(points[b] for b in places[:k]) for k in range(9)]


FULL = np.array([[0xFF, 0xFF00, 0xFF0000, 0xFF000000]], dtype=np.uint64)
HAND = "cB sB hA hT hK h9 s7 d8"
SEVENS = np.array([0xFE, 0xFE00, 0xFE0000, 0xFE000000], dtype=np.uint64)
MIDWAY = np.array([0xFE, 0xFF00, 0xFF0000, 0xFF000000], dtype=np.uint64)  # seat 0 has played card 0


@pytest.mark.parametrize("call, message", [
    (lambda: sv.solve_points(np.array([[1, 1, 2, 4]], dtype=np.uint64), 0, 1, 1), "a card is held by two hands"),
    (lambda: sv.solve_points(np.array([[0x7F, 0xFF00, 0xFF0000, 0xFF000000]]), 0, 1, 1), r"must hold 1 to 8 cards, all as many, got \[7, 8, 8, 8\] \(deal 0\)"),
    (lambda: sv.solve_points(FULL[0], 0, 1, 1), r"an \(n, 4\) array"),
    (lambda: sv.solve_points(FULL.astype(float), 0, 1, 1), "integer masks of the 32 cards"),
    (lambda: sv.solve_points(FULL << np.uint64(8), 0, 1, 1), "integer masks of the 32 cards"),
    (lambda: sv.solve_points(FULL, 7, 1, 1), "trumps must be 0-3, got 7"),
    (lambda: sv.solve_points(FULL, 0, [1, 2], 1), "leaders must be a whole number or 1 of them"),
    (lambda: sv.solve_points(FULL, 0, 9, 1), "leaders must be 0-3, got 9"),
    (lambda: sv.solve_points(FULL, 0, 1, 3), "teams must be 0-1, got 3"),
    (lambda: sv.solve_points(FULL, 0, 1.5, 1), "leaders must be a whole number"),
    (lambda: sv.solve_points(FULL, 0, 1, 1, rule=9), "rule must be a play rule code 0-4"),
    (lambda: sv.reaches_points(FULL, 0, 1, 1, (42.5,)), "levels must be one or more whole numbers"),
    (lambda: sv.solo_wins(FULL, 0, 5, 1), "soloists must be 0-3, got 5"),
    (lambda: sv.position_points(FULL[0], 0, 1, 1, (3,)), "that no hand holds"),
    (lambda: sv.position_points(FULL[0], 4, 1, 1), "trump must be 0-3, got 4"),
    (lambda: sv.position_points(SEVENS, 0, 0, 0, (0,)), "hold 7, 7, 7, 7 cards with 1 on the trick led by seat 0"),
    (lambda: sv.position_points(MIDWAY, 0, 1, 0, (0,)), "led by seat 1"),
    (lambda: sv.position_points(MIDWAY, 0, 0, 0, (0, 0)), "distinct cards"),
    (lambda: sv.position_points(SEVENS, 0, 0, 0, (0, 8, 16, 24, 1)), "at most 4 distinct cards"),
    (lambda: sv.position_points(MIDWAY, 0, 0, 0, (0.0,)), "distinct cards 0-31"),
    (lambda: sv.optimal_line(FULL, 0, 0, 0), r"hands must be 4 card masks, one per seat 0-3; got shape \(1, 4\)"),
])
def test_bad_input_is_a_cardsim_error_naming_it(call, message):
    """A bad deal or argument is refused before the kernels run (before, a trump of 7 never returned and a
    card in two hands gave a number)."""
    with pytest.raises(CardsimError, match=message):
        call()


@pytest.mark.parametrize("call, message", [
    (lambda: bs_api.match("b0", "b0", 0, 1), "the number of games must be at least 1, got 0"),
    (lambda: bs_api.match("b0", "b0", 2.5, 1), "the number of games must be a whole number of at least 1, got 2.5"),
    (lambda: bs_api.thresholds("greedy", 200, 1, min_n=0), "min_n .* must be at least 1, got 0"),
    (lambda: bs_api.thresholds("greedy", 200, 1, solo_p=2.0), r"solo_p \(the Big Solo break-even\) must be a number "
                                                                "from 0 to 1, got 2.0"),
    (lambda: bs_api.thresholds("greedy", 200, 1, solo_p=float("nan")), "solo_p .* got nan"),
    (lambda: bs_api.odds(HAND, 1, n=20, seed=1, first_hand="no"), "first_hand must be True or False, got 'no'"),
    (lambda: bs_api.odds(HAND, 1, n=20, seed=1, rules=5), "options must be a dict such as .* got 5"),
    (lambda: bs_api.odds(HAND, 1, "pimc", n=20, seed=1, samples=2.5), "--samples must be a whole number"),
    (lambda: bs_api.odds(HAND, 1, "greedy", n=20, seed=1, samples=3),
     r"^samples applies only with method 'pimc' \(the worlds of a PIMC decision\), not with 'greedy'; drop it or "
     r"play pimc$"),
    (lambda: bs.Auction(FULL[0], opts={"bogus": 1}), "unknown bauernstoss option 'bogus'"),
    (lambda: bs.Auction(FULL[0], dealer=1.0), "a dealer seat 0-3"),
    (lambda: jobs.dd_solo_won(FULL, "foo", 0, 0, 1), "unknown solo kind 'foo'"),
])
def test_python_api_counts_are_checked(call, message):
    """Before, a match of 0 games played 2, min_n=-1 made rows of no deals, solo_p=2.0 and first_hand="no" were
    taken, Auction(opts={}) raised a KeyError and a solo kind "foo" was solved as a Small Solo."""
    with pytest.raises(CardsimError, match=message):
        call()


def test_whole_float_seats_are_taken():
    """Before, leader=1.0 reached the kernel as a float (a numba TypingError)."""
    hands = [int(h) for h in FULL[0]]
    assert sv.position_points(hands, 1, 1.0, 0) == sv.position_points(hands, 1, 1, 0)
    assert sv.position_points(MIDWAY, 1, np.float64(0), 0, (0,)) == sv.position_points(MIDWAY, 1, 0, 0, (0,))
    assert sv.optimal_line(hands, 1.0, np.array(1), 0.0) == sv.optimal_line(hands, 1, 1, 0)


def test_partial_options_and_checked_positions_keep_their_answers():
    """A partial opts dict gets the defaults (before: KeyError); a checked position solves as the unchecked one."""
    hands = [int(h) for h in FULL[0]]
    assert bs.Auction(hands, opts={}).opts == bs.rule_options()
    assert bs.Auction(hands, opts=[("variant", "AS")]).variant == "AS"
    for leader, trick in ((0, (0,)), (0, (0, 8, 16, 24)), (3, (24, 0))):
        held = MIDWAY if len(trick) < 4 else SEVENS
        rest = held & ~np.uint64(sum(1 << c for c in trick)) if len(trick) < 4 else held
        assert sv.position_points(rest, 1, leader, 0, trick) == sv.trusted_position_points(rest, 1, leader, 0, trick)


def test_rules_in_any_form_are_one_set():
    """Rules as NAME=VALUE strings (as on the command line), a dict or (name, value) pairs check alike."""
    forms = ("jack_rule=off", ["jack_rule=off"], {"jack_rule": "off"}, [("jack_rule", "off")])
    assert {bs_api.checked_rules(form, "BS", "thresholds") for form in forms} == {(("jack_rule", "off"),)}
