"""`cardsim solve bauernstoss` and `cardsim solve pinochle3`: the solvers' values, a legal line of play that
scores them, and bad input refused with one line."""

import json

import numpy as np
import pytest

from analysis.cli import main
from analysis.games.bauernstoss_play import solve as solve_bauernstoss
from simcore.errors import CardsimError
from simcore.games import bauernstoss as bs
from simcore.games import bauernstoss_play as bs_play
from simcore.games import bauernstoss_solve as bs_solve
from simcore.games import pinochle3 as p
from simcore.games import pinochle3_play as p_play
from simcore.games import pinochle3_solve as p_solve

BS_DEAL = "c7 s8 sB h7 hD hK hA dB / cK cT s9 sK sA d7 d8 dD / c9 cD sT h8 h9 hB d9 dA / c8 cB cA s7 sD hT dK dT"
PN_ENDING = "SQ HK D9 D10 / S9 S10 DA CA / SQ SK C9 CQ"


def run_json(capsys, *argv) -> dict:
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def masks(deck, deal: str) -> np.ndarray:
    groups = deck.parse_groups({str(s): part for s, part in enumerate(deal.split("/"))})
    return np.array([deck.mask(cards) for cards in groups.values()], dtype=np.uint64)


def replay(tricks, hands, seats: int, legal, winner_slot, card_of) -> dict:
    """Play a solve's tricks from ``hands`` (seat -> set of cards), checking each card is held and legal
    (``legal(hand, trick, count)`` -> mask) and each trick's winner; returns seat -> trick points."""
    taken = {s: 0 for s in range(seats)}
    for trick in tricks:
        cards = []
        for seat, token in trick["plays"]:
            card = next(c for c in sorted(hands[seat]) if card_of(c) == token)
            padded = np.array(cards + [0] * (seats - len(cards)), dtype=np.int64)
            assert int(legal(np.uint64(sum(1 << c for c in hands[seat])), padded, len(cards))) >> card & 1
            hands[seat].discard(card)
            cards.append(card)
        assert trick["plays"][winner_slot(np.array(cards, dtype=np.int64))][0] == trick["winner"]
        taken[trick["winner"]] += trick["points"]
    assert not any(hands.values())
    return taken


def test_bauernstoss_solve_gives_the_solvers_points_and_a_line_that_scores_them(capsys):
    out = run_json(capsys, "solve", "bauernstoss", "--deal", BS_DEAL, "--trump", "h")
    hands = masks(bs.DECK, BS_DEAL)
    team1 = int(bs_solve.solve_points(hands[None], 2, 1, 1)[0])
    assert out["points"] == [120 - team1, team1] and out["total"] == 120 and out["leader"] == 1
    held = {s: set(bs.DECK.cards_of(int(h))) for s, h in enumerate(hands)}
    rule = bs_play.play_rule("BS", "overtake_when_trumping")
    taken = replay(out["tricks"], held, bs.SEATS, lambda h, t, n: bs_play.legal_mask(h, t, n, 2, rule),
                   lambda cards: int(bs_play.winning_slot(cards, bs.SEATS, 2)), bs.DECK.token)
    assert [taken[0] + taken[2], taken[1] + taken[3]] == out["points"]


def test_bauernstoss_solve_of_an_ending_and_the_variants(capsys):
    ending = "c7 s8 / cK cT / c9 cD / c8 cB"
    out = run_json(capsys, "solve", "bauernstoss", "--deal", ending, "--trump", "h", "--leader", "0")
    # seat 1's cK takes trick 1 (4); seat 3 cannot follow clubs and trumps trick 2 with the club jack (15)
    assert out["points"] == [0, 19] and out["total"] == 19 and len(out["tricks"]) == 2
    for variant in ("AS", "DS"):
        other = run_json(capsys, "solve", "bauernstoss", "--deal", BS_DEAL, "--trump", "h", "--variant", variant)
        rule = bs_play.play_rule(variant)
        team0 = int(bs_solve.solve_points(masks(bs.DECK, BS_DEAL)[None], 2, 1, 0, rule)[0])
        assert other["variant"] == variant and other["points"][0] == team0


