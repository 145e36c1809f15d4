"""The text of `cardsim thresholds giltspiel|perlaggen` gives every estimate its interval: the stand rates and
the columns computed from them (table A), every W of the match-equity table (B) and every game-level
threshold (C) as value±half-width, the half-widths those of the --json intervals."""

import json
import re

import numpy as np
import pytest

from analysis.games import betting
from analysis.stats import Z95, plus_minus, score_grid, wilson
from simcore.games import giltspiel_betting as gb
from simcore.games import perlaggen_betting as pb
from simcore.games import perlaggen_three as T
from test_betting_cli import run_cli

CELL = re.compile(r"-?\d\.\d{3}±\d\.\d{3}")
NUMBER = re.compile(r"-?\d\.\d{3}$")


def texts(capsys, *argv):
    """(text lines, JSON) of one thresholds command."""
    code, text, _ = run_cli(capsys, "thresholds", *argv, "--no-progress")
    assert code == 0
    code, out, _ = run_cli(capsys, "thresholds", *argv, "--no-progress", "--json")
    assert code == 0
    return text.splitlines(), json.loads(out)


def block(lines, header: str) -> tuple[list[str], list[str]]:
    """(the header line's fields, the rows under it up to a blank line or a closing note)."""
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 1:]:
        if not line.strip() or line.startswith("("):
            break
        rows.append(line)
    return lines[start].split(), rows


def pm(value, lo, hi) -> str:
    return plus_minus(value, lo, hi)


@pytest.mark.parametrize("argv", [["giltspiel", "--target", "12", "--games", "8", "--seed", "4"],
                                  ["giltspiel", "--target", "6", "--games", "4", "--seed", "2"],
                                  ["perlaggen", "--target", "11", "--games", "4", "--seed", "1"]])
def test_team_tables_give_every_estimate_its_json_interval(capsys, argv):
    lines, data = texts(capsys, *argv)
    target = data["target"]

    # B: a grid of scores, every cell W±half-width, none bare
    header, rows = block(lines, "a\\b ")
    grid = score_grid(target)
    assert [int(b) for b in header[1:]] == grid and [int(r.split()[0]) for r in rows] == grid
    equity = {(r["a"], r["b"]): r for r in data["match_equity"] if r["deals"] == "a"}
    for row in rows:
        a, *cells = row.split()
        assert all(CELL.fullmatch(c) for c in cells), row
        assert cells == [pm(equity[int(a), b]["W"], equity[int(a), b]["lo"], equity[int(a), b]["hi"]) for b in grid]
    assert (f"{data['model_deals']:,} deals' points" in "\n".join(lines)) and (len(grid) < target) == (target > 10)

    # C: every threshold hold_p±half-width
    _, rows = block(lines, "  a   b  dealt")
    level = {(r["dealer"], r["a"], r["b"], r["value"]): r for r in data["game_level"]}
    assert len(rows) >= 12  # both dealers at six or seven scores
    for row in rows:
        a, b, dealer, *cells = row.split()
        assert len(cells) == len(betting.VALUES), row
        expected = [pm(level[dealer, int(a), int(b), v]["hold_p"], level[dealer, int(a), int(b), v]["lo"],
                       level[dealer, int(a), int(b), v]["hi"]) if int(b) + v < target else "-" for v in betting.VALUES]
        assert cells == expected and all(CELL.fullmatch(c) for c in cells if c != "-"), row
    assert all(r["b"] + r["value"] < target for r in data["game_level"])

    # A: the stand rates, the columns with stands as value±half-width, '~' on the unsettled weakest holds
    first = data["first_order"]
    stands = ", ".join(f"{r['figure']} {pm(r['stand_rate'], r['stand_lo'], r['stand_hi'])}" for r in first[::6])
    assert f"{first[0]['stand_n']:,} deals of the figure table): {stands};" in "\n".join(lines)
    _, rows = block(lines, "figure    v  hold d >")
    assert len(rows) == len(first) == 12
    for row, r in zip(rows, first):
        figure, v, hold_d, hold_p, with_stands, bet, bluff, *weakest = row.split()
        assert (figure, int(v)) == (r["figure"], r["value"])
        assert all(NUMBER.match(x) for x in (hold_d, hold_p, bluff))  # exact formulas
        assert with_stands == pm(r["hold_p_stands"], r["hold_p_stands_lo"], r["hold_p_stands_hi"])
        assert bet == pm(r["bet_p_stands"], r["bet_p_stands_lo"], r["bet_p_stands_hi"])
        assert " ".join(weakest) == ("" if r["weakest_settled"] else "~") + r["weakest_hold"]


