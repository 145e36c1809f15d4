"""The statistical report (`analysis.report`) and its charts (`analysis.charts`).

One small report (100,000 deals, 20,000 per example hand) is built per test module and inspected.
"""

from __future__ import annotations

import argparse
import re
from html.parser import HTMLParser
from pathlib import Path

import matplotlib.image
import pytest
from matplotlib.figure import Figure

from analysis import charts, report
from analysis.sections import giltspiel as giltspiel_section
from analysis.cli import main
from analysis.stats import estimate_frame
from simcore.errors import CardsimError
from simcore.registry import games

SEED = 12345
N = 100_000
HAND_N = 20_000
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    report.add_report_arguments(parser)
    return parser.parse_args(list(argv))


def _build(out: Path, *extra: str) -> Path:
    return report.build_report(_args("--out", str(out), "--n", str(N), "--hand-n", str(HAND_N),
                                     "--seed", str(SEED), "--jobs", "1", "--no-progress", *extra))


class _Page(HTMLParser):
    """Collects ids, in-page links, image sources, headings, tags and the text of a page."""

    def __init__(self):
        super().__init__()
        self.ids, self.anchors, self.images, self.tags = set(), [], [], set()
        self.headings: list[str] = []
        self.text: list[str] = []
        self._heading: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        self.tags.add(tag)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("href", "").startswith("#"):
            self.anchors.append(attrs["href"][1:])
        if tag == "img":
            self.images.append(attrs["src"])
        if tag in ("h1", "h2", "h3"):
            self._heading = []

    def handle_endtag(self, tag):
        if tag in ("h1", "h2", "h3") and self._heading is not None:
            self.headings.append("".join(self._heading).strip())
            self._heading = None

    def handle_data(self, data):
        self.text.append(data)
        if self._heading is not None:
            self._heading.append(data)


@pytest.fixture(scope="module")
def built(small_report):
    path = small_report  # conftest: built once per session into a folder that did not exist
    source = path.read_text(encoding="utf-8")
    page = _Page()
    page.feed(source)
    return path, source, page


def test_index_written_in_the_out_folder(built):
    path, source, _ = built
    assert path.name == "index.html" and path.is_file()
    assert source.lstrip().startswith("<!DOCTYPE html>")
    assert not list(path.parent.glob("*.tmp")) and not list(path.parent.glob(".*.tmp"))


def test_every_section_heading(built):
    headings = built[2].headings
    for expected in ("cardsim statistical report", "Contents", "Giltspiel",
                     "A. Figure outcome per deal", "B. Best figure at the table",
                     "C. P(win / stand / lose on the Gleich | my own best Gleich)",
                     "D. P(win / stand / lose on the Hanger | my own best Hanger)",
                     "E. Odds of example hands", "F. Exact single-hand facts", "G. The Spiel by trumps held",
                     "Perlaggen", "Innsbruck style", "Eichel style",
                     "Three-player Pinochle", "A. Meld of a random hand", "B. What the kitty adds",
                     "C. Meld breakdown of an example hand",
                     "How to read the intervals", "Methods", "Rule options of the registered games"):
        assert expected in headings, expected


def test_toc_anchors_resolve(built):
    page = built[2]
    assert len(page.anchors) >= 10
    assert set(page.anchors) <= page.ids, set(page.anchors) - page.ids
    for section in ("giltspiel", "perlaggen", "pinochle3", "intervals", "methods"):
        assert section in page.anchors


def test_images_exist_and_are_png(built):
    path, _, page = built
    assert len(page.images) == len(set(page.images)) >= 9  # 4 Giltspiel, 2 Perlaggen and 3 Pinochle charts
    for src in page.images:
        assert "/" not in src and not src.startswith("http")
        file = path.parent / src
        assert file.read_bytes()[:8] == PNG_MAGIC
        pixels = matplotlib.image.imread(file)
        assert pixels.ndim == 3 and pixels.shape[0] > 200 and pixels.shape[1] > 300


def test_self_contained_no_script(built):
    _, source, page = built
    assert "script" not in page.tags
    assert not re.search(r'(src|href)="(https?:)?//', source)


def test_estimates_with_intervals_and_n(built):
    text = re.sub(r"\s+", " ", " ".join(built[2].text))
    cells = re.findall(r"(\d\.\d{4,6}) \[(\d\.\d{4,6}), (\d\.\d{4,6})\]", text)
    assert len(cells) > 200
    for p, lo, hi in map(lambda c: tuple(map(float, c)), cells):
        assert 0 <= lo <= p <= hi  # probabilities, and means (e.g. Perlaggen per hand) with their intervals
    probabilities = re.findall(r'<span class="p">([\d.]+)</span> <span class="ci">\[([\d.]+), ([\d.]+)\]', built[1])
    assert len(probabilities) > 200
    assert all(0 <= float(lo) <= float(p) <= float(hi) <= 1 for p, lo, hi in probabilities)
    assert f"{N:,}" in text and f"{HAND_N:,}" in text
    assert "95% Wilson" in text


