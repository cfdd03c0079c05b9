"""TL201: where outputs go is every use a binding may reach, through branches and a loop's recurrence."""
import torch
import torch.nn.functional as F
from torch import nn


class DurationPredictor(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(4, 1)

    def _forward(self, xs, masks=None, is_inference=False):
        xs = self.linear(xs).squeeze(-1)  # ok: returned for the loss when is_inference is False
        if is_inference:
            xs = torch.round(xs.exp()).long()
        if masks is not None:
            xs = xs.masked_fill(masks, 0.0)
        return xs

    def forward(self, xs, masks=None):
        return self._forward(xs, masks, False)

    def inference(self, xs, masks=None):
        return self._forward(xs, masks, True)


class Sampler(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.LSTM(4, 4)
        self.head = nn.Linear(4, 4)

    def forward(self, x, state):
        out, state = self.rnn(x, state)
        return self.head(out), state

    def sample(self, steps, vocab):
        x, state, words = torch.zeros(1, 1, 4), None, []
        for _ in range(steps):
            logits, state = self(x, state)  # want: TL201
            logits = logits.view(-1, 4)
            word = vocab.pick(F.softmax(logits, -1).data.cpu().numpy()[-1])
            words.append(word)
            x = torch.from_numpy(vocab.encode(word))
        return words


class Agent:
    def __init__(self):
        self.net = nn.Linear(4, 2)

    def act(self, state, explore):
        if explore:
            actions = torch.randint(0, 2, (1,))
        else:
            actions, _ = self.net(state).max(-1)  # want: TL201
            actions = actions.cpu().numpy()
        return actions
