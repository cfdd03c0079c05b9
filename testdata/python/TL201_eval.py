"""Evaluation and inference paths: TL201 positives and look-alikes."""
import torch
import torch.nn as nn
import torch.nn.functional as F
import lightning.pytorch as pl


def evaluate(model, loader):
    model.eval()
    correct = 0
    for x, y in loader:
        logits = model(x)  # want: TL201 "in `evaluate`"
        correct += (logits.argmax(1) == y).sum().item()
        logits = model(x)  # ok: only the first forward pass of a function is reported
    return correct


def run_epoch(net, train_loader, val_loader, optimizer):
    net.train()
    for x, y in train_loader:
        loss = F.cross_entropy(net(x), y)  # ok: training, before .eval()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
    net.eval()
    for x, y in val_loader:
        out = net(x)  # want: TL201 "after `net.eval\(\)`"
    net.train()


@torch.no_grad()
def validate(model, loader):
    return [model(x) for x, _ in loader]  # ok: decorated with torch.no_grad()


@torch.inference_mode
def predict(model, x):
    return model(x)  # ok: decorated with torch.inference_mode (no parentheses)


def infer(model, x):
    with torch.no_grad():
        return model(x)  # ok: inside torch.no_grad()


def test_forward_shapes():
    model = nn.Linear(3, 2)
    assert model(torch.randn(1, 3)).shape == (1, 2)  # ok: a shape check on random input


def saliency(model, x, target):
    model.eval()
    x.requires_grad_()
    score = model(x)[0, target]  # ok: asks for gradients of the input
    score.backward()
    return x.grad.abs()


def generate_adversarial(model, x, y, eps):
    x = x.clone().requires_grad_(True)
    loss = F.cross_entropy(model(x), y)  # ok: computes gradients with torch.autograd.grad
    (grad,) = torch.autograd.grad(loss, x)
    return x + eps * grad.sign()


def _evaluate_batch(model, batch):
    return model(batch)  # ok: every call site in this file runs under no_grad


def evaluate_all(model, batches):
    with torch.no_grad():
        return [_evaluate_batch(model, b) for b in batches]


def sample(decoder, z):
    with torch.set_grad_enabled(False):
        return decoder(z)  # ok: set_grad_enabled(False)


def validation_loop(model, loader, phase):
    with torch.set_grad_enabled(phase == "train"):
        for x, _ in loader:
            model(x)  # ok: the grad mode depends on a runtime value


class LitClassifier(pl.LightningModule):
    def __init__(self):
        super().__init__()
        self.net = nn.Linear(32, 10)

    def forward(self, x):
        return self.net(x)

    def training_step(self, batch, batch_idx):
        x, y = batch
        return F.cross_entropy(self(x), y)  # ok: training

    def validation_step(self, batch, batch_idx):
        x, y = batch
        return F.cross_entropy(self.net(x), y)  # ok: Lightning runs validation_step under no_grad

    def predict_step(self, batch, batch_idx):
        return self(batch)  # ok: Lightning runs predict_step under no_grad


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.decoder = nn.Linear(16, 64)

    def forward(self, z):
        return self.decoder(z)

    def generate(self, n):
        z = torch.randn(n, 16)
        return self.decoder(z)  # ok: a model's own method; its caller sets the grad mode


class LoraTesterMixin:
    def test_simple_inference(self):
        model = nn.Linear(2, 2)
        model.eval()
        assert model(torch.ones(1, 2)).shape == (1, 2)  # ok: a test method of a test mixin, collected by pytest


def log_validation(pipeline, prompts):
    return [pipeline(p).images[0] for p in prompts]  # ok: a diffusers pipeline call runs under no_grad itself


def log_validation_unwrap(unet, accelerator, build_pipeline):
    unet = accelerator.unwrap_model(unet)  # ok: unwrap_model handles a model, it does not run one
    return build_pipeline(unet)


def inference_on_dataset(model, data_loader):
    from contextlib import ExitStack

    with ExitStack() as stack:
        stack.enter_context(torch.no_grad())
        for inputs in data_loader:
            model(inputs)  # ok: no_grad entered through ExitStack.enter_context


def valid_epoch(model, loader, criterion):
    model.eval()
    epoch_loss = 0.0
    for x, y in loader:
        yhat = model(x)  # want: TL201 "in `valid_epoch`"
        epoch_loss += criterion(yhat, y).item()
    return epoch_loss


class Evaluator:
    def __init__(self, model):
        self.model = model

    def build_model(self):
        return self.model

    def evaluate(self, batches):
        with torch.no_grad():
            outs = [self.model(b) for b in batches]
        return outs, self.build_model()  # ok: build_model is a method of this class, not a model


class DenseDetectorLike(DenseDetector):  # noqa: F821 - a base from another module
    def forward_inference(self, images):
        return self.backbone(images)  # ok: a model's own method (its base is named like a model)


class EmbeddingSampler:
    def __init__(self, embedder):
        self.embedder = embedder

    def _sample(self, mesh_name):
        return self.embedder(mesh_name)  # ok: data sampling, not evaluation


def export_and_check(ts_model, data_loader, inference_on_dataset):
    def eval_wrapper(inputs):
        return ts_model(inputs["image"])  # ok: a callback; the loop that calls it sets the grad mode

    return inference_on_dataset(eval_wrapper, data_loader)


def test():
    net = nn.Linear(4, 2)
    x = torch.randn(2, 4)
    y = net(x)  # ok: a shape check on random input, not an evaluation
    print(net(torch.zeros(1, 4)).size())  # ok: likewise


def predict_file(path, batch):
    model = nn.Linear(4, 2)
    model.load_state_dict(torch.load(path))  # ok: TL404 (off by default), nothing here shows the harm
    model.eval()
    return model(batch)  # want: TL201 "in `predict_file`"


def test_speed(build, device):
    net = build().to(device)
    x = torch.randn(1, 16000).to(device)
    return net(x[None])  # ok: a speed check on random input moved to the device


def infer_text(model, x):
    return f"prediction: {model(x)}"  # want: TL201 "in `infer_text`"
