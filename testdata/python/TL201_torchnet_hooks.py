"""TL201: torchnet's Engine calls the hooks stored in its `hooks` dict
from its loops, in the grad mode of the call of `engine.train(...)` or
`engine.test(...)`; neither disables grad. A hook that runs the model
for a picture of the reconstructions runs it with grad enabled."""
import torch
from torch import nn
from torchnet.engine import Engine


class AutoEncoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(16, 4)
        self.dec = nn.Linear(4, 16)

    def forward(self, x):
        return self.dec(self.enc(x))


if __name__ == "__main__":
    model = AutoEncoder()
    optimizer = torch.optim.Adam(model.parameters())
    loader = [(torch.randn(8, 16), None) for _ in range(10)]
    engine = Engine()
    callbacks = {}

    def processor(sample):
        x = sample[0]
        out = model(x)  # ok: handed back to the engine, which back-propagates it in train
        return (out - x).pow(2).mean(), out

    def on_end_epoch(state):
        sample = loader[0][0]
        recon = model(sample)  # want: TL201(high) "only reach the host"
        print(recon.cpu().view_as(sample).data.numpy().mean())

    def on_start_epoch(state):
        sample = loader[0][0]
        with torch.no_grad():
            recon = model(sample)  # ok: under no_grad
        print(recon.mean().item())

    def on_stop(state):
        recon = model(loader[0][0])  # ok: stored in a plain dict, whoever calls it sets the grad mode
        print(recon.mean().item())

    engine.hooks['on_end_epoch'] = on_end_epoch
    engine.hooks['on_start_epoch'] = on_start_epoch
    callbacks['on_stop'] = on_stop
    engine.train(processor, loader, maxepoch=3, optimizer=optimizer)
