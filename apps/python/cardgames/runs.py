"""Tournaments and evaluations from Python, with the command line's options as keyword arguments.

tournament(players, *, games=None, hands=None, preset=None, game=None, rules=None,
           duplicate=False, seat_seeds=False, seed=1, threads=None, out, resume=False,
           quiet=False) -> Results
    `cardgames tournament` (seat_seeds: `--seat-seeds`). A player is a bot spec ("rule",
    "pimc:worlds=32") or any object with act(observation) -> action; the file names it "python:" +
    its `name` attribute (else its class name). rules: `--rule` overrides, a dict {key: value} or a list of "key=value".

evaluate(*, mode="bid", policies, reference="rule", deals=None, records=None, count=None,
         seats="all", samples=16, seed=1, preset=None, game=None, rules=None, threads=None, out,
         resume=False, quiet=False) -> Results
    `cardgames eval`; a policy is a bot spec or an object with act(observation) -> action.

read_results(path) -> Results
    A results file that `cardgames tournament` or `cardgames eval` (or the calls above) wrote,
    read through the library's checked readers: a bad file raises InputError (a ValueError) with
    the command line's message.

The observation a Python player gets is a dict: "observation" (float32, the State's
observation_tensor layout), "action_mask" (int8, num_actions), "legal_actions", "seat", "phase",
"info" (the State.info_state dict) and "view" (make_bot(spec).act(observation) answers it as that
bot would). A pass is chosen one card at a time (several act calls), as State does.

A Python player is called under the GIL, one call at a time; the run itself goes without it, so
with threads=2 the native bots keep both cores busy. Ctrl-C (KeyboardInterrupt) stops the run and
is raised again once it has stopped; the file keeps every finished result and resume=True
continues it.
"""

import json

from ._cardgames import _evaluate, _read_results, _tournament


def _rule_texts(rules):
    if rules is None:
        return None
    if isinstance(rules, dict):
        return [f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in rules.items()]
    return list(rules)


