"""Training loops that call an evaluation function of another file, which
switches the model to evaluation mode: one switches it back."""
import torch

from metrics import agreement, evaluate


def train(loader):
    student = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Dropout(0.1))
    optimizer = torch.optim.SGD(student.parameters(), lr=0.1)
    for x in loader:
        optimizer.zero_grad()
        loss = student(x).pow(2).mean()
        loss.backward()
        optimizer.step()
        print(evaluate(student, x))  # want: TL503(high) "switches `student` to evaluation mode"


def train_switched_back(loader):
    student = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Dropout(0.1))
    optimizer = torch.optim.SGD(student.parameters(), lr=0.1)
    for x in loader:
        student.train()
        optimizer.zero_grad()
        loss = student(x).pow(2).mean()
        loss.backward()
        optimizer.step()
        print(evaluate(student, x))


def train_draft(loader):
    draft = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Dropout(0.1))
    target = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Dropout(0.1))
    target.requires_grad_(False)
    optimizer = torch.optim.SGD(draft.parameters(), lr=0.1)
    for x in loader:
        optimizer.zero_grad()
        loss = draft(x).pow(2).mean()
        loss.backward()
        optimizer.step()
        print(agreement(draft, target, x))  # ok: given the frozen target too, it may switch that one


def finetune(loader):
    from metrics import freeze_batchnorm, switch_all

    net = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.BatchNorm1d(4), torch.nn.Dropout(0.1))
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
    for x in loader:
        optimizer.zero_grad()
        net(x).pow(2).mean().backward()
        optimizer.step()
        freeze_batchnorm(net)  # ok: switches the batch norms alone, on purpose; dropout keeps training
    for x in loader:
        optimizer.zero_grad()
        net(x).pow(2).mean().backward()
        optimizer.step()
        switch_all(net)  # want: TL503 "switches `net` to evaluation mode"
