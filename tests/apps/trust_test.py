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

from e2e import BIN, check, finish, path, read, run, tournament

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
    # The rule player as the helper that plays the seat: the record is the point, not the play.
    play(["--preset", preset, "--seed", "2", "--bots", "random", "--helper", "rule", "--record", rec], "auto\n")
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


def to_full(args, stdin=None):
    """Runs the binary with its standard output on /dev/full."""
    with open("/dev/full", "w") as full:
        return subprocess.run([BIN, *args], input=stdin, stdout=full, stderr=subprocess.PIPE, text=True,
                              timeout=300)


def case_stdout_checked():
    # Every command that prints says so when its output cannot be written, with status 1.
    run("tournament", "--game", "hearts", "--players", "random,random,random,random", "--games", "2",
        "--out", path("t.jsonl"), "--quiet")
    with open(path("deals.txt"), "w") as f:
        f.write(run("deals", "--game", "spades", "--count", "2").stdout)
    run("eval", "--game", "spades", "--mode", "bid", "--deals", path("deals.txt"), "--policies", "random",
        "--reference", "random", "--samples", "2", "--out", path("e.jsonl"), "--quiet")
    commands = [
        (["deals", "--count", "5"], None),
        (["deals", "--count", "100000"], None),  # more than any buffer: fails while writing
        (["replay", path("t.jsonl")], None),
        (["tournament", "--report", path("t.jsonl")], None),
        (["eval", "--report", path("e.jsonl")], None),
        (["solve", "--game", "spades", "--deal", "N:AKQ.2.. JT9.3.. 876.4.. 543.5.."], None),
        (["bench", "--rules", "--games", "1"], None),
        (["play", "--seed", "1", "--bots", "random", "--helper", "rule", "--ascii"], "auto\n"),
        (["--version"], None),
        (["--help"], None),
        (["deals", "--help"], None),
    ]
    for args, stdin in commands:
        p = to_full(args, stdin)
        check(p.returncode == 1 and "standard output" in p.stderr, f"{args} to /dev/full: {p.returncode} {p.stderr}")
    # Bad input keeps its status.
    p = to_full(["deals", "--count", "0"])
    check(p.returncode == 2, f"bad input to /dev/full: {p.returncode} {p.stderr}")


def case_out_file_only():
    # --out (and --record) must be a file of its own: not the standard output, even when that is a file.
    for args in (["tournament", "--game", "hearts", "--players", "random,random,random,random", "--games", "2",
                  "--out", "/dev/stdout", "--quiet"],
                 ["play", "--seed", "1", "--bots", "random", "--helper", "rule", "--ascii", "--record", "/dev/stdout"]):
        with open(path("stdout.txt"), "w") as out:
            p = subprocess.run([BIN, *args], input="auto\n", stdout=out, stderr=subprocess.PIPE, text=True)
        check(p.returncode == 2 and "'/dev/stdout'" in p.stderr and "standard output" in p.stderr,
              f"{args}: {p.returncode} {p.stderr}")
        with open(path("stdout.txt")) as f:
            text = f.read()
        check("header" not in text and '"type"' not in text, f"{args} wrote into stdout: {text[:300]}")
    p = run("tournament", "--game", "hearts", "--players", "random,random,random,random", "--games", "2", "--out",
            "/dev/null", expect=2)
    check("not a regular file" in p.stderr, p.stderr)


