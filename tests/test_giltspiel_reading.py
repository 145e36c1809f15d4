"""Policies that read the opponents' bets (`Policy.reads`): the table they read (`giltspiel_betting.facing_table`)
against table F (`analysis.games.giltspiel.facing`, itself checked deal by deal against a plain reference), the
engine's answers by it, where the plain d stays, and the models and games that refuse such a policy."""

import json

import numpy as np
import pytest

from analysis.cli import main
from analysis.games import giltspiel as ag
from simcore import betting
from simcore.betting import AUER, COMMUNICATION, G, GUT, H, PRESETS, SHOWDOWN, SP, Agent, Policy
from simcore.errors import CardsimError
from simcore.games import giltspiel_betting as gb
from simcore.games import perlaggen_three

READER = Policy("reader", reads="formula")


@pytest.fixture(scope="module", params=COMMUNICATION)
def table_f(request):
    """(communication, table F of the reading table's deals and seed) for each communication model."""
    return request.param, ag.facing("formula", request.param, n=gb.FACING_TABLE_DEALS, seed=gb.TABLE_SEED)


def frame_d(frame, figure: int, value: int, code: int, partner_example) -> float:
    rows = frame[(frame.figure == ("gleich" if figure == G else "hanger")) & (frame.value == value)
                 & (frame.code == code)]
    if partner_example is not None:
        rows = rows[rows.partner_example == partner_example]
    assert len(rows) == 1, (figure, value, code, partner_example)
    return float(rows.d.iloc[0])


def test_reading_table_is_table_f(table_f):
    """Every class that met the bet in table F reads F's d at its index (Auer: + bins with the partner's example);
    the rest of the table is NaN but for the classes without an example, which F leaves out."""
    communication, frame = table_f
    table = gb.facing_table("formula", communication)
    bins = gb.CODE_BINS
    assert table.shape == (len(gb.FACING_VALUES), 2, 2 * bins if communication == AUER else bins)
    met = np.zeros(table.shape, dtype=bool)
    for r in frame.itertuples():
        f = G if r.figure == "gleich" else H
        index = r.code + 1 + (bins if r.partner_example else 0)
        assert table[r.value - 1, f, index] == pytest.approx(r.d, abs=1e-12)
        met[r.value - 1, f, index] = True
    without_example = np.zeros(table.shape[2], dtype=bool)
    without_example[0] = True
    if communication == AUER:
        without_example[bins] = True
    assert np.isnan(table[~met & ~without_example]).all()


def answer(deal, policy: Policy, communication: str, figure: int) -> str:
    return betting.team_answer(deal, Agent(policy, gb.make_estimator(communication)), 1, figure)[1]


def expected_answer(deal, frame, communication: str, figure: int) -> str:
    """Team 1's answer to the pending bet by `Policy.response` of the formula margins on table F's d: the strongest
    of its answering members (``partner``: the team's best class; else each member holding an example by his own
    class and, under Auer, his partner's signal)."""
    value = deal.figures[figure].value
    codes = {s: deal.best_code(s, figure) for s in (1, 3)}
    if communication == "partner":
        views = [(max(codes.values()), None)] if max(codes.values()) >= 0 else []
    else:
        views = [(codes[s], codes[4 - s] >= 0 if communication == AUER else None) for s in (1, 3) if codes[s] >= 0]
    answers = [PRESETS["formula"].response(frame_d(frame, figure, value, code, signal), value, can_raise=True)
               for code, signal in views]
    return max(answers, key=betting.STRENGTH.__getitem__, default=GUT)


def test_reader_answers_by_table_f(table_f):
    """On random deals with a bet of team 0 pending from v = 1..6, the reader's answer is the formula's answer to
    table F's d of the team's class; it differs from the plain formula's answer on some of them."""
    communication, frame = table_f
    rng = np.random.default_rng(5)
    checked = differs = 0
    while checked < 150:
        hands, trump = gb.draw_deal(rng)
        for figure in (G, H):
            deal = gb.new_deal(hands, trump)
            if max(deal.best_code(0, figure), deal.best_code(2, figure)) < 0:
                continue
            deal.figures[figure].value = int(rng.integers(1, len(gb.FACING_VALUES) + 1))
            deal.bet(max((0, 2), key=lambda s: deal.best_code(s, figure)), figure)
            got = answer(deal, READER, communication, figure)
            assert got == expected_answer(deal, frame, communication, figure)
            differs += got != answer(deal, PRESETS["formula"], communication, figure)
            checked += 1
    assert differs >= 10


