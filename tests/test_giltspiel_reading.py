"""Policies that read the opponents' bets (`Policy.reads`): the table they read (`giltspiel_betting.facing_table`)
against table F (`analysis.games.giltspiel.facing`, itself checked deal by deal against a plain reference), the
engine's answers by it, where the plain d stays, and the models and games that refuse such a policy."""

import json

import numpy as np
import pytest

import naive_giltspiel_bets_seen as naive
from analysis.cli import main
from analysis.games import giltspiel as ag
from simcore import betting
from simcore.betting import AUER, COMMUNICATION, G, GUT, H, PRESETS, SHOWDOWN, SP, Agent, Policy
from simcore.errors import CardsimError
from simcore.games import giltspiel as g
from simcore.games import giltspiel_betting as gb
from simcore.games import perlaggen_three

READER = Policy("reader", reads="formula")


POLICIES = (PRESETS["formula"], PRESETS["aggressive"], Policy("raiser", bet_margin=0.2, hold_margin=-0.3,
                                                                raise_margin=-0.2, bluff=0.25))


def class_index(code: int, partner_example, bins: int = gb.CODE_BINS) -> int:
    """The reading table's class index of a class of table F or of the plain reference (Auer: + bins with the
    partner's example)."""
    return code + 1 + (bins if partner_example else 0)


@pytest.mark.parametrize("communication", COMMUNICATION)
@pytest.mark.parametrize("policy", ["formula", "aggressive"])
def test_pooled_reading_table_is_table_f(policy, communication):
    """With both ways of the bet pooled, every class that met the bet in table F reads F's d at its index; the rest
    is NaN but for the classes without an example, which F leaves out."""
    frame = ag.facing(policy, communication, n=300_000, seed=8)
    table = gb.facing_d(PRESETS[policy], communication, 300_000, 8)[0]
    bins = gb.CODE_BINS
    assert table.shape == (len(gb.FACING_VALUES), 2, 2 * bins if communication == AUER else bins)
    met = np.zeros(table.shape, dtype=bool)
    for r in frame.itertuples():
        index = class_index(r.code, r.partner_example)
        assert table[r.value - 1, G if r.figure == "gleich" else H, index] == pytest.approx(r.d, abs=1e-12)
        met[r.value - 1, G if r.figure == "gleich" else H, index] = True
    without_example = np.zeros(table.shape[2], dtype=bool)
    without_example[[0, bins] if communication == AUER else [0]] = True
    assert np.isnan(table[~met & ~without_example]).all()


@pytest.mark.parametrize("communication", COMMUNICATION)
@pytest.mark.parametrize("policy", POLICIES, ids=lambda p: p.name)
def test_split_reading_table_against_the_plain_reference(policy, communication):
    """d by how the bet came (after a hold, a raise) equals the plain deal-by-deal reference's (`facing_by_class`)
    on the same deals, NaN exactly where no deal met it."""
    n, seed = 1500, 4
    view = {"partner": "team", "none": "own"}.get(communication, "signal")
    slots, keep = g.FacingJob(np.zeros((1, 2, g.HANGER_BINS, g.HANGER_BINS), dtype=np.int8)).deal_block(seed, 0, n)
    plain = gb.figure_table(communication)
    table = gb.facing_d(policy, communication, n, seed, gb.READ_HOWS)
    checked = 0
    for h, how in enumerate(gb.READ_HOWS):
        sums = naive.facing_by_class(slots, keep, 1, policy, communication, plain[:, :, 0] - plain[:, :, 2], view,
                                     gb.FACING_VALUES, how)
        expected = np.full(table.shape[1:], np.nan)
        for (figure, value, code, signal), (_, total, scored, _) in sums.items():
            if total > 0:
                expected[value - 1, G if figure == "gleich" else H, class_index(code, signal)] = scored / total
        np.testing.assert_allclose(table[h], expected, atol=1e-12)
        checked += np.isfinite(expected).sum()
    assert checked > 50


@pytest.mark.parametrize("how", gb.READ_HOWS)
def test_table_f_by_how_the_bet_came(how):
    """`giltspiel.facing(..., how=)` gives the split tables' d at every class that met the bet (Auer, aggressive:
    both signals and the bluff weights); no raise from value 1 ("never bet")."""
    frame = ag.facing("aggressive", AUER, n=300_000, seed=8, how=how)
    table = gb.facing_d(PRESETS["aggressive"], AUER, 300_000, 8, (how,))[0]
    assert frame.attrs["how"] == how and len(frame) > 50
    for r in frame.itertuples():
        index = class_index(r.code, r.partner_example)
        assert table[r.value - 1, G if r.figure == "gleich" else H, index] == pytest.approx(r.d, abs=1e-12)
    weakest = ag.weakest_holds(frame)
    assert (how != betting.RAISE) == (weakest[weakest.value == 1]["class"] != "never bet").all()


def test_each_preset_is_read_by_its_own_table():
    """`facing_table` of a preset is `facing_d` of that preset on the tables' deals and seed, by how the bet came."""
    for reads in ("formula", "aggressive"):
        expected = gb.facing_d(PRESETS[reads], "partner", gb.FACING_TABLE_DEALS, gb.TABLE_SEED, gb.READ_HOWS)
        np.testing.assert_array_equal(gb.facing_table(reads, "partner"), expected)
    assert not np.allclose(gb.facing_table("formula"), gb.facing_table("aggressive"), equal_nan=True)


