# A marimo notebook: each cell is a function that reads, as parameters,
# the names other cells define, the modules they import among them. An
# agent's action for one observation made a tensor with the `torch` a
# cell is handed is one sample, as in a script.
import marimo

app = marimo.App()


@app.cell
def _():
    import torch
    import torch.nn as nn
    return nn, torch


@app.cell
def _(nn, torch):
    class Agent:
        def __init__(self):
            self.q = nn.Linear(4, 2)

        def select_action(self, state):
            return self.q(torch.FloatTensor(state)).argmax().item()  # want: TL201(low) "whose outputs only reach the host"

    return (Agent,)