@pytest.mark.parametrize("game, kit, communication", [("giltspiel", gb, "partner"), ("giltspiel", gb, "none"),
                                                      ("perlaggen", pb.kit(), "partner"),
                                                      ("perlaggen", pb.kit(), "none")])
def test_stand_rate_is_a_deal_event_with_its_wilson_interval(game, kit, communication):
    """A stand is an event of the deal: every count of a deal (two teams, or every seat) records it alike, so
    the figure table's counts divide by the counts per deal and the interval is Wilson's over the deals; the
    thresholds with stands are the formulas at its ends."""
    counts = kit.figure_counts(communication)
    per_deal = 2 if communication == "partner" else kit.players
    frame = betting.first_order(game, communication)
    for figure, key in betting.FIGURE_KEYS.items():
        total, stands = counts[figure].sum(), counts[figure, :, 1].sum()
        assert total % per_deal == 0 and stands % per_deal == 0
        rows = frame[frame.figure == key]
        share = counts[figure].sum(axis=1) / total
        rates = counts[figure] / np.maximum(counts[figure].sum(axis=1, keepdims=True), 1)
        assert rows.stand_rate.iloc[0] == pytest.approx(float((share * rates[:, 1]).sum()), abs=1e-15)
        assert (rows.stand_lo.iloc[0], rows.stand_hi.iloc[0]) == wilson(stands // per_deal, total // per_deal)
        assert (rows.stand_n == total // per_deal).all()
        for column in ("hold_p_stands", "bet_p_stands"):
            assert (rows[f"{column}_lo"] < rows[column]).all() and (rows[column] < rows[f"{column}_hi"]).all()


def test_class_d_and_the_settled_weakest_hold():
    """`class_d` is d = P(win) - P(lose) of a class with its 95% normal half-width; a weakest hold is settled
    iff no class at or below it has the hold threshold inside its interval."""
    counts = np.array([[0, 0, 0, 0], [30, 10, 60, 0], [0, 0, 0, 0], [90, 0, 10, 0]])
    d, half = betting.class_d(counts)
    assert d == pytest.approx([0, -0.3, 0, 0.8])
    assert half[1] == pytest.approx(Z95 * np.sqrt((0.9 - 0.09) / 100)) and half[0] == half[2] == 0
    frame = betting.first_order("giltspiel")
    counts = gb.figure_counts("partner")
    for figure, key in betting.FIGURE_KEYS.items():
        d, half = betting.class_d(counts[figure])
        names = {gb.class_name(figure, code): code for code in range(len(d) - 1) if counts[figure, code + 1].sum()}
        for r in frame[frame.figure == key].itertuples():
            weakest = names[r.weakest_hold]
            near = [code for code in names.values() if code <= weakest and abs(d[code + 1] - r.hold_d) < half[code + 1]]
            assert r.weakest_settled == (not near)
    assert not frame.weakest_settled.all()  # a pair of 10s has d = -0.501 ± 0.008 against the -1/2 of v = 1


@pytest.mark.parametrize("style", ["innsbruck", "straf"])
def test_three_player_table_gives_the_stand_intervals(capsys, style):
    argv = ["perlaggen", "--players", "3"] + (["--straf"] if style == "straf" else [])
    lines, data = texts(capsys, *argv)
    rows = data["first_order"]
    for r in rows:  # the table deals are all played (none thrown in): the counts behind stand are whole
        n = T.SPIEL_DEALS if r["figure"] == "spiel" else T.TABLE_DEALS
        assert r["stand_n"] == n and r["stand"] * n == pytest.approx(round(r["stand"] * n), abs=1e-6)
        assert (r["stand_lo"], r["stand_hi"]) == wilson(round(r["stand"] * n), n)
        assert r["accept_d_lo"] <= r["accept_d"] <= r["accept_d_hi"]
        assert r["accept_p_stands_lo"] <= r["accept_p_stands"] <= r["accept_p_stands_hi"]
    _, text_rows = block(lines, "figure    v    accept d >")
    assert len(text_rows) == len(rows) == 6
    for row, r in zip(text_rows, rows):
        figure, v, accept_d, accept_p, stand, with_stands, policy_d, *_ = row.split()
        assert (figure, int(v)) == (r["figure"], r["value"])
        assert accept_d == pm(r["accept_d"], r["accept_d_lo"], r["accept_d_hi"])
        assert stand == pm(r["stand"], r["stand_lo"], r["stand_hi"])
        assert with_stands == pm(r["accept_p_stands"], r["accept_p_stands_lo"], r["accept_p_stands_hi"])
        assert NUMBER.match(accept_p) and NUMBER.match(policy_d)
