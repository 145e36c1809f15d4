"""Spec §9.1 Q5 in `thresholds bauernstoss`: P(win a showdown) by cur and the player's lowest card
(`jobs.showdown_low_counts`, `api.showdown_low_frame`): exact deals, the counts against the Q11 showdown counts, the
tie rule (§4.9), the rise with the lowest card, the same numbers whatever --jobs, the JSON, text and sweep shapes."""

import json

import numpy as np
import pytest

from analysis.cli import command_parser, main
from analysis.commands import lookup
from analysis.games import bauernstoss as api
from simcore import runner
from simcore.games import bauernstoss_jobs as jobs

RUN = dict(progress=False, checkpoint=False)
WON = jobs.SEAT_STATS.index("showdown_won")
SHOWDOWN = jobs.SEAT_STATS.index("showdown")


def _deal(*seats: str) -> np.ndarray:
    """(1, 4) hand masks of seats 0-3 from card lists."""
    return np.array([[sum(1 << c for c in api.parse_hand(cards)) for cards in seats]], dtype=np.uint64)


TD06 = ("sD s9 hT hD h7 dD d9 d8", "cB sB hA hK h9 c7 s7 d7", "hB dB dA dT dK c8 s8 h8", "cA cT cK cD c9 sA sT sK")
"""TD-06 with b0: seat 1 bids 5 (lowest ♥9), seat 2 says mit (lowest ♦K, threshold 1), seats 3 and 0 hold no
jack."""
TD07 = ("sD s9 hT hD h7 dD dT d8", TD06[1], "hB dB dA dK d9 c8 s8 h8", TD06[3])
"""TD-07: as TD-06, seat 2's lowest also a 9: the earlier speaker, seat 1, wins."""
AS_S9 = ("s8 s7 hT hD h9 h8 dT d7", "cB hB dB hA h7 cA sA dA", "cT cD c9 c8 c7 sT sD s9", "sB dK dD d9 d8 cK sK hK")
"""AS-S9: seat 1 bids 5 (lowest ♥7), its partner seat 3 says mit with 5 (lowest ♦8): in AS a showdown it wins, in BS
the partners agree (no showdown)."""


@pytest.mark.parametrize("variant, deal, want", [
    ("BS", TD06, {(5, 2, 0): (1, 0), (5, 4, 1): (1, 1)}),
    ("BS", TD07, {(5, 2, 0): (1, 1), (5, 2, 1): (1, 0)}),
    ("AS", AS_S9, {(5, 0, 0): (1, 0), (5, 1, 1): (1, 1)}),
    ("BS", AS_S9, {}),
])
def test_exact_deals(variant, deal, want):
    job = jobs.SeatJob("greedy", variant)
    got = job.outcomes(_deal(*deal), jobs.play_uniforms(1, 0, 1))
    counts = jobs.showdown_low_counts(got)
    assert counts.shape == jobs.SHOWDOWN_LOW_SHAPE
    expected = np.zeros(jobs.SHOWDOWN_LOW_SHAPE, dtype=np.int64)
    for cell, value in want.items():
        expected[cell] = value
    assert np.array_equal(counts, expected)


@pytest.fixture(scope="module")
def runs():
    return {v: jobs.SeatJob.unpack(runner.run(jobs.SeatJob("greedy", v), 3000, 5, **RUN)) for v in ("BS", "AS")}


@pytest.mark.parametrize("variant", ["BS", "AS"])
def test_totals_are_the_seat_tables_showdowns(runs, variant):
    parts = runs[variant]
    counts = parts["showdown_low"]
    assert counts[..., 0].sum() == parts["seats"][:, SHOWDOWN].sum() > 0
    assert counts[..., 1].sum() == parts["seats"][:, WON].sum()
    assert counts[..., 1].sum() == parts["showdowns"]  # one winner per deal with a showdown
    assert (counts[..., 1] <= counts[..., 0]).all()
    assert not counts[:2].any()  # bids start at 2, and b0 always has 3 or more
    table = api.showdown_low_frame(parts, 20, variant)
    assert table["n"].sum() == table.attrs["players"] == parts["seats"][:, SHOWDOWN].sum()
    assert (table["n_bid"] + table["n_mit"] == table["n"]).all()
    assert table.attrs["won"] == parts["seats"][:, WON].sum()
    shown = table[table["n"] >= 20]
    wins = (shown["p_win"] * shown["n"]).round().astype(int)
    assert np.array_equal(wins, [counts[c, lo, :, 1].sum() for c, lo in zip(shown["cur"], shown["low"])])
    assert table[table["n"] < 20]["p_win"].isna().all()


