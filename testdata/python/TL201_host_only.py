"""TL201: passes whose outputs only reach the host hold their graph until the outputs go, unless a loop feeds one back."""
import torch
import torch.nn as nn


class Policy(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)


class LM(nn.Module):
    def __init__(self):
        super().__init__()
        self.rnn = nn.GRU(8, 8)
        self.out = nn.Linear(8, 100)

    def forward(self, x, hidden):
        y, hidden = self.rnn(x, hidden)
        return self.out(y), hidden


policy = Policy()
lm = LM()


def act(state):
    action = policy(torch.as_tensor(state))  # want: TL201 "only reach the host.*freed with the outputs, none of which is kept"
    return action.argmax().item()


def words(tokens, hidden):
    chosen = []
    for t in tokens:
        out, hidden = lm(t, hidden)  # want: TL201 "only reach the host: autograd records the graph and keeps its activations alive"
        chosen.append(out.argmax().item())
    return chosen


def log_q_values(env, steps):
    state = env.reset()
    for it in range(steps):
        prediction = policy(torch.as_tensor(state))  # want: TL201 "only reach the host"
        state = env.step(int(torch.argmax(prediction).item()))
        print("Iteration {}, Q-value {}".format(it, torch.max(prediction)))


def log_and_fit(env, steps, opt):
    state = env.reset()
    for it in range(steps):
        prediction = policy(torch.as_tensor(state))  # ok: back-propagated below; the log line only reads it
        loss = prediction.pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print("Iteration {}, Q-value {}".format(it, torch.max(prediction)))
