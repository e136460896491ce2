#!/usr/bin/env python3
"""Results you can trust (issue 24): records checked against the rules, no write that fails
silently, only safe text at the terminal, paranoid's value, external bots that die with the table.

usage: trust_test.py CARDGAMES_BINARY CASE
"""
import json
import os
import signal
import subprocess
import sys
import time

from e2e import BIN, check, finish, path, run

PRESETS = ["hearts3", "hearts4", "hearts5", "hearts6", "spades-cutthroat3", "spades-cutthroat4",
           "spades-partnership"]
PLAYERS = {"hearts3": 3, "hearts5": 5, "hearts6": 6, "spades-cutthroat3": 3}


def records_of(preset):
    """A tournament file (two games, rule and random bots) and a play record of one preset."""
    n = PLAYERS.get(preset, 4)
    out = path(f"{preset}.jsonl")
    players = ",".join((["rule", "random"] * 3)[:n])
    run("tournament", "--preset", preset, "--players", players, "--games", "2", "--seed", "3", "--out", out,
        "--quiet")
    rec = path(f"{preset}.play.jsonl")
    play(["--preset", preset, "--seed", "2", "--bots", "random", "--record", rec], "auto\n")
    return out, rec


def play(args, stdin, expect=0):
    p = subprocess.run([BIN, "play", "--ascii", *args], input=stdin, capture_output=True, text=True, timeout=300)
    check(p.returncode == expect, f"play {args}: status {p.returncode}, expected {expect}\n{p.stdout[-2000:]}\n{p.stderr}")
    return p


def lines_of(name):
    with open(name) as f:
        return [json.loads(line) for line in f if line.strip()]


def write_lines(name, objs):
    with open(name, "w") as f:
        for o in objs:
            f.write(json.dumps(o) + "\n")


def case_replay_checks_outcomes():
    # What play and tournament write replays, for every preset.
    files = {}
    for preset in PRESETS:
        out, rec = records_of(preset)
        for name, games in ((out, 2), (rec, 1)):
            p = run("replay", name)
            check(f"{games} games replayed, 0 with errors" in p.stdout, f"{preset}: {p.stdout}{p.stderr}")
        files[preset] = rec
    hearts = lines_of(files["hearts4"])[0]
    spades = lines_of(files["spades-partnership"])[0]

    def refused(record, change, key):
        r = json.loads(json.dumps(record))
        change(r)
        bad = path("lie.jsonl")
        # The lie is on line 2, after a genuine record.
        write_lines(bad, [record, r])
        p = run("replay", bad, expect=2)
        check(f"{bad} line 2: key \"{key}\": recorded" in p.stderr, f"{key}: {p.stderr}")

    def bump(r, *keys):
        obj = r
        for k in keys[:-1]:
            obj = obj[k]
        obj[keys[-1]] += 1

    refused(hearts, lambda r: bump(r, "final_scores", 0), "final_scores")
    refused(hearts, lambda r: r["hands"][0].__setitem__("moon", 2 if r["hands"][0]["moon"] != 2 else 1),
            "hands[0].moon")
    refused(hearts, lambda r: r["hands"][0].__setitem__("pass_offset", -r["hands"][0]["pass_offset"]),
            "hands[0].pass_offset")
    refused(hearts, lambda r: r.__setitem__("complete", not r["complete"]), "complete")
    refused(hearts, lambda r: r.__setitem__("winners", [(r["winners"][0] + 1) % 4]), "winners")
    refused(hearts, lambda r: bump(r, "hands", 0, "scores", 1), "hands[0].scores")
    refused(spades, lambda r: bump(r, "hands", 0, "bags", 0), "hands[0].bags")
    refused(spades, lambda r: r["hands"][0]["blind_nil"].__setitem__(1, True), "hands[0].blind_nil[1]")
    refused(spades, lambda r: r["hands"][0].__setitem__("exchanges", [{"seat": 1, "cards": "2C 3C"}]),
            "hands[0].exchanges[0]")
    refused(spades, lambda r: r.__setitem__("complete", not r["complete"]), "complete")
    refused(spades, lambda r: bump(r, "hands", 0, "hand_score", 1), "hands[0].hand_score")


def case_solve_paranoid():
    # The root player's own value, not half a side's total: here the others cannot stop seat 0
    # making its 2 (20), which max^n's value for seat 0 agrees with.
    base = ["solve", "--preset", "spades-cutthroat3", "--deal", "3:AK.Q.. QJ.3.. 32.A..", "--utility", "score",
            "--bids", "2,1,nil", "--leader", "0", "--format", "json"]
    paranoid = json.loads(run(*base, "--algorithm", "paranoid").stdout)
    maxn = json.loads(run(*base, "--algorithm", "maxn").stdout)
    check(paranoid["value"] == [20] and all(m["value"] == [20] for m in paranoid["moves"]), str(paranoid))
    check(maxn["value"][0] == 20, str(maxn))
    # Partnership tricks: the partner plays against the root player, so its side is sure of no
    # more than alphabeta (partners together) gives it, and the value counts tricks, not halves.
    deal = ["--game", "spades", "--deal", "N:AKQ.2.. JT9.3.. 876.4.. 543.5..", "--format", "json"]
    par = json.loads(run("solve", *deal, "--algorithm", "paranoid").stdout)
    ab = json.loads(run("solve", *deal, "--algorithm", "alphabeta").stdout)
    check(len(par["value"]) == 1 and 0 <= par["value"][0] <= ab["value"][0], f"{par} {ab}")
    # Hearts: points the player to move takes at most, never fewer than max^n gives it.
    hearts = ["solve", "--game", "hearts", "--deal", "N:AKQ.2.. JT9.3.. 876.4.. 543.5..", "--format", "json"]
    hp = json.loads(run(*hearts, "--algorithm", "paranoid").stdout)
    hm = json.loads(run(*hearts, "--algorithm", "maxn").stdout)
    check(len(hp["value"]) == 1 and hp["value"][0] >= hm["value"][0], f"{hp} {hm}")


if __name__ == "__main__":
    finish()
