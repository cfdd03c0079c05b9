"""TL202: a volatile input fed only to a model whose parameters are frozen records no graph either way."""
import torch
from torch import nn
from torch.autograd import Variable

netD = nn.Linear(4, 1)
netG = nn.Linear(2, 4)
opt_g = torch.optim.Adam(netG.parameters())


def train(loader, dev_loader):
    for x in loader:
        for p in netD.parameters():
            p.requires_grad = False  # the critic is frozen for the generator's update
        noise = Variable(torch.randn(8, 2), volatile=True)  # ok: the dead flag is on an input of the pass this step trains; no_grad would break it
        fake = netG(noise)
        opt_g.zero_grad()
        (-netD(fake).mean()).backward()
        opt_g.step()
        costs = []
        for imgs in dev_loader:
            imgs_v = Variable(imgs, volatile=True)  # ok: netD records no graph on it
            costs.append(netD(imgs_v).mean().item())


def show(loader):
    for x in loader:
        noise = Variable(torch.randn(8, 2), volatile=True)  # want: TL202
        fake = netG(noise)  # want: TL201
        opt_g.zero_grad()
        (-netD(netG(x)).mean()).backward()
        opt_g.step()
        print(fake.mean().item())  # a side pass for display: the flag meant no_grad here


def optimize(model, optimizer, states, next_states, rewards):
    target = model(Variable(next_states, volatile=True)).max(1)[0]  # want: TL202
    q = model(Variable(states)).max(1)[0]
    loss = ((q - (rewards + 0.9 * target)) ** 2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


def train_task(model, optimizer, t, x, y):
    task = Variable(torch.LongTensor([t]), volatile=True)  # ok: an input beside x of the pass the step trains
    loss = nn.functional.cross_entropy(model(task, x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()


def consistency(loader, student, teacher, optimizer):
    # A mean teacher: its parameters detached in place no longer require
    # grad, so its pass on a volatile input records nothing either way.
    for p in teacher.parameters():
        p.detach_()
    for x, y in loader:
        t_in = Variable(x, volatile=True)  # ok: the teacher is frozen by detach_()
        t_out = teacher(t_in)
        loss = nn.functional.cross_entropy(student(Variable(x)), y) + (student(Variable(x)) - t_out.detach()).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def create_model(ema=False):
    model = nn.Linear(4, 2)
    if ema:
        for param in model.parameters():
            param.detach_()
    return model


def train_mean_teacher(loader, model, ema_model, optimizer):
    for x, y in loader:
        ema_in = Variable(x, volatile=True)  # ok: the EMA model is frozen by the function that built it
        ema_out = ema_model(ema_in)
        out = model(Variable(x))
        loss = nn.functional.cross_entropy(out, y) + (out - ema_out.detach()).pow(2).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()


def main_mean_teacher(loader):
    model = create_model()
    ema_model = create_model(ema=True)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    train_mean_teacher(loader, model, ema_model, optimizer)
