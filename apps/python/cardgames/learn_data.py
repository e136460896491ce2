"""Self-play data of `cardgames learn selfplay` for a trainer (docs/guide/selfplay.md).

The shards are fixed-size records after a 4096-byte header (docs/design/selfplay-format.md), so
numpy maps them without copying::

    from cardgames import learn_data
    header, records = learn_data.open_shard("data/sp/shard-00000.cgsp")   # records: np.memmap
    records["action"], records["values"], records["result"]

load(paths, information_state=True, card_version=CARD_FEATURE_VERSION, phases=None) -> dict
    paths: shard files or folders of shards (a str or a list); phases: only the records of these
    phases (numbers or names: "blind_nil", "bid", "pass", "play"; default all). Returns numpy
    arrays over the N records, in file order:
      features  float32 [N, F]  the deciding seat's information_state_tensor (F =
                                rules.information_state_shape), rebuilt by replaying the hand;
                                absent with information_state=False (at about 3,300 floats a
                                record it is most of the memory: a million records take 13 GB)
      card_features uint8 [N, C] the same position as the networks' 0/1 card features of
                                `card_version` (default the newest; C = card_feature_count(form,
                                card_version), docs/design/network-format.md): what
                                cardgames.train learns from
      legal     bool    [N, A]  the legal actions (A = NUM_ACTIONS)
      values    float32 [N, A]  pimc's value of each legal action; NaN where illegal or not valued
      action    int64   [N]     the action taken
      result    float32 [N, P]  the hand's score per seat, relative to the deciding seat (column r
                                is the seat r places to its left; Hearts: penalty points taken)
      hand, seat, phase int64 [N]  the hand's index in its run, the deciding seat, its phase
                                (0 blind nil, 1 bid, 2 pass, 3 play)
      meta      dict            preset (the form), rules, feature_set {name, version} (of
                                `features`), card_version (of card_features), players,
                                seed, hands, files (of the first run); runs: each self-play run
                                the shards are of, {players, seats, values, seed, held} (held:
                                one more than its highest hand index)

load_cutoff(paths) -> dict, for a cut-off network (`python3 -m cardgames.train cutoff`)
    The same shards, read for what a cut-off network learns: every trick boundary of every hand's
    play (a record holds its hand whole, so each hand counts once, whichever seats it recorded):
      deal_features uint8 [N, D] the position as the deal features (D = deal_feature_count(form),
                                docs/design/network-format.md)
      rest      float32 [N, P]  what each seat (absolute) took in the rest of the hand: penalty
                                points (Hearts) or tricks (Spades)
      hand      int64   [N]     the hand's index in its run
      meta      dict            as load's
    Every record is checked and its hand replayed, by the learning library's reader (the one that
    writes the format, apps/learn/selfplay_format.cpp): a malformed or inconsistent shard raises
    InputError (a ValueError) naming the file, the record and the field. All the files must be of
    one form and feature set.
"""

import json
import os

import numpy as np

from ._cardgames import (CARD_FEATURE_VERSION, InputError, Rules, _load_cutoff, _load_selfplay,
                         _read_shard_header, _selfplay_shards)

HEADER_SIZE = 4096
RECORD_SIZE = 136
MAX_PLAYERS = 6
MAX_HISTORY = 72
MAX_VALUES = 18
NOT_DEALT = 7
FEATURE_SET = {"name": "information_state_tensor", "version": 1}
# The action that a history code stands for, by the phase it was taken in.
PHASE_BASE = (122, 104, 52, 0)  # blind nil, bid, pass, play
_PHASE_OF_NAME = {"blind_nil": 0, "bid": 1, "pass": 2, "play": 3}

RECORD_DTYPE = np.dtype([
    ("hand", "<u4"),
    ("seat", "u1"),
    ("phase", "u1"),
    ("ply", "u1"),
    ("action", "u1"),
    ("legal", "u1"),
    ("history_size", "u1"),
    ("index", "u1"),
    ("count", "u1"),
    ("result", "<i2", (MAX_PLAYERS,)),
    ("deal", "u1", (20,)),
    ("history", "u1", (54,)),
    ("values", "<f2", (MAX_VALUES,)),
    ("check", "<u2"),
])
assert RECORD_DTYPE.itemsize == RECORD_SIZE


def _bad(path, field, what, record=None):
    where = f"'{path}'" + (f" record {record}" if record is not None else "")
    raise InputError(f"{where}: field '{field}': {what}")


