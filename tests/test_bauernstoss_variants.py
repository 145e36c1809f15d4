"""`cardsim odds` and `thresholds` for Bauernstoss under the §7 variants (Alter Schoofkopp, Deutscher
Schafkopf): the calls each variant allows, its play rule and its score thresholds."""

import json

from analysis.cli import main
from analysis.games import bauernstoss as api
from simcore.games import bauernstoss as bs

RUN = dict(checkpoint=False, progress=False)


def test_as_calls_four_jacks_bid_and_big_solo_only():
    """AS-5: four jacks may bid a number; AS-10: no Small Solo, the Big Solo stays."""
    options = api.call_options(bs.DECK.parse_cards("cB sB hB dB hA hT hK h9"), variant="AS")
    assert {o.kind for o in options} == {bs.NUMBER, bs.BIG_SOLO}
    two = api.call_options(bs.DECK.parse_cards("cB sB hA hT hK h9 h8 s7"), variant="AS")
    assert bs.SMALL_SOLO not in {o.kind for o in two}


def test_ds_calls_need_five_trumps_or_the_acorn_unter():
    """DS-3/4: a bid needs 5 trumps; DS-5: the cB holder names any suit when all pass; DS-6: no solos."""
    five = api.call_options(bs.DECK.parse_cards("sB hA hT hK h9 s7 c7 d7"), variant="DS")
    assert [(o.kind, o.trump) for o in five] == [(bs.NUMBER, 2)]
    acorn = api.call_options(bs.DECK.parse_cards("cB hA hT s9 s7 c7 d7 d8"), variant="DS")
    assert [o.trump for o in acorn] == [0, 1, 2, 3] and {o.kind for o in acorn} == {bs.NUMBER}
    weak = bs.DECK.parse_cards("sB hA hT s9 s7 c7 d7 d8")
    assert api.call_options(weak, variant="DS") == []
    assert "5 needed to bid (DS-3)" in api.pass_rule(weak, "DS")


def test_variant_odds_columns(scale):
    """AS counts schneider from 89 (AS-4): P(>=89) >= P(>=91); DS makers and opponents (DS-9) never
    both score."""
    n = int(200 * scale)
    frame = api.odds("sB hB dB cA cT sK h7 d8", 1, "greedy", n, 5, variant="AS", **RUN)
    assert (frame.p89 >= frame.p91).all() and (frame.p61 >= frame.p79).all()
    assert frame.attrs["variant"] == "AS"
    ds = api.odds("sB hB hA hT hK h9 s7 d8", 1, "greedy", n, 5, variant="DS", **RUN)
    assert list(ds.trump) == ["h"] and (ds.p61 + ds.p_le59 <= 1 + 1e-12).all()


def test_variant_thresholds(scale):
    """DS thresholds cover hands with 5+ trumps, with or without an Unter; AS rows keep the Big Solo."""
    ds = api.thresholds("greedy", int(1500 * scale), 2, 1, "DS", **RUN)
    assert ds.trumps.min() >= 5 and ds.p_solo.isna().all()
    assert set(ds.advice) <= {"good bid", "weak bid"}
    as_ = api.thresholds("greedy", int(800 * scale), 2, 1, "AS", **RUN)
    assert set(as_.jacks) <= {1, 2, 3, 4} and as_.attrs["variant"] == "AS"


def test_cli_variant_json_and_bad_variant(capsys):
    assert main(["odds", "bauernstoss", "--hand", "sB hB dB cA cT sK h7 d8", "--variant", "AS", "--n", "30",
                 "--seed", "1", "--json", "--no-progress"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["variant"] == "AS" and {"p42", "p61", "p79", "p89", "p91"} <= set(data["calls"][0])
    assert main(["thresholds", "bauernstoss", "--variant", "DS", "--n", "200", "--seed", "1", "--no-progress"]) == 0
    assert "Deutscher Schafkopf" in capsys.readouterr().out
    assert main(["odds", "bauernstoss", "--hand", "sB hB dB cA cT sK h7 d8", "--variant", "XX", "--n", "5"]) == 2
    assert "bauernstoss option variant cannot be 'XX'; choose one of" in capsys.readouterr().err
