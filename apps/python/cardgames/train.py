"""Trains a network on self-play data and exports it to the project's model file.

    /usr/bin/python3 -m cardgames.train {value,policy,bid,bid_value,pass,cutoff} --data SHARDS... --out FILE

The network is the one the engine runs (cardgames/models/network.hpp): a first layer over the
binary card features (an int16 accumulator in the engine, its weights quantized by FT_SCALE),
clipped ReLU, small float layers with clipped ReLU, and the outputs. Tasks:

    value   the hand's final result of each seat, relative to the deciding seat first (mean
            squared error; the outputs are in points: the file's output-scale undoes the scaling)
    policy  the card played, among the legal ones (cross-entropy over 52 outputs), from the
            card-play records
    pass    a card passed, among the legal ones (52 outputs), from the pass records
    bid     the bid made, among the legal bids (NUM_BIDS outputs), from the bid records
    bid_value  Spades: the hand's margin for the bidder (bid_margin) on the output of the bid
            made, one output per bid (mean squared error on that output; in points), from the bid
            records of `learn selfplay --explore-bids`; read by pimc:bid=value. From the data of
            `--explore-bids paired`: every bid's margin of its paired record, less their mean
            (paired_bid_targets), on each valued output
    cutoff  at every trick boundary of the play, what each seat takes in the rest of the hand
            (penalty points, or tricks), from the perfect-information deal features (mean
            squared error; read by pimc:eval=search,cutoff=net at the search's horizon)

CPU only, on --threads threads (2 by default), seeded and reproducible: the same data, options and
thread count give the same file. The records of the hands whose index is a multiple of
--holdout N (default 5) are held out, the fits' one hold-out rule (apps/learn/holdout.hpp); the
loss of both parts after every epoch is drawn to a PNG beside --out. The manual is docs/guide/networks.md.
"""

import argparse
import hashlib
import math
import os
import shlex
import sys
import time

import numpy as np

from . import _cardgames
from .model_file import write_model

TASKS = ("value", "policy", "bid", "bid_value", "pass", "cutoff")
# The tasks whose outputs are values in points, not a choice's scores.
REGRESSION_TASKS = ("value", "cutoff", "bid_value")
FT_SCALE = 127



def _torch():
    import torch  # Debian's python3-torch; imported here so that `import cardgames` does not need it

    return torch


def players_of_form(form):
    return _cardgames.players_of_form(form)


def ft_limit(form, version):
    """The largest first-layer weight (in 1/FT_SCALE units) that cannot overflow the accumulator
    with the most card features of `version` on (a cut-off network's deal features are fewer)."""
    return 32767 // (_cardgames.max_active_card_features(form, version) + 1)


def card_version_of(form, columns):
    """The version of the card features that `columns` of them are, for the form."""
    for version in range(1, _cardgames.CARD_FEATURE_VERSION + 1):
        if _cardgames.card_feature_count(form, version) == columns:
            return version
    counts = ", ".join(f"{_cardgames.card_feature_count(form, v)} (version {v})"
                       for v in range(1, _cardgames.CARD_FEATURE_VERSION + 1))
    raise ValueError(f"data: card_features have {columns} columns, card features for {form} have {counts}")


def make_net(inputs, outputs, width=128, hidden=32, layers=2):
    torch = _torch()

    class Net(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.ft = torch.nn.Linear(inputs, width)
            sizes = [width] + [hidden] * layers
            self.hidden = torch.nn.ModuleList(
                torch.nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:]))
            self.out = torch.nn.Linear(sizes[-1], outputs)

        def forward(self, x):
            a = torch.clamp(self.ft(x), 0.0, 1.0)
            for layer in self.hidden:
                a = torch.clamp(layer(a), 0.0, 1.0)
            return self.out(a)

    return Net()


def quantized_first_layer(net):
    """The first layer as the file stores it: int16 weights [inputs, width] and bias [width]."""
    w = net.ft.weight.detach().double().numpy().T * FT_SCALE
    b = net.ft.bias.detach().double().numpy() * FT_SCALE
    return np.rint(w).astype(np.int16), np.rint(b).astype(np.int16)


