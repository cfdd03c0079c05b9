"""TL201: a torchnet Engine whose only loop runs under no_grad runs its
hooks without grad."""
import torch
from torch import nn
import torchnet as tnt


if __name__ == "__main__":
    model = nn.Linear(16, 16)
    loader = [(torch.randn(8, 16), None) for _ in range(10)]
    engine = tnt.engine.Engine()

    def processor(sample):
        out = model(sample[0])
        return out.pow(2).mean(), out

    def on_forward(state):
        recon = model(loader[0][0])  # ok: the engine's only loop runs under no_grad
        print(recon.mean().item())

    engine.hooks['on_forward'] = on_forward
    with torch.no_grad():
        engine.test(processor, loader)
