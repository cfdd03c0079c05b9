"""The torch module of the same file, evaluated the same way: a forward
pass with grad enabled whose losses are summed."""
import torch.nn.functional as F

from layers import Styler, TorchHead


def evaluate(batches):
    head = TorchHead(784, 10)
    head.eval()
    total = 0.0
    for x, y in batches:
        out = head.forward(x)  # want: TL201
        total += F.cross_entropy(out, y)  # want: TL101
    return total


def preview(frames, show):
    styler = Styler()
    for frame in frames:
        out = styler.forward(frame, alpha=0.5)  # want: TL201 "only reach the host: autograd"
        show(out.cpu().detach().numpy())
