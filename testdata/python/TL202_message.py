"""TL202: the message says a forward pass keeps its graph where one is
seen to take the volatile input (also when it is unpacked beside its
label), and what a pass it is given to would cost where none is (a
helper that builds the inputs for its callers)."""
import torch
from torch.autograd import Variable


def test(model, loader):
    model.eval()
    correct = 0
    for data, target in loader:
        data, target = Variable(data, volatile=True), Variable(target)  # want: TL202 "the forward pass keeps its graph"
        output = model(data)  # want: TL201
        correct += output.argmax(1).eq(target).sum().item()
    return correct


def to_variable(array, volatile=False):
    return Variable(torch.from_numpy(array), volatile=volatile)  # want: TL202(medium) "a forward pass it is given to still records"


def batch_variables(arrays):
    return [Variable(torch.from_numpy(a), volatile=True) for a in arrays]  # want: TL202 "a forward pass it is given to still records"


def plain_variables(arrays):
    return [Variable(torch.from_numpy(a), volatile=False) for a in arrays]  # ok: volatile=False asks for nothing


@torch.no_grad()
def predict(model, arrays):
    return [model(Variable(torch.from_numpy(a), volatile=True)) for a in arrays]  # ok: grad is disabled here anyway