def quantized_forward(net, x, output_scale=1.0):
    """Outputs as the engine computes them: the quantized first layer in exact integer sums, then
    float32 layers. x: 0/1 features [N, inputs] (numpy)."""
    torch = _torch()
    w, b = quantized_first_layer(net)
    acc = np.asarray(x, dtype=np.float64) @ w.astype(np.float64) + b  # exact: integers < 2^53
    a = torch.from_numpy((np.clip(acc, 0, FT_SCALE) / FT_SCALE).astype(np.float32))
    with torch.no_grad():
        for layer in net.hidden:
            a = torch.clamp(layer(a), 0.0, 1.0)
        return net.out(a).numpy() * np.float32(output_scale)


def start_from(path, task, form):
    """A network with the weights of the network file `path` (train --init), and the file's output
    scale: read and checked by the engine's reader, which refuses a file of another task or form.
    The first layer takes the file's int16 weights / FT_SCALE, which export writes back unchanged."""
    torch = _torch()
    engine = _cardgames.load_network(path, form, task)
    _check(engine.ft_scale == FT_SCALE,
           f"--init {path}: ft-scale {engine.ft_scale}, this trainer writes {FT_SCALE}")
    t = engine.tensors()
    depth = sum(1 for name in t if name.startswith("l") and name.endswith(".weight"))
    sizes = {t[f"l{k}.weight"].shape[0] for k in range(1, depth + 1)}
    _check(len(sizes) <= 1, f"--init {path}: hidden layers of sizes {sorted(sizes)}, this trainer "
                            "makes them of one size")
    width = t["ft.weight"].shape[1]
    net = make_net(engine.inputs, engine.outputs, width, sizes.pop() if sizes else width, depth)
    with torch.no_grad():
        net.ft.weight.copy_(torch.from_numpy(t["ft.weight"].T.astype(np.float32) / FT_SCALE))
        net.ft.bias.copy_(torch.from_numpy(t["ft.bias"].astype(np.float32) / FT_SCALE))
        for k, layer in enumerate(net.hidden, 1):
            layer.weight.copy_(torch.from_numpy(t[f"l{k}.weight"]))
            layer.bias.copy_(torch.from_numpy(t[f"l{k}.bias"]))
        net.out.weight.copy_(torch.from_numpy(t["out.weight"]))
        net.out.bias.copy_(torch.from_numpy(t["out.bias"]))
    return net, float(engine.output_scale)


def clip_first_layer(net, form, version):
    torch = _torch()
    bound = ft_limit(form, version) / FT_SCALE
    with torch.no_grad():
        net.ft.weight.clamp_(-bound, bound)
        net.ft.bias.clamp_(-bound, bound)


def feature_set(task, form, inputs):
    """The name and version of the features a task's network of `inputs` inputs reads."""
    if task == "cutoff":
        return _cardgames.DEAL_FEATURE_SET, _cardgames.DEAL_FEATURE_VERSION
    return _cardgames.CARD_FEATURE_SET, card_version_of(form, inputs)


def export(net, path, *, task, form, output_scale, command, seeds, extra_fields=(), comments=()):
    """Writes the network in the project's model file (docs/design/network-format.md)."""
    inputs = net.ft.in_features
    w, b = quantized_first_layer(net)
    name, version = feature_set(task, form, inputs)
    fields = [("kind", "network"), ("task", task), ("form", form),
              ("features", f"{name} {version} {inputs}"),
              ("ft-scale", FT_SCALE), ("output-scale", repr(float(output_scale))),
              ("command", command), ("seeds", seeds), *extra_fields]
    tensors = [("ft.weight", w), ("ft.bias", b)]
    for k, layer in enumerate(net.hidden, 1):
        tensors.append((f"l{k}.weight", layer.weight.detach().numpy().astype(np.float32)))
        tensors.append((f"l{k}.bias", layer.bias.detach().numpy().astype(np.float32)))
    tensors.append(("out.weight", net.out.weight.detach().numpy().astype(np.float32)))
    tensors.append(("out.bias", net.out.bias.detach().numpy().astype(np.float32)))
    write_model(path, fields, tensors, comments)


def _check(cond, message):
    if not cond:
        raise ValueError(message)


