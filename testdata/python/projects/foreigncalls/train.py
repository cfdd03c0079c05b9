import torch
from nets import Recognizer
import decode_torch


def main(batches):
    model = Recognizer()
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    for x, y in batches:
        loss = torch.nn.functional.cross_entropy(model(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
    model.eval()
    print(decode_torch.decode(model, batches))