def test_plain_d_where_the_model_does_not_reach():
    """The Spiel, a bet from 7 (Spiel aus) and the showing keep the plain estimate."""
    hands = [gb.DECK.parse_cards(h) for h in ("EA LA H7 S8 E9", "EK LK HO S7 L9", "E7 L8 H9 S10 EU", "S9 E8 L10 HU SU")]
    estimator = gb.make_estimator("partner")
    deal = gb.new_deal(hands, trump=0)
    deal.bet(0, G)
    read = estimator.read_bet(deal, 1, G, "formula", 0.25)
    assert read == pytest.approx(gb.facing_table("formula")[0, G, deal.best_code(1, G) + 1]) and read < -0.5
    assert estimator.read_bet(deal, 1, SP, "formula", 0.25) == 0.25
    deal.figures[G].value = 7
    assert estimator.read_bet(deal, 1, G, "formula", 0.25) == 0.25
    deal.figures[G].value = 1
    deal.phase = SHOWDOWN
    assert estimator.read_bet(deal, 1, G, "formula", 0.25) == 0.25


@pytest.mark.parametrize("reads, message", [("never", "reads must name"), ("bold", "reads must name"),
                                            (3, "reads must name")])
def test_bad_reads(reads, message):
    with pytest.raises(CardsimError, match=message):
        Policy("x", reads=reads)


def test_reads_is_normalised_and_loaded_from_a_file(tmp_path):
    path = tmp_path / "reader.json"
    path.write_text(json.dumps({"name": "reader", "hold_margin": 0.1, "reads": " Aggressive "}))
    assert betting.load_policy(str(path)) == Policy("reader", hold_margin=0.1, reads="aggressive")


def test_models_of_answers_by_margins_refuse_a_reader():
    with pytest.raises(CardsimError, match="reads the opponents' bets"):
        betting.hold_categories(gb.figure_table("partner"), READER, "partner", 2)
    with pytest.raises(CardsimError, match="reads the opponents' bets"):
        betting.chain_categories(gb.figure_table("partner"), READER, "partner", "bet", 3)
    with pytest.raises(CardsimError, match="reads the opponents' bets"):
        perlaggen_three.play_game([READER, PRESETS["formula"], PRESETS["formula"]], np.random.default_rng(1),
                                  np.random.default_rng(2))


@pytest.fixture
def reader_file(tmp_path):
    path = tmp_path / "reader.json"
    path.write_text(json.dumps({"name": "reader", "reads": "formula"}))
    return str(path)


@pytest.mark.parametrize("argv", [
    ("odds", "giltspiel", "--hand", "EA LA H7 S8 E9", "--opponents-bet", "gleich:3",
     "--opponents-policy", "{}"),
    ("thresholds", "giltspiel", "--facing", "--policy", "{}"),
    ("match", "perlaggen", "--a", "{}", "--b", "formula", "--games", "2"),
], ids=["odds", "facing", "perlaggen"])
def test_commands_that_cannot_use_a_reader_say_so(capsys, reader_file, argv):
    code = main([arg.format(reader_file) for arg in argv] + ["--no-progress"])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and "reads the opponents' bets" in err and "without \"reads\"" in err


def test_a_reader_plays_a_match(capsys, reader_file):
    """A match between a reader and the formula runs; every game has a winner."""
    code = main(["match", "giltspiel", "--a", reader_file, "--b", "formula", "--games", "4", "--seed", "3",
                 "--json", "--no-progress"])
    out, _ = capsys.readouterr()
    result = json.loads(out)
    assert code == 0 and result["games"] == 4
    assert result["a"]["win_rate"]["p"] + result["b"]["win_rate"]["p"] == pytest.approx(1.0)
