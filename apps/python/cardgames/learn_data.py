"""Self-play data of `cardgames learn selfplay` for a trainer (docs/guide/selfplay.md).

The shards are fixed-size records after a 4096-byte header (docs/design/selfplay-format.md), so
numpy maps them without copying::

    from cardgames import learn_data
    header, records = learn_data.open_shard("data/sp/shard-00000.cgsp")   # records: np.memmap
    records["action"], records["values"], records["result"]

load(paths, information_state=True, card_version=CARD_FEATURE_VERSION) -> dict, for a trainer
    paths: shard files or folders of shards (a str or a list). Returns numpy arrays over the N
    records, in file order:
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
    Every record is checked and its hand replayed: a malformed or inconsistent shard raises
    InputError (a ValueError) naming the file, the record and the field. All the files must be of
    one form and feature set.
"""

import glob
import json
import os

import numpy as np

from ._cardgames import (CARD_FEATURE_VERSION, NUM_ACTIONS, InputError, Rules, State,
                         card_feature_count, card_features, cutoff_samples, deal_feature_count)

FORMAT = 1
HEADER_SIZE = 4096
RECORD_SIZE = 136
MAX_PLAYERS = 6
MAX_HISTORY = 72
MAX_VALUES = 18
NOT_DEALT = 7
FEATURE_SET = {"name": "information_state_tensor", "version": 1}
MAGIC = b"cardgames-selfplay "
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
    """The shard files that `paths` (files, or folders of shard-*.cgsp) name, in order."""
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    out = []
    for p in paths:
        p = os.fspath(p)
        if os.path.isdir(p):
            found = sorted(glob.glob(os.path.join(glob.escape(p), "shard-*.cgsp")))
            if not found:
                raise InputError(f"'{p}': no shards (shard-00000.cgsp)")
            out.extend(found)
        else:
            out.append(p)
    return out


def read_header(path):
    """The header's JSON (options, shard, first_hand, ...) of one shard, checked."""
    try:
        with open(path, "rb") as f:
            head = f.read(HEADER_SIZE)
    except OSError as e:
        raise InputError(f"'{path}': cannot open for reading ({e.strerror})") from None
    if len(head) < HEADER_SIZE or not head.startswith(MAGIC):
        _bad(path, "header", "not a cardgames self-play shard")
    first = head.index(b"\n")
    version = head[len(MAGIC):first]
    if version != str(FORMAT).encode():
        _bad(path, "header", f"format '{version.decode(errors='replace')}', this program reads {FORMAT}")
    end = head.find(b"\n", first + 1)
    if end < 0 or head[end + 1:].strip(b"\0"):
        _bad(path, "header", "not one JSON line followed by zero bytes")
    try:
        header = json.loads(head[first + 1:end])
        options = header["options"]
        if header["header_size"] != HEADER_SIZE or header["record_size"] != RECORD_SIZE:
            _bad(path, "header", "header_size or record_size not this format's")
        for key in ("rules", "form", "features", "players", "seed", "hands", "shard_hands"):
            options[key]
    except (ValueError, KeyError, TypeError) as e:
        _bad(path, "header", f"not this format's JSON ({e})")
    return header


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


def _check_bytes(records):
    """Each record's check: FNV-1a of its first 134 bytes, folded to 16 bits."""
    raw = records.view(np.uint8).reshape(len(records), RECORD_SIZE)
    h = np.full(len(records), 0xCBF29CE484222325, dtype=np.uint64)
    prime = np.uint64(0x100000001B3)
    with np.errstate(over="ignore"):
        for j in range(RECORD_SIZE - 2):
            h ^= raw[:, j].astype(np.uint64)
            h *= prime
    folded = h ^ (h >> np.uint64(16)) ^ (h >> np.uint64(32)) ^ (h >> np.uint64(48))
    return (folded & np.uint64(0xFFFF)).astype(np.uint16)


def _unpack(field, bits, count):
    """Little-endian bit strings of `field` (uint8 [N, bytes]) as [N, count] codes of `bits` bits."""
    flat = np.unpackbits(np.ascontiguousarray(field), axis=1, bitorder="little")[:, :bits * count]
    weights = (1 << np.arange(bits)).astype(np.int64)
    return flat.reshape(len(field), count, bits).astype(np.int64) @ weights


_RANKS = "23456789TJQKA"


def _deal_text(deal_codes, players):
    hands = []
    for seat in range(players):
        suits = []
        for suit in (3, 2, 1, 0):  # spades, hearts, diamonds, clubs
            ranks = [c % 13 for c in range(suit * 13, suit * 13 + 13) if deal_codes[c] == seat]
            suits.append("".join(_RANKS[r] for r in sorted(ranks, reverse=True)))
        hands.append(".".join(suits))
    return ("N:" if players == 4 else f"{players}:") + " ".join(hands)