def prepare_cutoff(data, form, players):
    """A cut-off network's deal features, targets (scaled) and output scale, checked."""
    x = np.asarray(data["deal_features"])
    n = x.shape[0] if x.ndim == 2 else 0
    want = _cardgames.deal_feature_count(form)
    _check(x.ndim == 2 and n > 0, f"data: deal_features of shape {x.shape}, expected [N>0, {want}]")
    _check(x.shape[1] == want, f"data: deal_features have {x.shape[1]} columns, deal features "
                               f"version {_cardgames.DEAL_FEATURE_VERSION} for {form} have {want}")
    bad = np.argwhere((x != 0) & (x != 1))
    _check(len(bad) == 0, "data: deal_features row {} column {}: not 0 or 1".format(*(bad[0] if len(bad) else (0, 0))))
    rest = np.asarray(data["rest"], dtype=np.float32)
    _check(rest.shape == (n, players), f"data: rest of shape {rest.shape}, expected [{n}, {players}]")
    _check(np.isfinite(rest).all() and (rest >= 0).all(), "data: rest not finite and >= 0")
    scale = float(max(1.0, rest.max()))
    return x.astype(np.uint8), rest / scale, None, scale


def prepare(task, data, players, form=None):
    """The features (as uint8: a quarter of float32's memory), targets, legal masks and output
    scale of the task's records, checked."""
    if task == "cutoff":
        return prepare_cutoff(data, form, players)
    _check(task != "bid_value" or str(form).startswith("spades"), f"the bid_value task is for Spades, not {form}")
    features = np.asarray(data["card_features"])
    n = features.shape[0] if features.ndim == 2 else 0
    _check(features.ndim == 2 and n > 0, f"data: card_features of shape {features.shape}, expected [N>0, C]")
    card_version_of(form, features.shape[1])
    bad = np.argwhere((features != 0) & (features != 1))
    _check(len(bad) == 0, "data: card_features row {} column {}: not 0 or 1".format(*(bad[0] if len(bad) else (0, 0))))
    legal = np.asarray(data["legal"], dtype=bool)
    action = np.asarray(data["action"], dtype=np.int64)
    _check(legal.shape[0] == n and action.shape == (n,), "data: legal and action do not have N rows")
    _check(((action >= 0) & (action < legal.shape[1])).all(), "data: action out of range")
    _check(legal[np.arange(n), action].all(), "data: an action taken is not legal")
    if task == "bid_value" and "paired_targets" in data:
        y = data["paired_targets"]
        _check(y.shape == (n, _cardgames.NUM_BIDS), f"data: paired targets of shape {y.shape}")
        scale = float(max(1.0, np.nanmax(np.abs(y))))
        return features.astype(np.uint8), y / np.float32(scale), None, scale  # every valued bid
    if task == "bid_value":
        result = np.asarray(data["result"], dtype=np.float32)
        _check(result.shape == (n, players), f"data: result of shape {result.shape}, expected [{n}, {players}]")
        _check(np.isfinite(result).all(), "data: result not finite")
        margin = bid_margin(result, form)
        scale = float(max(1.0, np.abs(margin).max()))
        return features.astype(np.uint8), margin / scale, None, scale  # fitted on the bid taken
    if task == "value":
        result = np.asarray(data["result"], dtype=np.float32)
        _check(result.shape == (n, players), f"data: result of shape {result.shape}, expected [{n}, {players}]")
        _check(np.isfinite(result).all(), "data: result not finite")
        scale = float(max(1.0, np.abs(result).max()))
        return features.astype(np.uint8), result / scale, None, scale
    if task in ("policy", "pass"):
        _check((action < 52).all(), f"data: a {task} record's action is not a card (0..51)")
        legal = legal[:, :52]
    return features.astype(np.uint8), action, legal, 1.0


def paired_bid_targets(data, players):
    """The records and targets of a bid value fit on `--explore-bids paired` data, or None for
    other data: each hand's paired record (the seat whose index is the hand's modulo the players)
    and, on the outputs of the bids it values, each bid's margin less the mean of the record's
    margins, NaN on the others. The hand's deal and the bots' draws are common to every bid of a
    record, so its mean takes out what they add alike, and the network learns what one bid is
    worth beside another; pimc:bid=value only compares them. Data of several runs is all paired
    or none."""
    runs = data.get("meta", {}).get("runs") or []
    paired = [run.get("explore_bids") == "paired" for run in runs]
    if not any(paired):
        return None
    _check(all(paired), "data: --explore-bids paired runs beside other runs; the bid_value task "
                        "fits paired margins or taken bids' margins, not both")
    values = np.asarray(data["values"], dtype=np.float32)
    n = values.shape[0]
    _check("seat" in data and "hand" in data, "data: paired bid records need the seat and hand columns")
    keep = (np.asarray(data["hand"]) % players == np.asarray(data["seat"])) & np.isfinite(values).any(axis=1)
    _check(keep.any(), "data: no paired bid record (--explore-bids paired values)")
    out = {k: (np.asarray(v)[keep] if isinstance(v, np.ndarray) and len(v) == n else v)
           for k, v in data.items()}
    v = out["values"]
    out["paired_targets"] = (v - np.nanmean(v, axis=1, keepdims=True)).astype(np.float32)
    return out