def test_bauernstoss_solve_text(capsys):
    assert main(["solve", "bauernstoss", "--deal", BS_DEAL, "--trump", "h"]) == 0
    out = capsys.readouterr().out
    assert "card points under perfect play (of 120 in play)" in out and "trick 8: " in out


def test_pinochle_solve_gives_the_solvers_points_and_a_line_that_scores_them(capsys):
    hands = masks(p.DECK, PN_ENDING)
    for bidder, leader in ((0, 0), (1, 2)):
        out = run_json(capsys, "solve", "pinochle3", "--deal", PN_ENDING, "--trump", "D", "--bidder", str(bidder),
                       "--leader", str(leader), "--line")
        value = int(p_solve.solve(hands, 2, leader, bidder)[0])
        assert out["bidder_points"] == value and out["defender_points"] == 70 - value and out["total"] == 70
        held = {s: set(p.DECK.cards_of(int(h))) for s, h in enumerate(hands)}
        taken = replay(out["tricks"], held, p.SEATS, lambda h, t, n: p_play.legal_cards(h, t, n, 2, p_play.OLD),
                       lambda cards: int(p_play.winning_slot(cards, p.SEATS, 2)), p.DECK.token)
        assert taken[bidder] == value and out["tricks"][0]["plays"][0][0] == leader


def test_pinochle_solve_without_line_and_text(capsys):
    out = run_json(capsys, "solve", "pinochle3", "--deal", PN_ENDING, "--trump", "D")
    assert out["tricks"] is None and out["leader"] == out["bidder"] == 0
    assert main(["solve", "pinochle3", "--deal", PN_ENDING, "--trump", "D", "--rule", "new1945"]) == 0
    text = capsys.readouterr().out
    assert "play rule new1945" in text and "(--line prints one line of perfect play)" in text


