"""TL103: the networks of a training loop reached through an object that
holds them (`model.style_encoder(x)`, model a dict of modules restored
from a checkpoint with its optimizer) are no graph of the step's: what
the object was built from does not decide whether the step's last
backward needs its graph kept."""
import torch

from training import *  # noqa: F403


def train(model, loader, slm_adversary, epochs, config):
    optimizer = make_optimizer(model, config)  # noqa: F405
    model, optimizer = load_checkpoint(model, optimizer, config.checkpoint)  # noqa: F405
    for epoch in range(epochs):
        for i, (texts, ref_mels) in enumerate(loader):
            with torch.no_grad():
                ref = model.style_encoder(ref_mels)
            d_loss, gen_loss = slm_adversary(i, texts, ref)
            optimizer.zero_grad()
            gen_loss.backward()
            optimizer.step()
            optimizer.zero_grad()
            d_loss.backward(retain_graph=True)  # want: TL103 "is the last backward through this step's graph"
            optimizer.step()
