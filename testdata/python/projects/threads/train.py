import threading

import torch
import torch.multiprocessing as _mp

from agents.model import PPO
from agents.process import evaluate, report, watch


def train(hooks):
    mp = _mp.get_context("spawn")
    model = PPO()
    model.share_memory()
    mp.Process(target=evaluate, args=(model, 100)).start()
    threading.Thread(target=watch, args=(model, 100)).start()
    hooks.append(report)
    optimizer = torch.optim.Adam(model.parameters())
    for _ in range(100):
        loss = model(torch.randn(4)).sum()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


if __name__ == "__main__":
    train([])