def _check_fields(path, rec, players):
    """The ranges of every field, before any replay."""
    def first_bad(mask, field, what):
        if mask.any():
            _bad(path, field, what, int(np.argmax(mask)))
    first_bad(_check_bytes(rec) != rec["check"], "check", "does not match the record's bytes (a damaged record)")
    first_bad(rec["seat"] >= players, "seat", f"not a seat of {players}")
    first_bad(rec["phase"] > 3, "phase", "not 0..3")
    first_bad(rec["history_size"] > MAX_HISTORY, "history_size", f"more than {MAX_HISTORY}")
    first_bad(rec["ply"] >= rec["history_size"], "ply", "not inside the history")
    first_bad((rec["legal"] < 1) | (rec["legal"] > 64), "legal", "not 1..64")
    first_bad(rec["index"] >= rec["count"], "index", "not below count")
    first_bad((rec["result"][:, players:] != 0).any(axis=1), "result", "a result past the players")
    values = rec["values"].astype(np.float32)
    first_bad(np.isinf(values).any(axis=1), "values", "an infinite value")
    past = np.arange(MAX_VALUES)[None, :] >= rec["legal"][:, None]
    first_bad((past & ~np.isnan(values)).any(axis=1), "values", "a value past the legal actions")


def _hands(path, rec):
    """Splits the records into hands: [(start, stop)], checking their order and numbering."""
    out = []
    n = len(rec)
    i = 0
    last_hand = -1
    while i < n:
        count = int(rec["count"][i])
        hand = int(rec["hand"][i])
        if rec["index"][i] != 0 or hand <= last_hand:
            _bad(path, "index" if rec["index"][i] != 0 else "hand", "records out of order", i)
        stop = i + count
        if stop > n:
            _bad(path, "records", f"hand {hand} is cut short (resume the run with --resume to finish it)", i)
        block = rec[i:stop]
        if ((block["hand"] != hand).any() or (block["count"] != count).any()
                or (block["index"] != np.arange(count)).any()):
            _bad(path, "index", f"the records of hand {hand} do not follow 0..{count - 1}", i)
        out.append((i, stop))
        last_hand = hand
        i = stop
    return out


def _replay_hand(path, start, rec, rules, rules_dict, deal, history, out, card_version):
    """Replays one hand's records [start, start + len(rec)): checks each decision, fills `out`."""
    players = rules.players
    size = int(rec["history_size"][0])
    for field, values in (("history", history), ("history_size", rec["history_size"]), ("deal", deal),
                          ("result", rec["result"])):
        differs = (values[1:] != values[0]).reshape(len(values) - 1, -1).any(axis=1)
        if differs.any():
            _bad(path, field, "not the same as in the hand's first record", start + 1 + int(np.argmax(differs)))
    if history[0, size:].any():
        _bad(path, "history", "codes after its history_size", start)
    state = _hand_state(path, start, deal[0], rules_dict, players)
    # Plain Python values per hand: a numpy scalar or record per step costs more than the step.
    by_ply = {p: k for k, p in enumerate(rec["ply"].tolist())}
    if len(by_ply) != len(rec):
        _bad(path, "ply", "two records of one hand at one ply", start)
    seats, phases = rec["seat"].tolist(), rec["phase"].tolist()
    actions, legal_counts = rec["action"].tolist(), rec["legal"].tolist()
    values = rec["values"].astype(np.float32)
    codes = history[0, :size].tolist()
    for ply in range(size):
        phase = _PHASE_OF_NAME.get(state.phase())
        if phase is None:
            _bad(path, "history", "actions after the hand is over", start)
        action = PHASE_BASE[phase] + codes[ply]
        k = by_ply.get(ply)
        if k is not None:
            i = start + k
            legal = state.legal_actions()
            if phases[k] != phase or seats[k] != state.current_player():
                _bad(path, "phase", "not the phase and seat to act at its ply", i)
            if actions[k] != action:
                _bad(path, "action", "not the history's action at its ply", i)
            if legal_counts[k] != len(legal):
                _bad(path, "legal", "not the number of legal actions at its ply", i)
            if "features" in out:
                out["features"][k] = state.information_state_tensor(seats[k])
            out["card_features"][k, card_features(state, seats[k], card_version)] = 1
            out["legal"][k, legal] = True
            out["values"][k, legal] = values[k, :len(legal)]
            out["action"][k] = action
        try:
            state.apply_action(action)
        except ValueError as e:
            _bad(path, "history", f"action {ply}: {e}", start)
    if not state.is_terminal():
        _bad(path, "history", "ends before the hand does", start)
    returns = state.returns()
    if list(rec["result"][0, :players]) != list(returns):
        _bad(path, "result", f"not what the hand scored ({list(returns)})", start)


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
        run = runs.setdefault(json.dumps(run, sort_keys=True), run)
        if len(rec):
            run["held"] = max(run["held"], int(rec["hand"].max()) + 1)
    return list(runs.values())


