"""TL201: a model written as a function over tensors that require grad
(`W.requires_grad_(requires_grad=True)` after binding W) and handed to
an evaluation helper, directly or through the training function's
parameter, runs a forward pass there as a module would."""
import torch

W = torch.normal(0, 0.01, size=(784, 10))
b = torch.zeros(10)
W.requires_grad_(requires_grad=True)
b.requires_grad = True
P = torch.randn(784, 784)


def net(X):
    return torch.softmax(torch.mm(X.view(-1, 784), W) + b, dim=1)


def whiten(X):
    return torch.mm(X.view(-1, 784), P)


def evaluate_accuracy(data_iter, model):
    acc_sum, n = 0.0, 0
    for X, y in data_iter:
        acc_sum += (model(X).argmax(dim=1) == y).float().sum().item()  # want: TL201 "in `evaluate_accuracy`"
        n += y.shape[0]
    return acc_sum / n


def mean_norm(data_iter, transform):
    total = 0.0
    for X, _ in data_iter:
        total += transform(X).norm().item()  # ok: whiten reads no tensor that requires grad
    return total


def train(model, train_iter, test_iter, lr):
    for _ in range(5):
        for X, y in train_iter:
            loss = torch.nn.functional.cross_entropy(model(X), y)  # ok: back-propagated
            loss.backward()
            with torch.no_grad():
                for p in (W, b):
                    p -= lr * p.grad
                    p.grad.zero_()
        print(evaluate_accuracy(test_iter, model))


def main(train_iter, test_iter):
    train(net, train_iter, test_iter, 0.1)
    print(mean_norm(test_iter, whiten))


def linreg(X, w, b):
    return torch.mm(X, w) + b


def sgd(params, lr):
    with torch.no_grad():
        for p in params:
            p -= lr * p.grad
            p.grad.zero_()


def fit_linreg(features, labels, loader, attack):
    w = torch.nn.Parameter(torch.randn(features.shape[1], 1) * 0.01)
    b = torch.zeros(1, requires_grad=True)

    def eval_loss():
        return ((linreg(features, w, b) - labels) ** 2).mean().item()  # want: TL201 "in `eval_loss`"

    losses = [eval_loss()]
    for X, y in loader:
        loss = ((linreg(X, w, b) - y) ** 2).mean()  # ok: back-propagated
        loss.backward()
        sgd([w, b], 0.03)
        adv = X.clone().requires_grad_()
        flips = attack(adv, y)  # ok: an input made to require grad is no parameter
        losses.append(flips)
    return losses


def nll_demo(target):
    scores = torch.zeros(2, 3, requires_grad=True)
    nll = torch.nn.NLLLoss(reduction="none")
    print(nll(scores, target))  # ok: a loss of a tensor that requires grad, no model
