"""Training loops whose evidence is in engine.py and optim.py."""
from engine import accuracy, clear_grads, evaluate, evaluate_on, run_epoch, train_probe, train_steps, validate
from losses import classification_loss
from optim import ClearingAdam


def fit(model, loader, val_loader, optimizer, criterion, epochs):
    model.train()
    for epoch in range(epochs):
        for x, y in loader:
            clear_grads(optimizer)
            criterion(model(x), y).backward()
            optimizer.step()  # ok: clear_grads, in engine.py, clears them
        evaluate(model, val_loader)  # want: TL503 "\(`model.eval\(\)`, engine.py:10\)"


def fit_validating(model, loader, val_loader, optimizer, criterion, epochs):
    model.train()
    for epoch in range(epochs):
        for x, y in loader:
            optimizer.zero_grad()
            criterion(model(x), y).backward()
            optimizer.step()
        validate(model, val_loader)  # ok: validate restores the mode it found


def fit_epochs(model, loader, val_loader, optimizer, criterion, epochs):
    for epoch in range(epochs):
        run_epoch(model, loader, optimizer, criterion)
        evaluate(model, val_loader)  # ok: run_epoch switches back to train() first


def fit_clearing(model, loader, criterion):
    opt = ClearingAdam(model.parameters())
    for x, y in loader:
        criterion(model(x), y).backward()
        opt.step()  # ok: ClearingAdam.step, in optim.py, clears them


def fit_forgetful(model, loader, optimizer, criterion):
    for x, y in loader:
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()  # want: TL502 "never clears the gradients of `optimizer`"


def fit_accumulating(model, loader, optimizer, criterion, accum):
    for i, (x, y) in enumerate(loader):
        criterion(model(x), y).backward()
        if (i + 1) % accum == 0:
            optimizer.step()  # want: TL506 "never divided by `accum`"
            optimizer.zero_grad()


def fit_accumulating_helper(model, loader, optimizer, accum):
    for i, (x, y) in enumerate(loader):
        classification_loss(x, y).backward()
        if (i + 1) % accum == 0:
            optimizer.step()  # ok: the loss comes from losses.py, which may divide it
            optimizer.zero_grad()


def fit_scored(model, loader, optimizer, criterion):
    for x, y in loader:
        optimizer.zero_grad()
        out = model(x)
        loss = criterion(out, y)
        loss.backward()
        optimizer.step()
        print(loss)  # ok: accuracy, in engine.py, reads on the host every step anyway
        accuracy(out, y)


def fit_logged(model, loader, optimizer, criterion):
    for x, y in loader:
        optimizer.zero_grad()
        loss = criterion(model(x), y)
        loss.backward()
        optimizer.step()
        print(loss)  # want: TL501 "`print\(loss\)` makes the host wait"


def fit_steps(model, loader, val_loader, optimizer, criterion, epochs):
    for epoch in range(epochs):
        train_steps(loader, model, optimizer, criterion)
        evaluate_on(loader, model)  # want: TL503 "switches `model` to evaluation mode \(`net.eval\(\)`, engine.py:\d+\)"


def fit_probe(model, loader, val_loader, optimizer, criterion, epochs):
    for epoch in range(epochs):
        train_probe(loader, model, optimizer, criterion)  # ok: it trains in evaluation mode on purpose
        evaluate_on(val_loader, model)  # ok: train_probe switches to evaluation mode itself


def fit_through_helpers(model, loader, optimizer, criterion):
    from optim import Learner, apply_step

    learner = Learner(optimizer)
    total, other = 0.0, 0.0
    for x, y in loader:
        loss = criterion(model(x), y)
        apply_step(loss, optimizer)
        total += loss  # want: TL101 "after its backward"
        aux = criterion(model(x), y)
        learner.update(aux)
        other += aux  # want: TL101 "after its backward"
    return total, other
