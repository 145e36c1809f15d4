"""`cardsim lasttrick perlaggen` (spec §10 Q12, §8.5, T-19): the fifth trick with one card each, counted exactly over
every ordered draw of the later players' cards; the counts against a plain reading of the trick's order (§2.5)."""

from __future__ import annotations

import itertools
import json
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from analysis.cli import main
from analysis.games import perlaggen_last_trick as LT
from simcore import betting
from simcore.games import perlaggen as P
from simcore.games import perlaggen_play as PP

SEEN = "LA E10 SK LK EA EK SA S10 H10 E9 L10 S9 HA EO L8 E8"
"""The 16 cards of the first four tricks (none of them a Perlagg of trump H)."""


def plain_key(play, led: int, trump: int, style: str) -> tuple:
    """A play's rank as §2.5 reads: a trump beats the led suit, which beats the rest; then the higher card; between a
    Perlagg and a card of the same identity, or two Perlaggen, the earlier in the style's list of Perlaggen (a
    natural card has none)."""
    order = P.perlaggen(style, P.DECK.suits[trump])
    card, identity = play
    suit = PP.id_suit(identity)
    tier = 2 if suit == trump else 1 if suit == led else 0
    return tier, PP.id_strength(identity), len(order) - order.index(card) if card in order else 0


def plain_counts(card, trick, trump, pool, style, mine=None, void=None):
    """(no opponent's play ranks above yours, your team's play ranks highest, draws): each later card and yours
    (unless ``mine``, your play already made) played as the strongest play (a Perlagg as the trump Ace); ``void``:
    (later player's index, suit) whose natural cards he cannot hold."""
    perlaggen = set(P.perlaggen(style, P.DECK.suits[trump]))

    def play(c):
        return (c, trump * 8 + 7) if c in perlaggen else (c, c)

    mine = play(card) if mine is None else mine
    position = len(trick)
    counts = [0, 0, 0]
    for later in itertools.permutations(pool, 3 - position):
        if void and void[0] < len(later) and later[void[0]] not in perlaggen and PP.id_suit(later[void[0]]) == void[1]:
            continue
        plays = list(trick) + [mine] + [play(c) for c in later]
        keys = [plain_key(p, PP.id_suit(plays[0][1]), trump, style) for p in plays]
        counts[0] += all(keys[position] > keys[i] for i in range(4) if (i - position) % 2)
        counts[1] += (keys.index(max(keys)) - position) % 2 == 0
        counts[2] += 1
    return tuple(counts)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["innsbruck", "eichel"]), st.data())
def test_counts_equal_a_plain_reading_of_the_trick(style, data):
    trump = P.DECK.suits.index(data.draw(st.sampled_from(P.trump_suits(style))))
    cards = data.draw(st.permutations(range(P.DECK.n_cards)))
    size = data.draw(st.integers(0, 3))
    card, trick_cards, pool = cards[0], cards[1:1 + size], cards[1 + size:1 + size + data.draw(st.integers(3, 7))]
    perlaggen = set(P.perlaggen(style, P.DECK.suits[trump]))
    trick = [(c, data.draw(st.integers(0, P.DECK.n_cards - 1)) if c in perlaggen else c) for c in trick_cards]
    assert PP.last_trick_counts(card, trick, trump, pool, style) == plain_counts(card, trick, trump, pool, style)


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_a_void_leaves_out_the_draws_that_give_the_player_a_card_of_the_suit(data):
    """§11.4 item 5: a later player void in a suit holds no natural card of it (his Perlaggen stay possible)."""
    style = "innsbruck"
    trump = P.DECK.suits.index(data.draw(st.sampled_from(P.trump_suits(style))))
    cards = data.draw(st.permutations(range(P.DECK.n_cards)))
    size = data.draw(st.integers(0, 2))
    card, trick_cards, pool = cards[0], cards[1:1 + size], cards[1 + size:1 + size + data.draw(st.integers(4, 8))]
    perlaggen = set(P.perlaggen(style, P.DECK.suits[trump]))
    trick = [(c, trump * 8 + 7 if c in perlaggen else c) for c in trick_cards]
    later, suit = data.draw(st.integers(0, 2 - size)), data.draw(st.integers(0, 3))
    barred = [set() for _ in range(3 - size)]
    barred[later] = {c for c in pool if c not in perlaggen and PP.id_suit(c) == suit}
    counts = PP.last_trick_counts(card, trick, trump, pool, style, barred=barred)
    assert counts == plain_counts(card, trick, trump, pool, style, void=(later, suit))


def test_void_in_the_cli(capsys):
    """H trump, seat 2 after the lead L9: seat 3 void in hearts cannot hold the H9, the one natural heart unseen."""
    base = ["lasttrick", "perlaggen", "--card", "H8", "--trump", "H", "--seat", "2", "--trick", "L9", "--seen", SEEN,
            "--json"]
    assert main(base) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main(base + ["--void", "3:H"]) == 0
    void = json.loads(capsys.readouterr().out)
    assert plain["team_wins"]["n"] == 15 * 14 and void["team_wins"]["n"] == 15 * 14 - 14 and void["voids"] == {"3": "H"}
    assert void["team_wins"]["fraction"] == "17/28" and plain["voids"] == {}
    assert main(base + ["--void", "3:h", "--void", "3:H"]) == 0  # a suit given twice counts once, any case
    assert json.loads(capsys.readouterr().out) == void


