"""``packref simulate ... --policies``: a policy per seat (docs/formats.md §8)."""

from __future__ import annotations

from rules.simulation import random_game


def test_all_random_seats_are_the_random_games(cli) -> None:
    plain = cli("simulate", "small-warehouse", "--players", "2", "--seed", "7", "--games", "2")
    seated = cli("simulate", "small-warehouse", "--players", "2", "--seed", "7", "--games", "2",
                 "--policies", "random,random")
    assert plain.status == seated.status == 0, (plain.stderr, seated.stderr)
    assert plain.json_lines() == seated.json_lines()
    for line in plain.json_lines():
        state = random_game("small-warehouse", ["P1", "P2"], line["seed"])
        assert [p["total"] for p in line["players"]] == [s.total for s in state.scores()]
        assert line["policies"] == ["random", "random"]


def test_each_seat_plays_its_policy(cli) -> None:
    result = cli("simulate", "pick-n-packers", "--players", "3", "--seed", "2",
                 "--policies", "greedy,advisor,random", "--advisor-seconds", "0.05")
    assert result.status == 0, result.stderr
    (line,) = result.json_lines()
    assert line["policies"] == ["greedy", "advisor", "random"] and line["winners"]


def test_bad_policies_are_refused(cli) -> None:
    base = ("simulate", "small-warehouse", "--players", "2", "--seed", "1")
    cli(*base, "--policies", "random").assert_bad_input("--policies:")
    cli(*base, "--policies", "random,clever").assert_bad_input("--policies:")
    cli(*base, "--policies", "random,random,random").assert_bad_input("--policies:")
    cli(*base, "--advisor-seconds", "-1").assert_bad_input("--advisor-seconds:")