def bid_margin(result, form):
    """What a bid value network learns for the bid taken: the hand's margin for the bidder, its
    side's score less the other side's in partnership Spades, its own less the mean of the others'
    in cutthroat (result: the hand's score per seat, relative to the bidder, as load gives it)."""
    if form == "spades-partnership":
        return (result[:, 0] - result[:, 1]).astype(np.float32)
    return (result[:, 0] - result[:, 1:].mean(axis=1)).astype(np.float32)


def check_holdout(holdout):
    _check(isinstance(holdout, int) and 2 <= holdout <= 10**9,
           f"--holdout {holdout}: expected a whole number 2..1000000000")


def held_out(data, n, holdout):
    """The records held out: those of the hands whose index (data["hand"]) is a multiple of
    `holdout`, the fits' one rule (apps/learn/holdout.hpp), so no hand is on both sides."""
    check_holdout(holdout)
    hand = np.asarray(data["hand"], dtype=np.int64)
    _check(hand.shape == (n,), f"data: hand of shape {hand.shape}, expected [{n}]")
    return hand % holdout == 0


# The phase of the records each task learns from (learn_data.load's phase codes), and the first
# action number and count of that phase's actions: a task's outputs are its phase's actions.
TASK_PHASE = {"policy": 3, "pass": 2, "bid": 1, "bid_value": 1}


def task_records(task, data):
    """The records of the task's phase, their actions and legal masks renumbered from 0 within the
    phase (a card for policy and pass, a bid for bid). Data without a phase column (a caller's own
    arrays) is taken as already of the task's phase, with the phase's own action numbers."""
    if task not in TASK_PHASE or "phase" not in data:
        return data
    phase = TASK_PHASE[task]
    base = (_cardgames.BID_BASE, _cardgames.NUM_BIDS) if task in ("bid", "bid_value") else (
        (_cardgames.PASS_BASE, 52) if task == "pass" else (0, 52))
    keep = np.asarray(data["phase"]) == phase
    _check(keep.any(), f"data: no {('bid', 'pass', 'play')[phase - 1]} records for the {task} task")
    out = {k: (np.asarray(v)[keep] if isinstance(v, np.ndarray) and len(v) == len(keep) else v)
           for k, v in data.items()}
    first, count = base
    out["action"] = out["action"] - first
    out["legal"] = out["legal"][:, first:first + count]
    if "values" in out:
        out["values"] = out["values"][:, first:first + count]
    return out


def valued_choices(legal, values):
    """The records of a choice task that had a choice and every legal action of which pimc valued:
    those whose values teach soft targets and measure the value lost."""
    return ~np.isnan(np.where(legal, values, 0.0)).any(axis=1) & (legal.sum(axis=1) > 1)


def soft_targets(action, legal, values, temperature):
    """The target distribution of each record of a choice task: with temperature > 0, a softmax of
    pimc's values / temperature over the legal actions where every legal action was valued (cards
    of equal value share the mass, instead of the one pimc's tie rule picked), else the action
    taken; with temperature 0 the action taken everywhere."""
    n, width = legal.shape
    target = np.zeros((n, width), np.float32)
    target[np.arange(n), action] = 1
    if temperature <= 0 or values is None:
        return target
    valued = valued_choices(legal, values)
    z = np.where(legal, values, -np.inf)[valued] / temperature
    z = np.exp(z - z.max(axis=1, keepdims=True))
    target[valued] = z / z.sum(axis=1, keepdims=True)
    return target


def value_lost(legal, values):
    """For each record of a choice task where every legal action was valued and there was a
    choice, what each legal action loses of pimc's value against the best; 0 elsewhere, so a record
    without values adds nothing to the expected value lost (train's `regret`)."""
    lost = np.zeros(legal.shape, np.float32)
    if values is None:
        return lost
    valued = valued_choices(legal, values)
    v = np.where(legal, values, -np.inf)[valued]
    lost[valued] = np.where(legal[valued], v.max(axis=1, keepdims=True) - v, 0.0)
    return lost