@pytest.mark.parametrize("style, trump, void", [("eichel", "S", "E"), ("deutschnofen", "L", "H"),
                                                ("innsbruck", "E", "ES")])
def test_void_bars_exactly_the_natural_cards_of_its_suits(style, trump, void):
    """`_barred` against the style's Perlaggen: seat 3 (after seat 2, one card led) may hold every unseen card but
    the naturals of his void suits; seat 0, no void, every one."""
    trump_index = P.DECK.suits.index(trump)
    pool = [c for c in range(P.DECK.n_cards) if c != P.WELI or P.has_weli(style)]
    voids, barred = LT._barred({3: void}, 2, 1, trump_index, style, pool)
    wild = set(P.perlaggen(style, trump))
    assert voids == {3: void} and barred[1] == set()
    assert barred[0] == {c for c in pool if c not in wild and P.DECK.suits[PP.id_suit(c)] in void}


def test_no_draw_fits_the_voids(capsys):
    """Seat 3 void in every suit can hold only a Perlagg; with every Perlagg seen, no draw fits: one line, exit 2."""
    perlaggen = " ".join(P.DECK.token(c) for c in P.perlaggen("innsbruck", "H"))
    seen = "LA E10 SK LK EA EK SA S10 H10 E9 L10 S9 HA EO L8 E8 " + perlaggen
    assert main(["lasttrick", "perlaggen", "--card", "H8", "--trump", "H", "--seat", "2", "--trick", "L9",
                 "--seen", seen, "--void", "3:ELHS"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no draw of the later players' cards fits --void" in err[0]


def test_worked_example():
    """Trump H, seat 1 led L9, you (seat 2) hold H8, the 16 cards of the first four tricks seen: 15 unseen, among them
    the seven Perlaggen (HK S6 S7 E7 H7 HU HO) and H9, which beat H8. No opponent beats your card when the next
    player (an opponent) holds one of the 7 others: 7 * 14 = 98 of 15 * 14 = 210 draws. Your team takes the trick
    then (your partner plays last), or when the opponent holds H9 and your partner a Perlagg (7), or the opponent a
    Perlagg and your partner one of higher precedence (0+1+...+6 = 21): 126/210."""
    frame = LT.last_trick("H8", "H", 2, "L9", SEEN).set_index("quantity")
    assert (frame.loc["card_wins", "successes"], frame.loc["team_wins", "successes"]) == (98, 126)
    assert frame.loc["card_wins", "n"] == 210 and frame.loc["team_wins", "fraction"] == "3/5"
    assert frame.attrs["leader"] == 1 and frame.attrs["pool"] == 15


def test_your_partner_does_not_count_against_your_card():
    """You lead the natural HA with E8, S7 and L8 unseen (29 cards seen): only S7 (a Perlagg, as the trump Ace)
    beats it. With your partner it overtakes your card but wins the trick for your team, so it does not count
    against your card: in 2 of the 6 draws (S7 with your partner) no opponent beats you, and your team wins."""
    unseen = {"HA", "E8", "S7", "L8"}
    seen = " ".join(P.DECK.token(c) for c in range(P.DECK.n_cards) if P.DECK.token(c) not in unseen)
    frame = LT.last_trick("HA", "H", 1, None, seen).set_index("quantity")
    assert (frame.loc["card_wins", "successes"], frame.loc["team_wins", "successes"]) == (2, 2)


@pytest.mark.parametrize("card, allowed", [("E8", False), ("L7", True), ("H8", True), ("S7", True)])
def test_t19_who_may_bet_the_spiel(card, allowed):
    """Spec T-19: tricks 2-2, trump H, L9 led to trick 5: E8 may not bet, L7 (led suit, cannot win) may, H8 (trump)
    may, S7 (a Perlagg) may."""
    seen = " ".join(c for c in SEEN.split() if c != card) + " SO"
    assert (LT.last_trick(card, "H", 2, "L9", seen).attrs["may_bet"] is not None) == allowed


def test_a_perlagg_takes_the_trump_ace_and_the_leader_may_always_bet(capsys):
    frame = LT.last_trick("HK", "H", 1, None, SEEN).set_index("quantity")  # the Maxi, the first Perlagg: it wins
    assert frame.loc["card_wins", "p"] == 1 and frame.attrs["later"] == 3
    assert main(["lasttrick", "perlaggen", "--card", "L7", "--trump", "H", "--seen", SEEN, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["may_bet"] and out["bet_reason"] == "you lead: your card is the led suit" and out["later"] == 3
    assert 0 < out["card_wins"]["p"] < out["team_wins"]["p"] < 1


def test_void_bad_input_is_one_line(capsys):
    base = ["lasttrick", "perlaggen", "--card", "H8", "--trump", "H", "--seat", "2", "--trick", "L9", "--seen", SEEN]
    for void, message in (("1:H", "already played to the trick"), ("2:H", "your own seat"),
                          ("3:X", "give the suits he showed void in"),
                          ("x:H", "--void takes SEAT:SUITS such as '3:H'"), ("7:H", "--void seat must be")):
        assert main(base + ["--void", void]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and message in err[0], (void, err)


@pytest.mark.parametrize("args, message", [
    (["--card", "H8", "--trump", "H", "--trick", "S7"], "give the card it was baptised as"),
    (["--card", "H8", "--trump", "H", "--trick", "L9=LA"], "only a Perlagg is baptised"),
    (["--card", "H8", "--trump", "H", "--trick", "L9 L8 L7 LU"], "at most 3"),
    (["--card", "H8", "--trump", "H", "--seen", SEEN + " H8"], "each card can be in one place only"),
    (["--card", "H8", "--trump", "H", "--trick", "L9", "--seen", SEEN + " L9"], "name a card twice"),
    (["--card", "H8 H9", "--trump", "H"], "one last card"),
    (["--card", "H8", "--trump", "X"], "trump suit"),
    (["--card", "S6", "--trump", "H", "--style", "schlanders"], "without it"),
    (["--card", "HU=S6", "--trump", "H", "--style", "schlanders"], "without it"),
    (["--card", "H8", "--trump", "H", "--style", "straf"], "three players"),
    (["--card", "H8", "--trump", "H", "--seen", "LA E10 SK"], "the 16 cards of the first four tricks"),
    (["--card", "H8", "--trump", "H", "--seen", " ".join(P.DECK.token(c) for c in range(31)
                                                         if P.DECK.token(c) != "H8")], "unseen cards"),
])
def test_bad_input_is_one_line(args, message, capsys):
    seen = [] if "--seen" in args else ["--seen", SEEN]
    assert main(["lasttrick", "perlaggen", *args, *seen]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_a_perlagg_already_played_keeps_its_identity():
    """§8.5, A-34: --card S7=H10, your Perlagg already played to the trick as the ten of trumps (you may bet after
    playing it): it loses to a later natural trump above it and to any Perlagg the opponents baptise as the trump
    Ace; without the identity it takes the trump Ace and beats every later Perlagg below it in precedence."""
    seen = SEEN
    fixed = LT.last_trick("S7=H10", "H", 2, "L9", seen).set_index("quantity")
    pool = [c for c in range(P.DECK.n_cards) if P.DECK.token(c) not in set(seen.split()) | {"S7", "L9"}]
    led = (P.DECK.parse_face("L9"), P.DECK.parse_face("L9"))
    expected = plain_counts(P.DECK.parse_face("S7"), [led], 2, pool, "innsbruck",
                            mine=(P.DECK.parse_face("S7"), P.DECK.parse_face("H10")))
    assert (fixed.loc["card_wins", "successes"], fixed.loc["team_wins", "successes"]) == expected[:2]
    free = LT.last_trick("S7", "H", 2, "L9", seen).set_index("quantity")
    assert free.loc["card_wins", "p"] > fixed.loc["card_wins", "p"]
    assert fixed.attrs["card"] == "S7=H10"


@pytest.mark.parametrize("p", [Fraction(3, 5), Fraction(1, 2), Fraction(7, 15), Fraction(0), Fraction(1, 5)])
def test_bet_rows_follow_section_11_5_without_a_stand(p):
    """§11.5 with s = 0: a bet gains on average when d = 2p - 1 >= 0; below, a bluff breaks even when they concede
    c* = |d| / (v + (v+1)|d|) of the time (EV(bet) = c v + (1-c)(v+1) d equals EV(no bet) = v d there); hold their bet
    iff p > 1 / (2(v+1))."""
    d = 2 * p - 1
    for row in LT.bet_rows(p, True):
        v = row["value"]
        assert row["value_bet"] == (d >= 0) and float(row["hold_above"]) == pytest.approx(betting.hold_threshold(v)[1])
        assert row["hold"] == (p > Fraction(1, 2 * (v + 1)))
        if d < 0:
            c = row["break_even_concession"]
            assert c == -d / (v - (v + 1) * d) and c * v + (1 - c) * (v + 1) * d == v * d
        else:
            assert row["break_even_concession"] is None
    assert not any(r["value_bet"] or r["break_even_concession"] is not None for r in LT.bet_rows(p, False))


def test_the_bet_table_in_text_and_json(capsys):
    args = ["lasttrick", "perlaggen", "--card", "L7", "--trump", "H", "--seat", "2", "--trick", "L9", "--seen", SEEN]
    assert main(args) == 0
    assert "a bluff gains if they concede more than" in capsys.readouterr().out
    assert main(args + ["--json"]) == 0
    bets = json.loads(capsys.readouterr().out)["bets"]
    assert [b["value"] for b in bets] == list(range(1, 7)) and all(0 < b["break_even_concession"] < 1 for b in bets)
