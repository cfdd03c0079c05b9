# A parameter annotated `nn.Module` whose name says it is a loss
# (`loss_function`, `criterion`) holds no parameter: its call records a
# graph only through its inputs. The model's pass is what is judged.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4, 2)

    def forward(self, x):
        return self.fc(x)

    @torch.no_grad()
    def predict(self, x):
        return self.fc(x)


def validate(model: nn.Module, x, y, loss_function: nn.Module, losses: list):
    model.eval()
    out = model.predict(x)
    losses.append(loss_function(out, y).detach().item())  # ok: TL201 a loss of outputs without graph
    return losses


def validate_forward(model: nn.Module, x, y, criterion: nn.Module, losses: list):
    model.eval()
    out = model(x)  # want: TL201
    losses.append(criterion(out, y).item())
    return losses
