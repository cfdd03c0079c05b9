"""TL201: a generation loop whose outputs' data only reach a decoding helper of the file."""
import torch
from torch import nn

chars = list("abcdefgh")


def decode(onehot):
    arr = torch.Tensor.numpy(onehot)
    return chars[arr.argmax()]


def td_target(q_next, reward):
    return reward + 0.9 * q_next.max(1)[0]


class RNN(nn.Module):
    def __init__(self, n):
        super().__init__()
        self.i2h = nn.Linear(2 * n, n)
        self.i2o = nn.Linear(n, n)

    def forward(self, x, h):
        h = torch.tanh(self.i2h(torch.cat([x, h], 1)))
        return self.i2o(h), h


rnn = RNN(8)
optimizer = torch.optim.Adam(rnn.parameters())
data = torch.eye(8)
for epoch in range(200):
    hidden = torch.zeros(1, 8)
    total = 0
    for j in range(7):
        output, hidden = rnn(data[j:j + 1], hidden)
        total = total + ((output - data[j + 1:j + 2]) ** 2).mean()
    optimizer.zero_grad()
    total.backward()
    optimizer.step()

hidden = torch.zeros(1, 8)
x = data[0:1]
for i in range(20):
    output, hidden = rnn(x, hidden)  # want: TL201(high) "only reach the host"
    print(decode(output.data), end="")
    x = output

q_net, target_net = nn.Linear(8, 4), nn.Linear(8, 4)
q_opt = torch.optim.Adam(q_net.parameters())
for s, a, r, s2 in [(data[:2], torch.zeros(2, dtype=torch.long), torch.ones(2), data[2:4])] * 100:
    target = td_target(target_net(s2).detach(), r)  # ok: TL201 the target feeds the loss
    loss = ((q_net(s).gather(1, a[:, None]).squeeze(1) - target) ** 2).mean()
    q_opt.zero_grad()
    loss.backward()
    q_opt.step()