def float_outputs(net, x):
    """The float network's outputs for the rows of x, as numpy."""
    torch = _torch()
    with torch.no_grad():
        return net(torch.from_numpy(np.asarray(x, np.float32))).numpy()


def choice_measures(out, action, legal, values):
    """Held-out measures of a choice network from its float outputs: the share of records where its
    legal action of highest output is the action taken, and where every legal action was valued,
    how much of pimc's value its action loses against the best (0 when it picks a best one)."""
    pick = np.where(legal, out, -np.inf).argmax(axis=1)
    measures = {"accuracy": float((pick == action).mean()) if len(action) else float("nan")}
    if values is not None:
        valued = valued_choices(legal, values)
        if valued.any():
            rows = np.flatnonzero(valued)
            measures["valued"] = int(valued.sum())
            measures["regret"] = float(value_lost(legal, values)[rows, pick[rows]].mean())
    return measures


def train(task, data, *, form, seed=1, epochs=20, batch_size=256, lr=1e-3, width=128, hidden=32,
          layers=2, holdout=5, threads=2, max_minutes=60.0, soft=0.0, regret=0.0, init=None,
          log=print):
    """Trains a network on the data dict; returns (net, output_scale, history). soft: the
    temperature of a choice task's targets (soft_targets; 0: the action taken). regret: a choice
    task's loss adds this times the value its softmax is expected to lose (value_lost), so that a
    costly mistake weighs more than a cheap one; 0: cross-entropy alone. init: a network
    file to start from (its shape replaces width, hidden and layers, its output scale the data's);
    then epoch 0 of the history is its loss before training, and epochs may be 0."""
    torch = _torch()
    _check(task in TASKS, f"task {task!r}: expected one of {', '.join(TASKS)}")
    players = players_of_form(form)
    data = task_records(task, data)
    if task == "bid_value":
        data = paired_bid_targets(data, players) or data
    x, y, legal, scale = prepare(task, data, players, form)
    version = 1 if task == "cutoff" else card_version_of(form, x.shape[1])
    n = len(x)
    held = held_out(data, n, holdout)
    n_hold = int(held.sum())
    _check(n - n_hold >= 1, f"data: {n} records leave none to train on with --holdout {holdout}")
    torch.manual_seed(seed)
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(threads)
    outputs = players if task in ("value", "cutoff") else (52 if task in ("policy", "pass") else (
        _cardgames.NUM_BIDS if task == "bid_value" else legal.shape[1]))
    if init is None:
        net = make_net(x.shape[1], outputs, width, hidden, layers)
    else:
        net, init_scale = start_from(init, task, form)
        _check(net.ft.in_features == x.shape[1] and net.out.out_features == outputs,
               f"--init {init}: {net.ft.in_features} inputs and {net.out.out_features} outputs, "
               f"the data's {task} task has {x.shape[1]} and {outputs}")
        if task in REGRESSION_TASKS:  # targets in the file's units, which it keeps
            y, scale = y * np.float32(scale / init_scale), init_scale
    clip_first_layer(net, form, version)
    xt = torch.from_numpy(x)
    yt = torch.from_numpy(y)
    mt = torch.from_numpy(legal) if legal is not None else None
    taken = None
    valued = None
    if task == "bid_value" and y.ndim == 2:  # paired: a regression on every valued bid
        valued = torch.from_numpy(np.isfinite(y))
        yt = torch.from_numpy(np.nan_to_num(y))
    elif task == "bid_value":  # a regression on the output of the bid taken: no choice to learn
        taken = torch.from_numpy(np.asarray(data["action"], dtype=np.int64))
    values = None
    if legal is not None and "values" in data:
        values = np.asarray(data["values"], np.float32)[:, :legal.shape[1]]
    _check(soft >= 0 and math.isfinite(soft), f"--soft {soft}: expected a number >= 0")
    _check(regret >= 0 and math.isfinite(regret), f"--regret {regret}: expected a number >= 0")
    lost = None
    if legal is not None:  # a choice task learns a distribution over its actions
        yt = torch.from_numpy(soft_targets(y, legal, values, soft))
        if regret > 0:
            lost = torch.from_numpy(value_lost(legal, values))
    train_idx = torch.from_numpy(np.flatnonzero(~held))
    hold_idx = torch.from_numpy(np.flatnonzero(held))

    def loss_of(idx):
        out = net(xt[idx].float())
        if valued is not None:
            mask = valued[idx]
            return ((out - yt[idx]) ** 2)[mask].mean()
        if taken is not None:
            return torch.nn.functional.mse_loss(out.gather(1, taken[idx, None])[:, 0], yt[idx])
        if task in ("value", "cutoff"):
            return torch.nn.functional.mse_loss(out, yt[idx])
        out = out.masked_fill(~mt[idx], -1e9)
        loss = torch.nn.functional.cross_entropy(out, yt[idx])
        if lost is None:
            return loss
        expected_lost = (torch.softmax(out, dim=1) * lost[idx]).sum(dim=1).mean()
        return loss + regret * expected_lost

    opt = torch.optim.Adam(net.parameters(), lr=lr)
    gen = torch.Generator().manual_seed(seed)
    history = {"epoch": [], "train": [], "holdout": []}
    start = time.monotonic()
    if init is not None:  # where it starts from
        net.eval()
        with torch.no_grad():
            history["epoch"].append(0)
            parts = [(loss_of(idx).item(), len(idx)) for idx in train_idx.split(65536)]
            history["train"].append(sum(loss * k for loss, k in parts) / len(train_idx))
            history["holdout"].append(loss_of(hold_idx).item() if n_hold else float("nan"))
        log(f"epoch 0 (--init): train loss {history['train'][0]:.5f}, "
            f"held-out loss {history['holdout'][0]:.5f}")
    for epoch in range(1, epochs + 1):
        net.train()
        perm = train_idx[torch.randperm(len(train_idx), generator=gen)]
        total = 0.0
        for i in range(0, len(perm), batch_size):
            idx = perm[i:i + batch_size]
            opt.zero_grad()
            loss = loss_of(idx)
            loss.backward()
            opt.step()
            clip_first_layer(net, form, version)
            total += loss.item() * len(idx)
        net.eval()
        with torch.no_grad():
            hold = loss_of(hold_idx).item() if n_hold else float("nan")
        history["epoch"].append(epoch)
        history["train"].append(total / len(perm))
        history["holdout"].append(hold)
        log(f"epoch {epoch}: train loss {total / len(perm):.5f}, held-out loss {hold:.5f}")
        if (time.monotonic() - start) / 60 > max_minutes:
            log(f"stopping after epoch {epoch}: past --max-minutes {max_minutes}")
            break
    history["seconds"] = time.monotonic() - start
    history["holdout_records"] = n_hold
    history["train_records"] = n - n_hold
    if valued is not None and n_hold:
        history.update(paired_choice_gain(net, x[held], y[held], data["action"][held], scale))
    if task == "bid_value" and n_hold:  # in points: against always guessing the mean
        history["rmse"] = math.sqrt(history["holdout"][-1]) * scale
        history["rmse_of_mean"] = float(np.nanstd(y[held]) if valued is None else
                                        np.sqrt(np.nanmean(y[held] ** 2))) * scale
    if task not in REGRESSION_TASKS and n_hold:
        out = float_outputs(net, x[held])  # one float pass serves both measures
        history["agreement"] = decision_agreement(net, x[held], legal[held], out)
        history.update(choice_measures(out, y[held], legal[held],
                                       None if values is None else values[held]))
    return net, scale, history


