import torch

model = None


def load():
    global model
    model = torch.load("model.pt", map_location="cpu")


def infer_batch(x):
    return model(x).detach()  # want: TL201 "in `infer_batch`"