def shard_paths(paths):
    """The shard files that `paths` (files, or folders of shard-*.cgsp) name, in order; a folder
    missing a shard (shard-00001.cgsp beside shard-00003.cgsp) is refused."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    out = []
    for p in paths:
        p = os.fspath(p)
        out.extend(_selfplay_shards(p) if os.path.isdir(p) else [p])
    return out


def read_header(path):
    """The header's JSON (options, shard, first_hand, ...) of one shard, checked by the learning
    library's reader."""
    return _read_shard_header(os.fspath(path))


def open_shard(path):
    """(header, records): the records as a read-only np.memmap of RECORD_DTYPE, not copied."""
    header = read_header(path)
    size = os.path.getsize(path)
    if (size - HEADER_SIZE) % RECORD_SIZE:
        _bad(path, "records", f"cut short: {(size - HEADER_SIZE) % RECORD_SIZE} bytes after the last whole "
             "record (resume the run with --resume to finish it)")
    n = (size - HEADER_SIZE) // RECORD_SIZE
    if n == 0:
        return header, np.zeros(0, RECORD_DTYPE)
    return header, np.memmap(path, dtype=RECORD_DTYPE, mode="r", offset=HEADER_SIZE, shape=(n,))


def _open_run(paths):
    """The shards of `paths`, checked to be of one form and feature set: (files, shards, options,
    rules, rules_dict)."""
    files = shard_paths(paths)
    shards = [(p, *open_shard(p)) for p in files]
    if not shards:
        raise InputError("learn_data.load: no shards given")
    options = shards[0][1]["options"]
    form, features = options["form"], options["features"]
    if features != FEATURE_SET:
        _bad(files[0], "features", f"{features}, this reader computes {FEATURE_SET}")
    for p, header, _ in shards:
        o = header["options"]
        if o["form"] != form or o["rules"] != options["rules"]:
            _bad(p, "rules", f"'{o['form']}' data beside '{form}' data")
        if o["features"] != features:
            _bad(p, "features", f"{o['features']} beside {features}")
    rules_dict = options["rules"]
    try:
        rules = Rules(**rules_dict)
    except (ValueError, TypeError) as e:
        _bad(files[0], "rules", str(e))
    return files, shards, options, rules, rules_dict


def _runs(shards):
    """The self-play runs the shards are of, in the order first met: each run's options that its
    command names, and `held`, one more than the highest hand index its records hold."""
    runs = {}
    for _, header, rec in shards:
        o = header["options"]
        run = {"players": o["players"], "seats": o.get("seats"), "values": o.get("values"),
               "seed": o["seed"], "held": 0}
        if o.get("explore_bids"):
            run["explore_bids"] = o["explore_bids"]  # True (around the rule player's bid), "own" or "paired"
        run = runs.setdefault(json.dumps(run, sort_keys=True), run)
        if len(rec):
            run["held"] = max(run["held"], int(rec["hand"].max()) + 1)
    return list(runs.values())


def load(paths, information_state=True, card_version=CARD_FEATURE_VERSION, phases=None):
    """The records of `paths` as arrays for a trainer (see the module's docstring); without the
    information-state tensors if `information_state` is false (the networks read card_features);
    only the records of `phases` (phase numbers or names, e.g. ["pass"]) if given."""
    files, shards, options, rules, rules_dict = _open_run(paths)
    players = rules.players
    if phases is None:
        phases = range(4)
    phases = [_PHASE_OF_NAME.get(p, p) if isinstance(p, str) else p for p in phases]
    for p in phases:
        if not isinstance(p, (int, np.integer)) or not 0 <= p <= 3:
            raise InputError(f"learn_data.load: phase {p!r}: expected 0..3 or one of {list(_PHASE_OF_NAME)}")
    out = _load_selfplay([os.fspath(f) for f in files], sorted({int(p) for p in phases}), card_version,
                         information_state)
    relative = (out["seat"][:, None] + np.arange(players)[None, :]) % players
    out["result"] = np.take_along_axis(out["result"], relative, axis=1)
    out["meta"] = {
        "preset": options["form"],
        "rules": rules_dict,
        "feature_set": options["features"],
        "card_version": card_version,
        "players": options["players"],
        "seats": options.get("seats"),
        "values": options.get("values"),
        "seed": options["seed"],
        "hands": options["hands"],
        "files": files,
        "runs": _runs(shards),
    }
    return out


def load_cutoff(paths):
    """The trick boundaries of the hands of `paths`, for a cut-off network (see the module's
    docstring)."""
    files, shards, options, rules, rules_dict = _open_run(paths)
    x, rest, hand = _load_cutoff([os.fspath(f) for f in files])
    return {
        "deal_features": x,
        "rest": rest.astype(np.float32),
        "hand": hand,
        "meta": {"preset": options["form"], "rules": rules_dict, "players": options["players"],
                 "seed": options["seed"], "hands": options["hands"], "files": files,
                 "runs": _runs(shards)},
    }
