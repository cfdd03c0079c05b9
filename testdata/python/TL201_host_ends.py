"""TL201: ways to the host the outputs of a pass take: a helper of the
project that returns NumPy arrays (`to_np`), the rank of a tensor
(`x.ndim`), a list the outputs are wrapped in and read back from
(`outputs = [outputs]`, `outputs[-1]`)."""
import numpy as np
import torch
from torch import nn


def to_np(t):
    if t is None:
        return None
    elif t.nelement() == 0:
        return np.array([])
    return t.cpu().detach().numpy()


class Agent:
    def __init__(self):
        self.actor = nn.Linear(4, 2)

    def act(self, obs):
        obs = torch.FloatTensor(obs).to("cuda")
        action = self.actor(obs)  # want: TL201(high) "only reach the host"
        action = action.clamp(-1, 1)
        assert action.ndim == 2 and action.shape[0] == len(obs)
        return to_np(action)

    def act_quietly(self, obs):
        with torch.no_grad():
            action = self.actor(torch.FloatTensor(obs).to("cuda"))  # ok: under no_grad
        assert action.ndim == 2
        return to_np(action)


def classify(model, loader):
    predictions = []
    for inputs, _ in loader:
        outputs = model(inputs.to("cuda"))  # want: TL201(high) "only reach the host"
        if not isinstance(outputs, list):
            outputs = [outputs]
        predictions.append(outputs[-1].argmax(dim=1).detach().cpu().numpy())
    return np.concatenate(predictions)


def fit_deep(model, loader, opt):
    for inputs, targets in loader:
        outputs = model(inputs.to("cuda"))  # ok: every output is back-propagated
        if not isinstance(outputs, list):
            outputs = [outputs]
        loss = sum(nn.functional.cross_entropy(o, targets) for o in outputs)
        opt.zero_grad()
        loss.backward()
        opt.step()


class TwoHeads(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.fc = nn.Linear(4, width)

    def forward(self, x):
        h = self.fc(x)
        return h, [h]


def check_shapes():
    configs = ((4, True), (8, False))
    for width, flag in configs:
        model = TwoHeads(width)
        img = torch.randn(1, 4)
        out, maps = model(img)  # ok: a dry run per setting, read for shapes alone
        assert out.shape == (1, width)
        assert isinstance(maps, list) and len(maps) == 1


if __name__ == "__main__":
    net = nn.Linear(4, 4).cuda()
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    data = [(torch.randn(2, 4), torch.tensor([0, 1])) for _ in range(10)]
    agent = Agent()
    check_shapes()
    for epoch in range(3):
        fit_deep(net, data, opt)
        print(classify(net, data))
        for i in range(100):
            print(agent.act(np.zeros((1, 4))), agent.act_quietly(np.zeros((1, 4))))