class Results:
    """A results file and its figures.

    path, command ("tournament" or "eval"), complete (False when a run was interrupted), done
    and total (results in the file, of the complete run), workers (what ran it).
    header: the file's first line as a dict. records: the result lines as dicts, read when first
    asked for (the whole file in memory: about 2 KB per tournament hand, 0.3 KB per eval item).
    summary(): the figures of the command line's table, as data. to_pandas(): a DataFrame, one row
    per seat and hand (tournament) or per item and policy (eval). board_pairs(a, b): a duplicate
    tournament's per-board scores of two players and their difference.
    """

    def __init__(self, path, command, summary, complete=True, done=None, total=None, workers=None):
        self.path = str(path)
        self.command = command
        self.complete = complete
        self._summary = summary
        self.done = done
        self.total = total
        self.workers = workers
        self._lines = None

    def _read(self):
        if self._lines is None:
            with open(self.path) as f:
                self._lines = [json.loads(line) for line in f if line.strip()]
        return self._lines

    @property
    def header(self):
        return self._read()[0]

    @property
    def records(self):
        return self._read()[1:]

    def lines(self):
        """Header first, then the records: what cardgames.plots takes."""
        return self._read()

    def summary(self):
        """Tournament: {"players": [{"player", "games", "wins", "win_rate", "score_per_hand"}],
        "pairs": [{"a", "b", "difference"}] (duplicate: A's score per hand minus B's on the same
        boards), "boards"}. Eval: {"policies": [{"policy", "best_rate" (bid: best bid rate;
        play: agreement), "loss"}]}. Each figure is {"estimate", "low", "high", "n"} with its 95%
        interval (Wilson for rates, Student's t for means; NaN bounds when n is too small)."""
        return self._summary

    def to_pandas(self, per="hand"):
        """A DataFrame of the records.

        Tournament, per="hand" (the default): one row per seat and hand: index (the result line),
        board, rotation, seat, player, unit (its side or its own seat), hand (0, 1, ... within the
        line's game), score (that hand's score of the seat's unit; Hearts: penalty points), win
        (the seat won the line's game), bid (Spades: the seat's bid, 0 for nil; -1 in Hearts),
        blind (Spades: the bid was blind nil) and tricks (the tricks the seat took in the hand):
        a nil was made where bid == 0 and tricks == 0. A unit's seats share its scores: to count a partnership
        once, keep one seat per (index, unit). per="game": one row per result line and seat
        (index, board, rotation, seat, player, unit, win, score (the game's total), hands,
        score_per_hand). per="pair" (duplicate files): one row per complete board and pair of
        players (each pair once, in the order of the summary's pairs), as board_pairs(a, b).

        Eval: one row per item and policy (bid: index, deal_index, seat, policy, bid, best_bid,
        loss; play: index, record_line, hand, trick, seat, policy, choice, best, loss)."""
        import pandas as pd

        rows = []
        if self.command == "tournament" and per == "hand":
            for r in self.records:
                for seat, player in enumerate(r["players"]):
                    for hand, score in enumerate(r["seat_hand_scores"][seat]):
                        played = r["hands"][hand]
                        bids, blind = played.get("bids"), played.get("blind_nil")
                        rows.append({"index": r["index"], "board": r["board"], "rotation": r["rotation"],
                                     "seat": seat, "player": player, "unit": r["seat_unit"][seat], "hand": hand,
                                     "score": score, "win": r["seat_win"][seat],
                                     "bid": bids[seat] if bids else -1, "blind": bool(blind and blind[seat]),
                                     "tricks": played["tricks"][seat]})
            return pd.DataFrame(rows, columns=["index", "board", "rotation", "seat", "player", "unit", "hand",
                                               "score", "win", "bid", "blind", "tricks"])
        if per == "pair" and self.command == "tournament":
            specs = list(dict.fromkeys(self.header["options"]["players"]))
            frames = [self.board_pairs(a, b) for i, a in enumerate(specs) for b in specs[i + 1:]]
            if not frames:
                return pd.DataFrame(columns=["board", "a", "b", "score_a", "score_b", "difference"])
            return pd.concat(frames, ignore_index=True)
        if per not in ("hand", "game") or (per == "game" and self.command != "tournament"):
            raise ValueError(f"per={per!r}: expected \"hand\", \"game\" or \"pair\" (pair and game: "
                             f"tournament files)")
        if self.command == "tournament":
            for r in self.records:
                for seat, player in enumerate(r["players"]):
                    scores = r["seat_hand_scores"][seat]
                    rows.append({"index": r["index"], "board": r["board"], "rotation": r["rotation"],
                                 "seat": seat, "player": player, "unit": r["seat_unit"][seat],
                                 "win": r["seat_win"][seat], "score": sum(scores), "hands": len(scores),
                                 "score_per_hand": sum(scores) / len(scores) if scores else float("nan")})
            return pd.DataFrame(rows)
        options = self.header["options"]
        policies = options["policies"]
        for r in self.records:
            for p, policy in enumerate(policies):
                if options["mode"] == "bid":
                    rows.append({"index": r["index"], "deal_index": r["deal_index"], "seat": r["seat"],
                                 "policy": policy, "bid": r["bids"][p], "best_bid": r["best_bid"],
                                 "loss": r["loss"][p]})
                else:
                    rows.append({"index": r["index"], "record_line": r["record_line"], "hand": r["hand"],
                                 "trick": r["trick"], "seat": r["seat"], "policy": policy, "choice": r["choices"][p],
                                 "best": r["best"], "loss": r["loss"][p]})
        return pd.DataFrame(rows)

    def board_pairs(self, a, b):
        """Tournament with duplicate: one row per complete board (every rotation of it in the
        file): board, a, b, score_a and score_b (each player's mean score per hand on that board's
        deals, each of its units counted once) and difference (score_a - score_b): the values the
        command line's paired comparison averages."""
        import pandas as pd

        from . import plots

        if self.command != "tournament":
            raise ValueError(f"'{self.path}': board pairs need a tournament file, not an {self.command} file")
        rows = [{"board": board, "a": a, "b": b, "score_a": x, "score_b": y, "difference": x - y}
                for board, x, y in plots.board_pairs(self.lines(), a, b)]
        return pd.DataFrame(rows, columns=["board", "a", "b", "score_a", "score_b", "difference"])

    def __repr__(self):
        state = "complete" if self.complete else f"interrupted at {self.done} of {self.total}"
        return f"Results({self.command}, {self.path!r}, {state})"


def tournament(players, *, games=None, hands=None, preset=None, game=None, rules=None, duplicate=False,
               seat_seeds=False, seed=1, threads=None, out=None, resume=False, quiet=False):
    run = _tournament(players=list(players), preset=preset, game=game, rules=_rule_texts(rules) or [],
                      games=games, hands=hands, duplicate=duplicate, seat_seeds=seat_seeds, seed=seed,
                      threads=threads,
                      out=str(out or ""), resume=resume, quiet=quiet)
    return Results(out, run["command"], run["summary"], run["complete"], run["done"], run["total"],
                   run["workers"])


def evaluate(*, policies, mode="bid", reference="rule", deals=None, records=None, count=None, seats="all",
             samples=16, seed=1, preset=None, game=None, rules=None, threads=None, out=None, resume=False,
             quiet=False):
    run = _evaluate(mode=mode, policies=list(policies), reference=reference,
                    deals=None if deals is None else str(deals),
                    records=None if records is None else str(records), count=count, seats=str(seats),
                    samples=samples, seed=seed, preset=preset, game=game, rules=_rule_texts(rules),
                    threads=threads, out=str(out or ""), resume=resume, quiet=quiet)
    return Results(out, run["command"], run["summary"], run["complete"], run["done"], run["total"],
                   run["workers"])


def read_results(path):
    info = _read_results(str(path))
    return Results(path, info["command"], info["summary"])
