"""``cardsim solve dreeg`` (analysis.games.dreeg_play): the value against the double-dummy solver and a plain
minimax, the line of perfect play replayed under the rules written out here (§3.0.1-§3.0.2, Kamerun's lead rule
§3.4.2, Rufen's first trick §3.3.1 with the spec's cases U4-U6), and bad input."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

import naive_dreeg as naive
from analysis.cli import main
from analysis.games import dreeg_play as cmd
from simcore.errors import CardsimError
from simcore.games import dreeg_dd as dd
from simcore.games import dreeg_rules as r

DECK = r.DECK
SIZES = {4: 6, 3: 8, 2: 6}


def deal_text(hands) -> str:
    return " / ".join(DECK.format_cards(sorted(h)) for h in hands)


def random_hands(seed: int, n: int, size: int | None = None) -> list[set]:
    size = size or SIZES[n]
    order = [int(c) for c in np.random.default_rng(seed).permutation(24)]
    return [set(order[i * size:(i + 1) * size]) for i in range(n)]


def cards(text: str) -> set:
    return set(DECK.parse_cards(text))


def replay(result: dict, trump, kamerun: bool = False, call: int | None = None, last_led=None) -> list[int]:
    """Every card of the result's line checked legal for its player and the trick winners and points checked; the
    points (or tricks) each position takes."""
    hands = [cards(h) for h in result["hands"]]
    taken = [0] * len(hands)
    leader = result["leader"]
    for k, trick in enumerate(result["tricks"]):
        played = []
        for i, (pos, token) in enumerate(trick["plays"]):
            assert pos == (leader + i) % len(hands)
            card = DECK.parse_cards(token)[0]
            allowed = naive.legal_follow(hands[pos], played, trump)
            if not played and kamerun and last_led is not None and any(naive.suit(c) != last_led for c in hands[pos]):
                allowed = {c for c in hands[pos] if naive.suit(c) != last_led}
            if k == 0 and call is not None and call in hands[pos]:
                allowed = {call}  # §3.3.1: the called card's holder plays it to trick 1, leading or not
            elif k == 0 and call is not None and not played:
                allowed = {c for c in hands[pos] if naive.suit(c) == trump}  # forehand leads a trump
            assert card in allowed, (k, pos, token)
            hands[pos].discard(card)
            played.append(card)
        winner = (leader + naive.winner_slot(played, trump)) % len(hands)
        points = 1 if result["count"] == "tricks" else sum(r.POINTS[c] for c in played)
        assert trick["winner"] == winner and trick["points"] == points
        taken[winner] += points
        leader, last_led = winner, naive.suit(played[0])
    assert not any(hands)
    return taken


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("n", [2, 3, 4])
def test_sechsundsechzig_value_is_the_solver_s_and_the_line_makes_it(seed, n):
    hands = random_hands(seed, n)
    seat = seed % n
    result = cmd.solve(deal_text(hands), "66", trump="H", side=str(seat))
    assert result["side"] == [seat] and result["aim"] == "most"
    assert result["value"] == dd.solve([DECK.mask(h) for h in hands], 0, r.HEART, {seat})
    taken = replay(result, r.HEART)
    assert taken[seat] == result["value"]
    assert sum(taken) == result["total"] == sum(r.POINTS[c] for h in hands for c in h)


@pytest.mark.parametrize("seed", range(3))
def test_rot_assen_counts_the_heart_ace_holder_alone(seed):
    hands = random_hands(10 + seed, 4)
    holder = next(s for s, h in enumerate(hands) if r.HEART_ACE in h)
    result = cmd.solve(deal_text(hands), "RA", trump="E")
    assert result["side"] == [holder]
    assert result["value"] == dd.solve([DECK.mask(h) for h in hands], 0, 0, {holder})
    assert replay(result, 0)[holder] == result["value"]


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("n", [3, 4])
def test_kamerun_position_takes_the_fewest_it_can(seed, n):
    hands = random_hands(20 + seed, n)
    result = cmd.solve(deal_text(hands), "KA", side="1")
    others = set(range(n)) - {1}
    forced = dd.solve([DECK.mask(h) for h in hands], 0, -1, others, last_led=-1, counted={1})
    assert result["aim"] == "fewest" and result["trump"] is None
    assert result["value"] == forced and result["others"] == 120 - forced
    assert replay(result, None, kamerun=True)[1] == result["value"]


@pytest.mark.parametrize("seed", range(6))
def test_kamerun_ending_against_plain_minimax(seed):
    """The suit led to the previous trick binds the first lead of the ending (§3.4.2)."""
    hands = random_hands(30 + seed, 4, size=3)
    last = seed % 4
    result = cmd.solve(deal_text(hands), "KA", side="0", last_led=DECK.suits[last], tricks=seed % 2 == 1)
    expected = naive.minimax(hands, 0, None, {1, 2, 3}, restrict=True, count_tricks=seed % 2 == 1, last_led=last,
                             counted={0})
    assert result["value"] == expected
    assert replay(result, None, kamerun=True, last_led=last)[0] == result["value"]


def test_kamerun_ducks_rather_than_takes():
    """Leading the Ace would take 41 points; leading the 9, the King must head it, its holder leads leaves and
    forehand throws the Ace under the leaves Ace: he takes nothing (found by a review: the side once maximised)."""
    result = cmd.solve("EA E9 / EK L9 / LA LK / SA S9", "KA", last_led="S")
    assert result["value"] == 0 and result["tricks"][0]["plays"][0] == (0, "E9")


def rufen_reference(hands, call: int) -> int:
    """The side's points in a full Rufen deal: a minimax over the first trick's cards under §3.3.1 (forehand
    leads a trump, the called card's holder plays it), the solver for the rest."""
    n, trump = len(hands), naive.suit(call)
    side = {0} | {s for s, h in enumerate(hands) if call in h}

    def options(pos, played):
        if call in hands[pos]:
            return [call]
        if not played:
            return sorted(c for c in hands[pos] if naive.suit(c) == trump)
        return sorted(naive.legal_follow(hands[pos], played, trump))

    def first_trick(played):
        pos = len(played)
        if pos == n:
            winner = naive.winner_slot(played, trump)
            rest = [DECK.mask(h - set(played)) for h in hands]
            gain = sum(r.POINTS[c] for c in played) if winner in side else 0
            return gain + dd.solve(rest, winner, trump, side)
        values = [first_trick(played + [c]) for c in options(pos, played)]
        return max(values) if pos in side else min(values)

    return first_trick([])


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("n", [3, 4])
def test_rufen_first_trick_duties(seed, n):
    hands = random_hands(40 + seed, n)
    call = next(c for c in sorted(hands[1 + seed % (n - 1)]) if any(naive.suit(d) == naive.suit(c) for d in hands[0]))
    result = cmd.solve(deal_text(hands), "RU", call=DECK.token(call))
    holder = 1 + seed % (n - 1)
    assert result["side"] == [0, holder] and result["trump"] == DECK.suits[naive.suit(call)]
    assert result["value"] == rufen_reference(hands, call)
    taken = replay(result, naive.suit(call), call=call)
    assert taken[0] + taken[holder] == result["value"]


def test_rufen_deliberate_solo_leads_the_called_card():
    """Spec §7.8 U4: forehand calls S-A from his own cards: he plays alone and must lead it."""
    hands = [cards("SA S9 LK EA E10 HU"), cards("S10 SK L9 LU EO H9"), cards("SO SU LA L10 E9 HA"),
             cards("EK EU LO H10 HK HO")]
    result = cmd.solve(deal_text(hands), "RU", call="SA")
    assert result["side"] == [0] and result["tricks"][0]["plays"][0] == (0, "SA")
    assert result["value"] == rufen_reference(hands, DECK.parse_cards("SA")[0])


def test_rufen_three_players_partner_is_the_holder():
    """Spec §7.8 U6: with 3 players forehand and the called card's holder play against the third."""
    hands = random_hands(7, 3)
    call = next(c for c in sorted(hands[1]) if any(naive.suit(d) == naive.suit(c) for d in hands[0]))
    result = cmd.solve(deal_text(hands), "RU", call=DECK.token(call))
    assert result["side"] == [0, 1] and result["tricks"][0]["plays"][1] == (1, DECK.token(call))


def test_options_change_the_play_rules():
    """kamerun5_no_head: follow suit only (FOLLOW); every play is then legal under follow-only duties."""
    hands = random_hands(50, 4)
    result = cmd.solve(deal_text(hands), "KA", options=["kamerun5_no_head=true"])
    forced = dd.solve([DECK.mask(h) for h in hands], 0, -1, {1, 2, 3}, mode=r.FOLLOW, last_led=-1, counted={0})
    assert result["value"] == forced and result["options"] == {"kamerun5_no_head": True}
    under = cmd.solve(deal_text(hands), "66", trump="L", options={"no_undertrump_duty": True})
    assert under["value"] == dd.solve([DECK.mask(h) for h in hands], 0, 1, {0}, flags=r.NO_UNDERTRUMP)


def test_cli_text_and_json(capsys):
    deal = "HA H10 HK HO E9 L9 / EA E10 EK EO EU S9 / LA L10 LK LO LU H9 / SA S10 SK SO SU HU"
    assert main(["solve", "dreeg", "--deal", deal, "--trump", "H"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Dreeg double dummy: Sechsundsechzig, 4 players, trump H (Herz), position 0 leads")
    assert "  position 0:            75   (takes as many as it can)" in text
    assert main(["solve", "dreeg", "--deal", deal, "--trump", "H", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == "dreeg" and data["value"] == 75 and data["others"] == 45 and len(data["tricks"]) == 6
    assert data["tricks"][0]["plays"][0] == [0, data["tricks"][0]["plays"][0][1]]


DEAL = "SA S9 LK EA E10 HU / S10 SK L9 LU EO H9 / SO SU LA L10 E9 HA / EK EU LO H10 HK HO"


@pytest.mark.parametrize("argv, message", [
    (["--subgame", "XX", "--trump", "H"], "--subgame must be one of 66, RA, RU, KA"),
    (["--subgame", "66"], "Sechsundsechzig needs --trump SUIT"),
    (["--subgame", "KA", "--trump", "H"], "Kamerun has no trump"),
    (["--subgame", "RU"], "a full Rufen deal needs --call CARD"),
    (["--subgame", "RU", "--call", "S10", "--trump", "H"], "the called card's suit (S) is trump"),
    (["--subgame", "RU", "--call", "S10 SK"], "--call takes one card"),
    (["--subgame", "RU", "--call", "S10", "--leader", "2"], "forehand (position 0) leads the first trick"),
    (["--subgame", "RA", "--trump", "H", "--side", "1"], "the rule fixes the side of this deal (position 2, §3.2.1)"),
    (["--trump", "H", "--side", "0,1"], "everyone plays for himself; give one position"),
    (["--trump", "H", "--side", "0,1,2,3"], "leave one out"),
    (["--trump", "H", "--side", "7"], "--side must be 0, 1, 2 or 3"),
    (["--trump", "H", "--last-led", "E"], "--last-led applies only to a Kamerun ending"),
    (["--trump", "H", "--call", "S10"], "--call applies only to Rufen"),
    (["--trump", "H", "--option", "kamerun5_no_head=true"], "option kamerun5_no_head=true does not change"),
    (["--subgame", "KA", "--option", "no_undertrump_duty=true"], "option no_undertrump_duty=true does not change"),
    (["--subgame", "RA", "--trump", "E", "--option", "rot_assen_trump=hearts"], "names hearts"),
    (["--trump", "Q"], "is not a suit"),
    (["--trump", "H", "--leader", "4"], "--leader must be 0, 1, 2 or 3"),
])
def test_bad_input_exits_2_with_one_line(capsys, argv, message):
    assert main(["solve", "dreeg", "--deal", DEAL] + argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize("deal, message", [
    ("SA S9 LK", "--deal needs 2, 3 or 4 hands"),
    ("SA / S9 / LK / EA / E10", "--deal needs 2, 3 or 4 hands"),
    ("SA S9 / S10 SK / SO", "the hands of positions 0-2 hold 2, 2 and 1 cards"),
    ("SA S9 / SA SK", "SA"),
    ("SA S9 LK EA E10 HU LU / S10 SK L9 LO EO H9 SO", "every hand needs the same number of cards, 1 to 6"),
])
def test_bad_deals(deal, message):
    with pytest.raises(CardsimError, match=message):
        cmd.solve(deal, "66", trump="H")


def test_two_player_rot_assen_closed_without_trump():
    """§3.2.2: a talon closed before the heart Ace was announced leaves the hand without trump."""
    hands = random_hands(70, 2)
    result = cmd.solve(deal_text(hands), "RA", trump="none")
    assert result["trump"] is None and result["value"] == naive.minimax(hands, 0, None, {0})
    with pytest.raises(CardsimError, match="applies only to a 2-player Rot Assen"):
        cmd.solve(deal_text(random_hands(70, 4)), "RA", trump="none")


@pytest.mark.parametrize("side, expected", [("0 2", [0, 2]), (" 1, 3 ", [1, 3]), (2, [2]), ((0, "2"), [0, 2]),
                                            ([3], [3])])
def test_side_forms(side, expected):
    hands = random_hands(80, 4, size=2)
    assert cmd.solve(deal_text(hands), "RU", trump="S", side=side)["side"] == expected


@pytest.mark.parametrize("side", [{1: 0}, b"1", 1.5, [0.5], None.__class__])
def test_side_refuses_other_types(side):
    with pytest.raises(CardsimError, match="--side"):
        cmd.solve(deal_text(random_hands(80, 4, size=2)), "RU", trump="S", side=side)


def test_trump_none_and_last_led_messages():
    four = deal_text(random_hands(81, 4, size=2))
    with pytest.raises(CardsimError, match="--trump none applies only to a 2-player Rot Assen"):
        cmd.solve(four, "66", trump="none")
    with pytest.raises(CardsimError, match="--last-led 'X' is not a suit"):
        cmd.solve(four, "KA", last_led="X")
    with pytest.raises(CardsimError, match="a hand holds the heart Ace"):
        cmd.solve("HA S9 / S10 SK", "RA", trump="none")
    with pytest.raises(CardsimError, match="the heart Ace's holder plays alone"):
        cmd.solve("SA S9 / S10 SK / SO SU / EA E10", "RA", trump="S", side="0,2")


def test_team_endings_need_their_side():
    with pytest.raises(CardsimError, match="a Rufen ending needs --side"):
        cmd.solve("SA S9 / S10 SK / SO SU / EA E10", "RU", trump="S")
    with pytest.raises(CardsimError, match="a Rot Assen ending needs --side"):
        cmd.solve("SA S9 / S10 SK / SO SU / EA E10", "RA", trump="S")
    ending = cmd.solve("SA S9 / S10 SK / SO SU / EA HA", "RA", trump="S")
    assert ending["side"] == [3]  # the heart Ace still in a hand names the soloist
    assert cmd.solve("SA S9 / S10 SK / SO SU / EA E10", "RU", trump="S", side="0,2")["side"] == [0, 2]


def test_kamerun_needs_three_players_and_an_ending_its_last_suit():
    with pytest.raises(CardsimError, match="Kamerun is played by 3 or 4 players"):
        cmd.solve("SA S9 / S10 SK", "KA")
    with pytest.raises(CardsimError, match="a Kamerun ending needs --last-led SUIT"):
        cmd.solve("SA S9 / S10 SK / SO SU", "KA")


def test_every_legal_first_card_is_tried():
    """The value at the root is the best over every legal lead, as a full minimax on a small ending says."""
    for seed, n in itertools.product(range(5), (2, 3, 4)):
        hands = random_hands(60 + seed, n, size=2)
        result = cmd.solve(deal_text(hands), "66", trump="S", leader=str(seed % n))
        assert result["value"] == naive.minimax(hands, seed % n, 3, {0})