def load(paths, information_state=True, card_version=CARD_FEATURE_VERSION):
    """The records of `paths` as arrays for a trainer (see the module's docstring); without the
    information-state tensors if `information_state` is false (the networks read card_features)."""
    files, shards, options, rules, rules_dict = _open_run(paths)
    form, features = options["form"], options["features"]
    players = rules.players
    n = sum(len(r) for _, _, r in shards)
    width = int(np.prod(rules.information_state_shape))
    out = {
        **({"features": np.zeros((n, width), np.float32)} if information_state else {}),
        "card_features": np.zeros((n, card_feature_count(form, card_version)), np.uint8),
        "legal": np.zeros((n, NUM_ACTIONS), bool),
        "values": np.full((n, NUM_ACTIONS), np.nan, np.float32),
        "action": np.zeros(n, np.int64),
    }
    seat, phase, hand, result = [], [], [], []
    at = 0
    for p, _, rec in shards:
        if len(rec) == 0:
            continue
        _check_fields(p, rec, players)
        deal = _unpack(rec["deal"], 3, 52)
        history = _unpack(rec["history"], 6, MAX_HISTORY)
        views = {k: v[at:at + len(rec)] for k, v in out.items()}
        for start, stop in _hands(p, rec):
            _replay_hand(p, start, rec[start:stop], rules, rules_dict, deal[start:stop],
                         history[start:stop], {k: v[start:stop] for k, v in views.items()},
                         card_version)
        seat.append(rec["seat"].astype(np.int64))
        phase.append(rec["phase"].astype(np.int64))
        hand.append(rec["hand"].astype(np.int64))
        result.append(rec["result"][:, :players].astype(np.float32))
        at += len(rec)
    seat = np.concatenate(seat) if seat else np.zeros(0, np.int64)
    absolute = np.concatenate(result) if result else np.zeros((0, players), np.float32)
    relative = (seat[:, None] + np.arange(players)[None, :]) % players
    out["result"] = np.take_along_axis(absolute, relative, axis=1)
    out["seat"] = seat
    out["phase"] = np.concatenate(phase) if phase else np.zeros(0, np.int64)
    out["hand"] = np.concatenate(hand) if hand else np.zeros(0, np.int64)
    out["meta"] = {
        "preset": form,
        "rules": rules_dict,
        "feature_set": features,
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


def _hand_state(path, start, codes, rules_dict, players):
    """The State at the start of the hand whose deal the record at `start` holds, its deal checked."""
    if (codes[codes != NOT_DEALT] >= players).any():
        _bad(path, "deal", "a card dealt to no seat of the rules", start)
    state = State.__new__(State)
    try:
        state.__setstate__((rules_dict, 0, 1, [(0, 0, _deal_text(codes, players))], []))
    except ValueError as e:
        _bad(path, "deal", str(e), start)
    return state


def _cutoff_hand(path, start, deal_codes, history, size, rules_dict, players):
    """The cut-off samples of one hand, replayed from its first record: (deal features, rest)."""
    state = _hand_state(path, start, deal_codes, rules_dict, players)
    codes = history[:size].tolist()
    ply = 0
    while ply < size and state.phase() != "play":
        phase = _PHASE_OF_NAME.get(state.phase())
        if phase is None:
            _bad(path, "history", "actions after the hand is over", start)
        try:
            state.apply_action(PHASE_BASE[phase] + codes[ply])
        except ValueError as e:
            _bad(path, "history", f"action {ply}: {e}", start)
        ply += 1
    try:
        return cutoff_samples(state, codes[ply:])  # a play's code is its card's number
    except ValueError as e:
        _bad(path, "history", str(e), start)


def load_cutoff(paths):
    """The trick boundaries of the hands of `paths`, for a cut-off network (see the module's
    docstring)."""
    files, shards, options, rules, rules_dict = _open_run(paths)
    players = rules.players
    xs, rests, hands = [], [], []
    for p, _, rec in shards:
        if len(rec) == 0:
            continue
        _check_fields(p, rec, players)
        for start, _stop in _hands(p, rec):
            first = rec[start:start + 1]
            deal = _unpack(first["deal"], 3, 52)[0]
            history = _unpack(first["history"], 6, MAX_HISTORY)[0]
            x, rest = _cutoff_hand(p, start, deal, history, int(first["history_size"][0]),
                                   rules_dict, players)
            xs.append(x)
            rests.append(rest.astype(np.float32))
            hands.append(np.full(len(x), int(first["hand"][0]), np.int64))
    width = deal_feature_count(options["form"])
    return {
        "deal_features": np.concatenate(xs) if xs else np.zeros((0, width), np.uint8),
        "rest": np.concatenate(rests) if rests else np.zeros((0, players), np.float32),
        "hand": np.concatenate(hands) if hands else np.zeros(0, np.int64),
        "meta": {"preset": options["form"], "rules": rules_dict, "players": options["players"],
                 "seed": options["seed"], "hands": options["hands"], "files": files,
                 "runs": _runs(shards)},
    }