@pytest.mark.parametrize("variant", ["BS", "AS"])
def test_tie_rule_on_every_showdown(variant):
    """§4.9: the first bidder of cur wins iff no later tied player holds a higher lowest card."""
    job = jobs.SeatJob("greedy", variant)
    got = job.outcomes(jobs.deal_hands(8, 0, 512), jobs.play_uniforms(8, 0, 512))
    deals = np.nonzero(got["in_showdown"].any(axis=1))[0]
    assert len(deals) > 50
    for i in deals:
        first, tied = got["first"][i], np.nonzero(got["in_showdown"][i])[0]
        best = max(got["low"][i, q] for q in tied if q != first)
        assert (got["chooser"][i] == first) == (got["low"][i, first] >= best), i
        assert got["low"][i, got["chooser"][i]] == got["low"][i, tied].max()


@pytest.mark.parametrize("variant", ["BS", "AS"])
def test_top_card_speaking_first_always_wins(runs, variant):
    """At each cur the first bidder holding the top lowest card any showdown player held there never loses; a 7 (BS
    strict mit: an opponent joins only with more) never wins."""
    counts = runs[variant]["showdown_low"]
    for cur in range(jobs.SHOWDOWN_LOW_SHAPE[0]):
        held = np.nonzero(counts[cur, :, :, 0].sum(axis=1))[0]
        if len(held):
            top = held.max()
            assert counts[cur, top, 0, 1] == counts[cur, top, 0, 0], cur
    assert counts[:, 0, :, 1].sum() == 0 and counts[:, 0, :, 0].sum() > 0


@pytest.mark.parametrize("variant", ["BS", "AS"])
def test_rises_with_the_lowest_card(runs, variant):
    table = api.showdown_low_frame(runs[variant], 20, variant)
    for cur in (4, 5):
        cells = table[(table["cur"] == cur) & table["p_win"].notna()].sort_values("low")
        assert len(cells) >= 4
        p, lo, hi = (cells[k].to_numpy() for k in ("p_win", "p_win_lo", "p_win_hi"))
        assert (hi[1:] >= lo[:-1]).all(), cur  # no significant fall from one lowest card to the next
        assert p[0] == 0 and lo[-1] > 0.8 and hi[0] < 0.1, cur


def test_same_numbers_whatever_jobs_and_chunks():
    one = api.thresholds("greedy", 700, 9, **RUN).attrs["showdown_low"]
    two = api.thresholds("greedy", 700, 9, chunk_deals=256, jobs=2, **RUN).attrs["showdown_low"]
    assert one.equals(two) and one.attrs == two.attrs and one["n"].sum() > 0


def test_json_text_sweep_and_ds(capsys):
    base = ["thresholds", "bauernstoss", "--n", "300", "--seed", "4", "--equity-hands", "0", "--no-progress"]
    assert main([*base, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    q5, seats = out["showdown_low"], out["seat_effects"]["seats"]
    assert q5["note"] == "" and q5["min_n"] == 20
    assert sum(r["n"] for r in q5["rows"]) == q5["players"] == round(sum(s["p_showdown"]["p"] * 300 for s in seats))
    assert all((r["p_win"] is None) == (r["n"] < 20) for r in q5["rows"])
    assert set(q5["rows"][0]) == {"cur", "low", "low_name", "n", "n_bid", "n_mit", "p_win", "p_bid", "p_mit"}
    assert main(base) == 0
    text = capsys.readouterr().out
    assert "Q5 will my bid win the trump choice?" in text and "P(wins | said mit)" in text and "too few" in text
    spec = lookup("thresholds", "bauernstoss")
    frame = spec.frame(command_parser("thresholds", "bauernstoss", spec).parse_args(base[2:]))
    assert frame.estimate.is_unique and "q5.4.0.p_win" in set(frame.estimate)
    assert main([*base, "--variant", "DS", "--json"]) == 0
    ds = json.loads(capsys.readouterr().out)["showdown_low"]
    assert ds["rows"] == [] and ds["players"] == 0 and "DS-7" in ds["note"]
    assert main([*base, "--variant", "DS"]) == 0
    text = capsys.readouterr().out
    assert "Q5 showdowns by the lowest card: none in DS" in text and "P(wins showdown)" not in text
