"""The learning commands from Python: `cardgames learn selfplay`, the fits' data commands and the
fits, with their options as keyword arguments, calling the same library functions as the command
line (docs/guide/learning.md).

selfplay(*, out, hands, preset=None, game=None, rules=None, players=None, seats=None,
         values="none", seed=None, shard_hands=None, threads=None, resume=False, quiet=False,
         explore_bids=False) -> dict
    `cardgames learn selfplay`: the same shards, byte for byte, for the same options. players: a
    list of bot specs, one per seat (or the command line's comma-separated text; default: "rule"
    in every seat); seats: the seat numbers recorded (default: every seat); seed: a training seed
    (default 1000000); shard_hands: hands per shard (default 100000); explore_bids: `--explore-bids`
    (Spades: True or "rule", the recorded seats bid as bids_data varies the rule player's bid;
    "own", around the seat's own bot's bid; "paired", one seat a hand values every bid it may
    choose by the hand played on after it); rules: `--rule` overrides,
    a dict {key: value} or a list of "key=value". Bad arguments raise InputError (a ValueError)
    naming the argument and its value, before anything is written. The run releases the GIL;
    Ctrl-C (KeyboardInterrupt) stops it with every finished hand written, and resume=True
    continues it. Returns {out, hands, complete}; selfplay_report(out) checks what it wrote.

policy_data(*, out, hands, preset=None, game=None, rules=None, players=None, seed=None,
            threads=None, resume=False, quiet=False) -> dict
cutoff_data(*, out, hands, preset=None, game=None, rules=None, players=None, seed=None,
            threads=None, resume=False, quiet=False) -> dict
bids_data(*, out, hands, preset=None, game=None, rules=None, bot=None, seed=None, threads=None,
          resume=False, quiet=False) -> dict
    `cardgames learn data`, `learn cutoff-data` and `learn bids-data`: the same data file, byte for
    byte, with the commands' defaults (players: "pimc" in every seat for policy_data, "rule" for
    cutoff_data; bot "pimc"; preset hearts4 for cutoff_data and spades-partnership for bids_data
    when no game is given; seed 1000000). Returns {out, hands, complete}; runs, stops and resumes
    as selfplay does.

fit_policy(*, data, out, holdout=None, l2=None, temperature=None) -> dict
fit_cutoff(*, data, out, holdout=None, ridge=None) -> dict
fit_bids(*, data, out, holdout=None, ridge=None, test=None) -> dict
    `cardgames learn fit`, `learn cutoff-fit` and `learn bids-fit`: the same model file, byte for
    byte, as the command line with these options in this order (data: a file or a list of files,
    each `--data`; test: likewise, each `--test`). None is the command line's default: holdout 5,
    l2 1, temperature 0, ridge 0.001. The model's header names the command that remakes it.
    Returns what the command prints, as data: policy: decisions, hands, train_decisions,
    held_out_decisions, iterations, converged, model_train, model_held_out and rule_held_out
    ({decisions, agree, agreement, loss}: pimc's value lost per decision), weights, out; cutoff:
    positions, hands, train_seats, held_out {seats, mean_abs_error, shares_mean_abs_error, rmse,
    even_mean_abs_error, even_rmse}, weights, out; bids: seats, nil_bids, train_seats, held_out
    ({bids, tricks_mean_abs_error, rule_bid_mean_abs_error, tricks_log_loss, nil_bids,
    nil_made_share, nil_predicted_share, nil_log_loss}, or None), figures (the text), out.

convert_model(path, out) -> dict
    `cardgames learn convert --in PATH --out OUT`: the linear model file at path (version 1 or 2)
    written to out as version 2 with the same weights (out may be path); in, out, kind, form,
    from_version, weights (how many).

policy_data_report(path) -> dict
    `cardgames learn data --report PATH`: every line of a policy data file checked; path, form,
    hands, decisions, cards (legal cards valued).

selfplay_report(folder) -> dict
    `cardgames learn selfplay --report`: every record checked and its hand replayed; folder,
    form, shards, hands, records, by_phase {blind_nil, bid, pass, play}, options (the run's, as
    every shard's header holds them).
"""

import os

from ._cardgames import (_bids_data, _convert_model, _cutoff_data, _fit_bids, _fit_cutoff, _fit_policy, _policy_data,
                         _policy_data_report, _selfplay, _selfplay_report)
from .runs import _rule_texts


def selfplay(*, out, hands, preset=None, game=None, rules=None, players=None, seats=None, values="none",
             seed=None, shard_hands=None, threads=None, resume=False, quiet=False, explore_bids=False):
    return _selfplay(out=str(out), hands=hands, preset=preset, game=game, rules=_rule_texts(rules) or [],
                     players=players, seats=seats, values=values, seed=seed, shard_hands=shard_hands,
                     threads=threads, resume=resume, quiet=quiet, explore_bids=explore_bids)


def selfplay_report(folder):
    return _selfplay_report(str(folder))


def convert_model(path, out):
    return _convert_model(str(path), str(out))


def policy_data_report(path):
    return _policy_data_report(str(path))


def policy_data(*, out, hands, preset=None, game=None, rules=None, players=None, seed=None, threads=None,
                resume=False, quiet=False):
    return _policy_data(out=str(out), hands=hands, preset=preset, game=game, rules=_rule_texts(rules) or [],
                        players=players, seed=seed, threads=threads, resume=resume, quiet=quiet)


def cutoff_data(*, out, hands, preset=None, game=None, rules=None, players=None, seed=None, threads=None,
                resume=False, quiet=False):
    return _cutoff_data(out=str(out), hands=hands, preset=preset, game=game, rules=_rule_texts(rules) or [],
                        players=players, seed=seed, threads=threads, resume=resume, quiet=quiet)


def bids_data(*, out, hands, preset=None, game=None, rules=None, bot=None, seed=None, threads=None, resume=False,
              quiet=False):
    return _bids_data(out=str(out), hands=hands, preset=preset, game=game, rules=_rule_texts(rules) or [], bot=bot,
                      seed=seed, threads=threads, resume=resume, quiet=quiet)


def _paths(files):
    if files is None:
        return []
    if isinstance(files, (str, os.PathLike)):
        return [str(files)]
    return [str(f) for f in files]


def _made_by(subcommand, data, out, options):
    """The command line that writes the same model: what its header names."""
    words = ["cardgames learn", subcommand] + [f"--data {d}" for d in data] + [f"--out {out}"]
    for name, value in options:
        for v in value if isinstance(value, list) else [value]:
            if v is not None:
                words.append(f"--{name} {v}")
    return " ".join(words)


def fit_policy(*, data, out, holdout=None, l2=None, temperature=None):
    data, out = _paths(data), str(out)
    return _fit_policy(data=data, out=out, holdout=holdout, l2=l2, temperature=temperature,
                       made_by=_made_by("fit", data, out, [("holdout", holdout), ("l2", l2),
                                                           ("temperature", temperature)]))


def fit_cutoff(*, data, out, holdout=None, ridge=None):
    data, out = _paths(data), str(out)
    return _fit_cutoff(data=data, out=out, holdout=holdout, ridge=ridge,
                       made_by=_made_by("cutoff-fit", data, out, [("holdout", holdout), ("ridge", ridge)]))


def fit_bids(*, data, out, holdout=None, ridge=None, test=None):
    data, out, test = _paths(data), str(out), _paths(test)
    return _fit_bids(data=data, out=out, holdout=holdout, ridge=ridge, test=test,
                     made_by=_made_by("bids-fit", data, out, [("holdout", holdout), ("ridge", ridge),
                                                              ("test", test)]))