@pytest.mark.parametrize("communication", COMMUNICATION)
@pytest.mark.parametrize("policy", POLICIES, ids=lambda p: p.name)
def test_the_two_ways_split_the_chain(policy, communication):
    """For every value, a team of the opponents' hands makes the bet after a hold or by a raise, never both, and the
    category of either way is that of the chain (`chain_categories` without ``how``); no raise from value 1."""
    table = gb.figure_table(communication)
    for value in gb.FACING_VALUES:
        pooled = betting.chain_categories(table, policy, communication, "bet", value)
        held, raised = (betting.chain_categories(table, policy, communication, "bet", value, how)
                        for how in gb.READ_HOWS)
        assert (np.minimum(held, raised) == betting.BET_NEVER).all()
        assert (np.maximum(held, raised) == pooled).all()
        assert value > 1 or (raised == betting.BET_NEVER).all()


def answer(deal, agent: Agent, figure: int) -> str:
    return betting.team_answer(deal, agent, 1, figure)[1]


def expected_answer(deal, communication: str, figure: int, raised: bool) -> tuple[str, dict]:
    """Team 1's answer to the pending bet by `Policy.response` of the formula margins on the reading table's d (of
    the raise or the bet after a hold; the plain d where the table has none): the strongest of its answering members (``partner``: the team's best class;
    else each member holding an example by his own class and, under Auer, his partner's signal); and {view: d}."""
    value = deal.figures[figure].value
    table = gb.facing_table("formula", communication)[int(raised), value - 1, figure]
    codes = {s: deal.best_code(s, figure) for s in (1, 3)}
    if communication == "partner":
        answerer = max(codes, key=codes.get)  # who holds the team's best example answers (and may raise)
        views = {answerer: (codes[answerer], None)} if codes[answerer] >= 0 else {}
    else:
        views = {s: (codes[s], codes[4 - s] >= 0 if communication == AUER else None) for s in (1, 3) if codes[s] >= 0}
    plain = gb.make_estimator(communication)
    reads = {s: float(table[class_index(code, signal)]) for s, (code, signal) in views.items()}
    reads = {s: plain(deal, s, figure) if np.isnan(d) else d for s, d in reads.items()}  # never met: the plain d
    answers = [PRESETS["formula"].response(d, value, can_raise=deal.raise_error(s, figure) is None)
               for s, d in reads.items()]
    return max(answers, key=betting.STRENGTH.__getitem__, default=GUT), reads


def pending_bet(rng, communication: str, figure: int):
    """A random deal with team 0's bet on ``figure`` pending from v = 1..6, made after a hold (a plain bet) or, from
    v = 2, as a raise of team 1's bet; (deal, raised), or None when the hands do not allow it."""
    hands, trump = gb.draw_deal(rng)
    deal = gb.new_deal(hands, trump)
    bettor = max((0, 2), key=lambda s: deal.best_code(s, figure))
    value = int(rng.integers(1, len(gb.FACING_VALUES) + 1))
    raised = value > 1 and rng.random() < 0.5
    holder = max((1, 3), key=lambda s: deal.best_code(s, figure))
    if deal.best_code(bettor, figure) < 0 or (raised and deal.best_code(holder, figure) < 0):
        return None
    if raised:
        deal.figures[figure].value = value - 1
        deal.bet(holder, figure)
        if deal.raise_error(bettor, figure) is not None:
            return None
        deal.answer(bettor, figure, betting.RAISE)
    else:
        deal.figures[figure].value = value
        deal.bet(bettor, figure)
    assert deal.figures[figure].value == value and deal.figures[figure].pending[0] == 0
    return deal, raised


@pytest.mark.parametrize("communication", COMMUNICATION)
def test_reader_answers_by_the_reading_table(communication):
    """On random deals with a bet of team 0 pending from v = 1..6 (a bet after a hold, or a raise), the reader's
    answer is the formula's answer to the reading table's d of the team's class for that way; the reader keeps the
    d it read for its own later bets on the figure; its answer differs from the plain formula's on some deals."""
    rng = np.random.default_rng(5)
    checked, differs, ways = 0, 0, set()
    while checked < 150:
        figure = G if rng.random() < 0.5 else H
        made = pending_bet(rng, communication, figure)
        if made is None:
            continue
        deal, raised = made
        agent = Agent(READER, gb.make_estimator(communication))
        want, reads = expected_answer(deal, communication, figure, raised)
        assert answer(deal, agent, figure) == want
        assert agent.read == {(agent.estimate.view(s), figure): d for s, d in reads.items()}
        for s, d in reads.items():
            assert betting._estimate_for_bet(deal, agent, s, figure) == d
        differs += want != answer(deal, Agent(PRESETS["formula"], gb.make_estimator(communication)), figure)
        ways.add(raised)
        checked += 1
    assert differs >= 10 and ways == {False, True}


def test_plain_d_where_the_model_does_not_reach():
    """The Spiel, a bet from 7 (Spiel aus) and the showing keep the plain estimate."""
    hands = [gb.DECK.parse_cards(h) for h in ("EA LA H7 S8 E9", "EK LK HO S7 L9", "E7 L8 H9 S10 EU", "S9 E8 L10 HU SU")]
    estimator = gb.make_estimator("partner")
    deal = gb.new_deal(hands, trump=0)
    deal.bet(0, G)
    read = estimator.read_bet(deal, 1, G, "formula", 0.25)
    assert read == pytest.approx(gb.facing_table("formula")[0, 0, G, deal.best_code(1, G) + 1]) and read < -0.5
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
    ("thresholds", "perlaggen", "--policy", "{}", "--games", "2"),
], ids=["odds", "facing", "perlaggen", "perlaggen-thresholds"])
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