def case_out_race():
    # Two fresh runs started at once on one new path: exactly one writes it, the other is refused.
    for trial in range(10):
        out = path(f"race{trial}.jsonl")
        args = [BIN, "tournament", "--game", "hearts", "--players", "random,random,random,random", "--games", "2",
                "--seed", str(trial), "--out", out, "--quiet"]
        procs = [subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
        results = [(p.wait(timeout=120), p.stderr.read()) for p in procs]
        for p in procs:
            p.stdout.close()
            p.stderr.close()
        codes = sorted(code for code, _ in results)
        check(codes == [0, 2], f"trial {trial}: statuses {results}")
        refusal = [err for code, err in results if code == 2][0]
        check("another run is writing" in refusal or "the file exists" in refusal, refusal)
        lines = open(out).read().splitlines()
        check(len(lines) == 3 and sum('"header"' in line for line in lines) == 1, f"trial {trial}: {len(lines)} lines")


def case_record_rollback():
    # A --record write that fails (the file size limit, as on a full disk) leaves no partial line:
    # the next game's record appends cleanly and the file replays.
    rec = path("games.jsonl")
    play(["--seed", "1", "--bots", "random", "--helper", "rule", "--record", rec], "auto\n")
    size = os.path.getsize(rec)

    def limited():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
        import resource
        resource.setrlimit(resource.RLIMIT_FSIZE, (size + 100, size + 100))

    p = subprocess.run([BIN, "play", "--ascii", "--seed", "2", "--bots", "random", "--helper", "rule", "--record", rec], input="auto\n",
                       capture_output=True, text=True, preexec_fn=limited, timeout=300)
    check(p.returncode == 1 and f"'{rec}': write failed" in p.stderr, f"limited: {p.returncode} {p.stderr}")
    check(os.path.getsize(rec) == size, f"the partial line was left: {os.path.getsize(rec)} bytes, was {size}")
    play(["--seed", "3", "--bots", "random", "--helper", "rule", "--record", rec], "auto\n")
    p = run("replay", rec)
    check("2 games replayed, 0 with errors" in p.stdout, p.stdout + p.stderr)


def play_bytes(stdin, args=("--seed", "1", "--bots", "random", "--helper", "rule")):
    """play with `stdin` as bytes, or a list of byte chunks written one after another (so that this
    process, whose memory the child's peak counts until exec, never holds a large input whole);
    returns (status, stdout bytes, peak resident KiB of the child)."""
    with open(path("play.out"), "wb") as out, open(path("play.err"), "wb") as err:
        p = subprocess.Popen([BIN, "play", "--ascii", *args], stdin=subprocess.PIPE, stdout=out, stderr=err)
        try:
            for chunk in [stdin] if isinstance(stdin, bytes) else stdin:
                p.stdin.write(chunk)
            p.stdin.close()
        except BrokenPipeError:
            pass
        _, status, usage = os.wait4(p.pid, 0)
        p.returncode = os.waitstatus_to_exitcode(status)
    with open(path("play.out"), "rb") as f:
        return p.returncode, f.read(), usage.ru_maxrss


def case_terminal_safe_text():
    # What the player typed comes back escaped: no escape sequence, no invalid UTF-8 reaches the
    # terminal, and a long word is cut.
    code, out, _ = play_bytes(b"\x1b[2Jzz\n\xff\xfeQS\nhin\x07\n" + b"W" * 500 + b"\nauto\n")
    check(code == 0, f"status {code}")
    check(b"\x1b" not in out and b"\x07" not in out, "a control character reached the terminal")
    out.decode("utf-8")  # valid UTF-8 throughout
    text = out.decode()
    check("'\\x1b[2Jzz' is not a card" in text, text[-3000:])
    check("'\ufffd\ufffdQS' is not a card" in text, text[-3000:])
    check("'hin\\x07' is not a command: did you mean 'hint'?" in text, text[-3000:])
    check("W" * 60 + "..." in text and "W" * 61 not in text, "a long word is not cut")


def case_terminal_long_line():
    # A 64 MB line at the prompt is refused unread (one line of message, the prompt again), the game
    # goes on, and memory stays that of a normal game: within 32 MB of it, half the line, a margin
    # that AddressSanitizer's quarantine needs (18 MB seen).
    code, base_out, base_rss = play_bytes(b"auto\n")
    check(code == 0, f"baseline status {code}")
    code, out, rss = play_bytes([b"Q" * (1 << 20)] * 64 + [b"\n" + b"auto\n"])
    text = out.decode()
    check(code == 0 and "=== Game over ===" in text, f"status {code}: {text[-1000:]}")
    check(text.count("longer than 64 KiB") == 1 and len(out) < len(base_out) + 2000, f"{len(out)} bytes out")
    check(rss < base_rss + 32768, f"peak memory {rss} KiB against {base_rss} KiB for a game without the line")


def group_alive(pgid):
    """The live (not zombie) processes of process group `pgid`."""
    alive = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            alive.append(int(entry))
    return alive


def table_with_silent_bot(script, options, out, stderr):
    """A one-game Hearts table whose North is an external bot that starts a child of its own and
    never answers; returned once the bot runs, with the bot's and its child's process ids."""
    pids = path("pids")
    bot = path(script)
    with open(bot, "w") as f:
        f.write(f"sleep 300 &\necho $$ $! > {pids}.tmp && mv {pids}.tmp {pids}\nwait\n")
    table = subprocess.Popen([BIN, "tournament", "--game", "hearts", "--players",
                              f'external:cmd="sh {bot}"{options},random,random,random', "--games", "1",
                              "--threads", "1", "--out", path(out), "--quiet"],
                             stdout=subprocess.DEVNULL, stderr=stderr, text=True)
    deadline = time.time() + 60
    while not os.path.exists(pids):
        check(time.time() < deadline and table.poll() is None, "the bot did not start")
        time.sleep(0.02)
    bot_pid, child_pid = (int(w) for w in open(pids).read().split())
    return table, bot_pid, child_pid


def group_gone(pgid, seconds):
    """Whether process group `pgid` has ended, waiting up to `seconds` for it."""
    deadline = time.time() + seconds
    while group_alive(pgid) and time.time() < deadline:
        time.sleep(0.02)
    return not group_alive(pgid)


def case_bot_dies_with_table():
    # An external bot that starts a child of its own and never answers: when the table is killed
    # with SIGKILL (no chance to clean up), the bot, its child and its whole group end too.
    table, bot_pid, child_pid = table_with_silent_bot("sleeper.sh", "", "bot.jsonl", subprocess.DEVNULL)
    pgid = os.getpgid(bot_pid)
    check(pgid != os.getpgid(table.pid) and os.getpgid(child_pid) == pgid, "the bot has a process group of its own")
    check(set(group_alive(pgid)) >= {bot_pid, child_pid}, f"group {pgid}: {group_alive(pgid)}")
    table.send_signal(signal.SIGKILL)
    table.wait()
    check(group_gone(pgid, 10), f"still alive after the table's SIGKILL: {group_alive(pgid)}")



def lines_in(name):
    with open(path(name), "rb") as f:
        return f.read().count(b"\n")


def wait_exit(p, seconds):
    """The process's exit status once it ended, polling up to `seconds`; None if it still runs."""
    deadline = time.time() + seconds
    while p.poll() is None and time.time() < deadline:
        time.sleep(0.01)
    return p.poll()


# What a run may write after a stop request (docs/guide/tournaments.md): 4 x threads x ranks.
AHEAD_PER_THREAD = 4


def case_stop_bounded():
    # SIGTERM to a long rule-bot tournament: it ends promptly, having written at most the
    # documented number of lines after the signal, and --resume completes it to the same bytes.
    threads = 2
    hands = ("--hands", "2000")
    players = "rule,rule,rule,rule"
    run(*tournament("ref.jsonl", count=hands, players=players, threads=str(threads)))
    big = ("--hands", "1000000")
    p = subprocess.Popen([BIN, *tournament("stop.jsonl", count=big, players=players, threads=str(threads))],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 120
    while not os.path.exists(path("stop.jsonl")) or lines_in("stop.jsonl") < 100:
        check(p.poll() is None and time.time() < deadline, "the run did not get going")
        time.sleep(0.01)
    p.send_signal(signal.SIGTERM)
    at_signal = lines_in("stop.jsonl")
    rc = wait_exit(p, 10)
    if rc is None:
        p.kill()
    check(rc == 130, f"SIGTERM: status {rc} (expected 130 within 10 s)\n{p.stderr.read()}")
    after = lines_in("stop.jsonl") - at_signal
    print(f"{at_signal} lines at SIGTERM, {after} more after it")
    check(after <= AHEAD_PER_THREAD * threads, f"{after} lines written after SIGTERM, more than {AHEAD_PER_THREAD * threads}")
    # The stopped file's results are the first ones of any run with the same seed (a hand's result
    # does not depend on the count). Under the reference's header (its count), --resume must
    # complete it to the reference's bytes.
    ref = read("ref.jsonl")
    stopped = read("stop.jsonl")
    body = stopped[stopped.index(b"\n") + 1:]
    head = ref[: ref.index(b"\n") + 1]
    check(len(body) < len(ref) - len(head) and ref[len(head):].startswith(body),
          "the stopped file's results are not the first ones of the uninterrupted run")
    with open(path("stop.jsonl"), "wb") as f:
        f.write(head + body)
    run(*tournament("stop.jsonl", "--resume", count=hands, players=players, threads=str(threads)))
    check(read("stop.jsonl") == ref, "SIGTERM then --resume differs from the uninterrupted run")


def case_stop_thinking_bot():
    # SIGINT while an external bot thinks (it never answers, with a day to do so): the run ends
    # within a few seconds with status 130, and the bot and its child are gone.
    table, bot_pid, _ = table_with_silent_bot("thinker.sh", ",ms=86400000", "think.jsonl", subprocess.PIPE)
    pgid = os.getpgid(bot_pid)
    time.sleep(0.2)  # the table is now waiting for the bot's first answer
    start = time.time()
    table.send_signal(signal.SIGINT)
    rc = wait_exit(table, 10)
    took = time.time() - start
    if rc is None:
        table.kill()
    err = table.stderr.read()
    check(rc == 130, f"SIGINT while the bot thinks: status {rc} after {took:.1f} s\n{err}")
    check("external bot" not in err, "a stopped bot is not reported as failing: " + err)
    print(f"exited {took:.2f} s after SIGINT")
    check(group_gone(pgid, 5), f"the bot's group is still alive after the run: {group_alive(pgid)}")


if __name__ == "__main__":
    finish()