def test_outcome_table_sums_to_one(built):
    """Table A: the four outcomes of each figure partition the deals."""
    source = built[1]
    block = source[source.index('id="giltspiel-a"'): source.index('id="giltspiel-b"')]
    for row in re.findall(r"<tr><th>(?:Gleich|Hanger)</th>(.*?)</tr>", block):
        ps = [float(x) for x in re.findall(r'<span class="p">([\d.]+)</span>', row)]
        assert len(ps) == 4 and sum(ps) == pytest.approx(1, abs=2e-4)


def test_example_hands_listed(built):
    text = " ".join(built[2].text)
    for example in giltspiel_section.GILTSPIEL_EXAMPLES:
        assert example.hand in text
    assert "turn-up LA" in text and "three Kings" in text
    assert "the opponents bet the Gleich at value 1 (policy aggressive, bluff 0.15;" in text
    assert ("the opponents bet the Gleich from 3 to 4 (the bets on it alternating from value 1) (policy aggressive"
            in text)
    assert "effective size" in text


def test_pinochle_thresholds_show_the_solved_ending(built):
    source = built[1]
    section = source[source.index("Bid thresholds by meld"):]
    assert "bid50, last 8 tricks DD" in section and "--dd-tricks 8" in source


def test_pinochle_kitty_gain_after_the_discard(built):
    text = re.sub(r"\s+", " ", " ".join(built[2].text))
    assert "Kitty gain (15 kept after the discard)" in text and "the 15-card limit costs meld in" in text
    assert "Mean kitty gain by the best meld of the 15-card hand" in text and ">= 200" in text
    assert "kept 15" in text
    assert "Rule of thumb: m·meld + a + b·counters + c·trumps" in text and "1 (face value)" in text
    assert "standard: meld + 60 + 5 per counter + 5 per trump" in text


def test_methods_lists_seed_versions_and_rule_options(built):
    source = built[1]
    methods = source[source.index('<section id="methods">'):]
    assert str(SEED) in methods
    for word in ("numpy", "numba", "pandas", "git commit", "cardsim stats giltspiel", f"--seed {SEED}"):
        assert word in methods, word
    for game in games().values():
        assert game.title in methods
        for option in game.options:
            assert f"<code>{option.name}</code>" in methods


def test_same_seed_same_numbers(built):
    """The Giltspiel section built again with the same seed (and other --jobs) has the same numbers."""
    ctx = report._context(_args("--n", str(N), "--hand-n", str(HAND_N), "--seed", str(SEED), "--jobs", "2",
                                "--no-progress"))
    again = giltspiel_section.section(ctx).body
    source = built[1]
    assert again in source
    assert [r.seed for r in ctx.runs] == [SEED] * len(ctx.runs)


