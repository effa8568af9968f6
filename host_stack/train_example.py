"""A training script written for the launcher: a small MLP on synthetic data, numpy only.

    DMLC_ROLE=worker ... python -m host_stack.launcher \\
        python -m host_stack.train_example --steps 25 --log w0.jsonl

Every worker holds its own shard of a seeded binary classification problem, computes its
gradient, and sums it with the other workers' through ``push_pull`` (one key per
parameter tensor); the mean gradient takes one SGD step, so all workers keep identical
parameters. Each step appends one JSON line: the shard loss, and for every key the
gradient this worker sent and the aggregate it received (as on the wire), so the demo
can check every step against a local all-reduce. Gradients and aggregates are logged as
base64 of their int32 words (a wide model sends tens of thousands of packets a step).
"""

from __future__ import annotations

import argparse
import base64
import json

import numpy as np

from host_stack import api

FEATURES = 16
HIDDEN = 16
SAMPLES = 256


def shard(seed: int, worker: int) -> tuple[np.ndarray, np.ndarray]:
    """This worker's samples of a problem every worker agrees on (same teacher)."""
    teacher = np.random.default_rng([seed, 0]).standard_normal(FEATURES)
    rng = np.random.default_rng([seed, 1, worker])
    x = rng.standard_normal((SAMPLES, FEATURES))
    y = (x @ teacher + 0.3 * rng.standard_normal(SAMPLES) > 0).astype(np.float64)
    return x, y


def initial_params(seed: int, hidden: int = HIDDEN) -> dict[str, np.ndarray]:
    rng = np.random.default_rng([seed, 2])
    return {
        "w1": rng.standard_normal((FEATURES, hidden)) / np.sqrt(FEATURES),
        "b1": np.zeros(hidden),
        "w2": rng.standard_normal((hidden, 1)) / np.sqrt(hidden),
        "b2": np.zeros(1),
    }


def packets_per_step(hidden: int) -> int:
    """ATP packets one step pushes (62 elements each, per key)."""
    return sum(-(-n // 62) for n in (FEATURES * hidden, hidden, hidden, 1))


KEYS = {"w1": 1, "b1": 2, "w2": 3, "b2": 4}


def loss_and_grads(p: dict[str, np.ndarray], x: np.ndarray, y: np.ndarray):
    """Binary cross-entropy of a tanh MLP and its gradients (backprop by hand)."""
    h = np.tanh(x @ p["w1"] + p["b1"])
    z = (h @ p["w2"] + p["b2"]).ravel()
    prob = 1.0 / (1.0 + np.exp(-z))
    eps = 1e-12
    loss = float(-np.mean(y * np.log(prob + eps) + (1 - y) * np.log(1 - prob + eps)))
    dz = (prob - y)[:, None] / len(y)
    dh = (dz @ p["w2"].T) * (1 - h * h)
    grads = {"w2": h.T @ dz, "b2": dz.sum(axis=0), "w1": x.T @ dh, "b1": dh.sum(axis=0)}
    return loss, grads


def words(values: np.ndarray) -> str:
    """int32 words (float32 bit patterns, or an aggregate as on the wire) as base64."""
    return base64.b64encode(np.ascontiguousarray(values).astype("<i4", copy=False)
                            .tobytes()).decode()


def unwords(text: str) -> np.ndarray:
    return np.frombuffer(base64.b64decode(text), "<i4").astype(np.int32)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m host_stack.train_example")
    parser.add_argument("--steps", type=int, default=25)
    parser.add_argument("--lr", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--hidden", type=int, default=HIDDEN, help="hidden units")
    parser.add_argument("--log", required=True, help="JSON lines, one per step")
    args = parser.parse_args(argv)
    worker = api.init(keep_history=True)
    n = worker.config.num_workers
    x, y = shard(args.seed, worker.config.worker_id)
    params = initial_params(args.seed, args.hidden)
    with open(args.log, "w") as log:
        for step in range(1, args.steps + 1):
            loss, grads = loss_and_grads(params, x, y)
            worker.history.clear()
            for name, key in KEYS.items():
                summed = worker.push_pull(grads[name].astype(np.float32), key)
                params[name] = params[name] - args.lr * summed / n
            exchanges = [{"key": e.key,
                          "sent": words(np.asarray(e.sent, np.float32).view(np.int32)),
                          "received": [[o.float_mode, words(np.asarray(o.raw).view(np.int32))]
                                       for o in e.outcomes]}
                         for e in worker.history]
            log.write(json.dumps({"step": step, "loss": loss,
                                  "counters": dict(worker.worker.counters),
                                  "packets": worker.worker.seq_base,
                                  "exchanges": exchanges}) + "\n")
            log.flush()
    worker.close()
    return 0


if __name__ == "__main__":
    from host_stack.cli import run_main
    run_main(main)
