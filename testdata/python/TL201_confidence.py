"""How sure a TL201 finding is: every link seen (high), one taken on
trust or a forward pass run once (medium), more than one (low)."""
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


def evaluate(model, loader):
    model.eval()
    return [model(x) for x in loader]  # want: TL201(high)


def fit(model, loader, opt):
    for x in loader:
        opt.zero_grad()
        model(x).sum().backward()
        opt.step()
    evaluate(model, loader)  # ok: its caller runs with grad, as evaluate's finding says


def fit_and_score(model, loader, opt):
    # No code calls it, but it back-propagates: it runs with grad enabled.
    for x in loader:
        opt.zero_grad()
        model(x).sum().backward()
        opt.step()
    model.eval()
    return [model(x) for x in loader]  # want: TL201(high)


def evaluate_uncalled(model, loader):
    # No code of the project calls it: its caller may disable grad.
    model.eval()
    return [model(x) for x in loader]  # want: TL201(medium)


def validate(model, loader):
    # Called by no code, but the switch to evaluation mode is seen: one
    # link assumed.
    model.train(False)
    outs = []
    for x in loader:
        outs.append(model(x).argmax(1))  # want: TL201(medium)
    return outs


def test_epoch(loader):
    # Evaluation by its name alone; its caller runs with grad.
    clf = Net()
    return [clf(x) for x in loader]  # want: TL201(medium)


def select_action(policy_net, state):
    # The outputs reach only the host; `policy_net` is a model by its
    # name alone, as nothing else in the file shows what it is.
    return policy_net(state).argmax(-1).tolist()  # want: TL201(medium)


def predict(loader):
    # Evaluation by its name alone, and called by no code.
    clf = Net()
    return [clf(x) for x in loader]  # want: TL201(low)


def denoise_frozen(model, images):
    model.eval()
    for _, v in model.named_parameters():
        v.requires_grad = False
    return [model(x).clamp(0, 1) for x in images]  # ok: every parameter frozen by the named_parameters() loop


def denoise_listed(model, images):
    model.eval()
    for name, v in model.named_parameters():
        print(name, v.shape)
    return [model(x).clamp(0, 1) for x in images]  # want: TL201(medium)


def load_net(path):
    net = torch.hub.load_state_dict_from_url(path)
    net.eval()
    return net


def report(path, batches):
    # `model` comes from a function that switched it to evaluation mode:
    # only a module has `.eval()`, so its name is not what makes it one.
    model = load_net(path)
    for b in batches:
        print(model(b).argmax(1))  # want: TL201(high)


def rollout(env, steps):
    for _ in range(steps):
        env.step(select_action(env.policy, env.state))


scores = test_epoch(range(3))
report("checkpoint.pt", [])
net = Net()
net.eval()
print(net(torch.ones(1, 4)))  # want: TL201(low)
for name, weight in net.named_parameters():
    print(name, weight.shape)  # a loop that runs no forward pass of `net`: the one above runs once

probe = Net()
probe.eval()
print(probe(torch.ones(1, 4)))  # want: TL201(high)
for batch in [torch.zeros(1, 4)] * 3:
    print(probe(batch).argmax(1))  # the model runs again per batch, in the same region
rollout(make_env(), 100)  # calls `rollout`: `select_action` runs with grad, seen