def test_unwritable_folder_is_a_cardsim_error(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    with pytest.raises(CardsimError, match="cannot write the report") as info:
        _build(blocker / "out")
    assert "\n" not in str(info.value)


def test_cli_unwritable_folder_exits_2(tmp_path, capsys):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    assert main(["report", "--out", str(blocker), "--n", "1000"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("cardsim: error: cannot write the report") and "\n" not in err


def test_arguments_defaults_and_full():
    args = _args()
    assert (args.out, args.seed, args.jobs, args.full) == ("reports", report.DEFAULT_SEED, 2, False)
    ctx = report._context(_args("--full", "--n", "1000", "--hand-n", "10"))
    assert (ctx.n, ctx.hand_n, ctx.full) == (1000 * report.FULL_FACTOR, 10 * report.FULL_FACTOR, True)
    with pytest.raises(SystemExit):  # argparse refuses it: exit 2 with one line
        _args("--seed", "minus one")


def test_too_few_deals_per_example_hand_exit_2_before_any_run(tmp_path, capsys):
    """--hand-n 1 could leave the example conditioned on a bet with no deal: refused up front, naming --hand-n."""
    assert main(["report", "--out", str(tmp_path / "out"), "--n", "2", "--hand-n", "1", "--no-progress"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"cardsim: error: --hand-n must be at least {report.MIN_HAND_N}, got 1")
    assert "\n" not in err and "--given" not in err and not (tmp_path / "out" / "index.html").exists()


def test_perlaggen_l1_part_of_a_small_sample_leaves_the_chart_out():
    """With no group of 1,000 L1 deals (--n 1000) the Perlagg-value chart is left out with a note, not a traceback."""
    from analysis.games import perlaggen
    from analysis.sections import perlaggen as perlaggen_section

    l1 = perlaggen.stats(style="innsbruck", n=1000, seed=SEED, level="L1", jobs=1, progress=False, checkpoint=False)
    section = report.Section("perlaggen", "Perlaggen", "")
    part = perlaggen_section._l1_style("innsbruck", l1, section)
    assert "chart of the Perlagg value is left out" in part and not section.charts


# --- charts -----------------------------------------------------------------------------------
def _distribution():
    return estimate_frame(["three Aces", "pair of Kings", "none"], [30, 600, 370], 1000)


def _conditional():
    parts = []
    for label, counts in (("pair of Aces", [80, 5, 15, 0]), ("none", [30, 2, 60, 8])):
        frame = estimate_frame(["win", "stand", "lose", "void"], counts, own_class=label)
        parts.append(frame.rename(columns={"label": "outcome"}))
    import pandas as pd

    return pd.concat(parts, ignore_index=True)


def _labels(ax) -> list[str]:
    return [t.get_text() for t in ax.get_yticklabels()]


def test_distribution_chart_is_a_labelled_figure():
    fig = charts.distribution_chart(_distribution(), "Best figure", category="best class")
    assert isinstance(fig, Figure)
    (ax,) = fig.axes
    assert ax.get_xlabel() == "probability" and ax.get_ylabel() == "best class"
    assert ax.get_title(loc="left") == "Best figure"
    assert _labels(ax) == ["three Aces", "pair of Kings", "none"]
    assert len(ax.patches) == 3


def test_conditional_chart_is_a_labelled_figure():
    fig = charts.conditional_chart(_conditional(), "Outcome by class", category="own class", note="n = 200")
    assert isinstance(fig, Figure)
    ax = fig.axes[0]
    assert ax.get_xlabel() == "probability" and ax.get_ylabel() == "own class"
    assert _labels(ax) == ["pair of Aces", "none"]
    legend = fig.legends[0]
    assert [t.get_text() for t in legend.get_texts()] == ["P(win)", "P(stand)", "P(lose)"]


def test_charts_reject_frames_without_estimates():
    with pytest.raises(ValueError, match="lo"):
        charts.distribution_chart(_distribution().drop(columns="lo"), "x")
    with pytest.raises(ValueError, match="outcome"):
        charts.conditional_chart(_conditional(), "x", outcomes=("win", "draw"))


def test_card_values_and_dreeg_stages_tables(built):
    """The Perlaggen card values (Q8) and the Dreeg stages (§6.2): their headings, captions and filled cells."""
    _, source, page = built
    assert "What a card is worth (Q8)" in page.headings
    assert "Card values with L trump" in source and "Perlagg 1, Martl" in source
    row = re.search(r"<th>HK</th><td>Perlagg 1, Martl</td>(.*?)</tr>", source).group(1)
    assert row.count("<td") == 7 and row.count('class="p"') == 3 and len(re.findall(r"[+-]0\.\d{3} \[", row)) == 3
    assert "Card against card with L trump" in source
    row = re.search(r"<th>HK against LA</th>(.*?)</tr>", source).group(1)
    assert row.count("<td") == 10 and row.count('class="p"') == 6 and len(re.findall(r"[+-]0\.\d{3} \[", row)) == 3
    assert "Stages of the elimination phases (§6.2)" in source
    row = re.search(r"<th>1 Sechsundsechzig</th><td class=\"num\">3</td>(.*?)</tr>", source).group(1)
    assert row.count("<td") == 3 and 'class="p"' in row
    table = source[source.index("Elimination phases that go from four players to the loser in one hand"):]
    row = re.search(r"<th>1 Sechsundsechzig</th>(.*?)</tr>", table).group(1)
    assert row.count("<td") == 2 and row.count('class="p"') == 1


def test_perlaggen_blind_bet_table(built):
    """Betting E (spec Q13, §8.14): a row per score and dealer with W and the change by each of the four blind bets."""
    _, source, page = built
    assert "E. Perlaggen: blind bets" in page.headings
    assert "Perlaggen: the change in P(A wins the game) by a blind bet" in source
    for score in ("11:17", "14:17"):
        for dealt in "AB":
            row = re.search(rf"<td>{score}</td><td>{dealt}</td>(.*?)</tr>", source).group(1)
            assert row.count("<td") == 5 and row.count('class="p"') == 1
            assert len(re.findall(r"[+-]\d\.\d{3} \[[+-]\d\.\d{3}, [+-]\d\.\d{3}\]", row)) == 4


def test_reader_against_the_formula(built):
    """Betting C: the formula reading the bet against the formula, a row per side with its win rate and interval; the
    equivalent command's policy file is the section's policy."""
    from analysis.sections import betting as betting_section
    from simcore.betting import load_policy

    _, source, _ = built
    table = source[source.index("Reading the bet against the formula"):]
    for policy, opponent in (("reader", "formula"), ("formula", "reader")):
        row = re.search(rf"<th>{policy}</th><td>{opponent}</td>(.*?)</tr>", table).group(1)
        assert row.count('class="p"') == 1 and row.count('class="ci"') == 2
    assert load_policy(str(Path(__file__).parents[1] / betting_section.READER_FILE)) == betting_section.READER
