"""TL102: per-layer outputs a module keeps for logging, slot by slot."""
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, num_layers):
        super().__init__()
        self.num_layers = num_layers
        self.convs = nn.ModuleList([nn.Conv2d(3 if i == 0 else 32, 32, 3) for i in range(num_layers)])
        self.fc = nn.Linear(32, 8)
        self.outputs = dict()
        self.history = []

    def forward_conv(self, obs):
        conv = torch.relu(self.convs[0](obs))
        self.outputs["conv1"] = conv
        for i in range(1, self.num_layers):
            conv = torch.relu(self.convs[i](conv))
            # The same keys on every call: each forward overwrites the last.
            self.outputs["conv%s" % (i + 1)] = conv
        return conv.flatten(1)

    def forward_logged(self, obs):
        conv = torch.relu(self.convs[0](obs))
        for i in range(1, self.num_layers):
            conv = torch.relu(self.convs[i](conv))
            # One more entry on every call: the list keeps every step's graphs.
            self.history.append(conv)  # want: TL102
        return conv.flatten(1)

    def forward(self, obs, detach=False):
        h = self.forward_conv(obs)
        if detach:
            h = h.detach()
        out = self.fc(h)
        self.outputs["fc"] = out
        return out