@pytest.mark.parametrize("argv, message", [
    (["bauernstoss", "--deal", BS_DEAL.rsplit("/", 1)[0], "--trump", "h"], "needs 4 hands"),
    (["bauernstoss", "--deal", "c7 s8 / cK cT / c9 cD / c8", "--trump", "h"],
     "the hands of seats 0-3 hold 2, 2, 2 and 1 cards; every hand needs the same number of cards, 1 to 8"),
    (["bauernstoss", "--deal", BS_DEAL.replace("dB /", "dB d9 /"), "--trump", "h"], "d9 is given 2 times"),
    (["bauernstoss", "--deal", BS_DEAL, "--trump", "x"], "not a suit"),
    (["bauernstoss", "--deal", BS_DEAL, "--trump", "h", "--leader", "4"], "--leader must be 0, 1, 2 or 3"),
    (["bauernstoss", "--deal", BS_DEAL, "--trump", "h", "--variant", "XX"], "variant"),
    (["bauernstoss", "--deal", BS_DEAL, "--trump", "h", "--variant", "DS", "--jack-rule", "off"],
     "--jack-rule applies only with --variant BS"),
    (["bauernstoss", "--deal", BS_DEAL, "--trump", "h", "--jack-rule", "sometimes"], "jack_rule"),
    (["pinochle3", "--deal", PN_ENDING, "--trump", "D", "--bidder", "3"], "--bidder must be 0, 1 or 2, got '3'"),
    (["pinochle3", "--deal", PN_ENDING, "--trump", "D", "--leader", "x"], "--leader must be 0, 1 or 2, got 'x'"),
    (["pinochle3", "--deal", PN_ENDING.replace("CQ", "SQ"), "--trump", "D"], "SQ is given 3 times"),
    (["pinochle3", "--deal", PN_ENDING.replace(" CQ", ""), "--trump", "D"], "seats 0-2 hold 4, 4 and 3 cards"),
    (["pinochle3", "--deal", PN_ENDING, "--trump", "D", "--rule", "newest"], "unknown play rule 'newest' (--rule"),
    (["pinochle3", "--deal", PN_ENDING, "--trump", "Z"], "--trump 'Z' is not a suit"),
])
def test_solve_bad_input(capsys, argv, message):
    assert main(["solve", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


@pytest.mark.parametrize("argv, message", [
    # seat 0 is the odd hand out: the message named seat 1, whose 2 cards are as many as seats 2 and 3 hold
    (["bauernstoss", "--deal", "c7 s8 s9 / cK cT / c9 cD / c8 cB", "--trump", "h"],
     "--deal: the hands of seats 0-3 hold 3, 2, 2 and 2 cards; every hand needs the same number of cards, 1 to 8"),
    # a full deal short of one card in seat 0 named seat 1 "holds 8 cards" as if 8 were not allowed
    (["bauernstoss", "--deal", BS_DEAL.replace(" dB /", " /"), "--trump", "h"], "hold 7, 8, 8 and 8 cards"),
    (["bauernstoss", "--deal", "///", "--trump", "h"], "hold 0, 0, 0 and 0 cards"),
    (["pinochle3", "--deal", "SQ / S9 S10 / SK", "--trump", "D"],
     "--deal: the hands of seats 0-2 hold 1, 2 and 1 cards"),
])
def test_solve_deal_of_unequal_hands_gives_every_hand_size(capsys, argv, message):
    assert main(["solve", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


@pytest.mark.parametrize("variant", ["AS", "DS"])
def test_bauernstoss_jack_rule_given_with_as_or_ds_is_refused_even_the_default(capsys, variant):
    # the default jack rule given explicitly with AS/DS was accepted and ignored
    assert main(["solve", "bauernstoss", "--deal", BS_DEAL, "--trump", "h", "--variant", variant,
                 "--jack-rule", "overtake_when_trumping"]) == 2
    err = capsys.readouterr().err.strip()
    assert "--jack-rule applies only with --variant BS" in err and "\n" not in err
    with pytest.raises(CardsimError, match="applies only with --variant BS"):
        solve_bauernstoss(BS_DEAL, "h", variant=variant, jack_rule="overtake_when_trumping")
    # and the result names no jack rule for a variant that has none
    out = run_json(capsys, "solve", "bauernstoss", "--deal", BS_DEAL, "--trump", "h", "--variant", variant)
    assert out["variant"] == variant and out["jack_rule"] is None
    assert run_json(capsys, "solve", "bauernstoss", "--deal", BS_DEAL, "--trump", "h")["jack_rule"] == \
        "overtake_when_trumping"


def test_bauernstoss_ending_text_compares_no_point_levels(capsys):
    # 42/61/79/91 are aims for a whole deal; an ending's points leave out the tricks already taken
    assert main(["solve", "bauernstoss", "--deal", "c7 s8 / cK cT / c9 cD / c8 cB", "--trump", "h",
                 "--leader", "0"]) == 0
    out = capsys.readouterr().out
    assert "reaches" not in out and "(of 19 in play; an ending: tricks already taken are not counted)" in out
    assert "  team 1 (seats 1 and 3):  19\n" in out


@pytest.mark.parametrize("variant,marks,absent", [
    ("BS", [">=42 chalk", ">=79 no chalk", ">=91 schneider"], [">=89"]),
    ("AS", [">=42 chalk", ">=61 1st hand", ">=79 no chalk", ">=89 schneider"], [">=91"]),
    ("DS", [">=61 makes", "<=59 opp score", ">=91 +2"], [">=42", ">=79"]),
])
def test_bauernstoss_solve_marks_the_variants_own_levels(capsys, variant, marks, absent):
    assert main(["solve", "bauernstoss", "--deal", BS_DEAL, "--trump", "h", "--variant", variant]) == 0
    team_lines = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  team ")]
    assert len(team_lines) == 2
    for line in team_lines:
        points, verdicts = line.split(":", 1)[1].split(None, 1)
        assert all(mark in verdicts for mark in marks) and not any(mark in verdicts for mark in absent)
        for verdict in verdicts.split(", "):  # e.g. ">=42 chalk yes", "<=59 opp score no"
            level, answer = int(verdict[2:].split()[0]), verdict.rsplit(" ", 1)[1]
            reached = int(points) <= level if verdict.startswith("<=") else int(points) >= level
            assert answer == ("yes" if reached else "no"), line


def test_pinochle_trump_by_name(capsys):
    by_letter = run_json(capsys, "solve", "pinochle3", "--deal", PN_ENDING, "--trump", "D")
    assert run_json(capsys, "solve", "pinochle3", "--deal", PN_ENDING, "--trump", "Diamonds") == by_letter


SOLO_DEAL = "cB hB sB dB cA cT hA hT / c7 c8 c9 s7 s8 s9 h7 h8 / cD cK sD sK hD hK dD dK / sT sA h9 d7 d8 d9 dT dA"
TRUMPS_ONLY = "cB hB sB dB hA hT hK hD / c7 c8 c9 s7 s8 s9 h7 h8 / cD cK sD sK cA cT dD dK / sT sA h9 d7 d8 d9 dT dA"


@pytest.mark.parametrize("deal, won", [(SOLO_DEAL, False), (TRUMPS_ONLY, True)])
def test_bauernstoss_solo_asks_whether_the_soloist_takes_every_trick(capsys, deal, won):
    out = run_json(capsys, "solve", "bauernstoss", "--deal", deal, "--trump", "h", "--solo", "0")
    # soloist 0 deals: forehand (seat 1) leads (§5.4); in the first deal seat 1 leads a club, seat 3 trumps it
    # with h9 and the soloist must follow clubs
    assert out["solo"] == 0 and out["leader"] == bs_play.solo_leader(0, 0) == 1 and out["solo_won"] is won
    assert out["solo_won"] == bool(bs_solve.solo_wins(masks(bs.DECK, deal)[None], 2, 0, 1)[0])
    # one line of perfect play, three cards a trick (seat 2 sits out): all 8 tricks won, or up to the lost one
    assert out["points"] is None and all(len(t["plays"]) == 3 for t in out["tricks"])
    assert [t["winner"] == 0 for t in out["tricks"]] == ([True] * 8 if won else [False])
    assert main(["solve", "bauernstoss", "--deal", deal, "--trump", "h", "--solo", "0"]) == 0
    text = capsys.readouterr().out
    assert ("the soloist takes every trick" if won else "cannot take every trick") in text
    assert "trick 1: 1:c7  3:h9  0:cT  -> seat 3 (the solo is lost)" in text or won


def test_bauernstoss_solo_leader_follows_section_5_4(capsys):
    out = run_json(capsys, "solve", "bauernstoss", "--deal", BS_DEAL, "--trump", "h", "--solo", "3")
    assert out["leader"] == 2  # forehand (seat 1) is the soloist's partner: the dealer's partner leads


@pytest.mark.parametrize("extra, message", [
    (["--solo", "2"], "--solo 2: only the holder of the club jack (cB) may play a solo (§4.7), and seat 3, a "
                      "defender, holds it"),
    (["--solo", "3", "--variant", "DS"], "Deutscher Schafkopf has no solos"),
    (["--solo", "3", "--leader", "1"], "--leader 1 is the soloist's partner, who sits out the solo"),
    (["--solo", "5"], "--solo must be 0, 1, 2 or 3"),
])
def test_bauernstoss_solo_bad_input(capsys, extra, message):
    assert main(["solve", "bauernstoss", "--deal", BS_DEAL, "--trump", "h", *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


@pytest.mark.parametrize("soloist, leader", [(0, 1), (1, 1), (2, 1), (3, 2)])
def test_bauernstoss_solo_of_every_seat(capsys, soloist, leader):
    """Every soloist seat (dealer 0) with the §5.4 leader; the jacks' hand turned to the soloist's seat."""
    hands = SOLO_DEAL.split(" / ")
    deal = " / ".join(hands[-soloist:] + hands[:-soloist] if soloist else hands)
    out = run_json(capsys, "solve", "bauernstoss", "--deal", deal, "--trump", "h", "--solo", str(soloist))
    assert out["leader"] == leader == bs_play.solo_leader(0, soloist)
    assert out["solo_won"] == bool(bs_solve.solo_wins(masks(bs.DECK, deal)[None], 2, soloist, leader)[0])


def test_bauernstoss_solo_with_the_club_jack_given_to_the_partner(capsys):
    """After a Small Solo exchange the partner (out of play) may hold cB: the solo is still the soloist's."""
    out = run_json(capsys, "solve", "bauernstoss", "--deal", SOLO_DEAL, "--trump", "h", "--solo", "2")
    assert out["solo"] == 2 and out["leader"] == 1 and out["solo_won"] is False


def test_bauernstoss_lost_solo_says_how_long_the_soloist_holds_out(capsys):
    """Five trumps against defenders with one between them (the README's example): five tricks, then the first
    plain card loses; an ending won outright holds out for all its tricks."""
    deal = "c7 cD cK cT s8 s9 sA d9 / cB s7 sK h9 hB hT hA dK / c8 c9 sD sT d7 d8 dB dA / cA sB h7 h8 hD hK dD dT"
    out = run_json(capsys, "solve", "bauernstoss", "--deal", deal, "--trump", "h", "--solo", "1")
    assert out["solo_won"] is False and out["solo_tricks"] == 5 and len(out["tricks"]) == 6
    assert [t["winner"] for t in out["tricks"]] == [1, 1, 1, 1, 1, 0]
    assert main(["solve", "bauernstoss", "--deal", deal, "--trump", "h", "--solo", "1"]) == 0
    assert "holding out as long as he can, he takes 5 tricks before the defenders win one" in capsys.readouterr().out
    out = run_json(capsys, "solve", "bauernstoss", "--deal", "hB hA / c7 c8 / / sT sA", "--trump", "h", "--solo", "0")
    assert out["solo_won"] is True and out["solo_tricks"] == 2


def test_bauernstoss_solo_ending_is_led_by_the_soloist(capsys):
    """After the first trick the soloist has won every trick, so he leads; cB may be played already."""
    ending = "hB hA / c7 c8 / cD cK / sT sA"
    out = run_json(capsys, "solve", "bauernstoss", "--deal", ending, "--trump", "h", "--solo", "0")
    assert out["leader"] == 0 and out["solo_won"] is True
    assert main(["solve", "bauernstoss", "--deal", ending, "--trump", "h", "--solo", "0", "--leader", "1"]) == 2
    assert "in a solo ending the soloist (seat 0) leads" in capsys.readouterr().err


@pytest.mark.parametrize("partner", ["", "s7 s8 s9 sD sK d7 d8 d9"])
def test_bauernstoss_solo_ending_takes_the_partner_hand_of_any_size(capsys, partner):
    """The partner sits out and plays no card: his hand may be left empty or given whole (8 cards)."""
    ending = f"hB hA / c7 c8 / {partner} / sT sA"
    out = run_json(capsys, "solve", "bauernstoss", "--deal", ending, "--trump", "h", "--solo", "0")
    assert out["leader"] == 0 and out["solo_won"] is True


def test_bauernstoss_solo_ending_of_unequal_playing_hands(capsys):
    assert main(["solve", "bauernstoss", "--deal", "hB hA / c7 / / sT sA", "--trump", "h", "--solo", "0"]) == 2
    assert capsys.readouterr().err.strip().endswith(
        "the hands of seats 0, 1 and 3 hold 2, 1 and 2 cards; every hand but seat 2's (who sits out) needs the "
        "same number of cards, 1 to 8")


def test_ctrl_c_stops_a_solve_at_once(capsys, monkeypatch, python_ctrl_c):
    """Ctrl-C (SIGINT) during a long solve: exit 130 with one line at once, not when the (GIL-free) solve
    returns; `interruptible` passes on the call's value and errors."""
    import signal
    import threading
    import time

    from analysis.games import pinochle3_play
    from analysis.solving import interruptible

    assert interruptible(pow, 2, 10) == 1024
    with pytest.raises(ZeroDivisionError):
        interruptible(divmod, 1, 0)
    monkeypatch.setattr(pinochle3_play, "solve", lambda *args: time.sleep(30))
    # the signal sent to this thread (`python_ctrl_c`: once the interrupt was lost and the sleep ran its 30 s)
    threading.Timer(0.2, signal.pthread_kill, (threading.get_ident(), signal.SIGINT)).start()
    start = time.monotonic()
    code = main(["solve", "pinochle3", "--deal", PN_ENDING, "--trump", "D"])
    assert code == 130
    assert time.monotonic() - start < 5
    assert capsys.readouterr().err == "cardsim: interrupted\n"


def test_bauernstoss_variant_in_any_case(capsys):
    ending = "hB hA / c7 c8 / cD cK / sT sA"
    assert run_json(capsys, "solve", "bauernstoss", "--deal", ending, "--trump", "h",
                    "--variant", "as")["variant"] == "AS"
    assert main(["solve", "bauernstoss", "--deal", ending, "--trump", "h", "--variant", "ds", "--solo", "0"]) == 2
    assert "Deutscher Schafkopf has no solos" in capsys.readouterr().err


PN_FULL = ("S9 SJ SQ DJ DK D10 C9 CJ CQ CQ CK C10 C10 CA CA / S9 SQ SA H9 HJ HQ HK H10 HA DQ DQ DK DA CJ CK / "
           "SJ SK SK S10 SA HJ HQ HK H10 HA D9 D9 DJ DA C9")


@pytest.mark.parametrize("bid, made", [(250, True), (370, True), (380, False)])
def test_pinochle_solve_scores_the_contract(capsys, bid, made):
    """R6.1: meld of the bidder's 15 (rope 150 + pinochle 40 + deece 10 in clubs) + the counters of the 3
    cards in no hand (his discard: S10 H9 D10, 20) + trick points under perfect play, against the bid."""
    out = run_json(capsys, "solve", "pinochle3", "--deal", PN_FULL, "--trump", "C", "--bid", str(bid))
    c = out["contract"]
    assert (c["meld"], c["buried"], c["buried_points"]) == (200, "S10 H9 D10", 20)
    assert c["trick_points"] == out["bidder_points"] and c["total"] == 220 + out["bidder_points"]
    assert c["made"] is made and c["score"] == (c["total"] if made else -bid)
    assert run_json(capsys, "solve", "pinochle3", "--deal", PN_FULL, "--trump", "C")["contract"] is None


@pytest.mark.parametrize("argv, message", [
    (["--deal", PN_FULL, "--trump", "C", "--bid", "255"], "bid 255 is not a multiple of 10 (R4.2b)"),
    (["--deal", PN_FULL, "--trump", "C", "--bid", "200"], "bid 200 is below the minimum bid 250 (R4.2a)"),
    (["--deal", "SA / SK / SQ", "--trump", "C", "--bid", "250"], "--bid needs the full deal"),
])
def test_pinochle_solve_bad_bid(capsys, argv, message):
    assert main(["solve", "pinochle3", *argv]) == 2
    assert message in capsys.readouterr().err


PN_DOUBLE_PINOCHLE = ("SJ SQ SQ DJ DJ D10 C9 CJ CQ CQ CK C10 C10 CA CA / S9 S9 SA H9 HJ HQ HK H10 HA DQ DQ DK DA CJ "
                      "CK / SJ SK SK S10 SA HJ HQ HK H10 HA D9 D9 DK DA C9")
"""PN_FULL with the bidder's S9 and DK swapped for seat 1's SQ and seat 2's DJ: a double pinochle (300, V5: 80)."""


def test_pinochle_solve_contract_under_meld_options_and_scale(capsys):
    """--option reaches the contract: double_bonus=False values the double pinochle at 2 x 40 (V5), scale=0.1
    divides every point and the bid's minimum and step by 10 (V12), the play unchanged."""
    deal = ["solve", "pinochle3", "--deal", PN_DOUBLE_PINOCHLE, "--trump", "C"]
    main_game = run_json(capsys, *deal, "--bid", "400")
    plain = run_json(capsys, *deal, "--bid", "400", "--option", "double_bonus=False")
    assert main_game["contract"]["meld"] - plain["contract"]["meld"] == 300 - 80
    assert plain["options"] == {"double_bonus": False} and main_game["options"] == {}
    assert plain["bidder_points"] == main_game["bidder_points"]
    scaled = run_json(capsys, *deal, "--bid", "40", "--option", "scale=0.1")
    for key in ("bidder_points", "defender_points", "total"):
        assert scaled[key] * 10 == main_game[key]
    for key in ("meld", "buried_points", "trick_points", "total"):
        assert scaled["contract"][key] * 10 == main_game["contract"][key]
    assert scaled["contract"]["made"] == main_game["contract"]["made"]
    assert main(deal + ["--option", "scale=0.1"]) == 0
    assert "(of 23 in play: 1 a counter, 1 the last trick" in capsys.readouterr().out


def test_pinochle_solve_line_points_under_scale(capsys):
    out = run_json(capsys, "solve", "pinochle3", "--deal", PN_ENDING, "--trump", "D", "--line", "--option",
                   "scale=0.1")
    assert sum(t["points"] for t in out["tricks"]) == out["total"] == 7  # 6 counters and the last trick


def test_pinochle_solve_play_rule_as_an_option(capsys):
    by_option = run_json(capsys, "solve", "pinochle3", "--deal", PN_ENDING, "--trump", "D", "--option",
                         "play_rule=new1945")
    assert by_option["rule"] == "new1945"
    by_flag = run_json(capsys, "solve", "pinochle3", "--deal", PN_ENDING, "--trump", "D", "--rule", "new1945")
    assert by_flag["bidder_points"] == by_option["bidder_points"]


@pytest.mark.parametrize("extra, message", [
    (["--option", "double_bonus=False"], "option double_bonus=False changes only the contract's score: add --bid"),
    (["--option", "min_bid=300"], "option min_bid=300 changes only the contract's score"),
    (["--option", "min_bid=300", "--option", "double_bonus=False"],
     "options min_bid=300 and double_bonus=False change only the contract's score: add --bid B or drop them"),
    (["--bid", "29", "--option", "scale=0.1", "--option", "min_bid=300"], "bid 29 is below the minimum bid 30 (R4.2a)"),
    (["--bid", "250", "--option", "min_bid=300"], "bid 250 is below the minimum bid 300 (R4.2a)"),
    (["--bid", "250", "--option", "scale=0.1"], "bid 250 can never be made"),
    (["--option", "target=1000"], "option target does not change 'cardsim solve pinochle3'"),
    (["--option", "play_rule=old_strict", "--rule", "old"], "--rule old and --option play_rule=old_strict disagree"),
    (["--option", "colour=red"], "colour"),
])
def test_pinochle_solve_bad_options(capsys, extra, message):
    assert main(["solve", "pinochle3", "--deal", PN_FULL, "--trump", "C", *extra]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
