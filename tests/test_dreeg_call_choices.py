"""`cardsim odds dreeg --call all` and `--trump all` (spec §6.2, Rufen: "P(team reaches 66) for each legal call,
given FH's first 3 cards", "which card to call", "deliberate solo"; Rot Assen: "stroke distribution for each trump
choice", the surrender threshold): every choice on the same deals, a row each, each row the odds of that one choice."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from analysis.cli import main
from analysis.games import dreeg as api
from simcore.errors import CardsimError
from simcore.games.dreeg import DECK
from simcore.games.dreeg_odds import HandQuestion
from simcore.rng import block_stream

HAND = "SA S9 LK EA E10 HU"
"""Forehand's first packet SA S9 LK: the calls are the twelve spade and leaf cards, three of them his own."""


def test_legal_calls_are_the_suits_of_the_first_packet():
    question = HandQuestion(3, 4, tuple(DECK.parse_cards(HAND)))
    calls = [DECK.token(c) for c in api.legal_calls(question)]
    assert sorted(calls) == sorted(f"{s}{r}" for s in "SL" for r in ("9", "U", "O", "K", "10", "A"))
    three = HandQuestion(3, 3, tuple(DECK.parse_cards("HA H9 H10 SA S9 LK EA E10")))
    assert {DECK.token(c)[0] for c in api.legal_calls(three)} == {"H"}


def test_each_row_equals_the_odds_of_that_call():
    every = api.odds(3, HAND, call="all", n=600, seed=5, checkpoint=False, progress=False).set_index("quantity")
    assert len(every) == 12 * len(api.CHOICE_ESTIMATES)
    for call in ("LA", "S9", "SU"):
        one = api.odds(3, HAND, call=call, n=600, seed=5, checkpoint=False, progress=False).set_index("quantity")
        for key in ("reach66", "erase.0", "schneider", "schwarz"):
            assert every.loc[f"{call}.{key}", "p"] == one.loc[key, "p"]
        for key, prefix in (("strokes", "erase"), ("opp_strokes", "opp_erase")):
            mean = sum(k * one.loc[f"{prefix}.{k}", "p"] for k in range(4))
            assert every.loc[f"{call}.{key}", "p"] == pytest.approx(mean)
    frame = api.odds(3, HAND, call="all", n=600, seed=5, checkpoint=False, progress=False)
    solos = {entry["choice"] for entry in frame.attrs["choices"] if entry["note"] == "solo"}
    assert solos == {"SA", "S9", "LK"}
    values = frame.set_index("quantity").p
    net = {e["choice"]: values[f"{e['choice']}.strokes"] - values[f"{e['choice']}.opp_strokes"]
           for e in frame.attrs["choices"]}
    assert frame.attrs["best"] == max(net, key=net.get)


def test_first_packet_alone_and_the_second_packets_calls():
    """Forehand calls having seen his first packet (§3.3.1): --hand may give those 3 cards alone, the rest dealt at
    random; with the whole hand, a card of the second packet called is an accidental solo."""
    three = api.odds(3, "SA S9 LK", call="all", n=200, seed=3, checkpoint=False, progress=False)
    assert three.attrs["packet_only"] and len(three.attrs["choices"]) == 12
    whole = api.odds(3, "SA S9 LK SK E10 HU", call="all", n=50, seed=3, checkpoint=False, progress=False)
    notes = {entry["choice"]: entry["note"] for entry in whole.attrs["choices"]}
    assert notes["SK"] == "accidental solo" and notes["SA"] == notes["LK"] == "solo" and notes["LA"] == ""
    with pytest.raises(CardsimError, match="or the 3 of forehand's first packet"):
        api.odds(3, "SA S9 LK EA", call="LA", n=10, seed=1, checkpoint=False, progress=False)


