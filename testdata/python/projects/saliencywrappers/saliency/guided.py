import torch


class GuidedBackprop:
    """Back-propagates its own pass to the input: a saliency map."""

    def __init__(self, model):
        self.model = model
        self.model.eval()

    def forward(self, x):
        return self.model(x)

    def __call__(self, x, target=None):
        x = x.requires_grad_(True)
        out = self.forward(x)
        if target is None:
            target = out.argmax().item()
        out[0, target].backward()
        return x.grad.cpu().numpy()