def paired_choice_gain(net, x, targets, action, scale):
    """On paired bid records: what choosing by the network gains over the bid taken, in points a
    bid. Each record's margin of the valued bid of highest quantized output (as pimc:bid=value
    chooses; ties to the lower bid) less the margin of the bid its bot took, both of the same
    play-outs, so the mean is a paired measure of the network against that bot: choice_gain, its
    95% half-width choice_gain_ci and the records counted."""
    out = quantized_forward(net, x)
    valued = np.isfinite(targets)
    out[~valued] = -np.inf
    rows = np.arange(len(x))
    gain = (targets[rows, out.argmax(axis=1)] - targets[rows, action]) * scale
    half = 1.96 * float(np.std(gain, ddof=1)) / math.sqrt(len(gain)) if len(gain) > 1 else float("nan")
    return {"choice_gain": float(gain.mean()), "choice_gain_ci": half, "choice_records": len(gain)}


def decision_agreement(net, x, legal, out):
    """The share of positions where the quantized net picks the same legal output as the float one,
    whose outputs for x are `out`."""
    f = np.array(out, copy=True)
    q = quantized_forward(net, x)
    f[~legal] = -np.inf
    q[~legal] = -np.inf
    return float((f.argmax(1) == q.argmax(1)).mean())


def plot_history(history, path, title):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4), dpi=100)
    ax.plot(history["epoch"], history["train"], marker="o", label="training")
    ax.plot(history["epoch"], history["holdout"], marker="s", label="held out")
    ax.set_xlabel("epoch")
    ax.set_ylabel("loss")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, metadata={"Software": None})
    plt.close(fig)