def test_every_choice_is_dealt_the_same_cards():
    """The pairing the table claims: a question's deals do not depend on the call or the trump (the cards have their
    own random stream, `block_stream`)."""
    base = HandQuestion(3, 4, tuple(DECK.parse_cards(HAND)))
    questions = [replace(base, call=c) for c in api.legal_calls(base)[:3]]
    streams = [block_stream(9, 0) for _ in questions]
    deals = [[q.pack(rng) for _ in range(40)] for q, rng in zip(questions, streams)]
    assert deals[0] == deals[1] == deals[2]
    assert net_rows_bounded(api.odds(3, HAND, call="all", n=40, seed=9, checkpoint=False, progress=False))


def net_rows_bounded(frame) -> bool:
    """Every mean of strokes has its interval inside the values it can take."""
    means = frame[frame.quantity.str.contains("strokes|net")]
    lows = means.quantity.str.endswith(".net").map({True: -3, False: 0})
    return bool(((means.lo >= lows) & (means.hi <= 3) & (means.lo <= means.p) & (means.p <= means.hi)).all())


def test_text_and_json(capsys):
    argv = ["odds", "dreeg", "--phase", "3", "--hand", HAND, "--call", "all", "--n", "300", "--seed", "2",
            "--no-progress"]
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "every legal call" in text and "LK solo" in text and "<- most net strokes" in text
    assert main(argv + ["--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["call"] == "all" and len(out["choices"]) == 12
    assert out["best"] in {c["choice"] for c in out["choices"]} and f"{out['best']}.reach66" in out["estimates"]


def test_every_trump_choice_of_rot_assen_with_surrender():
    """The heart-ace holder's four suits and surrender (each opponent erases 2: the best opponent's mean is 2);
    under rot_assen_trump=hearts only hearts and surrender; each row equals its one-choice odds."""
    hand = "HA EA E10 LK S9 L9"
    frame = api.odds(2, hand, trump="all", n=400, seed=4, checkpoint=False, progress=False)
    values = frame.set_index("quantity")
    assert [e["choice"] for e in frame.attrs["choices"]] == ["E", "L", "H", "S", "surrender"]
    assert values.loc["surrender.opp_strokes", "p"] == 2 and values.loc["surrender.strokes", "p"] == 0
    one = api.odds(2, hand, trump="L", n=400, seed=4, checkpoint=False, progress=False).set_index("quantity")
    assert values.loc["L.reach66", "p"] == one.loc["reach66", "p"]
    hearts = api.odds(2, hand, trump="all", options=("rot_assen_trump=hearts",), n=50, seed=4, checkpoint=False,
                      progress=False)
    assert [e["choice"] for e in hearts.attrs["choices"]] == ["H", "surrender"]


@pytest.mark.parametrize("extra, message", [
    (["--call", "all", "--phase", "1"], "--call all lists forehand's calls in Rufen"),
    (["--call", "all", "--phase", "3", "--position", "1"], "--call all lists forehand's calls in Rufen"),
    (["--call", "all", "--phase", "3", "--players", "2"], "--call all compares the choices of a hand of 3 or 4"),
    (["--trump", "all", "--phase", "3"], "--trump all lists the heart-ace holder's choices in Rot Assen"),
    (["--trump", "all", "--phase", "2"], "--trump all lists the heart-ace holder's choices in Rot Assen"),
    (["--trump", "all", "--call", "all", "--phase", "3"], "give the one of your phase"),
])
def test_every_choice_where_there_is_none_is_one_line(capsys, extra, message):
    assert main(["odds", "dreeg", "--hand", HAND, "--n", "10", "--seed", "1", "--no-progress", *extra]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_a_first_packet_alone_is_named_in_every_output(capsys):
    """One call with forehand's first packet alone: the title says so, the JSON carries packet_only, and a whole
    hand's JSON says false."""
    argv = ["odds", "dreeg", "--phase", "3", "--hand", "SA S9 LK", "--call", "S10", "--n", "60", "--seed", "2",
            "--no-progress"]
    assert main(argv) == 0 and "first packet only" in capsys.readouterr().out
    assert main(argv + ["--json"]) == 0 and json.loads(capsys.readouterr().out)["packet_only"] is True
    assert main(["odds", "dreeg", "--phase", "3", "--hand", HAND, "--n", "60", "--seed", "2", "--no-progress",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["packet_only"] is False
