"""Helpers that other files call each step; their grad mode is their callers'."""
import torch
import torch.nn.functional as F


def run_batch(model, x):
    return model(x)  # want: TL201 "every caller hands a model it switched to evaluation mode \(train.py:13\)"


def compute_loss(model, x, y):
    return F.cross_entropy(model(x), y)


def step_fn(model, batch, opt):
    loss = model(batch).sum()
    loss.backward()
    opt.step()
    torch.cuda.empty_cache()


def train_phase(model, buffer, opt, epochs):
    # A phase of its own: its loop of steps runs between two flushes.
    torch.cuda.empty_cache()
    for _ in range(epochs):
        for batch in buffer:
            loss = model(batch).sum()
            opt.zero_grad()
            loss.backward()
            opt.step()
    torch.cuda.empty_cache()


def maybe_clear(step):
    if step % 100 == 0:
        torch.cuda.empty_cache()


def predict(model, x):
    model.eval()
    return model(x)  # ok: every caller in the project runs it under no_grad


def saliency(model, x):
    x.requires_grad_()
    out = model(x)  # ok: gradients are the point here
    out.sum().backward()
    return x.grad


def accuracy(logits, y):
    return (logits.argmax(-1) == y).float().mean()


def forward_with_count(model, x):
    return model(x), x.size(0)


class Decoder:
    """Called through objects by an inference script under no_grad."""

    def generate(self, models, sample):
        return self.emissions(models, sample)  # ok: a method named as evaluation, whose callers are not seen, that calls no .eval()

    def emissions(self, models, sample):
        model = models[0]
        return model(sample)