def _form_of(meta, given):
    if given:
        return given
    for key in ("form", "preset"):
        try:
            players_of_form(meta.get(key, ""))
            return meta[key]
        except ValueError:
            pass
    raise ValueError("data: its meta names no form (give --form)")


def data_commands(meta, hand):
    """The `cardgames learn selfplay` commands that write the hands the data holds, one for each
    self-play run in it (meta's `runs`; without them, the one run meta names, its hands counted in
    `hand`). A run stopped early holds its first hands; a hand's deal derives from the seed and its
    index, so asking for that many hands writes the same records. Empty when the meta does not say."""
    runs = meta.get("runs")
    if runs is None:
        if not meta.get("players") or meta.get("seed") is None or len(hand) == 0:
            return []
        runs = [{**meta, "held": int(np.max(hand)) + 1}]
    out = []
    for run in runs:
        if not run.get("players") or run.get("seed") is None or run.get("held", 0) == 0:
            continue
        players = run["players"]
        words = ["cardgames learn selfplay", f"--preset {meta['preset']}", f"--players {','.join(players)}"]
        seats = run.get("seats")
        if seats is not None and len(seats) != len(players):
            words.append(f"--seats {','.join(map(str, seats))}")
        if run.get("values") not in (None, "none"):
            words.append(f"--values {run['values']}")
        if run.get("explore_bids") in ("own", "paired"):
            words.append(f"--explore-bids {run['explore_bids']}")
        elif run.get("explore_bids"):
            words.append("--explore-bids")
        out.append(" ".join(words + [f"--hands {run['held']}", f"--seed {run['seed']}"]))
    return out


