"""TL201: a forward pass whose outputs only reach a loss that is read on
the host (a test loss logged each epoch), and the look-alikes whose loss
is summed, back-propagated or handed on."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def train(model, train_loader, test_loader, epochs):
    loss_func = nn.MSELoss()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    test_loss = []
    for epoch in range(epochs):
        for x, y in train_loader:
            loss = loss_func(model(x), y)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
        test_x, test_y = next(iter(test_loader))
        test_pred = model(test_x)  # want: TL201(high) "only reach the host"
        test_loss.append(loss_func(test_pred, test_y).item())
    return test_loss


def train_named_loss(model, train_loader, test_loader, epochs):
    criterion = nn.CrossEntropyLoss()
    optimizer = torch.optim.Adam(model.parameters())
    for epoch in range(epochs):
        for x, y in train_loader:
            optimizer.zero_grad()
            criterion(model(x), y).backward()
            optimizer.step()
        for x, y in test_loader:
            val_loss = criterion(model(x), y)  # want: TL201(high) "only reach the host"
            print(f"epoch {epoch}: {val_loss.item():.3f}")


def train_summed(model, train_loader, val_loader, optimizer):
    for x, y in train_loader:
        optimizer.zero_grad()
        F.smooth_l1_loss(model(x), y).backward()
        optimizer.step()
    err = 0
    for x, y in val_loader:
        # The sum keeps every batch's graph: the loss-accumulation rule's
        # finding, not a pass whose outputs are freed at once.
        err = err + F.smooth_l1_loss(model(x), y)  # want: TL101
    return err.item()


def train_printed_after_backward(model, loader, optimizer):
    criterion = nn.MSELoss()
    for x, y in loader:
        loss = criterion(model(x), y)  # ok: the loss is back-propagated, then printed
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(loss.item())


def train_gan(G, D, loader, opt_d):
    bce = nn.BCELoss()
    for real in loader:
        fake = G(torch.randn(real.size(0), 16))
        d_real = bce(D(real), torch.ones(real.size(0), 1))
        d_fake = bce(D(fake.detach()), torch.zeros(real.size(0), 1))  # ok: summed into the loss that is back-propagated
        opt_d.zero_grad()
        (d_real + d_fake).backward()
        opt_d.step()
        print(d_fake.item())


def train_logged(model, loader, optimizer, logger):
    criterion = nn.MSELoss()
    for x, y in loader:
        optimizer.zero_grad()
        criterion(model(x), y).backward()
        optimizer.step()
        check = criterion(model(x), y)  # ok: handed to code the file cannot see
        logger.log_tensor(check)
