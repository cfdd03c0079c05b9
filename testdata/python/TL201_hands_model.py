"""TL201: a module of a class the file does not show, called with the
model itself (a few-shot method picked from a registry, `method(x_s,
x_q, model=model)`), runs that model in a mode of its own choosing: its
own no_grad in evaluation mode, or a test-time optimization that needs
gradients. It is not one forward pass in its caller's mode."""
import torch

from methods import __dict__ as all_methods  # noqa: F401


def evaluate(loader, model, method):
    model.eval()
    method.eval()
    accuracies = []
    for x_s, x_q, y_s, y_q in loader:
        loss, preds = method(x_s=x_s, x_q=x_q, y_s=y_s, y_q=y_q, model=model)  # ok: the method runs the model it is handed
        accuracies.append((preds == y_q).float().mean().item())
    return sum(accuracies) / len(accuracies)


def classify(loader, backbone, classifier):
    backbone.eval()
    classifier.eval()
    accuracies = []
    for x, y in loader:
        with torch.no_grad():
            features = backbone(x)
        preds = classifier(features).argmax(-1)  # want: TL201
        accuracies.append((preds == y).float().mean().item())
    return accuracies


def main(args, loader, model):
    method = all_methods[args.method](args=args)
    print(evaluate(loader, model, method))
