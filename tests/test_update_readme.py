"""scripts/update_readme.py: the example kinds (plain, trimmed, varies, manual), on a fake command runner, and the
table of contents."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
import update_readme  # noqa: E402

OUTPUTS = {"cardsim a": "line 1\nline 2\nline 3", "cardsim b": "took 1.5 s, hash 0123456789abcdef"}


@pytest.fixture(autouse=True)
def fake_run(monkeypatch):
    monkeypatch.setattr(update_readme, "run", lambda command: OUTPUTS[command.split("  #")[0]])


def example(kind: str, command: str, body: str) -> str:
    marker = "example" if not kind else f"example ({kind})"
    return f"<!-- {marker}: {command} -->\n```\n$ {command}\n{body}\n```"


def test_plain_example_is_replaced_by_the_output():
    text = "intro\n" + example("", "cardsim a", "old") + "\nafter"
    new, stale = update_readme.refresh(text)
    assert new == "intro\n" + example("", "cardsim a", OUTPUTS["cardsim a"]) + "\nafter" and stale == []


@pytest.mark.parametrize("body, matches", [("line 1\n...\nline 3", True), ("...\nline 2", True),
                                           ("line 3\n...\nline 1", False), ("line 4", False),
                                           ("lin ...\nline 3", True), ("line 4 ...", False)])
def test_trimmed_example_is_kept_and_checked_in_order(body, matches):
    text = example("trimmed", "cardsim a", body)
    new, stale = update_readme.refresh(text)
    assert new == text and stale == ([] if matches else ["cardsim a"])


def test_varies_example_compares_with_numbers_and_hashes_masked():
    text = example("varies", "cardsim b", "took 0.7 s, hash fedcba9876543210")
    assert update_readme.refresh(text, check=True)[0] == text
    assert update_readme.refresh(text)[0] == example("varies", "cardsim b", OUTPUTS["cardsim b"])
    assert update_readme.refresh(example("varies", "cardsim b", "took  10.75 s, hash fedcba9876543210"),
                                 check=True)[0].count("10.75") == 1  # a wider number moves the columns
    changed = example("varies", "cardsim b", "took 0.7 min, hash fedcba9876543210")
    assert update_readme.refresh(changed, check=True)[0] != changed


def test_manual_example_and_examples_not_asked_for_are_never_run():
    text = example("manual", "cardsim x", "recorded") + "\n" + example("", "cardsim y", "kept")
    assert update_readme.refresh(text, only=["cardsim a"]) == (text, [])


def test_anchors_are_githubs():
    seen: dict[str, int] = {}
    assert update_readme.anchor("Figure odds of a hand: `cardsim odds giltspiel`", seen) == \
        "figure-odds-of-a-hand-cardsim-odds-giltspiel"
    assert update_readme.anchor("Spiel odds: `--spiel pimc`", seen) == "spiel-odds---spiel-pimc"
    assert update_readme.anchor("Perlaggen figure levels (§11.6)", seen) == "perlaggen-figure-levels-116"
    assert update_readme.anchor("Rule options", seen) == "rule-options"
    assert update_readme.anchor("Rule options", seen) == "rule-options-1"


def test_contents_lists_sections_and_subsections_outside_code():
    text = ("# Title\n<!-- contents -->\nold\n<!-- /contents -->\n## Contents\n## Use\n### Odds\n#### Deep\n"
            "```\n## not a heading\n```\n## API\n### Odds\n")
    expected = ("* [Use](#use)\n  * [Odds](#odds)\n* [API](#api)\n  * [Odds](#odds-1)\n")
    assert update_readme.contents(text) == expected
    assert update_readme.with_contents(text) == text.replace("old\n", expected)


def test_the_readme_contents_are_current():
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    assert "<!-- contents -->" in readme and update_readme.with_contents(readme) == readme, \
        "README's table of contents is stale: run .venv/bin/python scripts/update_readme.py --contents"
