"""What the acting code hands its scores to: functions of another file."""
import torch
import torch.nn.functional as F


class ArgmaxChooser:
    def choose(self, scores, legal):
        masked = scores.clone()
        masked[legal == 0] = -1e9
        return masked.argmax(dim=-1)


def sample_index(scores):
    return torch.distributions.Categorical(logits=scores).sample()


def probabilities(scores):
    return F.softmax(scores, dim=-1)


def td_step(scores, target, optimizer):
    loss = F.smooth_l1_loss(scores, target)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    return loss.item()


def remember(scores, memory):
    memory.append(scores)
    return scores.argmax(dim=-1)


class Logger:
    def __init__(self):
        self.history = []

    def pick(self, scores):
        self.history.append(scores)
        return scores.argmax(dim=-1)