def main(argv=None, load=None):
    """The command line; `load` (paths -> data dict) defaults to cardgames.learn_data.load, or
    load_cutoff for the cutoff task."""
    argv = sys.argv[1:] if argv is None else argv
    p = argparse.ArgumentParser(prog="python3 -m cardgames.train", description=__doc__.split("\n")[0])
    p.add_argument("task", choices=TASKS)
    p.add_argument("--data", nargs="+", required=True, help="self-play data shards")
    p.add_argument("--out", required=True, help="the network file to write")
    p.add_argument("--form", help="the form the data is of (default: the data's meta)")
    p.add_argument("--epochs", type=int, default=20)
    p.add_argument("--batch-size", type=int, default=256)
    p.add_argument("--lr", type=float, default=1e-3)
    p.add_argument("--width", type=int, help="accumulator size (default 128)")
    p.add_argument("--hidden", type=int, help="size of each hidden layer (default 32)")
    p.add_argument("--layers", type=int, help="hidden layers after the accumulator (default 2)")
    p.add_argument("--init", metavar="FILE",
                   help="start from this network file's weights and shape (of the task and form); "
                        "--epochs 0 measures it on the data")
    p.add_argument("--holdout", type=int, default=5,
                   help="the records of hands whose index is a multiple of N are held out")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--max-minutes", type=float, default=60.0, help="stop after the epoch that passes it")
    p.add_argument("--soft", type=float, default=0.0,
                   help="policy, pass, bid: learn a softmax of pimc's values at this temperature "
                        "where every legal action was valued (0: the action taken)")
    p.add_argument("--card-version", type=int,
                   help="the version of the card features the network reads (default: the --init "
                        f"network's, else the newest, {_cardgames.CARD_FEATURE_VERSION}); not for cutoff")
    p.add_argument("--regret", type=float, default=0.0,
                   help="policy, pass, bid: add this times the pimc value the network's softmax is "
                        "expected to lose to the loss (0: cross-entropy alone)")
    args = p.parse_args(argv)
    try:
        for name in ("width", "hidden", "layers"):
            given = getattr(args, name)
            _check(given is None or args.init is None,
                   f"--{name} {given}: the network of --init {args.init} fixes the shape")
            if given is None:
                setattr(args, name, {"width": 128, "hidden": 32, "layers": 2}[name])
        for name, lo, hi in (("epochs", 0 if args.init else 1, 10**6), ("batch_size", 1, 10**7),
                             ("width", 1, 1024), ("hidden", 1, 1024), ("layers", 0, 4),
                             ("threads", 1, 256)):
            v = getattr(args, name)
            _check(lo <= v <= hi, f"--{name.replace('_', '-')} {v}: expected {lo}..{hi}")
        _check(args.lr > 0 and math.isfinite(args.lr), f"--lr {args.lr}: expected a positive number")
        check_holdout(args.holdout)  # before the data is read
        version = args.card_version
        _check(version is None or 1 <= version <= _cardgames.CARD_FEATURE_VERSION,
               f"--card-version {version}: expected 1..{_cardgames.CARD_FEATURE_VERSION}")
        _check(version is None or args.task != "cutoff",
               f"--card-version {version}: the cutoff task reads deal features, not card features")
        if version is None:
            version = (_cardgames.load_network(args.init).card_version if args.init
                       else _cardgames.CARD_FEATURE_VERSION)
        if load is None:  # the self-play data reader (apps/learn)
            from . import learn_data
            phases = [TASK_PHASE[args.task]] if args.task in TASK_PHASE else None  # value: all
            load = learn_data.load_cutoff if args.task == "cutoff" else (
                lambda paths: learn_data.load(paths, information_state=False, card_version=version,
                                              phases=phases))
        data = load(args.data)
        meta = dict(data.get("meta", {}))
        form = _form_of(meta, args.form)
        net, scale, history = train(
            args.task, data, form=form, seed=args.seed, epochs=args.epochs,
            batch_size=args.batch_size, lr=args.lr, width=args.width, hidden=args.hidden,
            layers=args.layers, holdout=args.holdout, threads=args.threads,
            max_minutes=args.max_minutes, soft=args.soft, regret=args.regret, init=args.init,
            log=lambda s: print(s, file=sys.stderr))
        records = len(data["deal_features" if args.task == "cutoff" else "card_features"])
        shards = len(meta.get("files", args.data))  # a folder given to --data holds many
        extra = [("data", f"{records} records from {shards} shard{'s' * (shards != 1)}"),
                 ("training", f"{history['train_records']} records, "
                              f"{sum(e > 0 for e in history['epoch'])} epochs on {args.threads} threads"),
                 ("holdout", f"{history['holdout_records']} records, last loss {history['holdout'][-1]:.6g}")]
        if args.init:
            with open(args.init, "rb") as f:
                extra.append(("init", f"{args.init} sha256 {hashlib.sha256(f.read()).hexdigest()}"))
        if "agreement" in history:
            extra.append(("quantized-agreement", f"{history['agreement']:.4f}"))
            extra.append(("held-out-accuracy", f"{history['accuracy']:.4f}"))
        if "rmse" in history:
            extra.append(("held-out-rmse", f"{history['rmse']:.2f} points (always the mean: "
                                           f"{history['rmse_of_mean']:.2f})"))
        if "choice_gain" in history:
            g, h = history["choice_gain"], history["choice_gain_ci"]
            extra.append(("held-out-choice", f"{g:+.2f} points a bid [{g - h:+.2f}, {g + h:+.2f}] over "
                                             f"the bid taken, {history['choice_records']} paired records"))
        if "regret" in history:
            extra.append(("held-out-regret", f"{history['regret']:.6g} over {history['valued']} valued records"))
        # One line for each run the data came from (a field may be given more than once).
        for made_data in data_commands(meta, np.asarray(data.get("hand", []))):
            extra.append(("data-command", made_data))
        command = "python3 -m cardgames.train " + shlex.join(argv)
        export(net, args.out, task=args.task, form=form, output_scale=scale, command=command,
               seeds=f"torch {args.seed}", extra_fields=extra,
               comments=[f"a {args.task} network for {form}, trained by cardgames.train"])
        png = os.path.splitext(args.out)[0] + ".loss.png"
        plot_history(history, png, f"{args.task} network, {form}")
        _cardgames.load_network(args.out, form, args.task)  # the engine reads what was written
        print(f"wrote {args.out} and {png} ({history['seconds']:.1f} s of training)")
    except ValueError as e:
        print(f"train: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
