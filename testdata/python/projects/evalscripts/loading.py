import torch

from models.lm import LM


def load_model(path):
    model = LM()
    model.load_state_dict(torch.load(path, map_location="cpu"))
    model.eval()
    return model


def load_for_finetuning(path):
    model = LM()
    model.load_state_dict(torch.load(path, map_location="cpu"))
    return model
