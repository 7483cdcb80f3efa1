"""The Chapter Approved 2026-27 cards as data, checked against the seed text when present."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from engine.errors import UnknownReferenceError
from engine.rulesets.wh40k_ca2026 import cards as c
from engine.rulesets.wh40k_ca2026.scoring import MEASURES

SEED = Path(__file__).resolve().parents[4] / ".." / "shared" / "seeds" / "003_943fb55a6830aa95.txt"


@pytest.fixture(scope="module")
def seed_text() -> str:
    if not SEED.exists():
        pytest.skip("the seed text is not present next to the repository")
    return SEED.read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def seed_lines(seed_text: str) -> list[str]:
    return seed_text.split("\n")


def _deck_names(lines: list[str], start: str, end: str, kind_prefix: str) -> list[str]:
    body = lines[lines.index(start) + 1 : lines.index(end, lines.index(start))]
    return [body[i] for i in range(len(body) - 1) if body[i + 1].startswith(kind_prefix)]


def test_deck_sizes() -> None:
    assert len(c.primary_missions()) == 25
    assert len(c.secondary_missions()) == 18
    assert len(c.twists()) == 6
    assert len(c.force_dispositions()) == 5
    assert len(c.deployment_deck()) == 6


def test_every_seed_card_is_in_the_data(seed_lines: list[str]) -> None:
    primaries = _deck_names(
        seed_lines, "Primary Mission deck", "Deployment deck", "Primary Mission"
    )
    secondaries = _deck_names(
        seed_lines, "Secondary Mission deck", "Twist deck", "Secondary Mission"
    )
    twists = _deck_names(seed_lines, "Twist deck", "13.01 Placing Terrain", "Twist")
    assert [m.name for m in c.primary_missions()] == primaries
    assert [m.name for m in c.secondary_missions()] == secondaries
    assert [t.name for t in c.twists()] == twists
    deployments = [
        seed_lines[i - 1] for i, line in enumerate(seed_lines) if line == "DEPLOYMENT CARD"
    ]
    assert [name for _, name in c.deployment_deck()] == deployments


def test_card_text_is_verbatim(seed_text: str) -> None:
    for mission in (*c.primary_missions(), *c.secondary_missions()):
        assert mission.text in seed_text, mission.name
        assert mission.flavour in seed_text
        for rule in mission.rules:
            assert rule.text in mission.text
        for note in mission.designers_notes:
            assert note in mission.text


def test_scoring_lines_match_the_printed_lines(seed_lines: list[str]) -> None:
    value = re.compile(
        r"^(OR|\+)?(.*\.)\+?(\d+)VP(FIXED)?(?:(\d+)VP(TACTICAL))?(TACTICAL)?(CUMULATIVE)?"
        r"(?:\(UP TO (\d+)VP\))?$"
    )
    seen = 0
    for mission in (*c.primary_missions(), *c.secondary_missions()):
        for section, timing in mission.timings():
            assert section.heading in seed_lines
            if timing.when is not None:
                assert f"WHEN: {timing.when}" in seed_lines
            for line in timing.lines:
                assert line.printed in seed_lines, line.printed
                match = value.match(line.printed)
                assert match, line.printed
                prefix, text, first, fixed, second, _, tactical, cumulative, cap = match.groups()
                assert line.text == text
                assert (prefix == "OR") == (line.alternative_to is not None)
                assert (prefix == "+") == bool(cumulative) == line.cumulative
                assert line.up_to == (int(cap) if cap else None)
                if second:
                    assert (line.fixed_vp, line.tactical_vp) == (int(first), int(second))
                else:
                    assert line.vp == int(first)
                    assert line.mode == ("fixed" if fixed else "tactical" if tactical else None)
                seen += 1
    assert seen == 125


def test_every_printed_vp_line_is_in_the_data(seed_lines: list[str]) -> None:
    start = seed_lines.index("Primary Mission deck")
    end = seed_lines.index("Twist deck")
    printed = {
        line
        for line in seed_lines[start:end]
        if re.search(r"\d+VP(FIXED|TACTICAL|CUMULATIVE|\(UP TO \d+VP\))*$", line)
    }
    ours = {
        line.printed for m in (*c.primary_missions(), *c.secondary_missions()) for line in m.lines()
    }
    assert printed == ours


def test_objective_actions_are_verbatim(seed_lines: list[str]) -> None:
    count = 0
    for mission in (*c.primary_missions(), *c.secondary_missions()):
        for action in mission.actions:
            at = [i for i, line in enumerate(seed_lines) if line == action.name]
            assert any(seed_lines[i + 1] == "OBJECTIVE ACTION" for i in at), action.name
            for key, text in (
                ("STARTS", action.starts),
                ("UNITS", action.units),
                ("USE LIMIT", action.use_limit),
                ("COMPLETES", action.completes),
                ("EFFECT", action.effect),
            ):
                assert f"{key}: {text}" in seed_lines
            if action.restrictions is not None:
                assert f"RESTRICTIONS: {action.restrictions}" in seed_lines
            count += 1
    assert count == 13
    sweep = c.card("LOCATE AND DENY").actions[0]
    assert sweep.use_limit == "Once per turn."
    assert sweep.restrictions is not None
    assert "only one operation marker" in sweep.restrictions


def test_section_headings_give_the_battle_rounds() -> None:
    rounds = {
        s.heading: s.battle_rounds
        for m in (*c.primary_missions(), *c.secondary_missions())
        for s in m.sections
    }
    assert rounds == {
        "ANY BATTLE ROUND": (1, 2, 3, 4, 5),
        "FIRST AND SECOND BATTLE ROUND": (1, 2),
        "SECOND BATTLE ROUND ONWARDS": (2, 3, 4, 5),
        "SECOND TO FOURTH BATTLE ROUND": (2, 3, 4),
        "FIFTH BATTLE ROUND": (5,),
        "FIRST BATTLE ROUND": (1,),
        "SECOND AND THIRD BATTLE ROUND": (2, 3),
        "FOURTH BATTLE ROUND ONWARDS": (4, 5),
        "END OF THE BATTLE": None,
    }


def test_timings_are_structured() -> None:
    dominance = c.card("BATTLEFIELD DOMINANCE")
    command = dominance.sections[1].timings[0]
    assert command.moment == "end_of_your_command_phase"
    assert command.fifth_round_moment == "end_of_your_turn"
    immovable = c.card("IMMOVABLE OBJECT").sections[1].timings[0]
    assert immovable.moment == "end_of_your_command_phase"
    assert immovable.fifth_round_moment is None
    beacon = c.card("BEACON").sections[0].timings[0]
    assert beacon.moment == "end_of_your_opponents_turn"
    assert beacon.or_end_of_fifth_battle_round
    assert c.card("NO PRISONERS").sections[0].timings[0].moment == "end_of_a_turn"
    assert c.card("PUNISHMENT").sections[0].timings[0].moment == "end_of_a_turn"


def test_values_caps_alternatives_and_cumulative() -> None:
    grievous = c.card("A GRIEVOUS BLOW").lines()[0]
    assert (grievous.value("fixed"), grievous.value("tactical"), grievous.up_to) == (4, 5, 5)
    assassination = c.card("ASSASSINATION").lines()
    assert assassination[0].value("fixed") == 3
    assert assassination[0].value("tactical") is None
    assert assassination[1].cumulative
    assert assassination[1].requires_line == 0
    assert assassination[2].value("tactical") == 5
    assert assassination[2].value("fixed") is None
    triangulation = c.card("TRIANGULATION").sections[1].timings[0].lines
    assert [line.alternative_to for line in triangulation] == [None, 0, 1]
    assert [line.vp for line in triangulation] == [3, 6, 10]
    engage = c.card("ENGAGE ON ALL FRONTS").lines()
    assert [(line.fixed_vp, line.tactical_vp) for line in engage] == [(2, 3), (4, 5)]


def test_when_drawn_and_start_rules() -> None:
    kinds = {}
    for m in c.secondary_missions():
        rule = m.when_drawn()
        if rule is not None:
            assert rule.effect is not None
            kinds[m.name] = rule.effect["kind"]
    assert kinds == {
        "PLUNDER": "may_reshuffle_and_draw",
        "BEACON": "select",
        "CLEANSE": "may_reshuffle_and_draw",
        "A GRIEVOUS BLOW": "may_discard_and_draw",
        "DEFEND STRONGHOLD": "must_reshuffle_and_draw",
        "FORWARD POSITION": "may_reshuffle_and_draw",
        "A TEMPTING TARGET": "select",
        "BEHIND ENEMY LINES": "may_reshuffle_and_draw",
        "BRING IT DOWN": "may_discard_and_draw",
        "BURDEN OF TRUST": "select",
    }
    assert c.card("PUNISHMENT").rules[0].kind == "start_of_your_turn"
    assert c.card("LOCATE AND DENY").rules[0].kind == "start_of_the_battle"
    assert c.card("BURDEN OF TRUST").rules[0].kind == "when_drawn_and_start_of_your_turn"
    assert c.card("CONSECRATE").rules[0].kind == "rule"


def test_fixed_missions_are_the_cards_printing_fixed_values() -> None:
    fixed = [m.name for m in c.secondary_missions() if m.fixed]
    assert fixed == ["A GRIEVOUS BLOW", "ENGAGE ON ALL FRONTS", "ASSASSINATION", "BRING IT DOWN"]
    for m in c.secondary_missions():
        prints_fixed = any("FIXED" in line.printed for line in m.lines())
        assert m.fixed == prints_fixed


def test_every_measure_is_implemented() -> None:
    for mission in (*c.primary_missions(), *c.secondary_missions()):
        for line in mission.lines():
            assert line.measure["kind"] in MEASURES, (mission.name, line.text)


def test_faq_is_verbatim_and_attached(seed_text: str) -> None:
    for entry in c.faq():
        assert f"| Q: | {entry.question} |" in seed_text
        assert f"| A: | {entry.answer} |" in seed_text
    assert len(c.faq()) == seed_text.count("| Q: |")
    assert [f.id for f in c.card("VITAL LINK").faq] == ["faq-8"]
    assert "Beacon" in c.card("BEACON").faq[0].question
    assert c.card("DEATH TRAP").faq[-1].answer == "No."
    assert "15VP per battle round" in c.faq()[2].answer


def test_force_disposition_cards_follow_the_seed(seed_lines: list[str]) -> None:
    for fd in c.force_dispositions():
        start = seed_lines.index(fd.name)
        assert seed_lines[start + 1] == "Force Disposition Cards"
        assert seed_lines[start + 2] == fd.flavour
        block = seed_lines[start + 5 : start + 15]
        printed = [block[i + 1] for i in range(0, 10, 2) if block[i] == "MISSION"]
        names = [n for n in printed if n != "MISSION"]
        expected = [m for m in fd.missions if m in names]
        assert names == expected
    take_and_hold = seed_lines[seed_lines.index("Take and Hold") + 5 :]
    assert take_and_hold[:2] == ["MISSION", "MISSION"], "the first name is blank in the seed"


def test_every_primary_is_on_exactly_one_disposition_card() -> None:
    on_cards = [m for fd in c.force_dispositions() for m in fd.missions]
    assert sorted(on_cards) == sorted(m.name for m in c.primary_missions())


def test_column_order_is_forced_by_the_mirrored_world_list() -> None:
    mirrored = [str(n) for n in c.twist("mirrored-world").effect["choices"]]
    cards = {fd.id: fd for fd in c.force_dispositions()}
    fits = [
        order
        for order in itertools.permutations(cards)
        if sorted(cards[fd].missions[order.index(fd)] for fd in cards) == sorted(mirrored)
    ]
    assert fits == [c.opponent_columns()]
    for fd in c.force_dispositions():
        assert c.primary_mission(fd.name, fd.name) in mirrored


def test_mirrored_world_table_matches_the_seed(seed_lines: list[str]) -> None:
    table = c.twist("MIRRORED WORLD").table
    assert table is not None
    rows = [str(r["primary"]) for r in table["rows"]]
    start = seed_lines.index("PRIMARY MISSION")
    assert seed_lines[start + 1 : start + 7] == rows
    assert [str(n) for n in c.twist("mirrored-world").effect["choices"]] == [
        r.upper() for r in rows[:5]
    ]


@pytest.mark.parametrize(
    ("player", "opponent", "mission"),
    [
        ("Take and Hold", "Take and Hold", "BATTLEFIELD DOMINANCE"),
        ("Take and Hold", "Priority Assets", "INESCAPABLE DOMINION"),
        ("Purge the Foe", "Disruption", "PUNISHMENT"),
        ("Disruption", "Purge the Foe", "DELAYING ACTION"),
        ("Reconnaissance", "Take and Hold", "RECONNAISSANCE SWEEP"),
        ("Priority Assets", "Priority Assets", "SABOTAGE"),
        ("priority-assets", "RECONNAISSANCE", "VANGUARD OPERATION"),
    ],
)
def test_primary_mission_matrix(player: str, opponent: str, mission: str) -> None:
    assert c.primary_mission(player, opponent) == mission


def test_unknown_names_are_refused() -> None:
    with pytest.raises(UnknownReferenceError, match="Take and Hold"):
        c.primary_mission("Hold and Take", "Disruption")
    with pytest.raises(UnknownReferenceError):
        c.card("NO SUCH MISSION")
    with pytest.raises(UnknownReferenceError):
        c.card("SABOTAGE", "secondary")
    with pytest.raises(UnknownReferenceError, match="night-fighting"):
        c.twist("day fighting")


def test_twists_are_verbatim_and_wired(seed_lines: list[str]) -> None:
    for t in c.twists():
        at = seed_lines.index(t.name)
        assert seed_lines[at + 1] == "Twist"
        assert seed_lines[at + 2] == t.flavour
        assert t.text in seed_lines
        assert t.designers_note in seed_lines
    assert c.twist("night-fighting").effect == {"kind": "visibility_range", "range": 18}
    assert c.twist("nowhere-to-hide").effect["kind"] == "terrain_features_not_solid"
    assert c.twist("scrambled-communications").effect["kind"] == "swap_primaries"
    assert c.twist("martial-pride").effect["kind"] == "displayed_rule"
    assert c.twist("ruinscape").effect["kind"] == "displayed_rule"
