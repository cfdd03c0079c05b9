"""An agent whose methods run its actor: one ends the outputs on the host
itself, one hands them back to its caller."""
import torch
from torch import nn


class Actor(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, state):
        return torch.tanh(self.fc(state))


class Agent:
    def __init__(self):
        self.actor = Actor()

    def select_action(self, state):
        state = torch.as_tensor(state, dtype=torch.float32)
        # The pass's outputs end on the host here, where the finding and
        # its fix belong; callers in other files are not reported again.
        return self.actor(state).detach().cpu().numpy()  # want: TL201(high) "only reach the host"

    def value(self, state):
        # Hands the outputs back: what each caller does with them decides.
        return self.actor(state)  # ok: TL201
