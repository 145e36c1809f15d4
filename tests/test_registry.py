"""simcore.registry.chosen_options: defaults, unknown options and the kind check of values (strict by default;
pinochle3 lets numbers match by value for its scale 1 or 0.1)."""

import re

import pytest

from simcore.errors import CardsimError
from simcore.games import pinochle3 as p3
from simcore.registry import Option, chosen_options, get_game

OPTIONS = (Option("scale", 1, (1, 0.1)), Option("flag", False, (False, True)))


def test_defaults_and_unknown_option():
    assert chosen_options("g", OPTIONS, {}) == {"scale": 1, "flag": False}
    assert chosen_options("g", OPTIONS, {"scale": 0.1}) == {"scale": 0.1, "flag": False}
    with pytest.raises(CardsimError, match=re.escape("unknown g option 'Scal' (did you mean 'scale'?); choose "
                                                     "one of: scale, flag")):
        chosen_options("g", OPTIONS, {"Scal": 1})
    with pytest.raises(CardsimError, match="unknown g option 'colour'; choose one of: scale, flag"):
        chosen_options("g", OPTIONS, {"colour": 1})


def test_a_misspelt_game_names_the_game_meant():
    with pytest.raises(CardsimError, match=re.escape("unknown game 'Pinocle3' (did you mean 'pinochle3'?); choose")):
        get_game("Pinocle3")
    with pytest.raises(CardsimError, match=re.escape("unknown game 'whist'; choose one of: bauernstoss, dreeg,")):
        get_game("whist")


def test_a_misspelt_value_names_the_choice_meant():
    """A value of a named choice in the wrong case or a letter off gets "did you mean"; values stay case-sensitive
    (a comparison never sees 'OLD')."""
    with pytest.raises(CardsimError, match=re.escape("pinochle3 option play_rule cannot be 'OLD' (did you mean "
                                                     "'old'?); choose one of ('old',")):
        p3.rule_options({"play_rule": "OLD"})
    with pytest.raises(CardsimError, match=re.escape("pinochle3 option play_rule cannot be 'new1954' (did you mean "
                                                     "'new1945'?)")):
        p3.rule_options({"play_rule": "new1954"})
    with pytest.raises(CardsimError, match=re.escape("pinochle3 option play_rule cannot be 'modern'; choose one")):
        p3.rule_options({"play_rule": "modern"})
    with pytest.raises(CardsimError, match=re.escape("pinochle3 option nines_rule cannot be '8_any'; choose one")):
        p3.rule_options({"nines_rule": "8_any"})  # as near 6_any as 7_any: no guess
    with pytest.raises(CardsimError, match=re.escape("min_bid cannot be 'none' (did you mean 'None'?); choose one")):
        p3.rule_options({"min_bid": "none"})


@pytest.mark.parametrize("value, strict_ok, pinochle3_ok", [
    (1, True, True), (0.1, True, True), (1.0, False, True), (True, False, False), (0.5, False, False),
])
def test_kind_check_of_scale(value, strict_ok, pinochle3_ok):
    """By default a value must have its choice's type; pinochle3's ``same_kind`` lets numbers match by
    value but never a bool (True == 1)."""
    for game, ok, check in (("g", strict_ok, lambda: chosen_options("g", OPTIONS, {"scale": value})),
                            ("pinochle3", pinochle3_ok, lambda: p3.rule_options({"scale": value}))):
        if ok:
            assert check()["scale"] == value
        else:
            with pytest.raises(CardsimError, match=re.escape(f"{game} option scale cannot be {value!r}; "
                                                             "choose one of (1, 0.1)")):
                check()


def test_pinochle3_bool_options_take_bools_only():
    with pytest.raises(CardsimError, match="pinochle3 option forced_open cannot be 1"):
        p3.rule_options({"forced_open": 1})
    assert p3.rule_options({"forced_open": True})["forced_open"] is True


SPEC_DEFAULTS = {
    "giltspiel": ("C-1", "C-3", "C-9", "C-10", "§7.8", "§7.12") + tuple(f"A-{i}:" for i in range(1, 21)),
    "perlaggen": ("A-27", "§9.3"),
    "bauernstoss": ("A1)", "A2,", "A3)", "A4)", "A5)", "A6)", "A7)", "A8)", "A9)", "A10", "A11)", "A12",
                    "A13", "A14", "A15)", "A16", "A21", "A22", "DS-1", "AS-5"),
    "dreeg": ("§3.0.7",),
    "pinochle3": ("A7)", "A11)", "A12", "A13)", "A14)", "A15", "A16)", "A17)", "A18)", "A19)", "A20)", "A21)"),
}
"""Spec ids of rule choices marked as defaults (DEFAULT, [D], 'chosen reading (default)'), each of which some option
of the game names in its help (a `default_only` option when the alternative is not modelled)."""


@pytest.mark.parametrize("game", sorted(SPEC_DEFAULTS))
def test_every_spec_default_is_a_named_option(game):
    helps = " ".join(option.help for option in get_game(game).options)
    assert [tag for tag in SPEC_DEFAULTS[game] if tag not in helps] == []
