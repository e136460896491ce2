"""The learning commands from Python: `cardgames learn selfplay` with its options as keyword
arguments, calling the same library functions as the command line (docs/guide/learning.md).

selfplay(*, out, hands, preset=None, game=None, rules=None, players=None, seats=None,
         values="none", seed=None, shard_hands=None, threads=None, resume=False, quiet=False)
    -> dict
    `cardgames learn selfplay`: the same shards, byte for byte, for the same options. players: a
    list of bot specs, one per seat (or the command line's comma-separated text; default: "rule"
    in every seat); seats: the seat numbers recorded (default: every seat); seed: a training seed
    (default 1000000); shard_hands: hands per shard (default 100000); rules: `--rule` overrides,
    a dict {key: value} or a list of "key=value". Bad arguments raise InputError (a ValueError)
    naming the argument and its value, before anything is written. The run releases the GIL;
    Ctrl-C (KeyboardInterrupt) stops it with every finished hand written, and resume=True
    continues it. Returns what selfplay_report returns, with "complete".

selfplay_report(folder) -> dict
    `cardgames learn selfplay --report`: every record checked and its hand replayed; folder,
    form, shards, hands, records, by_phase {blind_nil, bid, pass, play}, options (the run's, as
    every shard's header holds them).
"""

from ._cardgames import _selfplay, _selfplay_report
from .runs import _rule_texts


def selfplay(*, out, hands, preset=None, game=None, rules=None, players=None, seats=None, values="none",
             seed=None, shard_hands=None, threads=None, resume=False, quiet=False):
    return _selfplay(out=str(out), hands=hands, preset=preset, game=game, rules=_rule_texts(rules) or [],
                     players=players, seats=seats, values=values, seed=seed, shard_hands=shard_hands,
                     threads=threads, resume=resume, quiet=quiet)


def selfplay_report(folder):
    return _selfplay_report(str(folder))
