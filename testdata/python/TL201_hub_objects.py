# What torch.hub.load returns is whatever a hub repository's entry point
# makes: a model most often, but also plain objects (a vocoder whose call
# computes a mel spectrogram from buffers) and wrappers that run their
# model under their own no_grad. Such a value is judged by what the code
# does with it, as any value of unseen code is.
import torch


def mel_of(paths, load_wav):
    vocoder = torch.hub.load("someone/melgan", "load_melgan")
    return [vocoder(load_wav(p)).cpu().numpy() for p in paths]  # ok: TL201 nothing shows a module


def embed_all(images):
    model = torch.hub.load("someone/dino", "vits16")
    model.eval()
    return [model(x).cpu() for x in images]  # want: TL201 "after `model.eval\(\)`"


def embed_moved(images, device):
    net = torch.hub.load("someone/dino", "vits16").to(device)
    return [net(x.to(device)).cpu() for x in images]  # ok: TL201 a move alone shows no parameters

