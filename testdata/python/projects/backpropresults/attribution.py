# The forward passes here are back-propagated by other files: saliency.py
# passes predict_logits's result to input_grads, which back-propagates it;
# distill.py back-propagates a loss of what predict returns.
import torch
import torch.nn.functional as F


class Attribution:
    def __init__(self, model):
        self.predictor = model

    def input_grads(self, outputs, inputs):
        total = outputs.sum()
        total.backward(inputs=inputs)
        return inputs.grad

    def predict_logits(self, src, token):
        pred = self.predictor(src)  # ok: saliency.py back-propagates it through input_grads
        return pred[:, token], F.softmax(pred, dim=-1)

    def predict_probs(self, src):
        pred = self.predictor(src)  # want: TL201 "in `predict_probs`"
        return F.softmax(pred, dim=-1)


class Embedding(Attribution):
    pass


def predict(model, x):
    model.eval()
    out = model(x)  # ok: distill.py back-propagates a loss of the result
    model.train()
    return out


def predict_labels(model, x):
    model.eval()
    out = model(x)  # want: TL201 "in `predict_labels`"
    model.train()
    return out.argmax(-1)


def to_numpy(t):
    with torch.no_grad():
        return t.cpu().numpy()
